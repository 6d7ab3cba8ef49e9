//! Squares of the 9×9 board: columns `K L N T Z X C M P`, rows `A E I U O Y AI AU IA`.

use std::fmt;

const COLUMNS: [&str; 9] = ["K", "L", "N", "T", "Z", "X", "C", "M", "P"];
const ROWS: [&str; 9] = ["A", "E", "I", "U", "O", "Y", "AI", "AU", "IA"];

/// One square; row 0 is `A` (the A side's back rank), row 8 is `IA`.
///
/// ```
/// use kifu_cetkaik::Square;
///
/// let sq: Square = "MAU".parse().unwrap();
/// assert_eq!(sq.to_string(), "MAU");
/// assert!("QQ".parse::<Square>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// `column` 0 = K … 8 = P, `row` 0 = A … 8 = IA.
    pub const fn new(column: u8, row: u8) -> Option<Square> {
        if column < 9 && row < 9 {
            Some(Square(row * 9 + column))
        } else {
            None
        }
    }

    /// The square of an index (0 to 80), as [`Square::index`] gives it.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 81 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square's index, 0 to 80.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column, 0 to 8.
    pub const fn column(self) -> u8 {
        self.0 % 9
    }

    /// The row, 0 to 8.
    pub const fn row(self) -> u8 {
        self.0 / 9
    }

    /// Every square, in index order.
    pub fn all() -> impl Iterator<Item = Square> + Clone {
        (0..81).map(Square)
    }

    /// The square `drow` rows down and `dcol` columns right, if on the board.
    pub fn offset(self, drow: i8, dcol: i8) -> Option<Square> {
        let r = self.row() as i8 + drow;
        let c = self.column() as i8 + dcol;
        if (0..9).contains(&r) && (0..9).contains(&c) {
            Square::new(c as u8, r as u8)
        } else {
            None
        }
    }

    /// King-move distance.
    pub fn distance(self, other: Square) -> u8 {
        let dr = (self.row() as i8 - other.row() as i8).unsigned_abs();
        let dc = (self.column() as i8 - other.column() as i8).unsigned_abs();
        dr.max(dc)
    }

    /// Whether `other` is one King step away.
    pub fn is_adjacent(self, other: Square) -> bool {
        self != other && self.distance(other) == 1
    }

    /// The squares one King step away.
    pub fn neighbours(self) -> impl Iterator<Item = Square> {
        const D: [(i8, i8); 8] = [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ];
        D.into_iter().filter_map(move |(r, c)| self.offset(r, c))
    }

    /// 皇水: the plus through the centre; entering it costs a stick throw.
    pub fn is_water(self) -> bool {
        let (c, r) = (self.column(), self.row());
        (c == 4 && (2..=6).contains(&r)) || (r == 4 && (2..=6).contains(&c))
    }

    /// 皇処 by position alone: the X through the centre.
    pub fn is_inherent_tam_hue(self) -> bool {
        let (c, r) = (self.column() as i8, self.row() as i8);
        let (dc, dr) = (c - 4, r - 4);
        (dc == dr || dc == -dr) && dc.abs() <= 2
    }

    /// The column's letter as CKKA writes it.
    pub fn column_name(self) -> &'static str {
        COLUMNS[self.column() as usize]
    }

    /// The row's letters as CKKA writes them.
    pub fn row_name(self) -> &'static str {
        ROWS[self.row() as usize]
    }

    /// Reads a square at the start of `s`; returns it and its length in bytes.
    /// Two-letter rows are tried first, so `ZAI` is Z+AI, not Z+A.
    pub fn parse_prefix(s: &str) -> Option<(Square, usize)> {
        let b = s.as_bytes();
        let col = COLUMNS
            .iter()
            .position(|c| b.first() == Some(&c.as_bytes()[0]))?;
        let rest = &s[1..];
        let (row, len) = [6usize, 7, 8, 0, 1, 2, 3, 4, 5]
            .into_iter()
            .find(|&r| rest.starts_with(ROWS[r]))
            .map(|r| (r, ROWS[r].len()))?;
        Some((Square::new(col as u8, row as u8)?, 1 + len))
    }

    /// Reads a square in any letter case (notation ③ writes `zai`).
    pub fn parse_prefix_ignore_case(s: &str) -> Option<(Square, usize)> {
        let upper: String = s.chars().take(3).map(|c| c.to_ascii_uppercase()).collect();
        Square::parse_prefix(&upper)
    }
}

/// A text that names no square (column K L N T Z X C M P, then row A E I U O Y AI AU IA).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a square (a column K L N T Z X C M P, then a row A E I U O Y AI AU IA)")]
pub struct UnknownSquare(pub String);

impl std::str::FromStr for Square {
    type Err = UnknownSquare;
    fn from_str(s: &str) -> Result<Square, UnknownSquare> {
        match Square::parse_prefix(s) {
            Some((sq, n)) if n == s.len() => Ok(sq),
            _ => Err(UnknownSquare(s.to_owned())),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.column_name())?;
        f.write_str(self.row_name())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A set of squares as an 81-bit mask: candidate generation allocates nothing.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct SquareSet(u128);

impl SquareSet {
    /// No square.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// Adds `sq`.
    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1 << sq.0;
    }

    /// Whether `sq` is in the set.
    pub fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.0) != 0
    }

    /// The squares of either set.
    pub fn union(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 | other.0)
    }

    /// Whether the set has no square.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of squares.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The squares, in index order.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            Some(Square(i as u8))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn parses_two_letter_rows_first() {
        assert_eq!(Square::parse_prefix("ZAIZAU"), Some((sq("ZAI"), 3)));
        assert_eq!(sq("ZAI").row(), 6);
        assert_eq!(sq("LIA").to_string(), "LIA");
        assert_eq!(sq("KA").index(), 0);
        assert_eq!(sq("PIA").index(), 80);
        assert!("QA".parse::<Square>().is_err());
        assert!("ZB".parse::<Square>().is_err());
        assert_eq!(
            Square::parse_prefix_ignore_case("caiPcy"),
            Some((sq("CAI"), 3))
        );
    }

    #[test]
    fn water_and_tam_hue_squares() {
        let water: Vec<String> = Square::all()
            .filter(|s| s.is_water())
            .map(|s| s.to_string())
            .collect();
        let mut expected = ["NO", "TO", "ZO", "XO", "CO", "ZI", "ZU", "ZY", "ZAI"]
            .map(String::from)
            .to_vec();
        let mut got = water.clone();
        got.sort();
        expected.sort();
        assert_eq!(got, expected);
        let mut hue: Vec<String> = Square::all()
            .filter(|s| s.is_inherent_tam_hue())
            .map(|s| s.to_string())
            .collect();
        hue.sort();
        let mut expected = ["NI", "CI", "TU", "XU", "ZO", "TY", "XY", "NAI", "CAI"]
            .map(String::from)
            .to_vec();
        expected.sort();
        assert_eq!(hue, expected);
    }

    #[test]
    fn every_square_round_trips() {
        for s in Square::all() {
            assert_eq!(s.to_string().parse::<Square>(), Ok(s));
        }
    }
}
