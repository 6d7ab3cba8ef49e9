//! Writing moves in standard CSL notation: Western (`Ln-7h`, `R8-5d`, `Gd-7c`, `VMx10d+`,
//! `Lnx4e-4f`, `Lnx!4e`, `pass`) and Japanese (`7八獅`, `7八龍右`, `4五・4六獅`, `4五獅居喰い`).
//!
//! Each rendering is checked by reading it back; the shortest form that reads back to the same
//! position wins, so the output is minimal and never ambiguous.

use super::names::{KANJI_RANKS, japanese_name};
use super::parse::{Dialect, parse_move};
use super::western_full::{WesternParts, promotion_optional, simplified, western_parts};
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

/// Standard CSL Western notation of a legal move: the shortest origin (none, the file, the
/// rank or the square) whose text reads back to the same position.
pub fn western(pos: &Position, m: Move) -> String {
    let (name, body, from) = match western_parts(pos, m) {
        WesternParts::Whole(text) => return text,
        WesternParts::Parts { name, body, from } => (name, body, from),
    };
    let m = simplified(pos, m);
    let options = [
        String::new(),
        from.file().to_string(),
        from.rank_char().to_string(),
    ];
    for o in &options {
        let text = format!("{name}{o}{body}");
        if reads_back(pos, &text, m) {
            return text;
        }
    }
    // The full origin square always reads back for a legal move.
    format!("{name}{from}{body}")
}

/// A square in Japanese: half-width file, kanji rank (`7八`, `10十一`).
pub fn japanese_square(sq: Square) -> String {
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
