//! Chu shogi on the command line: which files are chu records (lishogi's exports share
//! `.kif`, `.json` and `.usi` with shogi) and how `kifu show` draws a position.

use std::path::Path;

use kifu_chu::{Chu, GameState};
use kifu_record::{NodeId, Record};
use kifu_records::chu as chu_records;

use crate::games::View;
use crate::games::driver::CliGame;

impl CliGame for Chu {
    /// Extensions that are chu records whatever else is around; the rest only with
    /// `--game chu`.
    fn wants(path: &Path, explicit: bool) -> bool {
        match ext(path).as_deref() {
            Some(e) if Chu::owns_extension(e) => true,
            Some("json" | "kif" | "kifu" | "usi" | "sfen" | "txt") => explicit,
            _ => false,
        }
    }

    fn owns_extension(extension: &str) -> bool {
        matches!(extension, "csl" | "chu" | "ndjson" | "jsonl")
    }

    fn claims_content(text: &str) -> bool {
        chu_records::claims_text(text)
    }

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

fn ext(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}
