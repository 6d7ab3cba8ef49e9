//! Whether a square is attacked: the question behind lion protection, counter-strike (JCSA),
//! check, bare king and draws.

use crate::piece::{COLOR_BIT, Color, DIR_OFFSETS, EMPTY, KIND_MASK, Kind, OCCUPIED_BIT, Power};
use crate::position::Position;
use crate::square::Square;

/// Offsets of the eight knight-like squares at distance 2, reached only by lion power.
const LION_OFFSETS: [i16; 8] = [-33, -31, -18, -14, 14, 18, 31, 33];

/// Whether a piece of `by` attacks the cell `target`. Cells in `lifted` count as empty for
/// blocking, but a piece of `by` standing there still attacks (lion protection is judged with the
/// capturing lion lifted and with a captured first-step piece still counted as a protector).
pub(crate) fn is_attacked(pos: &Position, target: usize, by: Color, lifted: &[usize]) -> bool {
    let board = &pos.board;
    let sign: i16 = if by == Color::Black { 1 } else { -1 };
    let by_bits = OCCUPIED_BIT | by.bit();
    let is_by = |c: u8| c & (OCCUPIED_BIT | COLOR_BIT) == by_bits;
    let t = target as i16;
    for dir in 0..8u8 {
        let bit = 1u8 << dir;
        let o = DIR_OFFSETS[dir as usize] * sign;
        let s1 = (t - o) as usize;
        let c1 = board[s1];
        if is_by(c1) {
            let m = Kind::from_u8(c1 & KIND_MASK).movement();
            if (m.steps | m.slides) & bit != 0 || power_covers(m.power, bit) {
                return true;
            }
        }
        let s2 = (t - 2 * o) as usize;
        let c2 = board[s2];
        if is_by(c2) {
            let m = Kind::from_u8(c2 & KIND_MASK).movement();
            if m.jumps & bit != 0 || power_covers(m.power, bit) {
                return true;
            }
        }
        // Sliders further away, through empty or lifted cells.
        let mut s = s1 as i16;
        let mut c = c1;
        while c == EMPTY || (c & OCCUPIED_BIT != 0 && lifted.contains(&(s as usize))) {
            s -= o;
            c = board[s as usize];
            if is_by(c) && Kind::from_u8(c & KIND_MASK).movement().slides & bit != 0 {
                return true;
            }
        }
    }
    LION_OFFSETS.iter().any(|&k| {
        let c = board[(t + k) as usize];
        is_by(c) && c & KIND_MASK == Kind::Lion as u8
    })
}

#[inline]
fn power_covers(power: Power, bit: u8) -> bool {
    match power {
        Power::None => false,
        Power::Lion => true,
        Power::Partial(mask) => mask & bit != 0,
    }
}

impl Position {
    /// Whether the side to move has a royal attacked by the other side.
    pub fn is_check(&self) -> bool {
        self.is_royal_attacked(self.turn)
    }

    /// Whether `color` has a royal (king or crown prince) attacked by the other side, whoever
    /// is to move.
    pub fn is_royal_attacked(&self, color: Color) -> bool {
        self.royals(color)
            .any(|sq| is_attacked(self, sq.index(), color.opposite(), &[]))
    }

    /// Whether a piece of `by` attacks `sq`.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        is_attacked(self, sq.index(), by, &[])
    }
}
