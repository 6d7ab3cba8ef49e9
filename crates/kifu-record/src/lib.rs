//! The game-agnostic part of kifu: the [`Game`] trait each game implements, the [`Record`]
//! every game shares (header, move tree with variations, times, comments, endings), the
//! [`RecordFormat`] interface of record files, source spans and diagnostics, and text decoding.
//!
//! ```
//! use kifu_record::{Diagnostic, DiagnosticKind, SourceText, Span};
//!
//! let text = SourceText::new("game.csa", "V2.2\nPI\n+\n+7776XX\n");
//! let d = Diagnostic::error(DiagnosticKind::Syntax, Span::new(10, 17), "unknown piece code `XX`");
//! assert_eq!(d.kind.code(), "syntax");
//! assert_eq!(text.render(&d), "game.csa:4:1: error: unknown piece code `XX` (`+7776XX`)");
//! ```
//!
//! A record's moves form a tree (here built by hand; readers build them from files):
//!
//! ```
//! use kifu_record::{EndingKind, MoveTree, NoEnding, Span};
//!
//! let mut moves: MoveTree<&str, NoEnding> = MoveTree::new();
//! let root = moves.root();
//! let first = moves.add_move(root, "7g7f", Span::new(0, 4));
//! moves[first].set_time_ms(Some(16_000));
//! moves.add_move(root, "2g2f", Span::new(5, 9)); // an alternative first move
//! moves.add_ending(first, EndingKind::Resign, Span::new(10, 12));
//! assert_eq!(moves.main_line().count(), 2);
//! assert_eq!(moves.ending().unwrap().kind, EndingKind::Resign);
//! ```

#![warn(missing_docs)]

mod comment;
mod datetime;
mod decode;
mod diagnostic;
mod ending;
pub mod evaluation;
mod format;
pub mod game;
mod header;
mod record;
mod shift_jis;
mod span;
mod time_control;
mod tree;

pub use comment::{Bookmark, Comment, CommentKind, EngineInfo, Score};
pub use datetime::DateTime;
pub use decode::{Decoded, EncodingSource, TextEncoding, declared_encoding, decode, encode};
pub use diagnostic::{Diagnostic, DiagnosticKind, Severity, UnknownDiagnosticKind};
pub use ending::{
    Ending, EndingKind, GameEnding, NoEnding, Outcome, Side, UnknownOutcome, UnknownSide,
};
pub use format::{RecordChecks, RecordFormat, Records};
pub use game::{Game, MoveFacts, game_key};
pub use header::{Header, HeaderEntry, HeaderField, UnknownHeaderField};
pub use record::{
    GameTree, Parsed, Positions, Record, RecordCheck, RecordRead, Written, holds_no_game,
};
pub use span::{LineCol, SourceText, Span};
pub use time_control::{TimeControl, parse_seconds};
pub use tree::{MoveTree, Node, NodeId, NodeItem};
