//! The CKKA draft's move syntax: how one move is written in each notation and read back.
//! Files (headers, bodies, hand lines) are `kifu-records`' concern; a move's text is the
//! rules crate's, so that [`crate::Cetkaik`] can name its moves.

pub mod cursor;
pub mod full;
pub mod kanji;
pub mod machine;
pub mod phonetic;
pub mod resolve;
pub mod written;
