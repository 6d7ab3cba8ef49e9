//! `kifu dedup`: the records that hold the same game, across files and formats
//! (kifu-index's `dedup` decides), and with `-o` one record per game.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use kifu_index::dedup::{DedupOptions, Group, groups};
use kifu_index::read::{IndexedGame, read_file};
use kifu_record::RecordFormat;
use kifu_records::GameRecords;
use kifu_shogi::Shogi;
use rayon::prelude::*;
use serde::Serialize;

use crate::Outcome;
use crate::error::CliError;
use crate::games::Game;
use crate::inputs::{FileReader, Input, expand};
use crate::output::Outputs;

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  kifu dedup downloads/ --json\n  \
kifu dedup site-a/ site-b/ -o merged/   (one record per game, the most complete)")]
pub struct Args {
    /// Record files, or directories to search recursively.
    #[arg(required = true, value_name = "FILE|DIR")]
    paths: Vec<PathBuf>,
    /// Write one record per game into this directory (the inputs are never changed).
    #[arg(short, long, value_name = "DIR")]
    output: Option<PathBuf>,
    /// Format of the input for every file, whatever its extension.
    #[arg(long, visible_alias = "from", value_name = "FORMAT")]
    format: Option<String>,
    /// A shorter record counts as a truncated copy only with at least this many moves.
    #[arg(long, value_name = "N", default_value_t = DedupOptions::default().min_truncated_plies)]
    min_truncated_plies: usize,
    /// Replace existing files in the output directory (never an input).
    #[arg(long)]
    force: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
}

/// A record of a group, as reported.
#[derive(Serialize)]
struct Entry<'a> {
    file: &'a str,
    /// Counted from 1.
    record: u32,
    format: &'a str,
    plies: u32,
    game_key: &'a str,
    /// Its moves are the start of the group's longest record.
    truncated: bool,
    /// The record `-o` keeps for the group.
    keep: bool,
    /// The facts in which the group's records differ, with this record's value.
    differs: BTreeMap<&'static str, Option<String>>,
}

#[derive(Serialize)]
struct Report<'a> {
    records: usize,
    games: usize,
    duplicate_groups: usize,
    truncated: usize,
    files_failed: Vec<String>,
    /// Groups of two or more records of one game.
    groups: Vec<Vec<Entry<'a>>>,
    written: Option<usize>,
}

/// The facts compared between copies, by name.
fn facts(g: &IndexedGame) -> [(&'static str, Option<String>); 9] {
    let m = &g.meta;
    [
        ("black", m.black.clone()),
        ("white", m.white.clone()),
        ("black_rating", m.black_rating.map(|r| r.to_string())),
        ("white_rating", m.white_rating.map(|r| r.to_string())),
        ("date", m.day.clone().or_else(|| m.date.clone())),
        ("event", m.event.clone()),
        ("time_control", m.time_control.clone()),
        ("result", Some(m.result.name().to_owned())),
        ("ending", Some(m.ending.clone())),
    ]
}

fn entries<'a>(games: &'a [IndexedGame], group: &Group) -> Vec<Entry<'a>> {
    let all: Vec<_> = group
        .members
        .iter()
        .map(|m| facts(&games[m.index]))
        .collect();
    let differing: Vec<usize> = (0..all[0].len())
        .filter(|&f| all.iter().any(|facts| facts[f].1 != all[0][f].1))
        .collect();
    group
        .members
        .iter()
        .zip(&all)
        .map(|(m, facts)| {
            let g = &games[m.index];
            Entry {
                file: &g.meta.file,
                record: g.meta.record,
                format: &g.meta.format,
                plies: g.meta.plies,
                game_key: &g.meta.game_key,
                truncated: m.truncated,
                keep: m.index == group.keep,
                differs: differing.iter().map(|&f| facts[f].clone()).collect(),
            }
        })
        .collect()
}

