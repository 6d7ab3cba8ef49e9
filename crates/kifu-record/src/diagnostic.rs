use std::fmt;

use crate::{SourceText, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
/// How bad a problem is: a warning keeps the record valid, an error does not.
pub enum Severity {
    /// Something kept or skipped that a user may want to know about.
    Warning,
    /// The input is invalid at this place; what was valid around it is kept.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// What kind of problem a diagnostic reports, for programs that sort or filter them
/// (`kifu check --json` prints its [`DiagnosticKind::code`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DiagnosticKind {
    /// The bytes are not text in the expected encoding (or not text at all).
    Encoding,
    /// The text does not follow the format's syntax here.
    Syntax,
    /// A move the rules of the game do not allow in its position.
    IllegalMove,
    /// A move or ending after the game had already ended.
    AfterEnd,
    /// A value that contradicts another part of the record (a total time that does not add
    /// up, a header that disagrees with the board, a result its ending does not give).
    Inconsistent,
    /// Something the reader does not know and kept as written or skipped (an unknown ending
    /// word, an unknown header key of a format that has a fixed set).
    Unknown,
    /// Nothing of a record was found.
    NoRecord,
}

impl DiagnosticKind {
    /// Every kind, in the order of [`DiagnosticKind::code`]'s list.
    pub const ALL: [DiagnosticKind; 7] = [
        DiagnosticKind::Encoding,
        DiagnosticKind::Syntax,
        DiagnosticKind::IllegalMove,
        DiagnosticKind::AfterEnd,
        DiagnosticKind::Inconsistent,
        DiagnosticKind::Unknown,
        DiagnosticKind::NoRecord,
    ];

    /// A stable, lower-case code for machines (`illegal-move`).
    pub fn code(self) -> &'static str {
        match self {
            DiagnosticKind::Encoding => "encoding",
            DiagnosticKind::Syntax => "syntax",
            DiagnosticKind::IllegalMove => "illegal-move",
            DiagnosticKind::AfterEnd => "after-end",
            DiagnosticKind::Inconsistent => "inconsistent",
            DiagnosticKind::Unknown => "unknown",
            DiagnosticKind::NoRecord => "no-record",
        }
    }
}

impl fmt::Display for DiagnosticKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A text that names no [`DiagnosticKind`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown diagnostic kind `{0}` (expected one of encoding, syntax, illegal-move, after-end, inconsistent, unknown, no-record)"
)]
/// A name that is no [`DiagnosticKind`]'s code (the name as given).
pub struct UnknownDiagnosticKind(pub String);

impl std::str::FromStr for DiagnosticKind {
    type Err = UnknownDiagnosticKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DiagnosticKind::ALL
            .into_iter()
            .find(|kind| kind.code() == s)
            .ok_or_else(|| UnknownDiagnosticKind(s.to_owned()))
    }
}

/// One problem found in a source, with where it is and a plain reason.
///
/// Readers collect these instead of stopping at the first; a [`crate::SourceText`]
/// turns the span into `file:line:column`.
///
/// ```
/// use kifu_record::{Diagnostic, DiagnosticKind, SourceText, Span};
///
/// let text = "PI\n+\n+7776FU\n-3333FU\n";
/// let d = Diagnostic::illegal_move(Span::new(13, 20), "ply 2: no piece of 後手 stands on 33");
/// assert_eq!(d.kind, DiagnosticKind::IllegalMove);
/// assert_eq!(d.kind.code(), "illegal-move");
/// assert_eq!(
///     SourceText::new("game.csa", text).render(&d),
///     "game.csa:4:1: error: ply 2: no piece of 後手 stands on 33 (`-3333FU`)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Whether the record stays valid.
    pub severity: Severity,
    /// What kind of problem it is.
    pub kind: DiagnosticKind,
    /// Where in the decoded text (byte offsets).
    pub span: Span,
    /// The reason, in plain words.
    pub message: String,
}

impl Diagnostic {
    /// A problem that makes the input invalid here.
    pub fn error(kind: DiagnosticKind, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            kind,
            span,
            message: message.into(),
        }
    }

    /// Something kept or skipped that a user may want to know about.
    pub fn warning(kind: DiagnosticKind, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            kind,
            span,
            message: message.into(),
        }
    }

    /// A syntax error: the most common diagnostic of a reader.
    pub fn syntax(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(DiagnosticKind::Syntax, span, message)
    }

    /// A move the rules do not allow.
    pub fn illegal_move(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(DiagnosticKind::IllegalMove, span, message)
    }

    /// True for errors (the record is not valid).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity, self.message)
    }
}

// Rendering lives with the diagnostic so that the source text knows nothing of diagnostics.
impl SourceText<'_> {
    /// `name:line:column: severity: message (`offending text`)`, one line.
    pub fn render(&self, diagnostic: &Diagnostic) -> String {
        let at = self.line_col(diagnostic.span.start);
        let mut offending = self.slice(diagnostic.span);
        if offending.is_empty() {
            offending = self.line_text(diagnostic.span.start);
        }
        let offending: String = offending
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(80)
            .collect();
        if offending.trim().is_empty() {
            format!(
                "{}:{}: {}: {}",
                self.name(),
                at,
                diagnostic.severity,
                diagnostic.message
            )
        } else {
            format!(
                "{}:{}: {}: {} (`{}`)",
                self.name(),
                at,
                diagnostic.severity,
                diagnostic.message,
                offending
            )
        }
    }
}
