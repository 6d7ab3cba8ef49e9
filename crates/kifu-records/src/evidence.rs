//! Why the front door ([`crate::open`]) chose a file's game and format: what the CLI's
//! `--json` and the messages report.

use std::fmt;

/// Why a game or a format was chosen, for `--json` and messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// The user named it.
    Named,
    /// The file's extension.
    Extension,
    /// The decoded text: its first line of the given shape (1-based; 0 when the whole text
    /// was judged, as a game's JSON is).
    Content {
        /// The line that decided.
        line: usize,
        /// What that line is (`a CSA move`, `a KIF header key` …).
        shape: &'static str,
    },
    /// Nothing decided: the default game.
    Default,
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::Named => f.write_str("named by the user"),
            Evidence::Extension => f.write_str("by the file's extension"),
            Evidence::Content { line: 0, shape } => write!(f, "by its content ({shape})"),
            Evidence::Content { line, shape } => write!(f, "by line {line} ({shape})"),
            Evidence::Default => f.write_str("by default (nothing else decided)"),
        }
    }
}

/// A format's choice by a game, with why (see `GameRecords::judge_format`).
pub type Judged<F> = Option<(F, Evidence)>;
