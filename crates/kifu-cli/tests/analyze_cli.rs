//! `kifu analyze`'s answers that need no engine: usage errors exit 2, an engine that cannot
//! be started exits 1 with the reason and writes nothing, chu records are refused by name.

use std::process::Command;

fn kifu(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn game(dir: &std::path::Path) {
    std::fs::write(dir.join("game.csa"), "PI\n+\n+7776FU\n-3334FU\n%TORYO\n").unwrap();
}

#[test]
fn bad_options_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    game(dir.path());
    for args in [
        &[
            "analyze",
            "game.csa",
            "--engine",
            "x",
            "--thresholds",
            "mistake=lots",
            "-o",
            "o/",
        ][..],
        &[
            "analyze",
            "game.csa",
            "--engine",
            "x",
            "--usi-option",
            "Threads",
            "-o",
            "o/",
        ],
        &[
            "analyze", "game.csa", "--engine", "x", "--nodes", "5", "--depth", "3", "-o", "o/",
        ],
        &[
            "analyze", "game.csa", "--engine", "x", "--to", "pgn", "-o", "o/",
        ],
        &[
            "analyze",
            "game.csa",
            "--engine",
            "x",
            "--comments",
            "kifu",
            "-o",
            "o/",
        ],
    ] {
        let out = kifu(dir.path(), args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn an_engine_that_does_not_start_is_reported_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    game(dir.path());
    let out = kifu(
        dir.path(),
        &[
            "analyze",
            "game.csa",
            "--engine",
            "./no-such-engine",
            "--no-cache",
            "-o",
            "out/",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("could not be started"), "{err}");
    assert!(!dir.path().join("out/game.csa").exists());
}

#[test]
fn an_output_that_is_an_input_is_refused_before_any_engine_starts() {
    let dir = tempfile::tempdir().unwrap();
    game(dir.path());
    let out = kifu(
        dir.path(),
        &[
            "analyze",
            "game.csa",
            "--engine",
            "./no-such-engine",
            "--no-cache",
            "-o",
            "./",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is an input"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("game.csa")).unwrap(),
        "PI\n+\n+7776FU\n-3334FU\n%TORYO\n"
    );
}
