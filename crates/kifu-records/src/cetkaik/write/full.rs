//! Notation ⓪ for a played move, in a file's layout (see [`kifu_cetkaik::notation::full`]).

use super::Style;
use crate::cetkaik::game_record::PlayedMove;
pub use kifu_cetkaik::notation::full::count;
use kifu_cetkaik::notation::full::{
    move_text as full_move_text, squares_text as full_squares_text,
};

/// Notation ⓪ (full kanji): every stick result written.
pub struct Full;

/// Squares and piece of a played move, without stick marks.
pub fn squares_text(m: &PlayedMove) -> String {
    full_squares_text(m.mv, m.prof, m.tam_first_known)
}

/// The ⓪ text of one played move.
pub fn move_text(m: &PlayedMove) -> String {
    full_move_text(m.mv, m.prof, m.throws, m.tam_first_known)
}

impl Style for Full {
    fn move_text(&self, m: &PlayedMove) -> String {
        move_text(m)
    }
}
