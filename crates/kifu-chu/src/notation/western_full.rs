//! CSL Western notation with the full origin square (`Ln7j-7h`): a spelling that needs no
//! reading back, for lists of candidate moves and as the writer's last resort. The minimal
//! spelling ([`super::western`]) shortens it where the shorter text still reads back.

use super::names::western_name;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// A two-step move whose first step is onto an empty square lands where a single move lands.
pub(crate) fn simplified(pos: &Position, m: Move) -> Move {
    match m.mid() {
        Some(mid) if pos.piece_at(mid).is_none() && !m.returns_to_start() => {
            Move::new(m.from(), m.to(), false)
        }
        _ => m,
    }
}

/// Whether the same piece could also make this move with the other promotion choice.
pub(crate) fn promotion_optional(pos: &Position, m: Move) -> bool {
    m.mid().is_none() && {
        let other = Move::new(m.from(), m.to(), !m.is_promotion());
        pos.legal_moves().contains(&other)
    }
}

/// The parts of a Western move: the piece name and what follows the origin (`-7h`, `x!4e`),
/// or the whole text when the move is a pass or has no piece.
pub(crate) enum WesternParts {
    Whole(String),
    Parts {
        name: &'static str,
        body: String,
        from: Square,
    },
}

pub(crate) fn western_parts(pos: &Position, m: Move) -> WesternParts {
    let Some(piece) = pos.piece_at(m.from()) else {
        return WesternParts::Whole(m.to_string());
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
        Some(mid) if m.returns_to_start() && pos.piece_at(mid).is_none() => {
            return WesternParts::Whole("pass".into());
        }
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
    WesternParts::Parts {
        name,
        body,
        from: m.from(),
    }
}

/// Western notation with the full origin square, without reading it back.
pub(crate) fn western_explicit(pos: &Position, m: Move) -> String {
    match western_parts(pos, m) {
        WesternParts::Whole(text) => text,
        WesternParts::Parts { name, body, from } => format!("{name}{from}{body}"),
    }
}
