//! Training data from validated game records: the files engine learners read and the tables
//! data engines load.
//!
//! - [`packed`]: the 256-bit position codes — Apery's `HuffmanCodedPos` (cshogi's `hcp`) and
//!   YaneuraOu's `PackedSfen` — both ways;
//! - [`move16`]: cshogi's and YaneuraOu's 16-bit moves, both ways;
//! - [`training`]: the entries of cshogi's `hcpe`, dlshogi's `hcpe3` and YaneuraOu's
//!   `PackedSfenValue` files, written and read byte for byte;
//! - [`meta`]: players, ratings, result and ending of a record, evaluation and PV of a move;
//! - [`table`]: Parquet tables of plies and games for any game of the family.
//!
//! Positions come from kifu's rules engine: only moves it validated are ever exported.
//!
//! ```
//! use kifu_export::{move16, packed, training::{GameResult, Hcpe}};
//! use kifu_shogi::Position;
//!
//! let start = Position::startpos();
//! let mv = start.parse_usi_move("7g7f").unwrap();
//! let entry = Hcpe {
//!     hcp: packed::hcp(&start).unwrap(),
//!     eval: 0,
//!     best_move16: move16::cshogi_move16(mv),
//!     game_result: GameResult::BlackWin,
//! };
//! assert_eq!(entry.to_bytes().len(), 38);
//! ```

#![warn(missing_docs)]

pub mod analysis;
pub mod meta;
pub mod move16;
pub mod packed;
pub mod table;
pub mod training;
