//! SFEN positions: `<board> <side> <hands> [<move number>]`.
//!
//! SFEN is the position notation of the USI protocol specification: the board rank by rank
//! from rank a (White's side), each rank from file 9 to file 1, upper case for Black's pieces,
//! lower case for White's, `+` before a promoted piece and a digit for a run of empty
//! squares; then `b` or `w` for the side to move, the pieces in hand (`-` for none) and the
//! move number. Errors give the 1-based column they start at.
//!
//! ```
//! use kifu_shogi::{Color, PieceKind, Position, Square};
//!
//! let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G2p 1").unwrap();
//! assert_eq!(pos.piece_at(Square::new(5, 3).unwrap()).map(|p| p.kind), Some(PieceKind::Pawn));
//! assert_eq!(pos.hand(Color::White).count(PieceKind::Pawn), 2);
//! assert_eq!(pos.to_sfen(), "4k4/9/4P4/9/9/9/9/9/4K4 b G2p 1");
//!
//! let err = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 x - 1").unwrap_err();
//! assert_eq!(err.column, 23);
//! ```

use std::fmt::{self, Write};
use std::str::FromStr;

use crate::{Color, Hand, Piece, PieceKind, Position, PositionError, Square};

/// A problem in an SFEN string; `column` is 1-based, in characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {reason}")]
pub struct SfenError {
    /// Where the problem starts: 1 is the first character of the text.
    pub column: usize,
    /// What is wrong, in a sentence.
    pub reason: String,
}

fn err(column: usize, reason: impl Into<String>) -> SfenError {
    SfenError {
        column,
        reason: reason.into(),
    }
}

