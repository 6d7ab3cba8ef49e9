//! USI moves (`7g7f`, `8h2b+`, `P*5e`) and `position startpos|sfen … moves …` lines.
//!
//! The forms are those of the USI protocol specification (the Universal Shogi Interface,
//! as published with Shogidokoro): a board move is its origin and destination square, file
//! digit then rank letter, with `+` for a promotion; a drop is the upper-case piece letter,
//! `*` and the destination. Positions are SFEN ([`crate::sfen`]).
//!
//! ```
//! use kifu_shogi::usi;
//!
//! let cmd = usi::parse_position_command("position startpos moves 7g7f 3c3d").unwrap();
//! assert_eq!(cmd.moves.len(), 2);
//! assert_eq!(cmd.end().to_sfen(), "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
//! assert_eq!(cmd.to_usi(), "position startpos moves 7g7f 3c3d");
//!
//! // Syntax alone, without a position:
//! assert_eq!(usi::parse_move("P*5e").unwrap().to_string(), "P*5e");
//! ```

use std::str::FromStr;

use crate::{IllegalMove, Move, PieceKind, Position, Square};

/// A problem in USI text; `column` is 1-based, in characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {reason}")]
pub struct UsiError {
    /// Where the problem starts: 1 is the first character of the line.
    pub column: usize,
    /// What is wrong, in a sentence (for a move, its [`UsiMoveError`] with the ply number).
    pub reason: String,
}

/// Why text is not a USI move, or not a legal one.
///
/// ```
/// use kifu_shogi::{Position, UsiMoveError};
///
/// let pos = Position::startpos();
/// assert!(matches!(pos.parse_usi_move("7g7"), Err(UsiMoveError::NotAMove { .. })));
/// assert!(matches!(pos.parse_usi_move("7g7e"), Err(UsiMoveError::Illegal { .. })));
/// assert_eq!(pos.parse_usi_move("7g7f").unwrap().to_string(), "7g7f");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsiMoveError {
    /// The text ends before its second square.
    #[error("`{text}` is cut short")]
    CutShort {
        /// The move text.
        text: String,
    },
    /// A square is not a digit 1–9 followed by a letter a–i.
    #[error("`{text}` is not a square (file 1–9, rank a–i)")]
    NotASquare {
        /// The two characters that should be a square.
        text: String,
    },
    /// A drop names something other than an upper-case hand piece.
    #[error("`{letter}` is not a piece that can be dropped (R B G S N L P)")]
    NotADropPiece {
        /// The letter before `*`.
        letter: char,
    },
    /// The text has neither the shape of a board move nor of a drop.
    #[error("`{text}` is not a USI move (like 7g7f, 8h2b+ or P*5e)")]
    NotAMove {
        /// The text.
        text: String,
    },
    /// Well-formed, but illegal in the position.
    #[error("{text}: {reason}")]
    Illegal {
        /// The move text.
        text: String,
        /// The rule it breaks.
        reason: IllegalMove,
    },
}

/// Parses the syntax of one USI move; legality is the position's business
/// (see [`Position::parse_usi_move`]).
pub fn parse_move(text: &str) -> Result<Move, UsiMoveError> {
    let b = text.as_bytes();
    let square = |i: usize| -> Result<Square, UsiMoveError> {
        let s = text.get(i..i + 2).ok_or_else(|| UsiMoveError::CutShort {
            text: text.to_owned(),
        })?;
        Square::parse(s)
            .filter(|_| b[i + 1].is_ascii_lowercase())
            .ok_or_else(|| UsiMoveError::NotASquare { text: s.to_owned() })
    };
    match b {
        [p, b'*', _, _] => {
            let kind = PieceKind::from_sfen_letter(*p as char)
                .filter(|k| k.is_hand_kind() && p.is_ascii_uppercase())
                .ok_or(UsiMoveError::NotADropPiece { letter: *p as char })?;
            Ok(Move::drop(kind, square(2)?))
        }
        [_, _, _, _] | [_, _, _, _, b'+'] => Ok(Move::normal(square(0)?, square(2)?, b.len() == 5)),
        _ => Err(UsiMoveError::NotAMove {
            text: text.to_owned(),
        }),
    }
}

/// Reads a USI move's syntax, as [`parse_move`] does; whether it is legal depends on a
/// position ([`Position::parse_usi_move`]).
///
/// ```
/// use kifu_shogi::Move;
///
/// let mv: Move = "8h2b+".parse().unwrap();
/// assert!(mv.is_promotion());
/// assert_eq!(mv.to_string(), "8h2b+");
/// assert!("K*5e".parse::<Move>().is_err());
/// ```
impl FromStr for Move {
    type Err = UsiMoveError;

    fn from_str(text: &str) -> Result<Move, UsiMoveError> {
        parse_move(text)
    }
}

impl Position {
    /// Parses a USI move and checks it is legal here.
    pub fn parse_usi_move(&self, text: &str) -> Result<Move, UsiMoveError> {
        let mv = parse_move(text)?;
        self.check_move(mv)
            .map_err(|reason| UsiMoveError::Illegal {
                text: text.to_owned(),
                reason,
            })?;
        Ok(mv)
    }
}

