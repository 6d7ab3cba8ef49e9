//! The shogi instance of the shared record model.

use kifu_record::{NodeId, Record};
use kifu_shogi::{Position, Shogi};

pub use kifu_shogi::{StartPosition, color_of, side_of};

/// A shogi game record: header, start position and a tree of moves.
pub type ShogiRecord = Record<Shogi>;

/// What a whole-text reader returns: every record of the source (a CSA file may hold
/// several), and every problem found, with spans into the decoded text.
pub type Parsed = kifu_record::Parsed<Shogi>;

/// One record of a source read on its own, with the problems found in it (see
/// [`kifu_record::RecordFormat::records`]).
pub type RecordRead = kifu_record::RecordRead<Shogi>;

pub use kifu_record::Written;

/// The position after `node`, replayed from the start (a move kept although illegal is not
/// played). For `kifu show --ply N` use it with [`main_line_node`].
pub fn position_at(record: &ShogiRecord, node: NodeId) -> Position {
    record.position_at(node)
}

/// The main-line node after `ply` moves (0 = the start), or the last one if the line is
/// shorter.
pub fn main_line_node(record: &ShogiRecord, ply: u32) -> NodeId {
    record.main_line_node(ply)
}

/// What a format that holds one game per file writes: the first record, and a warning
/// (`"{holds_one}; N more dropped"`) when there were more.
pub(crate) fn write_first(
    records: &[ShogiRecord],
    holds_one: &str,
    write_one: fn(&ShogiRecord) -> Written,
) -> Written {
    let mut out = records.first().map(write_one).unwrap_or_default();
    if records.len() > 1 {
        let more = records.len() - 1;
        out.warnings
            .push(format!("{holds_one}; {more} more dropped"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::csa;
    use kifu_shogi::{Color, Handicap};

    #[test]
    fn positions_along_the_main_line() {
        let r = &csa::read("PI\n+\n+7776FU\n-3334FU\n%TORYO\n").records[0];
        assert_eq!(
            position_at(r, main_line_node(r, 0)).to_sfen(),
            Handicap::Even.sfen()
        );
        let after_one = position_at(r, main_line_node(r, 1));
        assert_eq!(after_one.turn(), Color::White);
        let end = position_at(r, main_line_node(r, 99));
        assert_eq!(end.move_number(), 3);
    }
}
