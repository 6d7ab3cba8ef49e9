//! Why a move text could not be read as a move of its position.

use std::fmt;

use crate::moves::Move;

/// Why a move could not be read. Offsets are bytes into the move text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text is not notation at all.
    Syntax {
        /// What is wrong.
        message: String,
        /// Where the problem starts (a byte offset into the move text).
        start: usize,
        /// Where it ends.
        end: usize,
    },
    /// Readable, but no legal move fits.
    NoMove {
        /// Why no legal move fits.
        message: String,
    },
    /// Several legal moves fit (listed, written in CSL notation).
    Ambiguous {
        /// Each fitting move with its CSL text.
        candidates: Vec<(Move, String)>,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Syntax { message, .. } | NotationError::NoMove { message } => {
                f.write_str(message)
            }
            NotationError::Ambiguous { candidates } => {
                let list: Vec<String> = candidates
                    .iter()
                    .map(|(m, s)| format!("{s} ({m})"))
                    .collect();
                write!(f, "ambiguous: could be {}", list.join(", "))
            }
        }
    }
}

impl std::error::Error for NotationError {}
