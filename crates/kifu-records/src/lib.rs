//! Game record files for kifu: reading them with spans and diagnostics, replaying their moves
//! with the rules of their game, and writing them back.
//!
//! The rules crates (`kifu-shogi`, `kifu-chu`, `kifu-cetkaik`) know positions, moves and move
//! notations; this crate knows files: headers, move lists and trees, comments, times, endings,
//! and what each format can and cannot hold.

pub mod cetkaik;
pub mod shogi;
