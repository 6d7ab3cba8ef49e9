//! Chu shogi (中将棋) for kifu: a rules engine (lishogi rules by default, JCSA as a switch),
//! lishogi SFEN and USI, perft in both counting conventions.
//!
//! ```
//! use kifu_chu::{Counting, Position, perft};
//!
//! let pos = Position::start();
//! assert_eq!(pos.legal_moves().len(), 36);
//! assert_eq!(perft(&pos, 2, Counting::PathBased), 1296);
//! let m = pos.parse_usi_move("7j6h").unwrap(); // the lion jumps
//! let mut next = pos.clone();
//! next.play(m).unwrap();
//! assert_eq!(next.to_sfen().split(' ').nth(1), Some("w"));
//! ```

mod attacks;
mod game;
mod lion;
mod movegen;
mod moves;
pub mod notation;
mod outcome;
mod perft;
mod piece;
mod position;
pub mod record;
mod rules;
mod sfen;
mod square;
mod usi;

pub use game::{Game, PlayError};
pub use moves::{Move, MoveList};
pub use outcome::{EndReason, Outcome};
pub use perft::{Counting, perft, perft_divide};
pub use piece::{Color, Kind, Piece};
pub use position::{IllegalMove, Position, START_SFEN};
pub use rules::RuleSet;
pub use sfen::SfenError;
pub use square::Square;
pub use usi::parse_usi;
