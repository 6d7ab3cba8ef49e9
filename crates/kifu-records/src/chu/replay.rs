//! Replaying a line of a record as a reader finds its moves: each legal move becomes a node of
//! the move tree, each rule violation a diagnostic.

use kifu_chu::{Chu, GameState, Move, Position};
use kifu_record::{Diagnostic, DiagnosticKind, Game, NodeId, NodeItem, Span};

use super::ChuRecord;

/// Where a reader stands in the record: the game so far and the node its next move hangs
/// from.
pub(crate) struct Replay {
    pub game: GameState,
    pub node: NodeId,
    /// Set after an illegal move: later moves of the line cannot be checked.
    pub broken: bool,
}

impl Replay {
    pub fn new(record: &ChuRecord) -> Replay {
        Replay {
            game: GameState::new(record.start.clone()),
            node: record.moves.root(),
            broken: false,
        }
    }

    /// A replay of the line that leads to `node` (to read a variation that branches there).
    pub fn at(record: &ChuRecord, node: NodeId) -> Replay {
        let mut game = GameState::new(record.start.clone());
        for id in record.moves.path_to(node) {
            if let NodeItem::Move(mv) = &record.moves[id].item {
                Chu::play_unchecked(&mut game, mv);
            }
        }
        Replay {
            game,
            node,
            broken: false,
        }
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The number the next move has.
    pub fn next_ply(&self, record: &ChuRecord) -> u32 {
        record.moves[self.node].ply() + 1
    }

    /// Plays a move read at `span` and adds it to the tree; on failure records a diagnostic
    /// and stops replaying the line.
    pub fn play(
        &mut self,
        record: &mut ChuRecord,
        m: Move,
        span: Span,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        if self.broken {
            return false;
        }
        let ply = self.next_ply(record);
        match self.game.play(m) {
            Ok(()) => {
                self.node = record.moves.add_move(self.node, m, span);
                true
            }
            Err(e) => {
                diags.push(Diagnostic::illegal_move(span, format!("ply {ply}: {e}")));
                self.broken = true;
                false
            }
        }
    }

    /// Whether the game is over on the board (a move here would be an error, which is
    /// reported).
    pub fn over(&self, record: &ChuRecord, span: Span, diags: &mut Vec<Diagnostic>) -> bool {
        if let Some(o) = self.game.outcome() {
            let ply = self.next_ply(record);
            diags.push(Diagnostic::error(
                DiagnosticKind::AfterEnd,
                span,
                format!("ply {ply}: move after the end of the game ({o})"),
            ));
            return true;
        }
        false
    }
}