/// A game given as a USI `position` command.
#[derive(Clone, Debug)]
pub struct PositionCommand {
    /// Where the game starts.
    pub start: Position,
    /// The moves played from `start`, each legal where it is played.
    pub moves: Vec<Move>,
}

impl PositionCommand {
    /// The position after every move, with the moves as its history.
    pub fn end(&self) -> Position {
        let mut pos = self.start.clone();
        for &mv in &self.moves {
            pos.play_unchecked(mv);
        }
        pos
    }

    /// `position startpos moves …` or `position sfen … moves …`.
    pub fn to_usi(&self) -> String {
        let sfen = self.start.to_sfen();
        let mut s = if sfen == Position::startpos().to_sfen() {
            "position startpos".to_string()
        } else {
            format!("position sfen {sfen}")
        };
        if !self.moves.is_empty() {
            s.push_str(" moves");
            for m in &self.moves {
                s.push(' ');
                s.push_str(&m.to_string());
            }
        }
        s
    }
}

/// Parses `[position] startpos|sfen <sfen> [moves m1 m2 …]`, replaying every move.
pub fn parse_position_command(line: &str) -> Result<PositionCommand, UsiError> {
    let mut words = Vec::new();
    let mut start = None;
    for (col, (i, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((col + 1, i)),
            (true, Some((c0, i0))) => {
                words.push((c0, &line[i0..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((c0, i0)) = start {
        words.push((c0, &line[i0..]));
    }
    let mut w = words.as_slice();
    if let [(_, "position"), rest @ ..] = w {
        w = rest;
    }
    let end_col = line.chars().count() + 1;
    let (pos, rest) = match w {
        [(_, "startpos"), rest @ ..] => (Position::startpos(), rest),
        [(col, "sfen"), rest @ ..] => {
            let n = rest
                .iter()
                .position(|(_, s)| *s == "moves")
                .unwrap_or(rest.len());
            let (first, last) = match (rest.first(), rest[..n].last()) {
                (Some(a), Some(b)) => (a, b),
                _ => {
                    return Err(UsiError {
                        column: *col,
                        reason: "`sfen` needs a position".into(),
                    });
                }
            };
            let from = byte_offset(line, first.0);
            let to = byte_offset(line, last.0) + last.1.len();
            let pos = Position::from_sfen(&line[from..to]).map_err(|e| UsiError {
                column: first.0 + e.column - 1,
                reason: e.reason,
            })?;
            (pos, &rest[n..])
        }
        [(col, other), ..] => {
            return Err(UsiError {
                column: *col,
                reason: format!("expected `startpos` or `sfen`, found `{other}`"),
            });
        }
        [] => {
            return Err(UsiError {
                column: end_col,
                reason: "expected `startpos` or `sfen`".into(),
            });
        }
    };
    let mut command = PositionCommand {
        start: pos.without_history(),
        moves: Vec::new(),
    };
    let moves = match rest {
        [] => return Ok(command),
        [(_, "moves"), moves @ ..] => moves,
        [(col, other), ..] => {
            return Err(UsiError {
                column: *col,
                reason: format!("expected `moves`, found `{other}`"),
            });
        }
    };
    let mut pos = pos;
    command.moves.reserve(moves.len());
    for (i, &(col, text)) in moves.iter().enumerate() {
        let mv = pos.parse_usi_move(text).map_err(|reason| UsiError {
            column: col,
            reason: format!("ply {}: {reason}", i + 1),
        })?;
        pos.play_unchecked(mv);
        command.moves.push(mv);
    }
    Ok(command)
}

fn byte_offset(line: &str, column: usize) -> usize {
    line.char_indices()
        .nth(column - 1)
        .map_or(line.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_parse_and_print() {
        for m in ["7g7f", "8h2b+", "P*5e", "R*1a"] {
            assert_eq!(parse_move(m).unwrap().to_string(), m);
        }
        for bad in [
            "", "7g7", "7g7j", "0a1a", "K*5e", "p*5e", "7g7f=", "P*5", "7G7F",
        ] {
            assert!(parse_move(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn position_commands() {
        let c = parse_position_command("position startpos moves 7g7f 3c3d 8h2b+").unwrap();
        assert_eq!(c.moves.len(), 3);
        assert_eq!(c.to_usi(), "position startpos moves 7g7f 3c3d 8h2b+");
        let c = parse_position_command("sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b").unwrap();
        assert_eq!(c.end().to_sfen(), "4k4/4G4/9/9/9/9/9/9/4K4 w - 2");
        let e = parse_position_command("position startpos moves 7g7f 7g7f").unwrap_err();
        assert_eq!(e.column, 30);
        assert!(e.reason.starts_with("ply 2: 7g7f:"), "{}", e.reason);
        let e = parse_position_command("position sfen 4k4/9/9/9/9/9/9/9/4K4 b X 1").unwrap_err();
        assert_eq!(e.column, 39);
    }
}
