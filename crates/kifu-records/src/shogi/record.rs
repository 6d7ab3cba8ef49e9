//! The shogi instance of the shared record model.

use std::sync::OnceLock;

use kifu_record::{Diagnostic, NodeId, NodeItem, Record, Side, Span};

use kifu_shogi::{Color, Handicap, Move, Position};

/// Where a shogi game starts: a named handicap (平手 included) or a custom position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartPosition {
    pub position: Position,
    /// The named start this position is, if any (`None` for a custom board).
    pub handicap: Option<Handicap>,
}

impl StartPosition {
    pub fn even() -> StartPosition {
        StartPosition::handicap(Handicap::Even)
    }

    pub fn handicap(h: Handicap) -> StartPosition {
        StartPosition {
            position: named_position(h).clone(),
            handicap: Some(h),
        }
    }

    /// A position given piece by piece; recognised as a named start when it is one.
    pub fn custom(position: Position) -> StartPosition {
        let handicap =
            if position.hand(Color::Black).is_empty() && position.hand(Color::White).is_empty() {
                Handicap::of_position(&position)
            } else {
                None
            };
        StartPosition { position, handicap }
    }
}

impl Default for StartPosition {
    fn default() -> Self {
        StartPosition::even()
    }
}

/// The named start positions, set up once (readers need one per record).
pub(crate) fn named_position(h: Handicap) -> &'static Position {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    &POSITIONS.get_or_init(|| Handicap::ALL.iter().map(|h| h.position()).collect())[h as usize]
}

/// A shogi game record: header, start position and a tree of moves.
pub type ShogiRecord = Record<Move, StartPosition>;

/// What a reader returns: every record of the source (a CSA file may hold several), and
/// every problem found, with spans into the decoded text.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub records: Vec<ShogiRecord>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Gathers streamed records into one result (what the whole-text readers return).
    pub fn collect(records: impl IntoIterator<Item = RecordRead>) -> Parsed {
        let mut parsed = Parsed::default();
        for mut one in records {
            parsed.records.push(one.record);
            parsed.diagnostics.append(&mut one.diagnostics);
        }
        parsed
    }
}

/// One record of a source read on its own, with the problems found in it (spans into the
/// whole decoded text). What the streaming readers ([`crate::shogi::Format::records`])
/// hand out: a caller checks or converts it and drops it before the next is read.
#[derive(Clone, Debug)]
pub struct RecordRead {
    pub record: ShogiRecord,
    pub diagnostics: Vec<Diagnostic>,
}

impl RecordRead {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The record as read, with an error added if it holds no game at all (no moves, no
    /// ending, no start position and no known header field): a text that is not a record
    /// must not pass as an empty but valid one. `at` is where the record started.
    pub(crate) fn checked(
        record: ShogiRecord,
        mut diagnostics: Vec<Diagnostic>,
        at: usize,
    ) -> RecordRead {
        if is_empty_record(&record) {
            diagnostics.push(Diagnostic::error(
                Span::point(at),
                "no game record here: no moves, no start position and no header",
            ));
        }
        RecordRead {
            record,
            diagnostics,
        }
    }
}

/// True when a record read holds nothing of a game (comments alone do not make one).
pub(crate) fn is_empty_record(record: &ShogiRecord) -> bool {
    record.moves.len() <= 1
        && record.start_span.is_empty()
        && record
            .header
            .entries()
            .iter()
            .all(|entry| entry.field.is_none())
}

pub fn color_of(side: Side) -> Color {
    match side {
        Side::First => Color::Black,
        Side::Second => Color::White,
    }
}

pub fn side_of(color: Color) -> Side {
    match color {
        Color::Black => Side::First,
        Color::White => Side::Second,
    }
}

/// What a writer returns: the text, and one line per thing the target format could not hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    pub text: String,
    pub warnings: Vec<String>,
}

/// The position after `node`, replayed from the start (a move kept although illegal is not
/// played). For `kifu show --ply N` use it with [`main_line_node`].
pub fn position_at(record: &ShogiRecord, node: NodeId) -> Position {
    let tree = &record.moves;
    let mut pos = record.start.position.clone();
    for id in tree.path_to(node) {
        if let NodeItem::Move(mv) = tree[id].item
            && !tree[id].illegal
        {
            pos.play(mv);
        }
    }
    pos
}

/// The main-line node after `ply` moves (0 = the start), or the last one if the line is
/// shorter.
pub fn main_line_node(record: &ShogiRecord, ply: u32) -> NodeId {
    let tree = &record.moves;
    tree.main_line()
        .take_while(|&id| tree[id].ply() <= ply && tree[id].mv().is_some())
        .last()
        .unwrap_or(tree.root())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::csa;

    #[test]
    fn positions_along_the_main_line() {
        let r = &csa::read("PI\n+\n+7776FU\n-3334FU\n%TORYO\n").records[0];
        assert_eq!(
            position_at(r, main_line_node(r, 0)).to_sfen(),
            Handicap::Even.sfen()
        );
        let after_one = position_at(r, main_line_node(r, 1));
        assert_eq!(after_one.side_to_move(), Color::White);
        let end = position_at(r, main_line_node(r, 99));
        assert_eq!(end.move_number(), 3);
    }
}
