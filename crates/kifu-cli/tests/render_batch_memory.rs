//! `kifu render DIR -o OUT/` draws file by file and writes each picture as it is made: its
//! peak memory does not grow with the number of files. Measured as the child's peak resident
//! set (getrusage); this file holds one test, so RUSAGE_CHILDREN covers its children alone.

use std::path::Path;
use std::process::Command;

/// Draws every record under `games` into `out` and returns the peak resident set in bytes
/// of every child so far (RUSAGE_CHILDREN keeps the largest).
fn peak_after(games: &Path, out: &Path) -> u64 {
    let out_dir = format!("{}/", out.display());
    let done = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["render", games.to_str().unwrap(), "-o", &out_dir])
        .output()
        .unwrap();
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    kifu_testkit::peak_memory::largest_child_peak_rss()
}

fn games(dir: &Path, files: usize) -> std::path::PathBuf {
    let games = dir.join(format!("games{files}"));
    std::fs::create_dir_all(&games).unwrap();
    let record = kifu_testkit::corpus::bytes("shogi/jkf-suite/kif/kiou201403160101.kif");
    for i in 0..files {
        std::fs::write(games.join(format!("g{i:04}.kif")), &record).unwrap();
    }
    games
}

#[test]
fn stills_of_ten_times_the_files_take_no_more_memory() {
    let dir = tempfile::tempdir().unwrap();
    let few = peak_after(&games(dir.path(), 30), &dir.path().join("few"));
    let many = peak_after(&games(dir.path(), 300), &dir.path().join("many"));
    assert_eq!(
        std::fs::read_dir(dir.path().join("many")).unwrap().count(),
        300
    );
    assert!(
        many < few + 16 * 1024 * 1024,
        "peak {many} bytes for 300 files, {few} for 30"
    );
}
