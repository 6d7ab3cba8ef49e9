//! Where a match's games start: lines of SFEN or USI `position` commands, or the first plies
//! of game records in any format kifu reads.
//!
//! A handicap start needs nothing special: the side to move comes from the position (a
//! handicap game's 上手 moves first as White), and the games of a pair swap the engines, not
//! the sides.

use std::path::{Path, PathBuf};

use kifu_record::Game;
use kifu_records::GameRecords;
use kifu_shogi::{Move, Position, Shogi};

/// One opening: a set-up position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The set-up position (no history).
    pub start: Position,
    /// The moves from `start`, each legal where it is played.
    pub moves: Vec<Move>,
    /// Where it came from, for the records and tables: `book.sfen:3`.
    pub label: String,
}

impl Opening {
    /// The standard start with no moves.
    pub fn startpos() -> Opening {
        Opening {
            start: Position::startpos(),
            moves: Vec::new(),
            label: "startpos".to_owned(),
        }
    }

    /// The position the engines start from, with the opening's moves as its history (so
    /// that 千日手 counts them).
    pub fn position(&self) -> Position {
        let mut p = self.start.clone();
        for &mv in &self.moves {
            p.play_unchecked(mv);
        }
        p
    }

    /// The opening as a USI `position` command's arguments.
    pub fn usi(&self) -> String {
        kifu_shogi::usi::PositionCommand {
            start: self.start.clone(),
            moves: self.moves.clone(),
        }
        .to_usi()
    }
}

/// An openings source that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    /// The file or directory cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line of an openings file is neither SFEN nor a `position` command.
    #[error("{path}:{line}: {reason}")]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// Why.
        reason: String,
    },
    /// Nothing to start from.
    #[error("{0}: no openings found")]
    Empty(PathBuf),
}

/// The openings of `path`: a file of SFEN / `position` lines (`#` starts a comment line), or
/// a record file or a directory of them, each record giving the position after its first
/// `plies` plies (fewer when the record is shorter).
///
/// A file counts as a list of positions when its first meaningful line reads as one; a
/// record format is told by the file's extension, else by its content.
pub fn load(path: &Path, plies: u32) -> Result<Vec<Opening>, OpeningError> {
    let io = |source| OpeningError::Io {
        path: path.to_owned(),
        source,
    };
    let mut out = Vec::new();
    if path.is_dir() {
        let mut files = Vec::new();
        collect_files(path, &mut files).map_err(io)?;
        files.sort();
        for file in files {
            let bytes = std::fs::read(&file).map_err(|source| OpeningError::Io {
                path: file.clone(),
                source,
            })?;
            out.extend(from_records(&file, &bytes, plies));
        }
    } else {
        let bytes = std::fs::read(path).map_err(io)?;
        let text = String::from_utf8_lossy(&bytes);
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'));
        match first {
            Some(line) if parse_line(line).is_ok() => out = from_lines(path, &text)?,
            _ => out = from_records(path, &bytes, plies),
        }
    }
    if out.is_empty() {
        return Err(OpeningError::Empty(path.to_owned()));
    }
    Ok(out)
}

fn collect_files(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_files(&path, files)?;
        } else {
            files.push(path);
        }
    }
    Ok(())
}

/// One line: `position startpos|sfen … [moves …]`, the same without `position`, or a bare
/// SFEN (with or without its move number) optionally followed by `moves …`.
pub fn parse_line(line: &str) -> Result<(Position, Vec<Move>), String> {
    let line = line.trim();
    let first = line.split_whitespace().next().unwrap_or("");
    let command = if matches!(first, "position" | "startpos" | "sfen") {
        line.to_owned()
    } else {
        // A bare SFEN: four fields, or three without the move number.
        let (sfen, rest) = match line.find(" moves") {
            Some(i) => (&line[..i], &line[i..]),
            None => (line, ""),
        };
        let mut sfen = sfen.trim().to_owned();
        if sfen.split_whitespace().count() == 3 {
            sfen.push_str(" 1");
        }
        format!("sfen {sfen}{rest}")
    };
    let parsed = kifu_shogi::usi::parse_position_command(&command).map_err(|e| e.to_string())?;
    Ok((parsed.start, parsed.moves))
}

fn from_lines(path: &Path, text: &str) -> Result<Vec<Opening>, OpeningError> {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (start, moves) = parse_line(line).map_err(|reason| OpeningError::Line {
            path: path.to_owned(),
            line: i + 1,
            reason,
        })?;
        out.push(Opening {
            start,
            moves,
            label: format!("{name}:{}", i + 1),
        });
    }
    Ok(out)
}

/// The openings of one record file; a file that is no shogi record gives none.
fn from_records(path: &Path, bytes: &[u8], plies: u32) -> Vec<Opening> {
    // The records layer's front door, as every command reads a record: one decode, the format
    // judged on the decoded text with the extension as a hint.
    let request = kifu_records::open::Request {
        path: Some(path),
        game: Some(kifu_records::detect::GameKind::Shogi),
        format: None,
    };
    let Ok(opened) = kifu_records::open::open(bytes, &request) else {
        return Vec::new();
    };
    let Some(format) = Shogi::format_by_name(opened.format) else {
        return Vec::new();
    };
    let parsed = kifu_record::Parsed::collect(format.records(&opened.decoded.text));
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let many = parsed.records.len() > 1;
    let mut out = Vec::new();
    for (n, record) in parsed.records.iter().enumerate() {
        let start = Shogi::start_position(&record.start).without_history();
        let mut position = start.clone();
        let mut moves = Vec::new();
        for id in record.moves.main_line() {
            if moves.len() >= plies as usize {
                break;
            }
            let node = &record.moves[id];
            let Some(&mv) = node.mv() else { break };
            // Only legal moves make an opening; a record that breaks the rules stops there.
            if node.illegal || position.play(mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        let label = if many {
            format!("{name}#{}", n + 1)
        } else {
            name.clone()
        };
        out.push(Opening {
            start,
            moves,
            label,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_every_shape() {
        let (p, m) = parse_line("position startpos moves 7g7f 3c3d").unwrap();
        assert_eq!((p, m.len()), (Position::startpos(), 2));
        let (_, m) = parse_line("startpos").unwrap();
        assert!(m.is_empty());
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
        assert_eq!(parse_line(sfen).unwrap().0, Position::startpos());
        let (_, m) = parse_line(&format!("{sfen} 1 moves 2g2f")).unwrap();
        assert_eq!(m.len(), 1);
        // A handicap (香落ち): White, the stronger side, moves first.
        let (p, _) =
            parse_line("lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1").unwrap();
        assert_eq!(p.turn(), kifu_shogi::Color::White);
        assert!(parse_line("startpos moves 7g7e").is_err());
        assert!(parse_line("hello").is_err());
    }
}
