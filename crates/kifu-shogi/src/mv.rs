use std::fmt;

use crate::{PieceKind, Square};

/// A move: a board move with optional promotion, or a drop from hand.
///
/// Packed into 16 bits (destination, origin or dropped kind, promotion flag) so
/// that move lists are small and copying a move is free. It says nothing about
/// legality: see [`crate::Position::check_move`]. [`Display`](fmt::Display) and
/// [`FromStr`](std::str::FromStr) use the USI form (`7g7f`, `8h2b+`, `P*5e`).
///
/// ```
/// use kifu_shogi::{Move, PieceKind, Position, Square};
///
/// let drop = Move::drop(PieceKind::Pawn, Square::new(5, 5).unwrap());
/// assert_eq!(drop.to_string(), "P*5e");
/// assert_eq!((drop.from(), drop.drop_kind()), (None, Some(PieceKind::Pawn)));
///
/// let mv: Move = "7g7f".parse().unwrap();
/// assert!(Position::startpos().legal_moves().contains(&mv));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const DROP_BASE: u16 = 81;
const PROMOTE: u16 = 1 << 14;

impl Move {
    /// A placeholder that is never a legal move (from and to both 1a).
    pub(crate) const NULL: Move = Move(0);

    #[inline]
    pub(crate) const fn bits(self) -> u16 {
        self.0
    }

    #[inline]
    pub(crate) const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// A board move from `from` to `to`, promoting when `promote` is set.
    ///
    /// ```
    /// use kifu_shogi::{Move, Square};
    ///
    /// let mv = Move::normal("8h".parse().unwrap(), "2b".parse().unwrap(), true);
    /// assert_eq!(mv.to_string(), "8h2b+");
    /// assert_eq!(mv.from(), Square::new(8, 8));
    /// ```
    #[inline]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        Move(to.index() as u16 | (from.index() as u16) << 7 | if promote { PROMOTE } else { 0 })
    }

    /// A drop; `kind` must be a kind that can be held in hand (歩 … 飛).
    #[inline]
    pub const fn drop(kind: PieceKind, to: Square) -> Move {
        debug_assert!(kind.is_hand_kind());
        Move(to.index() as u16 | (DROP_BASE + kind as u16) << 7)
    }

    #[inline]
    pub(crate) const fn raw_from(self) -> usize {
        ((self.0 >> 7) & 0x7F) as usize
    }

    /// The destination (of a board move or a drop).
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 & 0x7F) as u32)
    }

    /// The origin of a board move, `None` for a drop.
    #[inline]
    pub fn from(self) -> Option<Square> {
        let f = self.raw_from();
        if f < 81 {
            Some(Square::from_index_unchecked(f as u32))
        } else {
            None
        }
    }

    /// Whether this is a drop from hand.
    #[inline]
    pub const fn is_drop(self) -> bool {
        self.raw_from() >= DROP_BASE as usize
    }

    /// The dropped kind, `None` for a board move.
    #[inline]
    pub fn drop_kind(self) -> Option<PieceKind> {
        if self.is_drop() {
            PieceKind::from_index(self.raw_from() - DROP_BASE as usize)
        } else {
            None
        }
    }

    /// Whether the moving piece promotes (never for a drop).
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }

    /// The USI form: `7g7f`, `8h2b+`, `P*5e`.
    pub fn usi(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from(), self.drop_kind()) {
            (Some(from), _) => write!(
                f,
                "{}{}{}",
                from,
                self.to(),
                if self.is_promotion() { "+" } else { "" }
            ),
            (None, Some(kind)) => write!(f, "{}*{}", kind.sfen_letter(), self.to()),
            (None, None) => f.write_str("????"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        let a = Square::parse("8h").unwrap();
        let b = Square::parse("2b").unwrap();
        let m = Move::normal(a, b, true);
        assert_eq!(
            (m.from(), m.to(), m.is_promotion(), m.is_drop()),
            (Some(a), b, true, false)
        );
        assert_eq!(m.to_string(), "8h2b+");
        let d = Move::drop(PieceKind::Rook, b);
        assert_eq!(
            (d.from(), d.drop_kind(), d.is_promotion()),
            (None, Some(PieceKind::Rook), false)
        );
        assert_eq!(d.to_string(), "R*2b");
    }
}
