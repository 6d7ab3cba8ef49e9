//! What move generation needs to know about the side to move, computed once per position and
//! shared by the generator of steps, slides and jumps and the generator of lion-type powers.

use crate::attacks::is_attacked;
use crate::piece::{COLOR_BIT, Color, EMPTY, OCCUPIED_BIT, is_lion_code};
use crate::position::Position;

/// Everything generation needs about the side to move, computed once per position.
pub(crate) struct Ctx<'a> {
    pub pos: &'a Position,
    pub us: Color,
    /// Occupied + colour bits of an enemy piece.
    pub enemy_bits: u8,
    /// Offset sign: +1 for Black, −1 for White (White's forward is +16).
    pub sign: i16,
}

impl Ctx<'_> {
    /// Empty or enemy: a square a piece may move to.
    #[inline]
    pub fn can_enter(&self, c: u8) -> bool {
        c == EMPTY || c & (OCCUPIED_BIT | COLOR_BIT) == self.enemy_bits
    }

    #[inline]
    pub fn is_enemy(&self, c: u8) -> bool {
        c & (OCCUPIED_BIT | COLOR_BIT) == self.enemy_bits
    }

    /// Whether a non-lion piece may capture `captured` on `to` given the counter-strike rule.
    #[inline]
    pub fn non_lion_may_capture(&self, captured: u8, to: usize, lifted: &[usize]) -> bool {
        let cs = self.pos.counter_strike as usize;
        if cs == 0 || !is_lion_code(captured) {
            return true;
        }
        if self.pos.rules.counter_strike_only_if_protected {
            !is_attacked(self.pos, to, self.us.opposite(), lifted)
        } else {
            to == cs
        }
    }
}
