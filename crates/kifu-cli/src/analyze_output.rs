//! What `kifu analyze` writes: each input's records again with the findings as comments (in
//! the dialect asked for), and the Parquet table of positions.

use std::path::{Path, PathBuf};

use kifu_engines::analysis::batch::{AnalysedPosition, BatchReport};
use kifu_engines::analysis::judgement::MoveJudgement;
use kifu_engines::analysis::{Finding, Score};
use kifu_export::analysis::{AnalysisRow, AnalysisTable};
use kifu_record::{Comment, Span};
use kifu_records::shogi::ShogiRecord;
use kifu_records::shogi::analysis_comments::{self, CommentDialect, Searcher};

use crate::analyze_records::{GameJudgement, InputRecords};
use crate::error::CliError;
use crate::inputs::FileIdentity;
use crate::output::write_atomically;

/// Where the annotated records go.
pub enum Destination {
    /// One file (one record in all).
    File(PathBuf),
    /// A directory receiving each input under its own name.
    Directory(PathBuf),
}

impl Destination {
    /// A directory when `-o` ends in `/`, exists as one, or more than one record is written.
    pub fn of(output: &Path, records: usize) -> Destination {
        let text = output.as_os_str().to_string_lossy();
        if text.ends_with('/') || output.is_dir() || records > 1 {
            Destination::Directory(output.to_owned())
        } else {
            Destination::File(output.to_owned())
        }
    }

    /// The directory the outputs (and, by default, the cache) are in.
    pub fn dir(&self) -> PathBuf {
        match self {
            Destination::Directory(d) => d.clone(),
            Destination::File(f) => match f.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
                _ => PathBuf::from("."),
            },
        }
    }
}

/// `--comments`: the dialect's name (`shogihome`, `shogigui`, `floodgate`, `csa3`).
pub fn parse_dialect(text: &str) -> Result<CommentDialect, String> {
    text.parse::<CommentDialect>().map_err(|e| e.to_string())
}

/// A finding's score as records hold one.
fn record_score(score: Score) -> kifu_record::Score {
    match score {
        Score::Centipawns(cp) => {
            kifu_record::Score::Value(cp.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
        }
        Score::Mate { black_wins, plies } => kifu_record::Score::Mate {
            winner_first: black_wins,
            plies,
        },
    }
}

/// The comments a finding adds to the node of its position, headed (in ShogiHome's dialect)
/// with the judgement of the move that led there.
fn comments(
    dialect: CommentDialect,
    position: &kifu_shogi::Position,
    finding: &Finding,
    engine: &str,
    judgement: Option<&str>,
) -> Vec<Comment> {
    let pv = finding.pv_moves(position);
    let said = analysis_comments::Finding {
        score: finding.score.map(record_score),
        pv: &pv,
        depth: finding.depth,
        nodes: finding.nodes,
        engine: (!engine.is_empty()).then_some(engine),
        judgement,
    };
    analysis_comments::comments(dialect, Searcher::Analysis, position, &said)
        .into_iter()
        .map(|(kind, text)| Comment::new(kind, text, Span::default()))
        .collect()
}

/// The record with each finding's comments added to its position's node.
fn annotated(
    record: &ShogiRecord,
    positions: &[AnalysedPosition],
    judgements: &[MoveJudgement],
    dialect: CommentDialect,
    engine: &str,
) -> ShogiRecord {
    let mut out = record.clone();
    for p in positions {
        let judgement = p
            .task
            .main_line
            .then(|| judgements.iter().find(|j| j.ply == p.task.ply))
            .flatten()
            .and_then(|j| j.class)
            .map(|c| c.japanese());
        if let Some(finding) = &p.finding
            && let Some(node) = out.moves.get_mut(p.task.node)
        {
            node.comments_mut().extend(comments(
                dialect,
                &p.task.position,
                finding,
                engine,
                judgement,
            ));
        }
    }
    out
}

fn same_file(a: &Path, b: &Path) -> bool {
    FileIdentity::of(a).is_some_and(|x| FileIdentity::of(b) == Some(x))
}

/// The format an input's records are written in.
fn target(
    input: &InputRecords,
    to: Option<&str>,
) -> Result<&'static dyn kifu_record::RecordFormat<kifu_shogi::Shogi>, CliError> {
    let name = to.unwrap_or(input.format);
    kifu_records::shogi::format_by_name(name)
        .ok_or_else(|| CliError::usage(format!("--to {name}: not a shogi format")))
}

