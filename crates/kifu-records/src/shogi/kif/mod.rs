//! KIF and KIFU (Kakinoki's format): headers, handicaps, board diagrams, moves with times,
//! comments, bookmarks and variations.
//!
//! `.kif` is Shift_JIS and `.kifu` UTF-8; both are read from decoded text
//! ([`kifu_record::decode`]) and written as text ([`kifu_record::encode`] for Shift_JIS).

mod board;
mod reader;
pub mod syntax;
pub(crate) mod writer;

pub use board::write_bod;
pub(crate) use reader::header_field;
pub use reader::read;
pub(crate) use reader::read_one;
pub use writer::write;

#[cfg(test)]
mod tests;
