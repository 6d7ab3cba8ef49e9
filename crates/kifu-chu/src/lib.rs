//! Chu shogi (中将棋) for kifu: a rules engine (lishogi rules by default, JCSA as a switch),
//! lishogi SFEN and USI, perft in both counting conventions, the CSL move notation (Western and
//! Japanese) and chu game records.
//!
//! ```
//! use kifu_chu::notation::{Dialect, parse_move, western};
//! use kifu_chu::{Counting, Position, perft};
//!
//! let pos = Position::start();
//! assert_eq!(pos.legal_moves().len(), 36);
//! assert_eq!(perft(&pos, 2, Counting::PathBased), 1296);
//!
//! // The CSL notation, Western or Japanese, resolved against the legal moves.
//! let lion = parse_move(&pos, "7八獅", Dialect::Csl, None).unwrap().mv;
//! assert_eq!(lion.to_string(), "7j7h");
//! assert_eq!(western(&pos, lion), "Ln-7h");
//!
//! // Records: read (replayed with the rules), written in any format.
//! let (record, diagnostics) = kifu_chu::record::csl::parse("1. Ln-7h 2. Ln-6e\n");
//! assert!(diagnostics.is_empty());
//! assert_eq!(kifu_chu::record::usi::write(&record), "position startpos moves 7j7h 6c6e\n");
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
