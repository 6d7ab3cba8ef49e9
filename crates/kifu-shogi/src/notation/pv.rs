//! A principal variation as comments write it — CSA moves (`+7776FU -3334FU`), KI2 moves
//! with their side marks (`▲７六歩 △同　銀`) or KIF moves with their origin (`▲７六歩(77)`) —
//! read back as moves, as far as they are legal.
//!
//! ```
//! use kifu_shogi::Position;
//! use kifu_shogi::notation::pv;
//!
//! let start = Position::startpos();
//! let line: Vec<String> = pv::moves(&start, "▲７六歩 △３四歩(33) +2726FU").iter().map(|m| m.usi()).collect();
//! assert_eq!(line, ["7g7f", "3c3d", "2g2f"]);
//! ```

use crate::notation::csa::CsaMove;
use crate::notation::ki2;
use crate::notation::kif::{self, Action, Destination};
use crate::{Color, Move, Position, Square};

/// The moves of a PV written in any of the notations (CSA `+7776FU`, KI2 `▲７六歩`/`△同　銀`, KIF
/// `▲７六歩(77)`), from `position`, as far as they are legal. A first move of the side that
/// is not to move is the move that led to the position (floodgate clients and ShogiGUI's
/// `対局` lines begin with it) and is passed over.
pub fn moves(position: &Position, pv: &str) -> Vec<Move> {
    let mut words = pv.split(' ').filter(|w| !w.is_empty()).peekable();
    if let Some(first) = words.peek()
        && word_color(first).is_some_and(|c| c != position.turn())
    {
        words.next();
    }
    let mut p = position.clone();
    let mut prev_to = None;
    let mut moves = Vec::new();
    for word in words {
        let Some(mv) = pv_move(&p, word, prev_to) else {
            break;
        };
        moves.push(mv);
        prev_to = Some(mv.to());
        p.play_unchecked(mv);
    }
    moves
}

fn word_color(word: &str) -> Option<Color> {
    match word.chars().next()? {
        '+' | '▲' | '☗' => Some(Color::Black),
        '-' | '△' | '☖' => Some(Color::White),
        _ => None,
    }
}

/// One PV move in `position`, if it is legal there.
fn pv_move(position: &Position, word: &str, prev_to: Option<Square>) -> Option<Move> {
    if word.is_ascii() {
        let csa = CsaMove::parse(word).ok()?;
        return csa.to_move(position).ok();
    }
    if word_color(word).is_some_and(|c| c != position.turn()) {
        return None;
    }
    let bare = word.trim_start_matches(['▲', '△', '☗', '☖']);
    let mv = if bare.contains('(') || bare.ends_with('打') {
        let (parsed, _) = kif::parse(bare);
        let m = parsed.ok()?;
        let to = match m.to {
            Destination::Square(f, r) => Square::new(f, r)?,
            Destination::Same => prev_to?,
        };
        match (m.action, m.from) {
            (Action::Drop, _) => Move::drop(m.piece, to),
            (action, Some((f, r))) => {
                Move::normal(Square::new(f, r)?, to, action == Action::Promote)
            }
            (_, None) => return None,
        }
    } else {
        let (parsed, _) = ki2::parse(bare).ok()?;
        ki2::resolve(position, prev_to, &parsed).ok()?
    };
    position.is_legal(mv).then_some(mv)
}
