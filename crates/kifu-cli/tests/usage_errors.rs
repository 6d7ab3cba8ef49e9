//! Every mistake on the command line exits 2 with a message saying what to give instead (the
//! README's promise), and `--format` is one flag on every command.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(repo())
        .output()
        .unwrap()
}

const GAME: &str = "examples/records/random-game.kif";

#[test]
fn mistakes_exit_2_with_what_to_do() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["convert", GAME, "--to", "xyz"],
            "unknown format `xyz`; shogi: csa",
        ),
        (
            &["convert", GAME, "--to", "xyz", "--game", "chu"],
            "one of: csl, csl-ja",
        ),
        (
            &["convert", GAME, "--format", "xyz", "--to", "csa"],
            "--format: unknown format",
        ),
        (
            &["check", GAME, "--format", "xyz"],
            "--format: unknown format `xyz`",
        ),
        (
            &["show", GAME, "--from", "xyz"],
            "--format: unknown format `xyz`",
        ),
        (
            &["check", GAME, "--game", "cetkaik", "--rules", "nope"],
            "unknown cetkaik rule set",
        ),
        (
            &["convert", GAME],
            "say which format to write with --to FORMAT",
        ),
        (
            &["convert", "examples/records", "--to", "csa"],
            "needs an output directory (-o DIR/)",
        ),
        (
            &["show", GAME, "--ply", "1000"],
            "the main line has 89 moves; give 0 to 89",
        ),
        (
            &["show", GAME, "--ply", "-91"],
            "or -1 to -90 counting from the end",
        ),
        (&["show", GAME, "--sfen", "--csa"], "cannot be used with"),
        (
            &["show", GAME, "--record", "2"],
            "holds 1 record; give 1 to 1",
        ),
        (&["check"], "required"),
        (
            &["check", "no-such.kif"],
            "no-such.kif: no such file or directory",
        ),
        (
            &["show", "no-such.kif"],
            "no-such.kif: no such file or directory",
        ),
        (
            &["convert", "no-such.kif", "--to", "csa"],
            "no such file or directory",
        ),
        (&["no-such-command"], "unrecognized subcommand"),
    ];
    for (args, says) in cases {
        let out = kifu(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn from_is_an_alias_of_format_everywhere() {
    for command in ["check", "show"] {
        for flag in ["--format", "--from"] {
            let out = kifu(&[command, GAME, flag, "kif"]);
            assert_eq!(out.status.code(), Some(0), "{command} {flag}");
        }
    }
    for flag in ["--format", "--from"] {
        let out = kifu(&["convert", GAME, flag, "kif", "--to", "csa"]);
        assert_eq!(out.status.code(), Some(0), "convert {flag}");
    }
}

#[test]
fn a_reader_that_goes_away_is_not_a_crash() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .arg("check")
        .arg(kifu_testkit::corpus::path("shogi/bulk/kif"))
        .current_dir(repo())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(0), "{stderr}");
}
