//! Chu shogi on the command line: which files are chu records (lishogi's exports share
//! `.kif`, `.json` and `.usi` with shogi) and how `kifu show` draws a position.

use kifu_chu::{Chu, GameState};
use kifu_record::{NodeId, Record};
use kifu_records::detect::GameKind;

use crate::games::View;
use crate::games::driver::CliGame;

impl CliGame for Chu {
    const KIND: GameKind = GameKind::Chu;

    fn show(
        record: &Record<Chu>,
        game: &GameState,
        node: NodeId,
        view: View,
        _colour: bool,
    ) -> Option<String> {
        let ply = record.moves[node].ply();
        let position = game.position();
        match view {
            View::Sfen => Some(format!("{}\n", position.to_sfen())),
            View::Board => {
                let mut out = String::new();
                for entry in record.header.entries() {
                    out.push_str(&format!("[{} \"{}\"]\n", entry.key, entry.value));
                }
                out.push_str(&format!(
                    "after {ply} moves\n{}SFEN: {}\n",
                    position.board_text(),
                    position.to_sfen()
                ));
                Some(out)
            }
            View::Bod | View::Csa => None,
        }
    }
}
