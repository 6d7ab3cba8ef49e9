//! A minimal USI engine that plays a legal move chosen from the position's hash: a real
//! engine process for the bridge's end-to-end tests when no strong engine is installed.
//! It declares (`bestmove win`) when the 27-point rule allows, and resigns when mated.
//! `setoption name PvLength value N` makes it print a PV of N plies (default 1), moves
//! chosen the same way, as strong engines print long ones.

use std::io::{BufRead, Write};

use kifu_shogi::{DeclarationRule, Position};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut pos = Position::startpos();
    let mut pv_length = 1usize;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("usi") => {
                let _ = writeln!(out, "id name kifu-usi-random\nid author kifu\nusiok");
            }
            Some("setoption") if words.get(2) == Some(&"PvLength") => {
                if let Some(n) = words.get(4).and_then(|v| v.parse().ok()) {
                    pv_length = n;
                }
            }
            Some("isready") => {
                let _ = writeln!(out, "readyok");
            }
            Some("position") => {
                if let Some(p) = parse_position(&words[1..]) {
                    pos = p;
                }
            }
            Some("go") => {
                let reply = if pos.declaration(DeclarationRule::Points27).is_ok() {
                    "bestmove win".to_owned()
                } else {
                    let pv = line_from(&pos, pv_length.max(1));
                    match pv.first() {
                        None => "bestmove resign".to_owned(),
                        Some(best) => format!(
                            "info depth {} score cp 0 pv {}\nbestmove {best}",
                            pv.len(),
                            pv.join(" ")
                        ),
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

/// Up to `plies` moves from `pos`, each chosen from the position's hash.
fn line_from(pos: &Position, plies: usize) -> Vec<String> {
    let mut p = pos.clone();
    let mut line = Vec::new();
    while line.len() < plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[(p.hash() % moves.len() as u64) as usize];
        line.push(mv.usi());
        p.play_unchecked(mv);
    }
    line
}

fn parse_position(words: &[&str]) -> Option<Position> {
    let (mut pos, rest) = match *words.first()? {
        "startpos" => (Position::startpos(), &words[1..]),
        "sfen" if words.len() >= 5 => (
            Position::from_sfen(&words[1..5].join(" ")).ok()?,
            &words[5..],
        ),
        _ => return None,
    };
    if rest.first() == Some(&"moves") {
        for m in &rest[1..] {
            let mv = pos.parse_usi_move(m).ok()?;
            pos.play_unchecked(mv);
        }
    }
    Some(pos)
}