pub fn run(args: Args) -> Result<Outcome, CliError> {
    let (inputs, skipped) = expand(&args.paths, Game::filter(Game::by_name("shogi")))?;
    if inputs.is_empty() {
        return Err(CliError::usage(format!(
            "no shogi record files found ({} other files skipped)",
            skipped.len()
        )));
    }
    let pool = crate::inputs::worker_pool(args.jobs)?;
    let read: Vec<(Input, kifu_index::read::FileGames)> = pool.install(|| {
        inputs
            .par_iter()
            .map_init(FileReader::default, |reader, input| {
                let file = match reader.read(input) {
                    Ok(bytes) => read_file(
                        &input.name(),
                        input.path.as_deref(),
                        bytes,
                        args.format.as_deref(),
                    ),
                    Err(e) => kifu_index::read::FileGames {
                        failed: Some(e.to_string()),
                        ..Default::default()
                    },
                };
                (input.clone(), file)
            })
            .collect()
    });
    let mut games = Vec::new();
    // Per game: its file's input and how many records that file holds.
    let mut origin: Vec<(usize, usize)> = Vec::new();
    let mut files_failed = Vec::new();
    for (i, (input, file)) in read.iter().enumerate() {
        if let Some(why) = &file.failed {
            files_failed.push(format!("{}: {why}", input.name()));
        }
        origin.extend(std::iter::repeat_n((i, file.games.len()), file.games.len()));
    }
    for (_, file) in read.iter() {
        games.extend(file.games.iter().cloned());
    }
    let options = DedupOptions {
        min_truncated_plies: args.min_truncated_plies,
    };
    let found = groups(&games, options);
    let written = match &args.output {
        Some(dir) => Some(write_kept(
            dir, &found, &games, &origin, &read, &inputs, &args,
        )?),
        None => None,
    };
    let copies: Vec<&Group> = found.iter().filter(|g| g.members.len() > 1).collect();
    let report = Report {
        records: games.len(),
        games: found.len(),
        duplicate_groups: copies.len(),
        truncated: found
            .iter()
            .flat_map(|g| &g.members)
            .filter(|m| m.truncated)
            .count(),
        files_failed,
        groups: copies.iter().map(|g| entries(&games, g)).collect(),
        written,
    };
    let mut out = String::new();
    if args.json {
        out = serde_json::to_string(&report).map_err(|e| e.to_string())?;
        out.push('\n');
    } else {
        for p in &report.files_failed {
            out.push_str(&format!("{p}\n"));
        }
        for (n, group) in report.groups.iter().enumerate() {
            out.push_str(&format!("group {} ({} records):\n", n + 1, group.len()));
            for e in group {
                let mut notes = Vec::new();
                if e.keep {
                    notes.push("kept".to_owned());
                }
                if e.truncated {
                    notes.push(format!("truncated at {} moves", e.plies));
                }
                for (k, v) in &e.differs {
                    notes.push(format!("{k}={}", v.as_deref().unwrap_or("-")));
                }
                out.push_str(&format!(
                    "  {}#{} [{}] {} moves  {}\n",
                    e.file,
                    e.record,
                    e.format,
                    e.plies,
                    notes.join("  ")
                ));
            }
        }
        out.push_str(&format!(
            "{} records, {} games, {} with copies ({} truncated copies)\n",
            report.records, report.games, report.duplicate_groups, report.truncated
        ));
        if let (Some(n), Some(dir)) = (report.written, &args.output) {
            out.push_str(&format!("wrote {n} records into {}\n", dir.display()));
        }
    }
    std::io::stdout()
        .write_all(out.as_bytes())
        .map_err(|e| CliError::Failed(format!("writing the report: {e}")))?;
    Ok(if report.files_failed.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Invalid
    })
}

/// Writes each group's kept record into `dir`: a file that holds only that record is copied
/// byte for byte (nothing a writer could lose), a record of a file of many is written alone
/// in its file's format.
fn write_kept(
    dir: &Path,
    found: &[Group],
    games: &[IndexedGame],
    origin: &[(usize, usize)],
    read: &[(Input, kifu_index::read::FileGames)],
    inputs: &[Input],
    args: &Args,
) -> Result<usize, CliError> {
    let mut outputs = Outputs::new(inputs, args.force);
    let mut written = 0;
    for group in found {
        let (file_index, records) = origin[group.keep];
        let input = &read[file_index].0;
        let game = &games[group.keep];
        let path = input
            .path
            .as_deref()
            .ok_or_else(|| CliError::usage("-o cannot take records from standard input"))?;
        let bytes =
            std::fs::read(path).map_err(|e| CliError::Failed(format!("{}: {e}", input.name())))?;
        let relative = input.relative();
        let (target, bytes) = if records == 1 {
            (dir.join(&relative), bytes)
        } else {
            // Through the front door, as the index read it: its format is the one recorded.
            let request = kifu_records::open::Request {
                path: Some(path),
                game: Some(kifu_records::detect::GameKind::Shogi),
                format: Some(&game.meta.format),
            };
            let opened = kifu_records::open::open(&bytes, &request)
                .map_err(|e| CliError::Failed(format!("{}: {e}", input.name())))?;
            let format: &dyn RecordFormat<Shogi> = Shogi::format_by_name(opened.format)
                .ok_or_else(|| CliError::Failed(format!("no format {}", game.meta.format)))?;
            let text = opened.decoded.text;
            let record = format
                .records(&text)
                .nth(game.meta.record as usize - 1)
                .ok_or_else(|| {
                    CliError::Failed(format!(
                        "{}: record {} is gone",
                        input.name(),
                        game.meta.record
                    ))
                })?
                .record;
            let (out, warnings) = format.write(&[record]).encode(format.encoding());
            for w in warnings {
                eprintln!("kifu dedup: {}#{}: {w}", input.name(), game.meta.record);
            }
            (
                crate::output::numbered(&dir.join(&relative), &game.meta.record.to_string()),
                out,
            )
        };
        let (target, _) = outputs.claim(target);
        outputs.write(&target, &bytes).map_err(CliError::Failed)?;
        written += 1;
    }
    Ok(written)
}
