//! An archive of shogi games you can ask: which games reached a position whatever the move
//! order, what was played from it and how it went, and which records are copies of one game.
//!
//! ```
//! use kifu_index::{archive::Archive, query, read, writer::ArchiveWriter};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("games.kidx");
//! let csa = "N+sente\nN-gote\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n%TORYO\n";
//! let file = read::read_file("a.csa", None, csa.as_bytes(), None);
//! let mut writer = ArchiveWriter::create(&path).unwrap();
//! for game in &file.games {
//!     writer.add(game).unwrap();
//! }
//! writer.finish().unwrap();
//!
//! let archive = Archive::open(&path).unwrap();
//! let start = query::parse_position("startpos").unwrap();
//! let explored = query::explore(&archive, &start, &query::Filter::default(), 5).unwrap();
//! assert_eq!(explored.moves[0].mv, "7g7f");
//! assert_eq!(explored.moves[0].games, 1);
//! let after = query::parse_position("startpos moves 2g2f 3c3d 7g7f").unwrap();
//! let found = query::find(&archive, &after, &query::Filter::default(), None).unwrap();
//! assert_eq!((found[0].record, found[0].ply), (1, 3)); // reached by another move order
//! ```
//!
//! The modules, in the order data flows: [`key`] (the position and game keys), [`read`]
//! (records replayed into keys and facts), [`entry`] and [`games`] (the rows on disk),
//! [`writer`] (building and extending, with [`file_list`] naming the files indexed),
//! [`archive`] (opening), [`query`] (explore and find),
//! [`dedup`] (copies of one game).

pub mod archive;
pub mod dedup;
pub mod entry;
pub mod file_list;
pub mod games;
pub mod key;
pub mod query;
pub mod read;
pub mod writer;
