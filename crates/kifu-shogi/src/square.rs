use std::fmt;
use std::str::FromStr;

use crate::Color;

/// One of the 81 squares.
///
/// File 1–9 counts right to left from Black's side, rank 1–9 top to bottom
/// (rank 1 is White's back rank, written `a` in USI). The index is
/// `(file − 1) · 9 + (rank − 1)`, so the squares of one file are adjacent bits
/// of a bitboard. [`Display`](fmt::Display) and [`FromStr`] use the USI form.
///
/// ```
/// use kifu_shogi::{Color, Square};
///
/// let sq = Square::new(7, 7).unwrap();
/// assert_eq!(sq.to_string(), "7g");
/// assert_eq!((sq.file(), sq.rank()), (7, 7));
/// assert!(!sq.in_promotion_zone(Color::Black));
/// assert!(sq.in_promotion_zone(Color::White));
/// assert_eq!(sq.flip().to_string(), "3c");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The number of squares, 81.
    pub const NUM: usize = 81;

    /// `None` unless both are in 1–9.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((file - 1) * 9 + (rank - 1)))
        } else {
            None
        }
    }

    /// The square of an index 0–80 (see the type's doc for the order), `None` beyond.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 81 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// # Safety-free contract
    /// Callers inside the crate pass indices they took from a bitboard of the board.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < 81);
        Square(index as u8)
    }

    /// The index 0–80: `(file − 1) · 9 + (rank − 1)`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 1–9 (the `7` of `7g`), counted from Black's right.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// The rank, 1–9 (the `g` of `7g` is 7), counted from White's side.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// Rank counted from `color`'s own side: 1 is the far rank it promotes on.
    #[inline]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Black => self.rank(),
            Color::White => 10 - self.rank(),
        }
    }

    /// Whether the square is in `color`'s promotion zone (the three far ranks).
    #[inline]
    pub const fn in_promotion_zone(self, color: Color) -> bool {
        self.relative_rank(color) <= 3
    }

    /// The same square seen from the other side (180° rotation).
    #[inline]
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// USI form such as `7g`.
    pub fn usi(self) -> [u8; 2] {
        [b'0' + self.file(), b'a' + self.rank() - 1]
    }

    /// Parses USI `7g` (also accepted: CSA-style `77`).
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'0');
        let rank = match b[1] {
            b'a'..=b'i' => b[1] - b'a' + 1,
            b'1'..=b'9' => b[1] - b'0',
            _ => return None,
        };
        Square::new(file, rank)
    }

    /// The 81 squares in index order: 1a, 1b, … 1i, 2a, … 9i.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.usi();
        write!(f, "{}{}", a as char, b as char)
    }
}

/// Text that is not a square.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a square (USI `7g`, or `77`)")]
pub struct ParseSquareError(pub String);

/// Reads what [`Square::parse`] reads: USI `7g`, also `77`.
///
/// ```
/// use kifu_shogi::Square;
///
/// let sq: Square = "7g".parse().unwrap();
/// assert_eq!(sq, Square::new(7, 7).unwrap());
/// assert_eq!(sq.to_string(), "7g");
/// assert!("0a".parse::<Square>().is_err());
/// ```
impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        Square::parse(text).ok_or_else(|| ParseSquareError(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::new(sq.file(), sq.rank()), Some(sq));
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(
            Square::parse("7g").map(|s| (s.file(), s.rank())),
            Some((7, 7))
        );
        assert_eq!(Square::parse("0a"), None);
        assert_eq!(Square::parse("9j"), None);
        assert!(Square::new(5, 3).unwrap().in_promotion_zone(Color::Black));
        assert!(!Square::new(5, 3).unwrap().in_promotion_zone(Color::White));
        assert!(Square::new(5, 7).unwrap().in_promotion_zone(Color::White));
    }
}