/// Where each record of each input is written, in order, decided before anything is
/// analysed: a directory receives `NAME.EXT` (`NAME-N.EXT` for the Nth record of a file of
/// several); where two inputs would give one name (`game.csa` and `game.kif` to KIF), each
/// keeps its input's whole name before the new extension (`game.csa.kif`). An output that is
/// an input, or that two records would share, is refused.
pub fn output_paths(
    inputs: &[InputRecords],
    destination: &Destination,
    to: Option<&str>,
    input_paths: &[PathBuf],
) -> Result<Vec<PathBuf>, CliError> {
    let mut names: Vec<(usize, String, String, String)> = Vec::new();
    for (file, input) in inputs.iter().enumerate() {
        let format = target(input, to)?;
        let extension = format
            .extensions()
            .first()
            .copied()
            .unwrap_or(format.name());
        let stem = input
            .path
            .file_stem()
            .map_or_else(|| "record".into(), |s| s.to_string_lossy().into_owned());
        let whole = input
            .path
            .file_name()
            .map_or_else(|| "record".into(), |s| s.to_string_lossy().into_owned());
        let many = input.records.len() > 1;
        for n in 0..input.records.len() {
            let suffix = if many {
                format!("-{}.{extension}", n + 1)
            } else {
                format!(".{extension}")
            };
            names.push((file, stem.clone(), whole.clone(), suffix));
        }
    }
    let mut paths = Vec::with_capacity(names.len());
    for (file, stem, whole, suffix) in &names {
        let path = match destination {
            Destination::File(f) => f.clone(),
            Destination::Directory(dir) => {
                let clashes = names
                    .iter()
                    .filter(|(f, s, _, x)| f != file && s == stem && x == suffix)
                    .count()
                    > 0;
                let base = if clashes { whole } else { stem };
                dir.join(format!("{base}{suffix}"))
            }
        };
        if input_paths.iter().any(|p| same_file(p, &path)) {
            return Err(CliError::usage(format!(
                "{}: is an input; kifu analyze never writes over its inputs",
                path.display()
            )));
        }
        if paths.contains(&path) {
            return Err(CliError::usage(format!(
                "two records would both be written to {}; analyse them into separate directories",
                path.display()
            )));
        }
        paths.push(path);
    }
    Ok(paths)
}

/// Writes each input's records, annotated, to `paths` (from [`output_paths`]).
pub fn write_records(
    inputs: &[InputRecords],
    report: &BatchReport,
    paths: &[PathBuf],
    to: Option<&str>,
    dialect: Option<CommentDialect>,
    games: &[GameJudgement],
) -> Result<(), CliError> {
    let mut index = 0;
    for input in inputs {
        let format = target(input, to)?;
        let dialect = dialect.unwrap_or(if format.name() == "csa" {
            CommentDialect::Floodgate
        } else {
            CommentDialect::ShogiHome
        });
        for record in &input.records {
            let record = annotated(
                record,
                &report.records[index],
                &games[index].moves,
                dialect,
                &report.engine.name,
            );
            let path = &paths[index];
            index += 1;
            if let Some(dir) = path.parent()
                && !dir.as_os_str().is_empty()
            {
                std::fs::create_dir_all(dir)
                    .map_err(|e| CliError::Failed(format!("{}: {e}", dir.display())))?;
            }
            let text = format.write(std::slice::from_ref(&record));
            let (bytes, warnings) = text.encode(format.encoding());
            for w in warnings {
                eprintln!("kifu analyze: {}: {w}", path.display());
            }
            write_atomically(path, &bytes, true)
                .map_err(|e| CliError::Failed(format!("{}: {e}", path.display())))?;
        }
    }
    Ok(())
}

