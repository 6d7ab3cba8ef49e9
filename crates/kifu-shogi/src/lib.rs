//! Standard shogi for kifu: a complete, fast rules engine with SFEN and USI.
//!
//! ```
//! use kifu_shogi::{Position, Move, Square, usi};
//!
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 30);
//!
//! let mv = pos.parse_usi_move("7g7f").unwrap();
//! pos.play(mv).unwrap(); // checked; play_unchecked skips the check for moves known legal
//! assert_eq!(pos.to_sfen(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
//!
//! // Illegal moves come back with the rule they break.
//! let err = usi::parse_position_command("sfen 4k4/9/9/9/9/9/4P4/9/4K4 b P moves P*5c").unwrap_err();
//! assert_eq!(err.to_string(), "column 40: ply 1: P*5c: 二歩 — a pawn of 先手 already stands on file 5");
//!
//! assert_eq!(kifu_shogi::perft(&mut Position::startpos(), 3), 25_470);
//! ```

pub mod attacks;
mod bitboard;
mod color;
mod declaration;
mod game;
mod hand;
mod handicap;
mod illegal;
mod legality;
mod movegen;
mod mv;
pub mod notation;
mod outcome;
mod perft;
mod piece;
mod position;
mod repetition;
pub mod sfen;
mod square;
pub mod usi;
mod zobrist;

pub use bitboard::Bitboard;
pub use color::{Color, ParseColorError};
pub use declaration::{
    DeclarationCount, DeclarationFailure, DeclarationRule, DeclarationVerdict,
    ParseDeclarationRuleError,
};
pub use game::{Shogi, ShogiEnding, StartPosition, color_of, named_position, side_of};
pub use hand::{Hand, kanji_number};
pub use handicap::{Handicap, ParseHandicapError};
pub use illegal::IllegalMove;
pub use movegen::{MAX_MOVES, MoveList};
pub use mv::Move;
pub use outcome::Outcome;
pub use perft::{perft, perft_divide};
pub use piece::{ParsePieceError, ParsePieceKindError, Piece, PieceKind};
pub use position::{Position, PositionError};
pub use repetition::Repetition;
pub use sfen::SfenError;
pub use square::{ParseSquareError, Square};
pub use usi::UsiMoveError;
