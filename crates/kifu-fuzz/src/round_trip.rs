//! The write→read oracle shared by the record targets: a record read without an error, written
//! in a format that reports no loss, reads back as the same game.
//!
//! "The same game" is the same start position, the same position after every move of the main
//! line (with the same moves kept although illegal), and an ending with the same result. Moves
//! are compared by where they lead, not by how they are spelt: a chu lion's step through an
//! empty square and its jump to the same square are one move written two ways. Endings are
//! compared by their result, not their words: KIF's 反則勝ち is CSA's `%-ILLEGAL_ACTION` seen
//! from the other side.

use kifu_record::{Game, NodeItem, Outcome, Record, RecordFormat};
use kifu_records::read_bytes;

/// A game whose positions can be written down as text that is equal exactly when the
/// positions are.
pub trait Positions: Game {
    fn key(position: &Self::Position) -> String;
}

impl Positions for kifu_shogi::Shogi {
    fn key(position: &kifu_shogi::Position) -> String {
        position.to_sfen()
    }
}

impl Positions for kifu_chu::Chu {
    fn key(state: &kifu_chu::GameState) -> String {
        state.position().to_sfen()
    }
}

/// What a round trip must keep: the start, then each main-line move as the position it leads
/// to and whether it was kept although illegal, then the ending's result (None: no ending).
pub type Kept = (String, Vec<(String, bool)>, Option<Outcome>);

/// The start, main line and ending of `record`, replayed.
pub fn kept<G: Positions>(record: &Record<G>) -> Kept {
    let mut position = G::start_position(&record.start);
    let start = G::key(&position);
    let mut line = Vec::new();
    let mut ending = None;
    for id in record.moves.main_line() {
        let node = &record.moves[id];
        match &node.item {
            NodeItem::Move(mv) => {
                // A move kept although illegal is not played (as `Record::position_at`).
                if !node.illegal {
                    let _ = G::play(&mut position, mv);
                }
                line.push((G::key(&position), node.illegal));
            }
            NodeItem::End(kind) => ending = Some(kind.outcome(G::turn(&position))),
            NodeItem::Start => {}
        }
    }
    (start, line, ending)
}

/// Writes `record` in `format`; when the writer and the encoding report nothing lost, reads
/// it back and asserts the same game, read without an error.
pub fn assert_round_trip<G: Positions>(record: &Record<G>, format: &dyn RecordFormat<G>) {
    let written = format.write(std::slice::from_ref(record));
    if !written.warnings.is_empty() {
        return;
    }
    let text = written.text.clone();
    let (bytes, lost) = written.encode(format.encoding());
    if !lost.is_empty() {
        return;
    }
    let (_, again) = read_bytes(&bytes, format);
    let errors: Vec<_> = again.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(
        errors.is_empty(),
        "{}: what kifu wrote does not read back: {errors:?}\n{text}",
        format.name()
    );
    assert_eq!(
        again.records.len(),
        1,
        "{}: one record written\n{text}",
        format.name()
    );
    assert_eq!(
        kept(&again.records[0]),
        kept(record),
        "{}: the game changed in a round trip\n{text}",
        format.name()
    );
}
