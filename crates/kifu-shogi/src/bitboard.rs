use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::Square;

static SQUARE_BITS: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// A set of squares, one bit per square index (see [`Square`]). Iterating yields the
/// squares in index order, and `&`, `|`, `^` and `!` are set operations.
///
/// ```
/// use kifu_shogi::{Bitboard, Color, PieceKind, Position};
///
/// let pos = Position::startpos();
/// let pawns: Bitboard = pos.pieces(Color::Black, PieceKind::Pawn);
/// assert_eq!(pawns.count(), 9);
/// assert!(pawns.contains("7g".parse().unwrap()));
/// assert_eq!(pawns.map(|sq| sq.to_string()).next().as_deref(), Some("1g"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const FULL: Bitboard = Bitboard((1u128 << 81) - 1);

    /// A table lookup: a variable 128-bit shift costs several instructions and a branch.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BITS[sq.index()])
    }

    /// Whether no square is set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether at least one square is set.
    #[inline]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & SQUARE_BITS[sq.index()] != 0
    }

    /// How many squares are set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square set.
    #[inline]
    pub const fn has_several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The set square with the lowest index, if any (without removing it).
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros()))
        }
    }

    /// Removes and returns the lowest square. Works on the two 64-bit halves
    /// separately, which is cheaper than 128-bit arithmetic.
    #[inline]
    pub fn pop(&mut self) -> Option<Square> {
        let lo = self.0 as u64;
        if lo != 0 {
            self.0 ^= u128::from(lo & lo.wrapping_neg());
            return Some(Square::from_index_unchecked(lo.trailing_zeros()));
        }
        let hi = (self.0 >> 64) as u64;
        if hi != 0 {
            self.0 ^= u128::from(hi & hi.wrapping_neg()) << 64;
            return Some(Square::from_index_unchecked(64 + hi.trailing_zeros()));
        }
        None
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        self.pop()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign:ident, $afn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign for Bitboard {
            #[inline]
            fn $afn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}
