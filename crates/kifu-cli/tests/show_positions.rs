//! `kifu show`: which position (`--ply`, `--record`) and how it is written (`--sfen`, `--csa`,
//! `--bod`, the standard BOD title line) — issue 11's `--ply` cases and issue 12 case 6.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn kifu(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).unwrap();
    }
    drop(input);
    child.wait_with_output().unwrap()
}

fn stdout(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

const GAME: &str = "examples/records/random-game.kif";

#[test]
fn ply_minus_one_is_the_last_position_and_past_the_end_is_an_error() {
    let last = stdout(&kifu(&["show", GAME], None));
    assert_eq!(stdout(&kifu(&["show", GAME, "--ply", "-1"], None)), last);
    assert_eq!(stdout(&kifu(&["show", GAME, "--ply", "89"], None)), last);
    assert!(last.contains("手数＝89"), "{last}");
    let start = stdout(&kifu(&["show", GAME, "--ply", "-90"], None));
    assert_eq!(start, stdout(&kifu(&["show", GAME, "--ply", "0"], None)));
    let out = kifu(&["show", GAME, "--ply", "1000"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn the_board_is_titled_with_the_move_in_kif_notation() {
    let board = stdout(&kifu(&["show", GAME, "--ply", "40"], None));
    assert!(
        board.contains("先手番\n手数＝40  △３一金(32)  まで\nSFEN: "),
        "{board}"
    );
    let bod = stdout(&kifu(&["show", GAME, "--ply", "40", "--bod"], None));
    assert!(bod.starts_with("後手の持駒："), "{bod}");
    assert!(
        bod.ends_with("先手番\n手数＝40  △３一金(32)  まで\n"),
        "{bod}"
    );
    assert!(!bod.contains("SFEN"));
}

#[test]
fn sfen_csa_and_bod_outputs_read_back_to_the_same_position() {
    for ply in ["0", "1", "40", "-1"] {
        let sfen = stdout(&kifu(&["show", GAME, "--ply", ply, "--sfen"], None));
        assert_eq!(sfen.lines().count(), 1, "{sfen}");
        let board = sfen.split(' ').take(3).collect::<Vec<_>>().join(" ");

        let csa = stdout(&kifu(&["show", GAME, "--ply", ply, "--csa"], None));
        assert!(csa.starts_with("P1"), "{csa}");
        let back = stdout(&kifu(
            &["show", "-", "--format", "csa", "--sfen"],
            Some(&csa),
        ));
        assert!(back.starts_with(&board), "ply {ply}: {back} vs {sfen}");

        let bod = stdout(&kifu(&["show", GAME, "--ply", ply, "--bod"], None));
        let back = kifu(&["show", "-", "--format", "kifu", "--sfen"], Some(&bod));
        let back = String::from_utf8_lossy(&back.stdout);
        assert!(
            back.starts_with(&board),
            "ply {ply}: {back} vs {sfen}\n{bod}"
        );
    }
}
