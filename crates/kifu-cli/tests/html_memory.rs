//! `kifu html` streams like `kifu check` (issue 27): each page is written as its record is
//! read, so its peak memory is the archive's bytes and one game's page, not every page (the
//! old way held them all: 4.7 GB for a 50,000-game archive). Measured as the child's peak
//! resident set (getrusage); one test in this file, so that RUSAGE_CHILDREN is this child's.

use std::path::Path;
use std::process::Command;

/// `copies` × the corpus's 500-game CSA archive, separated by `/` lines.
fn archive(dir: &Path, copies: usize) -> (std::path::PathBuf, usize) {
    let mut one = kifu_testkit::corpus::bytes("shogi/bulk/all_games.csa");
    if !one.ends_with(b"\n") {
        one.push(b'\n');
    }
    let mut all = Vec::new();
    for i in 0..copies {
        if i > 0 {
            all.extend_from_slice(b"/\n");
        }
        all.extend_from_slice(&one);
    }
    let path = dir.join("archive.csa");
    std::fs::write(&path, &all).unwrap();
    (path, all.len())
}

#[test]
fn html_of_an_archive_takes_the_memory_of_one_page() {
    let tmp = tempfile::tempdir().unwrap();
    // 4 copies: 2,000 games, 2 MB of CSA, a page each (tens of KB with the font cut for it):
    // pages held until the end took far more than the budget.
    let (path, size) = archive(tmp.path(), 4);
    let pages = tmp.path().join("pages");
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args([
            "html",
            path.to_str().unwrap(),
            "-o",
            &format!("{}/", pages.display()),
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let peak = kifu_testkit::peak_memory::largest_child_peak_rss();
    let written: u64 = std::fs::read_dir(&pages)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    let count = std::fs::read_dir(&pages)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "html")
        })
        .count();
    assert_eq!(count, 2_001, "a page per game and the index");
    assert!(
        pages.join("kifu-font.ttf").is_file(),
        "the pages' shared font"
    );
    let budget = size as u64 + 48 * 1024 * 1024;
    assert!(
        peak < budget && peak < written / 2,
        "peak {peak} bytes for a {size}-byte archive whose pages take {written} bytes"
    );
}
