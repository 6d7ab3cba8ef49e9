//! JKF, the JSON Kifu Format: header, initial preset or board, moves with
//! from/to/piece/promote/same/relative/capture, times, comments, specials and forks.

mod reader;
mod writer;

pub use reader::read;
pub use writer::{to_value, write};

#[cfg(test)]
mod tests;
