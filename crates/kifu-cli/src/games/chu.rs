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
        sniff(text)
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

/// Whether a text is a chu record by its content (lishogi's exports and kifu's own share
/// .kif/.json/.usi with shogi): the chu start position or name, a 12×12 board diagram, kifu's
/// chu JSON, or USI moves that leave the 9×9 board.
fn sniff(text: &str) -> bool {
    if text.contains("中将棋") || text.contains("lfcsgekgscfl") || text.contains("１２ １１")
    {
        return true;
    }
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('{') || t.starts_with('[') && t[1..].trim_start().starts_with('{') {
        return t.contains("\"rules\": \"lishogi\"")
            || t.contains("\"rules\": \"jcsa\"")
            || t.contains("\"rules\":\"lishogi\"")
            || t.contains("\"rules\":\"jcsa\"");
    }
    // CSL records (PGN-like headers, numbered moves) replay from the chu start or are not chu.
    if (t.starts_with('[') || t.starts_with("1.")) && chu_records::detect(t).name() == "csl" {
        let (record, diagnostics) = chu_records::csl::parse(t);
        return !chu_records::main_line_moves(&record).is_empty()
            && !diagnostics.iter().any(|d| d.is_error());
    }
    let first = t.split_whitespace().next().unwrap_or("");
    let usi_list =
        ["position", "startpos", "sfen"].contains(&first) || kifu_chu::parse_usi(first).is_some();
    usi_list
        && t.split_whitespace()
            .take(200)
            .any(|w| kifu_chu::parse_usi(w).is_some() && kifu_shogi::usi::parse_move(w).is_err())
}

fn ext(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}
