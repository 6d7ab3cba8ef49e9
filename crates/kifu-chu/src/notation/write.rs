//! Writing moves in standard CSL notation: Western (`Ln-7h`, `R8-5d`, `Gd-7c`, `VMx10d+`,
//! `Lnx4e-4f`, `Lnx!4e`, `pass`) and Japanese (`7八獅`, `7八龍右`, `4五・4六獅`, `4五獅居喰い`).
//!
//! Each rendering is checked by reading it back; the shortest form that reads back to the same
//! position wins, so the output is minimal and never ambiguous.

use super::names::{KANJI_RANKS, japanese_name, western_name};
use super::parse::{Dialect, parse_move};
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

fn same_result(pos: &Position, a: Move, b: Move) -> bool {
    let mut x = pos.clone();
    x.play_unchecked(a);
    let mut y = pos.clone();
    y.play_unchecked(b);
    x.repetition_key() == y.repetition_key()
}

fn reads_back(pos: &Position, text: &str, m: Move) -> bool {
    matches!(parse_move(pos, text, Dialect::Csl, None), Ok(p) if same_result(pos, p.mv, m) && p.warnings.is_empty())
}

/// Whether the same piece could also make this move with the other promotion choice.
fn promotion_optional(pos: &Position, m: Move) -> bool {
    m.mid().is_none() && {
        let other = if m.is_promotion() {
            Move::new(m.from(), m.to(), false)
        } else {
            Move::new(m.from(), m.to(), true)
        };
        pos.legal_moves().contains(&other)
    }
}

/// A two-step move whose first step is onto an empty square lands where a single move lands.
fn simplified(pos: &Position, m: Move) -> Move {
    match m.mid() {
        Some(mid) if pos.piece_at(mid).is_none() && !m.returns_to_start() => {
            Move::new(m.from(), m.to(), false)
        }
        _ => m,
    }
}

/// Standard CSL Western notation of a legal move.
pub fn western(pos: &Position, m: Move) -> String {
    western_with(pos, m, true)
}

/// Western notation with the full origin square, without reading it back (for candidate lists).
pub(crate) fn western_explicit(pos: &Position, m: Move) -> String {
    western_with(pos, m, false)
}

fn western_with(pos: &Position, m: Move, minimal: bool) -> String {
    let Some(piece) = pos.piece_at(m.from()) else {
        return m.to_string();
    };
    let m = simplified(pos, m);
    let name = western_name(piece.kind);
    let cap = |sq: Square| {
        if pos.piece_at(sq).is_some() && sq != m.from() {
            "x"
        } else {
            "-"
        }
    };
    let body = match m.mid() {
        Some(mid) if m.returns_to_start() && pos.piece_at(mid).is_none() => return "pass".into(),
        Some(mid) if m.returns_to_start() => format!("x!{mid}"),
        Some(mid) => format!("{}{mid}{}{}", cap(mid), cap(m.to()), m.to()),
        None => {
            let promo = if m.is_promotion() {
                "+"
            } else if promotion_optional(pos, m) {
                "="
            } else {
                ""
            };
            format!("{}{}{promo}", cap(m.to()), m.to())
        }
    };
    let from = m.from();
    let options = [
        String::new(),
        from.file().to_string(),
        from.rank_char().to_string(),
        from.to_string(),
    ];
    for o in options.iter().filter(|_| minimal) {
        let text = format!("{name}{o}{body}");
        if reads_back(pos, &text, m) {
            return text;
        }
    }
    // Cannot happen for a legal move; fall back to the full origin square.
    format!("{name}{from}{body}")
}

/// A square in Japanese: half-width file, kanji rank (`7八`, `10十一`).
pub(crate) fn japanese_square(sq: Square) -> String {
    format!("{}{}", sq.file(), KANJI_RANKS[sq.rank() as usize])
}

/// Standard Japanese notation of a legal move (`7八獅`).
pub fn japanese(pos: &Position, m: Move) -> String {
    let Some(piece) = pos.piece_at(m.from()) else {
        return m.to_string();
    };
    let m = simplified(pos, m);
    let name = japanese_name(piece.kind);
    let (head, tail) = match m.mid() {
        Some(mid) if m.returns_to_start() && pos.piece_at(mid).is_none() => {
            (String::new(), "じっと".to_string())
        }
        Some(mid) if m.returns_to_start() => (japanese_square(mid), "居喰い".to_string()),
        Some(mid) => (
            format!("{}・{}", japanese_square(mid), japanese_square(m.to())),
            String::new(),
        ),
        None => {
            let promo = if m.is_promotion() {
                "成"
            } else if promotion_optional(pos, m) {
                "不成"
            } else {
                ""
            };
            (japanese_square(m.to()), promo.to_string())
        }
    };
    let from = m.from();
    let origin = format!("({})", japanese_square(from));
    let options = [
        "", "右", "左", "上", "引", "寄", "直", "右上", "左上", "右引", "左引", "右寄", "左寄",
    ];
    for o in options {
        let text = format!("{head}{name}{o}{tail}");
        if reads_back(pos, &text, m) {
            return text;
        }
    }
    format!("{head}{name}{tail}{origin}")
}
