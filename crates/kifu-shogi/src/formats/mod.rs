//! Shogi record formats: reading (with replay under the full rules), writing, converting.
//!
//! Every reader turns decoded text into [`ShogiRecord`]s plus [`Diagnostic`]s with spans,
//! replaying each move with [`Position::check_move`]; every writer takes a record and returns
//! text plus warnings for whatever the target format cannot hold.
//!
//! ```
//! use kifu_shogi::formats::csa;
//!
//! let parsed = csa::read("V2.2\nN+Sente\nPI\n+\n+7776FU\nT3\n-3334FU\n%TORYO\n");
//! assert!(parsed.diagnostics.is_empty());
//! let record = &parsed.records[0];
//! assert_eq!(record.moves.main_line().count(), 3); // two moves and the resignation
//! ```
//!
//! [`Position::check_move`]: crate::Position::check_move
//! [`Diagnostic`]: kifu_record::Diagnostic

mod compare;
mod corpus;
pub mod csa;
mod format;
pub mod jkf;
pub mod ki2;
pub mod kif;
mod random_games;
mod record;
mod replay;
pub mod usi_record;

pub use format::{Format, read_bytes};
pub use record::{
    Parsed, ShogiRecord, StartPosition, Written, color_of, main_line_node, position_at, side_of,
};
