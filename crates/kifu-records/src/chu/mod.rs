//! Chu game records: the record model and one reader/writer module per format.
//!
//! Every reader returns the record and its diagnostics (with byte spans; render them with
//! [`kifu_record::SourceText`]). Reading replays the moves with the rules, so a record that comes
//! back without errors is a legal game; after the first illegal move the rest is not replayed.

pub mod csl;
mod format;
pub mod json;
pub mod kif;
mod kif_board;
pub mod usi;

pub use format::{Format, parse_any};

use kifu_record::{Diagnostic, DiagnosticKind, Span};

use crate::game::Game;
use crate::moves::Move;
use crate::outcome::Outcome;
use crate::position::Position;

/// One move of a record, with the comments written after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub mv: Move,
    pub comments: Vec<String>,
}

/// A chu shogi game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChuRecord {
    /// Header fields in order (`Black`, `White`, `Event`, …).
    pub headers: Vec<(String, String)>,
    pub start: Position,
    pub moves: Vec<RecordMove>,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// How the record says the game ended (`resign`, `1-0`, `投了`, …), if it says.
    pub result: Option<String>,
}

impl Default for ChuRecord {
    fn default() -> ChuRecord {
        ChuRecord::new(Position::start())
    }
}

impl ChuRecord {
    pub fn new(start: Position) -> ChuRecord {
        ChuRecord {
            headers: Vec::new(),
            start,
            moves: Vec::new(),
            comments: Vec::new(),
            result: None,
        }
    }

    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    /// The game after all moves (the moves of a record read by this crate are legal).
    pub fn game(&self) -> Game {
        let mut g = Game::new(self.start.clone());
        for m in &self.moves {
            if g.play(m.mv).is_err() {
                break;
            }
        }
        g
    }

    /// How the game ended on the board, if it did.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game().outcome()
    }
}

/// Replays moves as a reader finds them and turns rule violations into diagnostics.
pub(crate) struct Replay {
    pub game: Game,
    /// Set after an illegal move: later moves cannot be checked.
    pub broken: bool,
}

impl Replay {
    pub fn new(start: Position) -> Replay {
        Replay {
            game: Game::new(start),
            broken: false,
        }
    }

    /// Plays a move read at `span`; on failure records a diagnostic and stops replaying.
    pub fn play(&mut self, m: Move, span: Span, diags: &mut Vec<Diagnostic>) -> bool {
        if self.broken {
            return false;
        }
        let ply = self.game.moves().len() + 1;
        match self.game.play(m) {
            Ok(()) => true,
            Err(e) => {
                diags.push(Diagnostic::error(
                    DiagnosticKind::IllegalMove,
                    span,
                    format!("ply {ply}: {e}"),
                ));
                self.broken = true;
                false
            }
        }
    }

    /// Whether the game is over (a move here would be an error).
    pub fn over(&self, span: Span, diags: &mut Vec<Diagnostic>) -> bool {
        if let Some(o) = self.game.outcome() {
            let ply = self.game.moves().len() + 1;
            diags.push(Diagnostic::error(
                DiagnosticKind::AfterEnd,
                span,
                format!("ply {ply}: move after the end of the game ({o})"),
            ));
            return true;
        }
        false
    }
}

/// The error for a text in which a reader found nothing of a record.
pub(crate) fn no_record(text: &str, format: &str) -> Diagnostic {
    let reason = if text.trim().is_empty() {
        "the text is empty".to_string()
    } else {
        format!("nothing in it reads as a chu {format} record")
    };
    Diagnostic::error(
        DiagnosticKind::NoRecord,
        Span::new(0, text.len()),
        format!("no chu record: {reason}"),
    )
}

/// A span shifted by `base` bytes.
pub(crate) fn span(base: usize, start: usize, end: usize) -> Span {
    Span::new(base + start, base + end)
}
