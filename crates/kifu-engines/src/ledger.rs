//! The match's ledger: one JSON line per finished game in `ledger.jsonl`, appended and synced
//! as each game ends. It is what makes a match resumable (the same command on the same output
//! directory plays only the games the ledger lacks) and what the statistics, the JSON summary
//! and the Parquet table are computed from.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// The game's number, from 1.
    pub game: u64,
    /// The pairing's index.
    pub pairing: usize,
    /// The pair's index within the pairing.
    pub pair: u64,
    /// Black's engine.
    pub black: String,
    /// White's engine.
    pub white: String,
    /// Where the game started.
    pub opening: String,
    /// `1-0` (Black won), `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why it ended ([`crate::game::Reason::as_str`]).
    pub reason: String,
    /// What happened, in a sentence.
    pub detail: String,
    /// Plies the engines played.
    pub plies: u32,
    /// Black's thinking time, in ms.
    pub black_time_ms: u64,
    /// White's thinking time, in ms.
    pub white_time_ms: u64,
    /// The record's file name in the output directory.
    pub record: String,
    /// When the game started and ended, `YYYY/MM/DD HH:MM:SS` UTC.
    pub start_time: String,
    /// When the game ended.
    pub end_time: String,
}

impl GameRow {
    /// The score of `engine` in this game: 1, ½ or 0, `None` if it did not play.
    pub fn score_of(&self, engine: &str) -> Option<f64> {
        let black = match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        if self.black == engine {
            Some(black)
        } else if self.white == engine {
            Some(1.0 - black)
        } else {
            None
        }
    }
}

/// A ledger that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The ledger.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line that is not a game row (other than a last line cut short by a crash).
    #[error("{path}:{line}: not a game of this ledger: {reason}")]
    Line {
        /// The ledger.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// Why.
        reason: String,
    },
}

/// The open ledger.
pub struct Ledger {
    path: PathBuf,
    file: File,
}

impl Ledger {
    /// Opens (creating) `path` and reads the games already in it. A last line cut short (the
    /// process was killed while writing it) is dropped from the file: its game was not
    /// finished as far as the match is concerned, and will be played again.
    pub fn open(path: &Path) -> Result<(Ledger, Vec<GameRow>), LedgerError> {
        let io = |source| LedgerError::Io {
            path: path.to_owned(),
            source,
        };
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io(e)),
        };
        let mut rows = Vec::new();
        let mut kept = 0;
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for (i, line) in lines.iter().enumerate() {
            match serde_json::from_str::<GameRow>(line.trim_end()) {
                Ok(row) if line.ends_with('\n') => {
                    rows.push(row);
                    kept += line.len();
                }
                _ if i + 1 == lines.len() => break,
                Ok(_) => unreachable!("only the last line can lack its newline"),
                Err(e) => {
                    return Err(LedgerError::Line {
                        path: path.to_owned(),
                        line: i + 1,
                        reason: e.to_string(),
                    });
                }
            }
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        if kept < text.len() {
            file.set_len(kept as u64).map_err(io)?;
        }
        Ok((
            Ledger {
                path: path.to_owned(),
                file,
            },
            rows,
        ))
    }

    /// Appends a game and syncs it to disk before the match counts it.
    pub fn append(&mut self, row: &GameRow) -> Result<(), LedgerError> {
        let mut line = serde_json::to_string(row).expect("a game row serialises");
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|source| LedgerError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: u64) -> GameRow {
        GameRow {
            game,
            pairing: 0,
            pair: (game - 1) / 2,
            black: "a".into(),
            white: "b".into(),
            opening: "startpos".into(),
            result: "1-0".into(),
            reason: "resign".into(),
            detail: String::new(),
            plies: 10,
            black_time_ms: 5,
            white_time_ms: 6,
            record: format!("{game}.csa"),
            start_time: String::new(),
            end_time: String::new(),
        }
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_the_rest_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.jsonl");
        let (mut l, rows) = Ledger::open(&path).unwrap();
        assert!(rows.is_empty());
        l.append(&row(1)).unwrap();
        l.append(&row(2)).unwrap();
        drop(l);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{\"game\":3,\"pair");
        std::fs::write(&path, &text).unwrap();
        let (mut l, rows) = Ledger::open(&path).unwrap();
        assert_eq!(rows, [row(1), row(2)]);
        l.append(&row(3)).unwrap();
        let (_, rows) = Ledger::open(&path).unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0].score_of("b"), Some(0.0));
    }
}
