//! Chu shogi (中将棋) for kifu: a rules engine (lishogi rules by default, JCSA as a switch),
//! lishogi SFEN and USI, perft in both counting conventions, and the CSL move notation (Western
//! and Japanese). Game records (CSL, KIF, USI lists, JSON) are read and written by
//! `kifu_records::chu`, on the [`Chu`] game this crate defines for `kifu_record::Record`.
//!
//! ```
//! use kifu_chu::notation::{Dialect, parse_move, western};
//! use kifu_chu::{Counting, GameState, Move, Position, perft};
//!
//! let pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 36);
//! assert_eq!(perft(&pos, 2, Counting::PathBased), 1296);
//!
//! // The CSL notation, Western or Japanese, resolved against the legal moves.
//! let lion = parse_move(&pos, "7八獅", Dialect::Csl, None).unwrap().mv;
//! assert_eq!(lion, "7j7h".parse::<Move>().unwrap());
//! assert_eq!(western(&pos, lion), "Ln-7h");
//!
//! // A game keeps the history the repetition rules need.
//! let mut game = GameState::new(pos);
//! game.play(lion).unwrap();
//! assert!(game.position().is_check() == false && game.outcome().is_none());
//! ```

#![warn(missing_docs)]

mod attacks;
mod game;
mod game_state;
mod generation_context;
mod lion;
mod movegen;
mod moves;
pub mod notation;
mod outcome;
mod perft;
mod piece;
mod position;
mod rules;
mod sfen;
mod square;
mod usi;

pub use game::{Chu, color_of, side_of};
pub use game_state::{GameState, PlayError};
pub use moves::{Move, MoveList};
pub use outcome::{EndReason, Outcome, UnknownEndReason};
pub use perft::{Counting, UnknownCounting, perft, perft_divide};
pub use piece::{Color, Kind, Piece, UnknownColor, UnknownKind, UnknownPiece};
pub use position::{IllegalMove, Position, START_SFEN};
pub use rules::{RuleSet, UnknownRuleSet};
pub use sfen::SfenError;
pub use square::{ParseSquareError, Square};
pub use usi::{ParseMoveError, parse_usi};