/// Splits on spaces, keeping each field's 1-based starting column.
fn fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::with_capacity(4);
    let mut start = None;
    for (col, (i, c)) in text.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((col, i)),
            (true, Some((col0, i0))) => {
                out.push((col0 + 1, &text[i0..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((col0, i0)) = start {
        out.push((col0 + 1, &text[i0..]));
    }
    out
}

impl Position {
    /// Parses an SFEN. The move number may be left out (it then is 1).
    pub fn from_sfen(text: &str) -> Result<Position, SfenError> {
        let p = parse_fields(text)?;
        Position::from_parts(p.pieces, p.hands, p.side, p.move_number)
            .map_err(|e| position_error(p.column, &e))
    }

    /// Like [`Position::from_sfen`], but accepts the positions real records start from and
    /// play survives — 二歩 on the board, a piece that can never move again — returning
    /// those problems beside the position, as [`Position::from_parts_lenient`] does for a
    /// board read from a record's diagram. A record reader reports them as warnings, so that a
    /// start position reads the same whether it is written as an SFEN or as a diagram.
    ///
    /// ```
    /// use kifu_shogi::{Position, PositionError};
    ///
    /// // 後手 has two pawns on file 2 (a problem composition's start).
    /// let sfen = "7pk/7p1/9/9/9/9/9/9/9 b 2R 1";
    /// assert!(Position::from_sfen(sfen).is_err());
    /// let (position, tolerated) = Position::from_sfen_lenient(sfen).unwrap();
    /// assert_eq!(position.to_sfen(), sfen);
    /// assert!(matches!(tolerated[..], [PositionError::DoublePawn { .. }]));
    /// ```
    pub fn from_sfen_lenient(text: &str) -> Result<(Position, Vec<PositionError>), SfenError> {
        let p = parse_fields(text)?;
        Position::from_parts_lenient(p.pieces, p.hands, p.side, p.move_number)
            .map_err(|e| position_error(p.column, &e))
    }
}

/// The fields of an SFEN, read but not yet checked as a position.
struct SfenParts {
    /// The board field's column, where a problem of the position as a whole is reported.
    column: usize,
    pieces: Vec<(Square, Piece)>,
    hands: [Hand; 2],
    side: Color,
    move_number: u32,
}

fn parse_fields(text: &str) -> Result<SfenParts, SfenError> {
    let f = fields(text);
    if f.len() < 3 {
        return Err(err(
            text.chars().count() + 1,
            format!(
                "an SFEN has a board, a side to move and hands; found {} field(s)",
                f.len()
            ),
        ));
    }
    if f.len() > 4 {
        return Err(err(
            f[4].0,
            format!("unexpected text `{}` after the move number", f[4].1),
        ));
    }
    let pieces = parse_board(f[0].0, f[0].1)?;
    let side = match f[1].1 {
        "b" => Color::Black,
        "w" => Color::White,
        other => {
            return Err(err(
                f[1].0,
                format!("side to move must be `b` or `w`, not `{other}`"),
            ));
        }
    };
    let hands = parse_hands(f[2].0, f[2].1)?;
    let move_number = match f.get(3) {
        None => 1,
        Some(&(col, s)) => match s.parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => {
                return Err(err(
                    col,
                    format!("move number must be a positive integer, not `{s}`"),
                ));
            }
        },
    };
    Ok(SfenParts {
        column: f[0].0,
        pieces,
        hands,
        side,
        move_number,
    })
}

impl Position {
    /// The SFEN of this position, hands in the conventional order (R B G S N L P, Black first).
    pub fn to_sfen(&self) -> String {
        let mut s = String::with_capacity(96);
        self.write_sfen(&mut s);
        s
    }

    /// Appends the SFEN of this position to `s` (what [`Position::to_sfen`] returns), so that
    /// a caller writing many positions reuses one buffer.
    pub fn write_sfen(&self, s: &mut String) {
        // Characters are pushed one by one: this runs for every position an export writes,
        // and a string or a formatter per piece cost more than the rest of the position.
        let digit = |n: u8| char::from(b'0' + n);
        let piece = |s: &mut String, p: Piece| {
            if p.kind.is_promoted() {
                s.push('+');
            }
            let letter = p.kind.sfen_letter();
            s.push(match p.color {
                Color::Black => letter,
                Color::White => letter.to_ascii_lowercase(),
            });
        };
        for rank in 1..=9 {
            if rank > 1 {
                s.push('/');
            }
            let mut empty = 0;
            for file in (1..=9).rev() {
                let sq = Square::new(file, rank).expect("1..=9");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(digit(empty));
                            empty = 0;
                        }
                        piece(s, p);
                    }
                }
            }
            if empty > 0 {
                s.push(digit(empty));
            }
        }
        s.push(' ');
        s.push(self.turn().sfen_char());
        s.push(' ');
        let before = s.len();
        for color in Color::ALL {
            for kind in PieceKind::HAND.into_iter().rev() {
                let n = self.hand(color).count(kind);
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    let _ = write!(s, "{n}");
                }
                piece(s, Piece::new(color, kind));
            }
        }
        if s.len() == before {
            s.push('-');
        }
        let _ = write!(s, " {}", self.move_number());
    }
}

fn position_error(column: usize, e: &PositionError) -> SfenError {
    err(column, format!("not a playable position: {e}"))
}

