//! Moves and the reusable move buffer.

use std::fmt;

use crate::square::Square;

/// A move: a single step, slide or jump (`mid` is `None`), or a lion-type two-step move through
/// `mid` (igui and jitto return to `from`, so `to == from`).
///
/// ```
/// use kifu_chu::Move;
///
/// let lion: Move = "7j7i6h".parse().unwrap();
/// assert_eq!(lion.mid().map(|s| s.to_string()).as_deref(), Some("7i"));
/// assert_eq!(lion.to_string(), "7j7i6h");
/// assert!(!lion.is_promotion());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
    /// Mailbox index of the first step, 0 (a wall cell) when there is none.
    mid: u8,
    promote: bool,
}

impl Move {
    /// A move from `from` to `to`, promoting or not.
    pub fn new(from: Square, to: Square, promote: bool) -> Move {
        Move {
            from: from.index() as u8,
            to: to.index() as u8,
            mid: 0,
            promote,
        }
    }

    /// A double move (a lion's, or an area move) from `from` through `mid` to `to`.
    pub fn double(from: Square, mid: Square, to: Square) -> Move {
        Move {
            from: from.index() as u8,
            to: to.index() as u8,
            mid: mid.index() as u8,
            promote: false,
        }
    }

    #[inline]
    pub(crate) fn raw(from: u8, to: u8, mid: u8, promote: bool) -> Move {
        Move {
            from,
            to,
            mid,
            promote,
        }
    }

    /// The square the piece leaves.
    pub fn from(self) -> Square {
        Square::from_index(self.from)
    }

    /// The square the piece ends on.
    pub fn to(self) -> Square {
        Square::from_index(self.to)
    }

    /// The square passed through by a double move.
    pub fn mid(self) -> Option<Square> {
        (self.mid != 0).then(|| Square::from_index(self.mid))
    }

    /// Whether the piece promotes.
    pub fn is_promotion(self) -> bool {
        self.promote
    }

    /// A two-step move that ends where it started: igui (capture on `mid`) or jitto (pass).
    pub fn returns_to_start(self) -> bool {
        self.mid != 0 && self.from == self.to
    }

    #[inline]
    pub(crate) fn origin_cell(self) -> usize {
        self.from as usize
    }
    #[inline]
    pub(crate) fn to_cell(self) -> usize {
        self.to as usize
    }
    #[inline]
    pub(crate) fn mid_cell(self) -> usize {
        self.mid as usize
    }
}

impl fmt::Display for Move {
    /// lishogi USI: `7i7h`, `7i7h+`, `7j7i6h`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mid() {
            Some(mid) => write!(f, "{}{}{}", self.from(), mid, self.to()),
            None => write!(
                f,
                "{}{}{}",
                self.from(),
                self.to(),
                if self.promote { "+" } else { "" }
            ),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A move buffer meant to be reused: generation clears it and pushes without allocating once it
/// has grown to the largest move count seen.
#[derive(Clone, Debug)]
pub struct MoveList {
    moves: Vec<Move>,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list, with room for the moves of any position.
    pub fn new() -> MoveList {
        MoveList {
            moves: Vec::with_capacity(512),
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        self.moves.push(m);
    }

    /// Removes every move.
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there is no move.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves, in generation order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves.iter()
    }

    /// The moves as a slice.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: &Move) -> bool {
        self.moves.contains(m)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}
