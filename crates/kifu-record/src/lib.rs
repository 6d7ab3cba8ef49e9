//! The game-agnostic part of kifu: source spans and diagnostics shared by every reader.
//!
//! ```
//! use kifu_record::{Diagnostic, SourceText, Span};
//!
//! let text = SourceText::new("game.csa", "V2.2\nPI\n+\n+7776XX\n");
//! let d = Diagnostic::error(Span::new(12, 19), "unknown piece code `XX`");
//! assert_eq!(text.render(&d), "game.csa:4:1: error: unknown piece code `XX` (`+7776XX`)");
//! ```

mod diagnostic;
mod span;

pub use diagnostic::{Diagnostic, Severity};
pub use span::{LineCol, SourceText, Span};