/// Writes the Parquet table of every position asked about.
pub fn write_parquet(
    path: &Path,
    inputs: &[InputRecords],
    report: &BatchReport,
    games: &[GameJudgement],
) -> Result<(), CliError> {
    let failed = |e: String| CliError::Failed(format!("{}: {e}", path.display()));
    let engine = report.engine.key();
    let budget = report.budget.to_string();
    let mut rows: Vec<u8> = Vec::new();
    let mut table = AnalysisTable::new(&mut rows).map_err(|e| failed(e.to_string()))?;
    for (i, game) in games.iter().enumerate() {
        let input = &inputs[game.file];
        let file = input.path.display().to_string();
        let positions = &report.records[i];
        let keys: Vec<u64> = positions
            .iter()
            .filter(|p| p.task.main_line)
            .map(|p| p.task.position_key)
            .collect();
        let game_key = kifu_record::game_key(&keys);
        for p in positions {
            let f = p.finding.as_ref();
            let judged = p
                .task
                .main_line
                .then(|| game.moves.iter().find(|m| m.ply == p.task.ply + 1))
                .flatten();
            let pv = f.map(|f| f.pv.join(" "));
            let reason = report
                .unanalysed
                .iter()
                .find(|u| u.record == i && u.ply == p.task.ply && u.main_line == p.task.main_line)
                .map(|u| u.reason.as_str());
            table
                .push(&AnalysisRow {
                    source_file: &file,
                    record: game.record_in_file as u32 + 1,
                    game_key: Some(game_key),
                    ply: p.task.ply + 1,
                    main_line: p.task.main_line,
                    side_to_move: match p.task.position.turn() {
                        kifu_shogi::Color::Black => "black",
                        kifu_shogi::Color::White => "white",
                    },
                    position_key: p.task.position_key,
                    sfen: &p.task.sfen,
                    mv: p.task.played.as_deref(),
                    eval: f.and_then(|f| f.score).map(|s| s.value() as i32),
                    mate: f.and_then(|f| match f.score {
                        Some(Score::Mate {
                            black_wins,
                            plies: Some(n),
                        }) => Some(if black_wins { n as i32 } else { -(n as i32) }),
                        _ => None,
                    }),
                    best: f.map(|f| f.bestmove.as_str()),
                    pv: pv.as_deref(),
                    depth: f.and_then(|f| f.depth),
                    seldepth: f.and_then(|f| f.seldepth),
                    nodes: f.and_then(|f| f.nodes),
                    loss_cp: judged.map(|m| m.loss_cp),
                    loss_win_rate: judged.map(|m| m.loss_win_rate),
                    class: judged.and_then(|m| m.class).map(|c| c.name()),
                    engine: &engine,
                    budget: &budget,
                    failure: reason,
                })
                .map_err(|e| failed(e.to_string()))?;
        }
    }
    table.finish().map_err(|e| failed(e.to_string()))?;
    write_atomically(path, &rows, true).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(path: &str, format: &'static str, records: usize) -> InputRecords {
        let csa = kifu_records::shogi::format_by_name("csa").unwrap();
        let (_, parsed) = kifu_records::read_bytes(b"PI\n+\n+7776FU\n", csa);
        let record = parsed.records.into_iter().next().unwrap();
        InputRecords {
            path: PathBuf::from(path),
            format,
            records: vec![record; records],
        }
    }

    #[test]
    fn outputs_keep_their_inputs_names_and_clashing_names_keep_the_whole_name() {
        let dir = Destination::Directory(PathBuf::from("out"));
        let inputs = [
            input("a/game.kif", "kif", 1),
            input("b/game.csa", "csa", 1),
            input("many.csa", "csa", 2),
        ];
        let paths = output_paths(&inputs, &dir, None, &[]).unwrap();
        assert_eq!(
            paths,
            [
                "out/game.kif",
                "out/game.csa",
                "out/many-1.csa",
                "out/many-2.csa"
            ]
            .map(PathBuf::from)
        );
        let paths = output_paths(&inputs, &dir, Some("kif"), &[]).unwrap();
        assert_eq!(
            paths,
            [
                "out/game.kif.kif",
                "out/game.csa.kif",
                "out/many-1.kif",
                "out/many-2.kif"
            ]
            .map(PathBuf::from)
        );
        let twice = [input("a/game.kif", "kif", 1), input("b/game.kif", "kif", 1)];
        assert!(output_paths(&twice, &dir, None, &[]).is_err());
    }
}
