//! The positions of a record an analysis asks about: each with the node of the record it
//! belongs to (where its findings are written back), what the engine is told to reach it
//! (`position sfen <start> moves …`, so that it knows the history repetitions are judged
//! on), and the key its finding is cached under.

use kifu_csa::usi::PositionCommand;
use kifu_record::{Game, NodeId};
use kifu_records::shogi::ShogiRecord;
use kifu_shogi::{Position, Shogi};

/// One position of one record.
#[derive(Clone, Debug)]
pub struct PositionTask {
    /// The record's place in the batch.
    pub record: usize,
    /// The node whose position this is: the root for the start, else the move that reached
    /// it. A finding is written as a comment of this node, as analysing GUIs write theirs.
    pub node: NodeId,
    /// Moves played from the start to this position.
    pub ply: u32,
    /// Whether the position is on the main line.
    pub main_line: bool,
    /// The position itself.
    pub position: Position,
    /// The position's SFEN, with its move number.
    pub sfen: String,
    /// `kifu`'s position key (`docs/position-key.md`).
    pub position_key: u64,
    /// What the engine is told.
    pub command: PositionCommand,
    /// The record's move from here on this line (USI), if any.
    pub played: Option<String>,
}

impl PositionTask {
    /// The cache's key of the position: its SFEN without the move number, so that a
    /// position reached in many games (or at another move number) is searched once.
    pub fn cache_key(&self) -> &str {
        self.sfen
            .rsplit_once(' ')
            .map_or(self.sfen.as_str(), |(head, _)| head)
    }

    /// Whether the rules decide the position (no legal move: the side to move has lost), so
    /// that no engine is asked.
    pub fn is_decided(&self) -> bool {
        self.position.legal_moves().is_empty()
    }
}

/// The positions of `record` (the batch's record number `index`): the start, then the
/// position after each legal move of the main line, then — with `variations` — after each
/// move of the variations, depth first. Nothing after a move the rules refuse is asked.
pub fn positions(record: &ShogiRecord, index: usize, variations: bool) -> Vec<PositionTask> {
    let tree = &record.moves;
    let start = Shogi::start_position(&record.start);
    let played_after = |node: NodeId, position: &Position| -> Option<String> {
        let child = tree.main_child(node)?;
        let mv = tree[child].mv()?;
        position.check_move(*mv).ok()?;
        Some(mv.usi())
    };
    let mut tasks = vec![PositionTask {
        record: index,
        node: tree.root(),
        ply: 0,
        main_line: true,
        sfen: start.to_sfen(),
        position_key: start.hash(),
        command: PositionCommand::from_game(&start, &[]),
        played: played_after(tree.root(), &start),
        position: start.clone(),
    }];
    let mut visit = |id: NodeId, before: &Position, mv: &kifu_shogi::Move| {
        let mut after = before.clone();
        after.play_unchecked(*mv);
        let path: Vec<kifu_shogi::Move> = tree
            .path_to(id)
            .into_iter()
            .filter_map(|n| tree[n].mv().copied())
            .collect();
        tasks.push(PositionTask {
            record: index,
            node: id,
            ply: tree[id].ply(),
            main_line: tree.is_main_line(id),
            sfen: after.to_sfen(),
            position_key: after.hash(),
            command: PositionCommand::from_game(&start, &path),
            played: played_after(id, &after),
            position: after,
        });
    };
    if variations {
        record.walk_tree(&mut visit);
    } else {
        record.walk_main_line(&mut visit);
    }
    tasks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(kif: &str) -> ShogiRecord {
        let format = kifu_records::shogi::format_by_name("kif").unwrap();
        let (_, parsed) = kifu_records::read_bytes(kif.as_bytes(), format);
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        parsed.records.into_iter().next().unwrap()
    }

    const KIF: &str = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n";

    #[test]
    fn the_main_line_gives_the_start_and_each_position_after_a_move() {
        let r = record(KIF);
        let tasks = positions(&r, 7, false);
        assert_eq!(tasks.len(), 4);
        assert!(tasks.iter().all(|t| t.main_line && t.record == 7));
        let plies: Vec<u32> = tasks.iter().map(|t| t.ply).collect();
        assert_eq!(plies, [0, 1, 2, 3]);
        assert_eq!(tasks[0].played.as_deref(), Some("7g7f"));
        assert_eq!(tasks[3].played, None);
        assert_eq!(
            tasks[2].command.to_string(),
            "position startpos moves 7g7f 3c3d"
        );
        assert_eq!(
            tasks[1].cache_key(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -"
        );
    }

    #[test]
    fn variations_add_their_positions_with_their_own_history() {
        let r = record(KIF);
        let tasks = positions(&r, 0, true);
        assert_eq!(tasks.len(), 6);
        let side: Vec<&PositionTask> = tasks.iter().filter(|t| !t.main_line).collect();
        assert_eq!(side.len(), 2);
        assert_eq!(side[0].ply, 2);
        assert!(side[0].command.to_string().ends_with("moves 7g7f 8c8d"));
        assert_eq!(side[0].played.as_deref(), Some("2g2f"));
    }
}
