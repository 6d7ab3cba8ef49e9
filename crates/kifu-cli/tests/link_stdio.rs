//! Two `kifu link --line stdio` processes whose standard input and output are cross-wired
//! through real pipes.

use kifu_shogi::ShogiEnding;
use std::io::{Read, Write};
use std::process::{Command, Stdio};

use kifu_record::EndingKind;

#[path = "link_support.rs"]
mod support;
use support::*;

fn start(color: &str, player: &str, record: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifu"));
    cmd.args([
        "link", "--line", "stdio", "--player", player, "--color", color, "--record", record,
    ]);
    cmd
}

/// Copies one process's output to the other's input until either side closes.
fn wire(mut from: impl Read + Send + 'static, mut to: impl Write + Send + 'static) {
    std::thread::spawn(move || {
        let mut buf = [0u8; 256];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 || to.write_all(&buf[..n]).and_then(|()| to.flush()).is_err() {
                break;
            }
        }
    });
}

#[test]
fn a_game_over_stdio_pipes() {
    let dir = workdir("stdio");
    let moves = format!(
        "moves:{}",
        write(
            &dir,
            "game.csa",
            "PI\n+\n+7776FU\n-3334FU\n+2726FU\n-4132KI\n%JISHOGI\n"
        )
    );
    let (b_rec, w_rec) = (dir.join("black.csa"), dir.join("white.csa"));
    let mut b = start("black", &moves, b_rec.to_str().unwrap());
    let mut w = start("white", &moves, w_rec.to_str().unwrap());
    b.stdin(Stdio::piped()).stdout(Stdio::piped());
    w.stdin(Stdio::piped()).stdout(Stdio::piped());
    let mut black = spawn("black", b, None);
    let mut white = spawn("white", w, None);
    wire(
        black.child.stdout.take().unwrap(),
        white.child.stdin.take().unwrap(),
    );
    wire(
        white.child.stdout.take().unwrap(),
        black.child.stdin.take().unwrap(),
    );
    let (bs, blog) = black.finish();
    let (ws, wlog) = white.finish();
    assert_eq!(
        (bs.code(), ws.code()),
        (Some(0), Some(0)),
        "{blog}\n---\n{wlog}"
    );
    let (b, w) = (read_record(&b_rec), read_record(&w_rec));
    assert_same_game(&b, &w);
    assert_eq!(b.moves.len(), 4);
    assert_eq!(w.ending, Some(EndingKind::Game(ShogiEnding::Impasse)));
}

/// The peer's output ends (EOF on standard input) right after its first move.
#[test]
fn the_end_of_standard_input_saves_the_game() {
    let dir = workdir("stdio-eof");
    let moves = format!(
        "moves:{}",
        write(&dir, "game.csa", "PI\n+\n+7776FU\n-3334FU\n+2726FU\n")
    );
    let record = dir.join("white.csa");
    let mut cmd = start("white", &moves, record.to_str().unwrap());
    cmd.stdout(Stdio::null());
    let white = spawn("white", cmd, Some("+7776FU\n"));
    let (status, log) = white.finish();
    assert_eq!(status.code(), Some(1), "{log}");
    assert!(
        log.contains("the line was closed by the other side"),
        "{log}"
    );
    assert!(log.contains("game interrupted"), "{log}");
    let rec = read_record(&record);
    // White's reply may or may not have been chosen before the end was seen.
    assert_eq!(rec.moves[0], "+7776FU");
    assert!(rec.moves.len() <= 2, "{:?}", rec.moves);
    assert_eq!(rec.ending, Some(EndingKind::Abort));
}
