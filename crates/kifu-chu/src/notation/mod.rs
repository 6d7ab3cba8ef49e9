//! Move notation: the notation of the CSL move-notation post (Western and Japanese) and lishogi's Western
//! notation, read against a position's legal moves, and written back minimal and unambiguous.

mod error;
mod lexer;
mod lishogi;
mod names;
mod parse;
mod reading;
mod western_full;
mod write;

pub use error::NotationError;
pub use parse::{Dialect, ParsedMove, parse_move};
pub use write::{japanese, western};

use crate::square::Square;

/// The destination (or `仝`/`同` → `previous`) and the parenthesised origin of one step of
/// lishogi's chu KIF (`6八獅子 （←7十）`), as the KIF reader of `kifu-records` needs it.
pub fn step_squares(text: &str, previous: Option<Square>) -> Option<(Square, Option<Square>)> {
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

pub use names::{kif_name, western_name};
pub use write::japanese_square;

/// The kanji numeral of a rank index (0 → 一).
pub fn kanji_rank(rank: u8) -> &'static str {
    names::KANJI_RANKS[rank as usize]
}
