//! Move notation: the CSL notation of seed 003 (Western and Japanese) and lishogi's Western
//! notation, read against a position's legal moves, and written back minimal and unambiguous.

mod lexer;
mod lishogi;
mod names;
mod parse;
mod reading;
mod write;

pub use parse::{Dialect, NotationError, ParsedMove, parse_move};
pub use write::{japanese, western};
