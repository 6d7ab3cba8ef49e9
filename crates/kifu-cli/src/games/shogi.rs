//! Standard shogi on the command line: which files are shogi records, CSA's writer version,
//! and how `kifu show` draws a position (KIF board diagram, SFEN, CSA position lines).

use kifu_record::{HeaderField, NodeId, Record, RecordChecks, RecordFormat};
use kifu_records::GameRecords;
use kifu_records::detect::GameKind;
use kifu_records::shogi::csa::{CsaFormat, CsaVersion};
use kifu_records::shogi::{csa, kif};
use kifu_shogi::{Position, Shogi};

use crate::error::CliError;
use crate::games::driver::CliGame;
use crate::games::{Perft, PerftRequest, ReadOptions, View};

/// CSA V2.2, for `--to csa --csa-version 2.2` (the table's CSA writes V3.0).
static CSA_V22: CsaFormat = CsaFormat::new(CsaVersion::V22);

impl CliGame for Shogi {
    const KIND: GameKind = GameKind::Shogi;

    fn visit(records: &[Record<Self>], visitor: &mut dyn crate::games::RecordsVisitor) {
        visitor.shogi(records);
    }
    const PERFT: bool = true;

    /// Shogi has one rule set and one way of counting: naming either is a mistake, not a
    /// wish to ignore.
    fn perft(request: &PerftRequest<'_>) -> Result<Perft, CliError> {
        if request.counting.is_some() || request.rules.is_some() {
            return Err(CliError::usage(
                "--counting and --rules are chu's (lion routes, lishogi or jcsa rules); shogi \
                 perft takes neither",
            ));
        }
        let mut position = match request.sfen {
            None => Position::startpos(),
            Some(s) => {
                Position::from_sfen(s).map_err(|e| CliError::Failed(format!("--sfen: {e}")))?
            }
        };
        let sfen = position.to_sfen();
        let divided = request.divide.then(|| {
            kifu_shogi::perft_divide(&mut position.clone(), request.depth)
                .into_iter()
                .map(|(m, n)| (m.to_string(), n))
                .collect()
        });
        Ok(Perft::of(sfen, divided, || {
            kifu_shogi::perft(&mut position, request.depth)
        }))
    }

    fn target_format(name: &str, csa_version: &str) -> Option<&'static dyn RecordFormat<Shogi>> {
        let format = Shogi::format_by_name(name)?;
        Some(match format.name() {
            "csa" if csa_version == "2.2" => &CSA_V22,
            _ => format,
        })
    }

    /// Shogi reads with no options, so its formats check without building records.
    fn check<'t>(
        format: &'static dyn RecordFormat<Shogi>,
        text: &'t str,
        _read: &ReadOptions<'_>,
    ) -> Result<RecordChecks<'t>, String> {
        Ok(format.check(text))
    }

    fn show(
        record: &Record<Shogi>,
        position: &Position,
        node: NodeId,
        view: View,
        _colour: bool,
    ) -> Option<String> {
        let last = record.moves[node].mv().copied();
        Some(match view {
            View::Sfen => format!("{}\n", position.to_sfen()),
            View::Csa => csa::write_position(position),
            View::Bod => kif::write_bod(position, last),
            View::Board => {
                let mut out = String::new();
                for (key, field) in [
                    ("先手", HeaderField::FirstPlayer),
                    ("後手", HeaderField::SecondPlayer),
                ] {
                    if let Some(v) = record.header.get(field) {
                        out.push_str(&format!("{key}：{v}\n"));
                    }
                }
                out.push_str(&kif::write_bod(position, last));
                out.push_str(&format!("SFEN: {}\n", position.to_sfen()));
                out
            }
        })
    }
}
