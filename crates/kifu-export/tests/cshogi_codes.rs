//! kifu's 256-bit position codes are cshogi's, byte for byte, both ways: for every handicap
//! start, every perft position of the corpus and every tenth position of the 500 lishogi
//! games, cshogi 1.1.0's `Board.to_hcp` and `Board.to_psfen` write the bytes kifu writes, and
//! kifu reads cshogi's bytes back to the same position.
//!
//! cshogi runs from the interop virtualenv (`scripts/setup-test-deps`); the test fails when it
//! is missing.

use std::io::Write;
use std::process::{Command, Stdio};

use kifu_export::packed::{from_hcp, from_packed_sfen, hcp, packed_sfen};
use kifu_shogi::{Handicap, Position};

fn peer() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/training_peer.py")
}

fn without_ply(sfen: &str) -> &str {
    sfen.rsplit_once(' ').map_or(sfen, |(head, _)| head)
}

fn positions() -> Vec<Position> {
    let mut out: Vec<Position> = Handicap::ALL.iter().map(|h| h.position()).collect();
    for line in kifu_testkit::corpus::text("shogi/perft/perft.tsv").lines() {
        let sfen = line.split('\t').next().unwrap();
        out.push(Position::from_sfen(sfen).unwrap());
    }
    for game in kifu_testkit::corpus::text("shogi/lishogi-usi/games.txt").lines() {
        let mut position = Position::startpos();
        for (i, usi) in game.split_whitespace().enumerate() {
            let mv = position.parse_usi_move(usi).unwrap();
            position.play(mv).unwrap();
            if i % 10 == 9 {
                out.push(position.without_history());
            }
        }
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> [u8; 32] {
    let mut out = [0; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

#[test]
#[ignore = "needs cshogi (the Python venv): run scripts/setup-test-deps"]
fn hcp_and_packed_sfen_are_cshogis() {
    let positions = positions();
    assert!(positions.len() > 3900, "{} positions", positions.len());
    let mut child = Command::new(kifu_testkit::interop_python())
        .arg(peer())
        .arg("encode")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = String::new();
    for p in &positions {
        input.push_str(&p.to_sfen());
        input.push('\n');
    }
    // Written from another thread: cshogi answers line by line, and a full pipe either way
    // would otherwise stop both.
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(output.status.success());
    let lines: Vec<&str> = std::str::from_utf8(&output.stdout)
        .unwrap()
        .lines()
        .collect();
    assert_eq!(lines.len(), positions.len());
    for (position, line) in positions.iter().zip(lines) {
        let sfen = position.to_sfen();
        let (cshogi_hcp, cshogi_psfen) = line.split_once(' ').unwrap();
        assert_eq!(hex(&hcp(position).unwrap()), cshogi_hcp, "hcp of {sfen}");
        assert_eq!(
            hex(&packed_sfen(position).unwrap()),
            cshogi_psfen,
            "packed sfen of {sfen}"
        );
        let back = from_hcp(&unhex(cshogi_hcp)).unwrap();
        assert_eq!(without_ply(&back.to_sfen()), without_ply(&sfen), "{sfen}");
        let back = from_packed_sfen(&unhex(cshogi_psfen)).unwrap();
        assert_eq!(without_ply(&back.to_sfen()), without_ply(&sfen), "{sfen}");
    }
}

/// Without cshogi: every position the peer test uses (handicap starts with pieces in the box,
/// perft positions with full hands, pieces on the last square and on both sides of the
/// 64-square boundary the packer splits its board at) reads back from both codes as itself.
#[test]
fn every_position_reads_back_from_both_codes() {
    let positions = positions();
    assert!(positions.len() > 3900, "{} positions", positions.len());
    for position in &positions {
        let sfen = position.to_sfen();
        let back = from_hcp(&hcp(position).unwrap()).unwrap();
        assert_eq!(without_ply(&back.to_sfen()), without_ply(&sfen), "hcp");
        let back = from_packed_sfen(&packed_sfen(position).unwrap()).unwrap();
        assert_eq!(without_ply(&back.to_sfen()), without_ply(&sfen), "psfen");
    }
}
