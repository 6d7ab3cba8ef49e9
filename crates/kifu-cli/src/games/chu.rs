//! Chu shogi on the command line: which files are chu records (lishogi's exports share
//! `.kif`, `.json` and `.usi` with shogi) and how `kifu show` draws a position.

use kifu_chu::{Chu, GameState};
use kifu_record::{NodeId, Record};
use kifu_records::detect::GameKind;

use crate::error::CliError;
use crate::games::driver::CliGame;
use crate::games::{Perft, PerftRequest, View};

impl CliGame for Chu {
    const KIND: GameKind = GameKind::Chu;

    fn visit(records: &[Record<Self>], visitor: &mut dyn crate::games::RecordsVisitor) {
        visitor.chu(records);
    }
    const PERFT: bool = true;

    /// Every lion route counted (`path`, as lishogi does) unless `--counting canonical`
    /// counts each resulting position once; lishogi's rules unless `--rules jcsa`.
    fn perft(request: &PerftRequest<'_>) -> Result<Perft, CliError> {
        let counting = request.counting.unwrap_or("path");
        let counting = kifu_chu::Counting::from_name(counting).ok_or_else(|| {
            CliError::usage(format!(
                "--counting: `{counting}` is neither `path` nor `canonical`"
            ))
        })?;
        let rules = request.rules.unwrap_or("lishogi");
        let rules = kifu_chu::RuleSet::from_name(rules).ok_or_else(|| {
            CliError::usage(format!(
                "--rules: `{rules}` is neither `lishogi` nor `jcsa`"
            ))
        })?;
        let position = match request.sfen {
            None => kifu_chu::Position::startpos(),
            Some(s) => kifu_chu::Position::from_sfen(s)
                .map_err(|e| CliError::Failed(format!("--sfen: {e}")))?,
        }
        .with_rules(rules);
        let sfen = position.to_sfen();
        let divided = request.divide.then(|| {
            kifu_chu::perft_divide(&position, request.depth, counting)
                .into_iter()
                .map(|(m, n)| (m.to_string(), n))
                .collect()
        });
        Ok(Perft::of(sfen, divided, || {
            kifu_chu::perft(&position, request.depth, counting)
        }))
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
