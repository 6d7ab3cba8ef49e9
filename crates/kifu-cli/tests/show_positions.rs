//! `kifu show`: which position (`--ply`, `--record`) and how it is written (`--sfen`, `--csa`,
//! `--bod`, the standard BOD title line) — issue 11's `--ply` cases and issue 12 case 6.

mod support;

use std::process::Output;
use support::*;

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
    let last = stdout(&kifu(&["show", GAME]));
    assert_eq!(stdout(&kifu(&["show", GAME, "--ply", "-1"])), last);
    assert_eq!(stdout(&kifu(&["show", GAME, "--ply", "89"])), last);
    assert!(last.contains("手数＝89"), "{last}");
    let start = stdout(&kifu(&["show", GAME, "--ply", "-90"]));
    assert_eq!(start, stdout(&kifu(&["show", GAME, "--ply", "0"])));
    let out = kifu(&["show", GAME, "--ply", "1000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn the_board_is_titled_with_the_move_in_kif_notation() {
    let board = stdout(&kifu(&["show", GAME, "--ply", "40"]));
    assert!(
        board.contains("先手番\n手数＝40  △３一金(32)  まで\nSFEN: "),
        "{board}"
    );
    let bod = stdout(&kifu(&["show", GAME, "--ply", "40", "--bod"]));
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
        let sfen = stdout(&kifu(&["show", GAME, "--ply", ply, "--sfen"]));
        assert_eq!(sfen.lines().count(), 1, "{sfen}");
        let board = sfen.split(' ').take(3).collect::<Vec<_>>().join(" ");

        let csa = stdout(&kifu(&["show", GAME, "--ply", ply, "--csa"]));
        assert!(csa.starts_with("P1"), "{csa}");
        let back = stdout(&kifu_with(
            &["show", "-", "--format", "csa", "--sfen"],
            &csa,
        ));
        assert!(back.starts_with(&board), "ply {ply}: {back} vs {sfen}");

        let bod = stdout(&kifu(&["show", GAME, "--ply", ply, "--bod"]));
        let back = kifu_with(&["show", "-", "--format", "kifu", "--sfen"], &bod);
        let back = String::from_utf8_lossy(&back.stdout);
        assert!(
            back.starts_with(&board),
            "ply {ply}: {back} vs {sfen}\n{bod}"
        );
    }
}

#[test]
fn a_bod_file_is_read_by_its_content_as_python_reads_it() {
    // `.bod` is no game's record extension: a file named on the command line with it is
    // read by what it holds (a shogi board diagram), not refused for want of `--game`.
    let bod = stdout(&kifu(&["show", GAME, "--ply", "40", "--bod"]));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.bod");
    std::fs::write(&path, &bod).unwrap();
    let path = path.to_str().unwrap();
    let sfen = stdout(&kifu(&["show", GAME, "--ply", "40", "--sfen"]));
    let board = sfen.split(' ').take(3).collect::<Vec<_>>().join(" ");
    assert!(stdout(&kifu(&["show", path, "--sfen"])).starts_with(&board));
    let checked = kifu(&["check", path]);
    assert_eq!(
        checked.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    assert!(String::from_utf8_lossy(&checked.stdout).contains("shogi"));
}
