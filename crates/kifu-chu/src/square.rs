//! Squares of the 12×12 board in lishogi coordinates.
//!
//! Internally a square is an index into a 16×16 mailbox with a two-square wall on every side, so
//! steps and distance-2 jumps never need bounds checks. Files run 1–12 from right to left as Black
//! sees the board, ranks `a`–`l` from White's back rank to Black's.

use std::fmt;

/// Number of cells in the padded mailbox.
pub(crate) const CELLS: usize = 256;

/// A square on the board (always a playable square, never a wall cell).
///
/// ```
/// use kifu_chu::Square;
///
/// let sq: Square = "12l".parse().unwrap();
/// assert_eq!((sq.file(), sq.rank(), sq.rank_char()), (12, 11, 'l'));
/// assert_eq!(Square::new(12, 11), Some(sq));
/// assert_eq!(sq.to_string(), "12l");
/// assert_eq!(Square::all().count(), 144);
/// assert!("13a".parse::<Square>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (1–12, right to left) and `rank` (0 = `a` … 11 = `l`).
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        if (1..=12).contains(&file) && rank < 12 {
            Some(Square((rank + 2) * 16 + (12 - file) + 2))
        } else {
            None
        }
    }

    /// File number, 1–12.
    pub fn file(self) -> u8 {
        12 - (self.0 % 16 - 2)
    }

    /// Rank index, 0 (`a`) – 11 (`l`).
    pub fn rank(self) -> u8 {
        self.0 / 16 - 2
    }

    /// Rank as lishogi's letter `a`–`l`.
    pub fn rank_char(self) -> char {
        (b'a' + self.rank()) as char
    }

    /// The mailbox index.
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }

    pub(crate) fn from_index(index: u8) -> Square {
        Square(index)
    }

    /// Chebyshev distance between two squares.
    pub fn distance(self, other: Square) -> u8 {
        let df = self.file().abs_diff(other.file());
        let dr = self.rank().abs_diff(other.rank());
        df.max(dr)
    }

    /// All 144 squares, rank `a` first, files 12 → 1 within a rank (SFEN order).
    pub fn all() -> impl Iterator<Item = Square> {
        (0..12u8).flat_map(|rank| {
            (1..=12u8)
                .rev()
                .map(move |file| Square::new(file, rank).unwrap())
        })
    }

    /// Parses lishogi's `7h`, `12l`, `10d` at the start of `s`; returns the square and the bytes used.
    pub fn parse_prefix(s: &str) -> Option<(Square, usize)> {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() && i < 2 && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == 0 || i >= b.len() || b[0] == b'0' {
            return None;
        }
        let file: u8 = s[..i].parse().ok()?;
        let r = b[i];
        if !(b'a'..=b'l').contains(&r) {
            return None;
        }
        Square::new(file, r - b'a').map(|sq| (sq, i + 1))
    }
}

/// A text that is not a square of the 12×12 board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a square (a file 1–12 and a rank a–l, as in `7h` or `12l`)")]
pub struct ParseSquareError(pub String);

impl std::str::FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match Square::parse_prefix(s) {
            Some((sq, n)) if n == s.len() => Ok(sq),
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), self.rank_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!(Square::all().count(), 144);
        assert_eq!(Square::new(12, 0).unwrap().to_string(), "12a");
        assert!("13a".parse::<Square>().is_err());
        assert!("0a".parse::<Square>().is_err());
        assert!("1m".parse::<Square>().is_err());
        assert!("7".parse::<Square>().is_err());
    }

    #[test]
    fn distance_is_chebyshev() {
        let a: Square = "7j".parse().unwrap();
        assert_eq!(a.distance("6h".parse().unwrap()), 2);
        assert_eq!(a.distance("7i".parse().unwrap()), 1);
    }
}
