//! The records of one `kifu analyze` run: the inputs read (shogi only: no engine for the other
//! games is known), and each record's moves judged from the batch's findings — what both the
//! summary (`analyze_cmd`) and the files written (`analyze_output`) are made from.

use std::path::PathBuf;

use kifu_engines::analysis::batch::BatchReport;
use kifu_engines::analysis::judgement::{self, GameSummary, MoveJudgement, Thresholds};
use kifu_records::detect::GameKind;
use kifu_records::open::{Request, open};
use kifu_records::shogi::ShogiRecord;

use crate::error::CliError;

/// One input file and its records.
pub struct InputRecords {
    pub path: PathBuf,
    pub format: &'static str,
    pub records: Vec<ShogiRecord>,
}

/// The record files named, directories walked.
pub fn input_paths(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found: Vec<PathBuf> = walkdir::WalkDir::new(input)
                .into_iter()
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_file())
                .map(|e| e.into_path())
                .filter(|p| kifu_records::detect::is_record_file(p, Some(GameKind::Shogi)))
                .collect();
            found.sort();
            out.extend(found);
        } else {
            out.push(input.clone());
        }
    }
    Ok(out)
}

/// Reads every input; a file that is not a clean shogi record is reported and skipped.
pub fn read_inputs(paths: &[PathBuf], invalid: &mut bool) -> Vec<InputRecords> {
    let mut out = Vec::new();
    for path in paths {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("kifu analyze: {}: {e}", path.display());
                *invalid = true;
                continue;
            }
        };
        let opened = match open(&bytes, &Request::named(path)) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("kifu analyze: {}: {e}", path.display());
                *invalid = true;
                continue;
            }
        };
        if opened.game != GameKind::Shogi {
            eprintln!(
                "kifu analyze: {}: only shogi records can be analysed (no {} engine is known)",
                path.display(),
                opened.game.name()
            );
            *invalid = true;
            continue;
        }
        let format = kifu_records::shogi::format_by_name(opened.format)
            .expect("the front door names a format of the table");
        let parsed = kifu_record::Parsed::collect(format.records(&opened.decoded.text));
        if parsed.has_errors() {
            for d in &parsed.diagnostics {
                eprintln!("kifu analyze: {}: {}", path.display(), d.message);
            }
            *invalid = true;
            continue;
        }
        out.push(InputRecords {
            path: path.clone(),
            format: format.name(),
            records: parsed.records,
        });
    }
    out
}

/// One record's judgement.
pub struct GameJudgement {
    pub file: usize,
    pub record_in_file: usize,
    pub moves: Vec<MoveJudgement>,
    pub summary: GameSummary,
}

pub fn judge_all(
    inputs: &[InputRecords],
    report: &BatchReport,
    thresholds: &Thresholds,
) -> Vec<GameJudgement> {
    let mut out = Vec::new();
    let mut index = 0;
    for (file, input) in inputs.iter().enumerate() {
        for record_in_file in 0..input.records.len() {
            let moves = judgement::judge(&report.records[index], thresholds);
            let summary = judgement::summarise(index, &moves);
            out.push(GameJudgement {
                file,
                record_in_file,
                moves,
                summary,
            });
            index += 1;
        }
    }
    out
}

pub fn player_names(record: &ShogiRecord) -> (String, String) {
    let info = kifu_export::meta::game_info(record);
    (
        info.black.unwrap_or_else(|| "先手".to_owned()),
        info.white.unwrap_or_else(|| "後手".to_owned()),
    )
}
