//! The `kifu` binary as a user runs it: exit codes, output shapes, conversions that read back.

mod support;

use support::*;

#[test]
fn examples_check_clean_and_the_broken_one_is_reported() {
    let out = kifu(&["check", "examples/records"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("total                  4       4       0"),
        "{stdout}"
    );

    let out = kifu(&["check", "examples/invalid"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("examples/invalid/nifu.kifu:17:6: error: ply 13 `７五歩打`: 二歩 — a pawn of 先手 already stands on file 7"),
        "{stdout}"
    );
}

#[test]
fn json_report_has_every_file_and_the_summary() {
    let out = kifu(&["check", "--json", "examples/records", "examples/invalid"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["files"].as_array().unwrap().len(), 5);
    assert_eq!(doc["summary"]["total"]["invalid"], 1);
    let bad = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["errors"] == 1)
        .unwrap();
    assert_eq!(bad["diagnostics"][0]["line"], 17);
    assert_eq!(bad["diagnostics"][0]["column"], 6);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(kifu(&["check"]).status.code(), Some(2));
    assert_eq!(kifu(&["convert", "x.kif"]).status.code(), Some(2));
    assert_eq!(kifu(&["no-such-command"]).status.code(), Some(2));
}

#[test]
fn convert_through_stdin_and_stdout_reads_back() {
    let kif = std::fs::read(repo().join("examples/records/random-game.kif")).unwrap();
    for to in ["csa", "kifu", "usi", "kif"] {
        let out = kifu_with(&["convert", "-", "--from", "kif", "--to", to], &kif);
        assert_eq!(out.status.code(), Some(0), "{to}: {}", text(&out.stderr));
        let back = kifu_with(&["check", "-", "--format", to, "--json"], &out.stdout);
        let doc: serde_json::Value = serde_json::from_slice(&back.stdout).unwrap();
        assert_eq!(doc["summary"]["total"]["plies"], 89, "{to}");
        assert_eq!(doc["summary"]["total"]["errors"], 0, "{to}");
    }
}

#[test]
fn convert_a_directory_into_another() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("out");
    let out = kifu(&[
        "convert",
        "examples/records",
        "--to",
        "csa",
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = kifu(&["check", out_dir.to_str().unwrap(), "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // random-game.{csa,kif,kifu,usi} would all become random-game.csa: each keeps its own.
    assert_eq!(doc["summary"]["total"]["files"], 4);
    assert_eq!(doc["summary"]["total"]["errors"], 0);
}

#[test]
fn show_draws_the_position() {
    let out = kifu(&["show", "examples/records/random-game.csa", "--ply", "0"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("SFEN: lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("|v香v桂v銀v金v玉v金v銀v桂v香|一"),
        "{stdout}"
    );
    let out = kifu(&["show", "examples/records/random-game.usi"]);
    assert!(text(&out.stdout).contains("手数＝89"));
}

#[test]
fn perft_prints_the_bare_count() {
    let out = kifu(&["perft", "--depth", "3"]);
    assert_eq!(text(&out.stdout).trim(), "25470");
    let out = kifu(&["perft", "--game", "chu", "--depth", "2"]);
    assert_eq!(text(&out.stdout).trim(), "1296");
    let out = kifu(&["perft", "--depth", "1", "--sfen", "not an sfen"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("column"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn chu_and_cetkaik_corpora_check_valid() {
    let out = kifu(&[
        "check",
        "--game",
        "chu",
        "--json",
        corpus("chu").to_str().unwrap(),
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{doc}");
    assert_eq!(doc["summary"]["total"]["records"], 10);

    let out = kifu(&[
        "check",
        "--game",
        "cetkaik",
        "--json",
        corpus("cetkaik").to_str().unwrap(),
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{doc}");
    assert_eq!(doc["summary"]["total"]["files"], 6);
}

#[test]
fn cetkaik_converts_to_every_notation_and_back() {
    let src = corpus("cetkaik/cerke_online/case1_2022-05-31.ckka");
    let original = kifu(&["show", src.to_str().unwrap()]);
    for to in ["ckka", "ckka1", "ckka2", "ckka3"] {
        let out = kifu(&["convert", src.to_str().unwrap(), "--to", to]);
        assert_eq!(out.status.code(), Some(0), "{to}: {}", text(&out.stderr));
        let back = kifu_with(&["show", "-", "--game", "cetkaik"], &out.stdout);
        assert_eq!(back.status.code(), Some(0), "{to}: {}", text(&back.stderr));
        assert_eq!(text(&back.stdout), text(&original.stdout), "{to}");
    }
}
