//! KI2: KIF's header and variations with moves in the JSA notation (`▲７六歩　△３四歩`),
//! several to a line, no times and the result only in the `まで` line.
//!
//! The KIF reader reads both (KI2-style lines inside a `.kif` occur in the wild), so
//! [`read`] is the same function; [`write`] chooses the fewest relative words (右 左 直 上 寄
//! 引) that identify each move, as the JSA rules ask.

pub mod notation;

use crate::shogi::{Parsed, ShogiRecord, Written};

/// Reads KI2 (or KIF) text.
pub fn read(text: &str) -> Parsed {
    crate::shogi::kif::read(text)
}

/// Writes one record as KI2.
pub fn write(record: &ShogiRecord) -> Written {
    crate::shogi::kif::writer::write_as(record, true)
}

#[cfg(test)]
mod tests;
