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

    /// Issue 36: a record of plain moves pays for no list per move. A shogi node is 80
    /// bytes (it was 136, with two lists and two optional times in every node), and a CSA
    /// game read without comments makes room for none.
    #[test]
    fn a_move_node_is_lean_and_plain_moves_carry_no_notes() {
        assert!(
            std::mem::size_of::<kifu_record::Node<kifu_shogi::Move, kifu_shogi::ShogiEnding>>()
                <= 80
        );
        let r = &csa::read("PI\n+\n+7776FU\nT12\n-3334FU\n'a comment\n%TORYO\n").records[0];
        let ids: Vec<_> = r.moves.main_line().collect();
        assert_eq!(r.moves[ids[0]].time_ms(), Some(12_000));
        assert_eq!(r.moves[ids[1]].time_ms(), None);
        assert!(r.moves[ids[0]].comments().is_empty());
        assert_eq!(r.moves[ids[1]].comments().len(), 1);
    }
}
