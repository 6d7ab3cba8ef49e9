//! `kifu check` and `kifu convert -o DIR/` read, check and drop the records of a multi-record
//! file one at a time (issue 11 case 6): their peak memory is the file's bytes plus one game,
//! not a multiple of the file. `kifu convert` into one CSA or USI file writes each record as it
//! is read: the output's text on top of that, not every record. Measured as the child's peak resident set (getrusage), on an
//! archive made of the corpus's 500-game CSA file repeated.

use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus_archive() -> Vec<u8> {
    let mut bytes = kifu_testkit::corpus::bytes("shogi/bulk/all_games.csa");
    if !bytes.ends_with(b"\n") {
        bytes.push(b'\n');
    }
    bytes
}

/// `copies` × 500 games separated by `/` lines.
fn archive(dir: &Path, copies: usize) -> (PathBuf, usize) {
    let one = corpus_archive();
    let mut all = Vec::with_capacity(one.len() * copies + 2 * copies);
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

/// Runs `kifu` and returns its peak resident set in bytes. Each test binary runs its tests
/// on threads, so this file holds one test: RUSAGE_CHILDREN then covers this child alone.
fn peak_memory_of(args: &[&str]) -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    kifu_testkit::peak_memory::largest_child_peak_rss()
}

#[test]
fn a_multi_record_archive_is_checked_and_split_in_bounded_memory() {
    let tmp = tempfile::tempdir().unwrap();
    // 10 copies: 5,000 games, about 5 MB. Holding every record (the old way) took about
    // 21 bytes per byte of the file; streaming holds the bytes and one game.
    let (path, size) = archive(tmp.path(), 10);
    let path = path.to_str().unwrap();
    let budget = size as u64 + 32 * 1024 * 1024;

    let check = peak_memory_of(&["check", "-q", path]);
    assert!(
        check < budget,
        "check: peak {check} bytes for a {size}-byte file"
    );

    let out_dir = tmp.path().join("split");
    let out_dir = format!("{}/", out_dir.display());
    let convert = peak_memory_of(&["convert", path, "--to", "kif", "-o", &out_dir]);
    // RUSAGE_CHILDREN keeps the largest child's peak: the convert's can only raise it.
    assert!(
        convert < budget,
        "convert: peak {convert} bytes for a {size}-byte file"
    );
    assert_eq!(std::fs::read_dir(&out_dir).unwrap().count(), 5_000);

    // Into one file of a format that holds many games, written as the records are read: the
    // output's text is held, not the records (every record took about 16 KB held).
    for (to, name) in [("csa", "all.csa"), ("usi", "all.usi")] {
        let out = tmp.path().join(name);
        let out = out.to_str().unwrap();
        let peak = peak_memory_of(&["convert", path, "--to", to, "-o", out]);
        assert!(
            peak < 2 * budget,
            "convert --to {to}: peak {peak} bytes for a {size}-byte file"
        );
        let records = std::fs::read_to_string(out).unwrap();
        let count = match to {
            "csa" => records.lines().filter(|l| *l == "/").count() + 1,
            _ => records.lines().count(),
        };
        assert_eq!(count, 5_000, "{to}");
    }
}
