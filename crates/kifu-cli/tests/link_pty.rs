//! Two `kifu link` processes on the two ends of a pseudo-terminal pair made by
//! `socat -d -d pty,raw,echo=0 pty,raw,echo=0`, opened as serial lines (1200 8N1 XON/XOFF).
//! Needs `socat` (Debian: `apt-get install -y socat`), found or installed by kifu-testkit.

use std::path::Path;

use kifu_record::EndingKind;

#[path = "link_support.rs"]
mod support;
use support::*;

fn pty_game(name: &str, record: &str) -> Game {
    let (mut socat, a, b) = pty_pair();
    let dir = workdir(name);
    let moves = format!("moves:{}", write(&dir, "game.csa", record));
    let white_record = dir.join("white.csa");
    let black_record = dir.join("black.csa");
    let wline = format!("serial:{a}");
    let bline = format!("serial:{b},baud=1200,data=8,parity=none,stop=1,flow=xonxoff");
    let mut white = kifu(
        "white",
        &[
            "--line",
            &wline,
            "--player",
            &moves,
            "--color",
            "white",
            "--record",
            white_record.to_str().unwrap(),
        ],
        None,
    );
    // White must be reading before Black, to move first, sends (CSA 1998 communication protocol, (4)).
    white.wait_for("playing");
    let black = kifu(
        "black",
        &[
            "--line",
            &bline,
            "--player",
            &moves,
            "--color",
            "black",
            "--record",
            black_record.to_str().unwrap(),
        ],
        None,
    );
    let (bs, blog) = black.finish();
    let (ws, wlog) = white.finish();
    let _ = socat.child.kill();
    let _ = socat.child.wait();
    (
        (
            bs.code().unwrap_or(-1),
            blog,
            read_record(Path::new(&black_record)),
        ),
        (
            ws.code().unwrap_or(-1),
            wlog,
            read_record(Path::new(&white_record)),
        ),
    )
}

#[test]
#[ignore = "needs socat: run scripts/setup-test-deps"]
fn resignation_over_a_serial_line() {
    let record = "PI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0045KA\n-0055KA\n%TORYO\n";
    let ((bc, blog, b), (wc, wlog, w)) = pty_game("pty-resign", record);
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert!(
        blog.contains("serial") && blog.contains("1200 bit/s 8N1"),
        "{blog}"
    );
    assert_same_game(&b, &w);
    assert_eq!(
        b.moves,
        [
            "+7776FU", "-3334FU", "+8822UM", "-3122GI", "+0045KA", "-0055KA"
        ]
    );
    assert_eq!(b.ending, Some(EndingKind::Resign));
    assert!(wlog.contains("後手 wins"), "{wlog}");
}

#[test]
#[ignore = "needs socat: run scripts/setup-test-deps"]
fn repetition_over_a_serial_line() {
    let cycle = "+5948OU\n-5142OU\n+4859OU\n-4251OU\n";
    let record = format!("PI\n+\n{cycle}{cycle}{cycle}");
    let ((bc, blog, b), (wc, wlog, w)) = pty_game("pty-sennichite", &record);
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert_same_game(&b, &w);
    assert_eq!(b.moves.len(), 12);
    assert_eq!(w.ending, Some(EndingKind::Repetition));
}

/// The cable is pulled in the middle of a line: socat, which holds both ends, is killed after
/// the peer (this test, writing the other end by hand) sent half a move.
#[test]
#[ignore = "needs socat: run scripts/setup-test-deps"]
fn a_pulled_serial_cable_saves_the_game() {
    use std::io::{BufRead, BufReader, Write};
    let (mut socat, a, b) = pty_pair();
    let dir = workdir("pty-pulled");
    let moves = format!(
        "moves:{}",
        write(
            &dir,
            "game.csa",
            "PI\n+\n+7776FU\n-3334FU\n+2726FU\n-8384FU\n"
        )
    );
    let record = dir.join("white.csa");
    let line = format!("serial:{a}");
    let mut white = kifu(
        "white",
        &[
            "--line",
            &line,
            "--player",
            &moves,
            "--color",
            "white",
            "--record",
            record.to_str().unwrap(),
        ],
        None,
    );
    white.wait_for("playing");
    let mut peer = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&b)
        .unwrap();
    peer.write_all(b"+7776FU\n").unwrap();
    let mut reply = String::new();
    BufReader::new(&peer).read_line(&mut reply).unwrap();
    assert_eq!(reply, "-3334FU\n");
    peer.write_all(b"+27").unwrap();
    peer.flush().unwrap();
    white.wait_for("   2 -3334FU");
    // Let the half line cross before the cable goes.
    std::thread::sleep(std::time::Duration::from_millis(200));
    let _ = socat.child.kill();
    let _ = socat.child.wait();
    let (status, log) = white.finish();
    assert_eq!(status.code(), Some(1), "{log}");
    assert!(
        log.contains("game interrupted") && log.contains("`+27`"),
        "{log}"
    );
    let rec = read_record(&record);
    assert_eq!(rec.moves, ["+7776FU", "-3334FU"]);
    assert_eq!(rec.ending, Some(EndingKind::Abort));
    drop(peer);
}
