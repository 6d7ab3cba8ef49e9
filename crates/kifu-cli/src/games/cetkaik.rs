//! Cetkaik (机戦) on the command line: which files are CKKA records, the rule set `--rules`
//! names, and how `kifu show` draws a position.
//!
//! The records layer reads a match as its seasons, one `Record<Cetkaik>` each, handed out as
//! each season is read and replayed. Commands count the match, the unit a player thinks in,
//! so a file is one record ([`CliGame::ONE_RECORD_PER_FILE`]): `--record 1` is the match,
//! `kifu show` counts the moves of the whole match, and `kifu convert` writes the match as one
//! file, and nothing when any season has errors, so it needs every season before it writes.
//! The driver gathers a match's season records for such commands (at most four: the rules
//! end a match after its fourth season, and what a file holds after that is errors, not
//! seasons); `kifu check` takes each season's check as it is read and replayed, and keeps none.
//! Reading and replaying hold one season at a time.

use kifu_cetkaik::{Cetkaik, Event, MatchState, Rules};
use kifu_record::{NodeId, NodeItem, Record, RecordFormat, Records};
use kifu_records::cetkaik as ckka;
use kifu_records::detect::GameKind;

use crate::games::driver::CliGame;
use crate::games::{ReadOptions, View};

/// The rule set `--rules` names, the standard one without it.
pub fn rules(name: Option<&str>) -> Result<Rules, String> {
    match name {
        None => Ok(Rules::standard()),
        Some(n) => Rules::by_name(n).ok_or_else(|| format!("unknown cetkaik rule set `{n}`")),
    }
}

impl CliGame for Cetkaik {
    const KIND: GameKind = GameKind::Cetkaik;

    fn visit(records: &[Record<Self>], visitor: &mut dyn crate::games::RecordsVisitor) {
        visitor.cetkaik(records);
    }
    const ONE_RECORD_PER_FILE: bool = true;

    /// CKKA is UTF-8: UTF-16 without a byte-order mark would be valid UTF-8 full of NULs, so
    /// it is refused, not read as a text with nothing in it.
    fn refuse(bytes: &[u8]) -> Option<String> {
        if let Some(at) = bytes.iter().position(|&b| b == 0) {
            return Some(format!(
                "a NUL byte at offset {at}: UTF-16 or binary data? CKKA files must be UTF-8"
            ));
        }
        std::str::from_utf8(bytes).err().map(|e| {
            format!(
                "not UTF-8 (byte {}): CKKA files must be UTF-8",
                e.valid_up_to()
            )
        })
    }

    fn check_read_options(read: &ReadOptions<'_>) -> Result<(), String> {
        rules(read.rules).map(drop)
    }

    /// With the rule set of `--rules` for a match that names none.
    fn read<'t>(
        format: &'static dyn RecordFormat<Self>,
        text: &'t str,
        read: &ReadOptions<'_>,
    ) -> Result<Records<'t, Self>, String> {
        Ok(ckka::format::records_under(
            format,
            text,
            rules(read.rules)?,
        ))
    }

    /// `--ply` counts the moves (not the 再行 / 終季 declarations) of the whole match, across
    /// its seasons, in every command (`show`, `render`): 0 is the first season's start, and a
    /// season's last move shows the board before the next season is set up.
    fn shown_nodes(records: &[Record<Self>]) -> Vec<(usize, NodeId)> {
        let Some(first) = records.first() else {
            return Vec::new();
        };
        let mut nodes = vec![(0, first.moves.root())];
        for (index, record) in records.iter().enumerate() {
            record.walk_main_line(|id, _, _| {
                if is_move(record, id) {
                    nodes.push((index, id));
                }
            });
        }
        nodes
    }

    /// The board after `ply` moves of the match (see [`CliGame::shown_nodes`]).
    fn show_records(
        records: &[Record<Self>],
        ply: usize,
        view: View,
        colour: bool,
    ) -> Option<String> {
        if view != View::Board {
            return None;
        }
        let &(index, node) = Self::shown_nodes(records).get(ply)?;
        let state = records[index].position_at(node);
        Some(format!(
            "after {ply} moves\n{}",
            kifu_cetkaik::diagram::diagram(state.position(), colour)
        ))
    }

    /// One season's position (commands show the match through
    /// [`CliGame::show_records`]).
    fn show(
        _record: &Record<Self>,
        state: &MatchState,
        _node: NodeId,
        view: View,
        colour: bool,
    ) -> Option<String> {
        (view == View::Board).then(|| kifu_cetkaik::diagram::diagram(state.position(), colour))
    }
}

/// Whether the node is a move (not a 再行 / 終季 declaration, an ending or the start).
fn is_move(record: &Record<Cetkaik>, node: NodeId) -> bool {
    matches!(record.moves[node].item, NodeItem::Move(Event::Move { .. }))
}
