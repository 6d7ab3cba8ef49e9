//! Move notation: the notation of the CSL move-notation post (Western and Japanese) and lishogi's Western
//! notation, read against a position's legal moves, and written back minimal and unambiguous.

mod lexer;
mod lishogi;
mod names;
mod parse;
mod reading;
mod write;

pub use parse::{Dialect, NotationError, ParsedMove, parse_move};
pub use write::{japanese, western};

use crate::square::Square;

/// The destination (or `仝`/`同` → `previous`) and the parenthesised origin of one KIF step
/// (`6八獅子 （←7十）`).
pub(crate) fn step_squares(
    text: &str,
    previous: Option<Square>,
) -> Option<(Square, Option<Square>)> {
    let toks = lexer::lex(text).ok()?;
    let mut dest = None;
    let mut origin = None;
    for t in toks {
        match t.tok {
            lexer::Tok::Square(sq) if dest.is_none() => dest = Some(sq),
            lexer::Tok::Same if dest.is_none() => dest = previous,
            lexer::Tok::Origin(o) if o.len() == 1 => origin = Some(o[0]),
            _ => {}
        }
    }
    Some((dest?, origin))
}

pub(crate) use names::kif_name;
pub(crate) use write::japanese_square;

/// The kanji numeral of a rank index (0 → 一).
pub(crate) fn kanji_rank(rank: u8) -> &'static str {
    names::KANJI_RANKS[rank as usize]
}
