//! The game-agnostic part of kifu: the record model every game shares (header, move tree with
//! variations, times, comments, endings), source spans and diagnostics, and text decoding.
//!
//! ```
//! use kifu_record::{Diagnostic, SourceText, Span};
//!
//! let text = SourceText::new("game.csa", "V2.2\nPI\n+\n+7776XX\n");
//! let d = Diagnostic::error(Span::new(10, 17), "unknown piece code `XX`");
//! assert_eq!(text.render(&d), "game.csa:4:1: error: unknown piece code `XX` (`+7776XX`)");
//! ```
//!
//! A record is built by a game's reader; its moves form a tree:
//!
//! ```
//! use kifu_record::{EndingKind, Record, Span};
//!
//! let mut record: Record<&str, ()> = Record::new(());
//! let root = record.moves.root();
//! let first = record.moves.add_move(root, "7g7f", Span::new(0, 4));
//! record.moves[first].time_ms = Some(16_000);
//! record.moves.add_move(root, "2g2f", Span::new(5, 9)); // an alternative first move
//! record.moves.add_ending(first, EndingKind::Resign, Span::new(10, 12));
//! assert_eq!(record.moves.main_line().count(), 2);
//! assert_eq!(record.moves.ending().unwrap().kind, EndingKind::Resign);
//! ```

mod comment;
mod datetime;
mod decode;
mod diagnostic;
mod ending;
mod header;
mod record;
mod span;
mod time_control;
mod tree;

pub use comment::{Bookmark, Comment, CommentKind, EngineInfo, Score};
pub use datetime::DateTime;
pub use decode::{Decoded, EncodingSource, TextEncoding, declared_encoding, decode, encode};
pub use diagnostic::{Diagnostic, Severity};
pub use ending::{Ending, EndingKind, Outcome, Side};
pub use header::{Header, HeaderEntry, HeaderField};
pub use record::Record;
pub use span::{LineCol, SourceText, Span};
pub use time_control::{TimeControl, parse_seconds};
pub use tree::{MoveTree, Node, NodeId, NodeItem};
