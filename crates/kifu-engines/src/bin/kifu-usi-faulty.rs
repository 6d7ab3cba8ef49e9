//! A USI engine that misbehaves on request, for the match runner's fault tests: otherwise it
//! plays a legal move chosen from the position's hash (as `kifu-usi-random` does) and reports
//! a score and a PV of that move and a reply.
//!
//! Options (`setoption name X value Y`):
//! - `Fault`: `none` (default), `illegal` (a move of the opponent's piece), `crash` (exits),
//!   `hang` (never answers, not even `stop`), `garbage` (prints a line that is not USI),
//!   `slow` (answers after `SlowMs`), `declare` (`bestmove win` without the right to);
//! - `FaultMove`: on which of its own moves of a game the fault happens (default 1);
//! - `FaultPly`: instead, at every search of a position that many moves into the game
//!   (counted in the `position` command), however often it is asked — for an analysis
//!   whose retry must fail too;
//! - `SlowMs`: how long `slow` sleeps (default 2000);
//! - `Score`: the centipawn score it reports (default 0).

use std::io::{BufRead, Write};
use std::time::Duration;

use kifu_shogi::{Position, Square};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut pos = Position::startpos();
    let mut fault = String::from("none");
    let mut fault_move = 1u32;
    let mut slow_ms = 2000u64;
    let mut score = 0i64;
    let mut moves_this_game = 0u32;
    let mut fault_ply: Option<usize> = None;
    let mut position_ply = 0usize;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("usi") => {
                let _ = writeln!(
                    out,
                    "id name kifu-usi-faulty\nid author kifu\noption name Fault type string default none\nusiok"
                );
            }
            Some("setoption") => {
                let (name, value) = (words.get(2).copied(), words.get(4).copied().unwrap_or(""));
                match name {
                    Some("Fault") => fault = value.to_owned(),
                    Some("FaultMove") => fault_move = value.parse().unwrap_or(1),
                    Some("FaultPly") => fault_ply = value.parse().ok(),
                    Some("SlowMs") => slow_ms = value.parse().unwrap_or(2000),
                    Some("Score") => score = value.parse().unwrap_or(0),
                    _ => {}
                }
            }
            Some("isready") => {
                let _ = writeln!(out, "readyok");
            }
            Some("usinewgame") => moves_this_game = 0,
            Some("position") => {
                if let Ok(cmd) = kifu_shogi::usi::parse_position_command(&line) {
                    pos = cmd.end();
                }
                position_ply = words
                    .iter()
                    .position(|w| *w == "moves")
                    .map_or(0, |at| words.len() - at - 1);
            }
            Some("go") => {
                moves_this_game += 1;
                let now = match fault_ply {
                    Some(ply) => ply == position_ply,
                    None => moves_this_game == fault_move,
                };
                match fault.as_str() {
                    "crash" if now => std::process::exit(3),
                    "hang" if now => {
                        // Reads on but never answers: a deadlocked search.
                        for _ in stdin.lock().lines() {}
                        return;
                    }
                    "garbage" if now => {
                        let _ = writeln!(out, "@@@ segmentation fault in search @@@");
                    }
                    "slow" if now => std::thread::sleep(Duration::from_millis(slow_ms)),
                    "illegal" if now => {
                        let _ = writeln!(out, "bestmove {}", foreign_move(&pos));
                        let _ = out.flush();
                        continue;
                    }
                    "declare" if now => {
                        let _ = writeln!(out, "bestmove win");
                        let _ = out.flush();
                        continue;
                    }
                    _ => {}
                }
                let legal = pos.legal_moves();
                let reply = match legal.get((pos.hash() % legal.len().max(1) as u64) as usize) {
                    None => "bestmove resign".to_owned(),
                    Some(&mv) => {
                        // A PV of two moves where the position allows: the move and a reply,
                        // so that records have a line to write after the move played.
                        let mut after = pos.clone();
                        after.play_unchecked(mv);
                        let pv = match after.legal_moves().first() {
                            Some(reply) => format!("{} {}", mv.usi(), reply.usi()),
                            None => mv.usi(),
                        };
                        format!(
                            "info depth 1 score cp {score} pv {pv}\nbestmove {mv}",
                            mv = mv.usi()
                        )
                    }
                };
                let _ = writeln!(out, "{reply}");
            }
            Some("quit") => break,
            _ => {}
        }
        let _ = out.flush();
    }
}

/// A move of one of the opponent's pieces: well-formed USI, illegal in `pos`.
fn foreign_move(pos: &Position) -> String {
    let them = pos.turn().flip();
    for file in 1..=9u8 {
        for rank in 1..=9u8 {
            let Some(sq) = Square::new(file, rank) else {
                continue;
            };
            if pos.piece_at(sq).is_some_and(|p| p.color == them) {
                let to_rank = if rank < 9 { rank + 1 } else { rank - 1 };
                if let Some(to) = Square::new(file, to_rank) {
                    return format!("{sq}{to}");
                }
            }
        }
    }
    "5e5d".to_owned()
}
