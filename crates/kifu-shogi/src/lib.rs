//! Standard shogi for kifu: a complete, fast rules engine with SFEN and USI, and the
//! CSA, KIF and KI2 notations of a single move.
//!
//! The rules are those of the Japan Shogi Association (日本将棋連盟): moves and drops, forced
//! and optional promotion, 二歩, 打ち歩詰め, check, mate, 千日手 with 連続王手の千日手, and the
//! entering-king declaration (入玉宣言) under the CSA's 27-point rule or the 24-point rule.
//! Positions and moves are read and written in SFEN and USI (the USI protocol
//! specification), and every error names the rule broken or the column at fault.
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
//! assert_eq!(mv.to(), Square::new(7, 6).unwrap());
//!
//! // Illegal moves come back with the rule they break.
//! let err = usi::parse_position_command("sfen 4k4/9/9/9/9/9/4P4/9/4K4 b P moves P*5c").unwrap_err();
//! assert_eq!(err.to_string(), "column 40: ply 1: P*5c: 二歩 — a pawn of 先手 already stands on file 5");
//!
//! assert_eq!(kifu_shogi::perft(&mut Position::startpos(), 3), 25_470);
//! ```
//!
//! # Where to go next
//!
//! - [`Position`]: the board, hands and side to move; set up with [`Position::startpos`],
//!   [`Position::from_sfen`] or a [`Handicap`]; [`Position::legal_moves`],
//!   [`Position::check_move`] (one move, with the [`IllegalMove`] rule it breaks),
//!   [`Position::play`] / [`Position::undo`], [`Position::outcome`] (mate and 千日手) and
//!   [`Position::declaration`] (入玉宣言 by a [`DeclarationRule`]).
//! - The vocabulary: [`Move`], [`Square`], [`Piece`], [`PieceKind`], [`Color`], [`Hand`] and
//!   the [`Bitboard`] of a set of squares, each with `FromStr` and `Display` where it has a
//!   text form.
//! - [`sfen`] and [`usi`]: SFEN positions and USI moves and `position` commands.
//! - [`notation`]: one move as CSA (`+7776FU`), KIF (`７六歩(77)`) or KI2 (`▲７六歩`) writes it.
//! - [`Shogi`]: shogi as a [`kifu_record::Game`], for the record model of `kifu-record`; the
//!   record files themselves (CSA, KIF, KI2, JKF, …) are read and written by `kifu-records`.
//! - [`perft`] and [`attacks`], for testing a move generator and building on the bitboards.

#![warn(missing_docs)]

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
pub use position::{HistoryRoom, Position, PositionError};
pub use repetition::Repetition;
pub use sfen::SfenError;
pub use square::{ParseSquareError, Square};
pub use usi::UsiMoveError;