fn parse_board(column: usize, text: &str) -> Result<Vec<(Square, Piece)>, SfenError> {
    let mut pieces = Vec::with_capacity(40);
    let mut rank = 1u8;
    let mut file = 9i32; // next file to fill, counting down
    let mut promoted = false;
    for (i, c) in text.chars().enumerate() {
        let col = column + i;
        match c {
            '/' => {
                if promoted {
                    return Err(err(col, "`+` must be followed by a piece letter"));
                }
                if file != 0 {
                    return Err(err(
                        col,
                        format!("rank {rank} has {} squares, not 9", 9 - file),
                    ));
                }
                rank += 1;
                if rank > 9 {
                    return Err(err(col, "a board has 9 ranks, found a 10th"));
                }
                file = 9;
            }
            '1'..='9' => {
                if promoted {
                    return Err(err(col, "`+` must be followed by a piece letter"));
                }
                file -= i32::from(c as u8 - b'0');
                if file < 0 {
                    return Err(err(col, format!("rank {rank} has more than 9 squares")));
                }
            }
            '+' => {
                if promoted {
                    return Err(err(col, "`++` is not a piece"));
                }
                promoted = true;
            }
            _ => {
                let Some(base) = PieceKind::from_sfen_letter(c) else {
                    return Err(err(
                        col,
                        format!("`{c}` is not a piece letter (K R B G S N L P)"),
                    ));
                };
                let kind = if promoted {
                    match base.promote() {
                        Some(k) => k,
                        None => return Err(err(col, format!("`+{c}`: {base} cannot be promoted"))),
                    }
                } else {
                    base
                };
                promoted = false;
                if file < 1 {
                    return Err(err(col, format!("rank {rank} has more than 9 squares")));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                let sq = Square::new(file as u8, rank).expect("checked range");
                pieces.push((sq, Piece::new(color, kind)));
                file -= 1;
            }
        }
    }
    let end = column + text.chars().count();
    if promoted {
        return Err(err(end, "`+` must be followed by a piece letter"));
    }
    if rank != 9 || file != 0 {
        return Err(err(
            end,
            format!(
                "the board ends after rank {rank}, file {}; it needs 9 full ranks",
                file + 1
            ),
        ));
    }
    Ok(pieces)
}

fn parse_hands(column: usize, text: &str) -> Result<[Hand; 2], SfenError> {
    let mut hands = [Hand::EMPTY; 2];
    if text == "-" {
        return Ok(hands);
    }
    let mut count: Option<u32> = None;
    for (i, c) in text.chars().enumerate() {
        let col = column + i;
        if let Some(d) = c.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 18 {
                return Err(err(col, "no side can hold more than 18 of a kind"));
            }
            count = Some(n);
            continue;
        }
        let kind = match PieceKind::from_sfen_letter(c) {
            Some(k) if k.is_hand_kind() => k,
            Some(_) => return Err(err(col, "a king cannot be held in hand")),
            None => {
                return Err(err(
                    col,
                    format!("`{c}` is not a piece letter (R B G S N L P)"),
                ));
            }
        };
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(err(col, "a count of 0 is not written"));
        }
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let hand = &mut hands[color.index()];
        let total = u32::from(hand.count(kind)) + n;
        if total > 18 {
            return Err(err(col, "no side can hold more than 18 of a kind"));
        }
        hand.set(kind, total as u8);
    }
    if count.is_some() {
        return Err(err(
            column + text.chars().count(),
            "a count must be followed by a piece letter",
        ));
    }
    Ok(hands)
}

/// Reads SFEN, as [`Position::from_sfen`] does.
///
/// ```
/// use kifu_shogi::Position;
///
/// let pos: Position = "4k4/9/9/9/9/9/9/9/4K4 b G 1".parse().unwrap();
/// assert_eq!(pos.to_string(), "4k4/9/9/9/9/9/9/9/4K4 b G 1");
/// assert!("not sfen".parse::<Position>().is_err());
/// ```
impl FromStr for Position {
    type Err = SfenError;

    fn from_str(text: &str) -> Result<Position, SfenError> {
        Position::from_sfen(text)
    }
}

/// Writes SFEN ([`Position::to_sfen`]); [`Position::diagram`] draws the board instead.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for s in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        ] {
            assert_eq!(Position::from_sfen(s).unwrap().to_sfen(), s);
        }
    }

    #[test]
    fn errors_name_the_column() {
        let e =
            Position::from_sfen("lnsgkgsnl/1r5b1/pppppppXp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
                .unwrap_err();
        assert_eq!(e.column, 24);
        let e =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1")
                .unwrap_err();
        assert_eq!(e.column, 59);
        let e = Position::from_sfen("9/9/9/9/9/9/9/9/9 b 19P 1").unwrap_err();
        assert!(e.reason.contains("18"), "{e}");
        let e = Position::from_sfen("P8/9/9/9/9/9/9/9/9 b - 1").unwrap_err();
        assert!(e.reason.contains("never move"), "{e}");
        assert!(Position::from_sfen("").is_err());
        assert!(Position::from_sfen("9/9/9 b -").is_err());
        assert!(Position::from_sfen("+K8/9/9/9/9/9/9/9/9 b -").is_err());
    }

    #[test]
    fn move_number_is_optional() {
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w 2P").unwrap();
        assert_eq!(p.move_number(), 1);
        assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 w 2P 1");
    }
}
