//! `kifu index`: builds an archive of shogi games that `kifu explore` and `kifu find` ask
//! (kifu-index does the work; this reads the files and reports).
//!
//! Files are read and replayed in parallel, a batch at a time, and added to the archive in
//! the order they were named, so game numbers do not depend on thread timing and memory holds
//! one batch of files plus the archive writer's sort buffer.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use kifu_index::read::{FileGames, read_file_each};
use kifu_index::writer::{Added, ArchiveWriter, PreparedGames};
use rayon::prelude::*;
use serde::Serialize;

use crate::Outcome;
use crate::error::CliError;
use crate::games::Game;
use crate::inputs::{FileReader, Input, expand};

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  kifu index records/ -o games.kidx\n  \
kifu index new/ -o games.kidx --append   (adds files not in it yet)\n  \
kifu explore games.kidx startpos")]
pub struct Args {
    /// Record files, or directories to search recursively; `-` reads standard input.
    #[arg(required = true, value_name = "FILE|DIR")]
    paths: Vec<PathBuf>,
    /// The archive to write (a directory; by habit `NAME.kidx`).
    #[arg(short, long, value_name = "ARCHIVE")]
    output: PathBuf,
    /// Add the files to an existing archive (files it holds already are skipped).
    #[arg(long)]
    append: bool,
    /// Format of the input (csa, kif, kifu, ki2, jkf, usi …) for every file, whatever its
    /// extension.
    #[arg(long, visible_alias = "from", value_name = "FORMAT")]
    format: Option<String>,
    /// Positions held in memory before they are sorted and spilled to disk (16 bytes each).
    #[arg(long, value_name = "N", default_value_t = kifu_index::writer::DEFAULT_RUN_ENTRIES)]
    sort_buffer: usize,
    /// Print one JSON document instead of the summary table.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// Print only the summary, not each problem found.
    #[arg(long, short)]
    quiet: bool,
}

/// Files read at once before their games are added: at most this many …
const BATCH_FILES: usize = 256;
/// … and no more bytes than this, unless that leaves a core without a file. Two batches are
/// in memory at once (one read, one added), each as its text and its prepared games.
const BATCH_BYTES: u64 = 48 << 20;

/// One file, read and replayed on a worker thread.
struct ReadFile {
    name: String,
    file: FileGames,
    games: PreparedGames,
}

fn read_one(input: &Input, reader: &mut FileReader, format: Option<&str>) -> ReadFile {
    let name = input.name();
    let mut games = PreparedGames::default();
    let file = match reader.read(input) {
        Ok(bytes) => read_file_each(&name, input.path.as_deref(), bytes, format, |game| {
            games.push(&game)
        }),
        Err(e) => FileGames {
            failed: Some(e.to_string()),
            ..FileGames::default()
        },
    };
    ReadFile { name, file, games }
}

/// The inputs cut into batches: consecutive files up to [`BATCH_FILES`] and [`BATCH_BYTES`],
/// but at least one file per thread, so that large files still keep every core busy.
fn batches(inputs: &[Input], threads: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut bytes = 0;
    for (i, input) in inputs.iter().enumerate() {
        bytes += input
            .path
            .as_deref()
            .and_then(|p| std::fs::metadata(p).ok())
            .map_or(0, |m| m.len());
        let files = i + 1 - start;
        if files >= BATCH_FILES || (bytes >= BATCH_BYTES && files >= threads) {
            out.push(start..i + 1);
            start = i + 1;
            bytes = 0;
        }
    }
    if start < inputs.len() {
        out.push(start..inputs.len());
    }
    out
}

fn join<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Adds a batch's games to the archive, in the order the files were named.
fn add_files(
    writer: &mut ArchiveWriter,
    summary: &mut Summary,
    files: Vec<ReadFile>,
) -> Result<(), kifu_index::archive::ArchiveError> {
    for ReadFile { name, file, games } in files {
        summary.files += 1;
        if let Some(why) = file.failed {
            summary.files_failed += 1;
            summary.problems.push(format!("{name}: error: {why}"));
            continue;
        }
        summary.records += games.len();
        summary.records_cut_at_error += file.cut_at_error;
        summary.records_cut_long += file.cut_long;
        summary.problems.extend(file.problems);
        for game in games.iter() {
            writer.add_prepared(game)?;
        }
        writer.add_file(&name)?;
    }
    Ok(())
}

#[derive(Debug, Default, Serialize)]
struct Summary {
    archive: String,
    files: usize,
    files_failed: usize,
    files_already_indexed: usize,
    records: usize,
    records_cut_at_error: usize,
    records_cut_long: usize,
    #[serde(flatten)]
    added: Added,
    bytes_per_position: f64,
    seconds: f64,
    games_per_second: f64,
    problems: Vec<String>,
}

pub fn run(args: Args) -> Result<Outcome, CliError> {
    let shogi = Game::by_name("shogi");
    let (inputs, skipped) = expand(&args.paths, Game::filter(shogi))?;
    // The archive's own files are no records, should it lie inside a directory named. A new
    // archive has none yet: then no input is asked.
    let archive = std::fs::canonicalize(&args.output).ok();
    let inside_archive = |input: &Input| {
        archive.as_deref().is_some_and(|archive| {
            input
                .path
                .as_deref()
                .and_then(|p| std::fs::canonicalize(p).ok())
                .is_some_and(|p| p.starts_with(archive))
        })
    };
    let inputs: Vec<Input> = inputs.into_iter().filter(|i| !inside_archive(i)).collect();
    if inputs.is_empty() {
        return Err(CliError::usage(format!(
            "no shogi record files found ({} other files skipped)",
            skipped.len()
        )));
    }
    let mut writer = if args.append {
        ArchiveWriter::append(&args.output)
    } else {
        ArchiveWriter::create(&args.output)
    }
    .map_err(|e| match e {
        kifu_index::archive::ArchiveError::Exists(_)
        | kifu_index::archive::ArchiveError::NotAnArchive(_) => CliError::Usage(e.to_string()),
        _ => CliError::Failed(e.to_string()),
    })?;
    writer.set_run_entries(args.sort_buffer);
    let pool = crate::inputs::worker_pool(args.jobs)?;
    let progress = crate::inputs::file_progress(inputs.len());
    let start = Instant::now();
    let mut summary = Summary {
        archive: args.output.display().to_string(),
        ..Summary::default()
    };
    let (fresh, known): (Vec<Input>, Vec<Input>) = inputs
        .into_iter()
        .partition(|i| !writer.has_file(&i.name()));
    summary.files_already_indexed = known.len();
    let failed = |e: kifu_index::archive::ArchiveError| CliError::Failed(e.to_string());
    let threads = pool.current_num_threads();
    let batches = batches(&fresh, threads);
    // Reading and replaying a batch (every core) overlaps adding the one before (this
    // thread): the writer's copying is then hidden behind the next batch's parsing.
    std::thread::scope(|scope| -> Result<(), CliError> {
        let read_batch = |batch: &'_ [Input]| -> Vec<ReadFile> {
            pool.install(|| {
                batch
                    .par_iter()
                    .map_init(FileReader::default, |reader, input| {
                        let file = read_one(input, reader, args.format.as_deref());
                        progress.inc(1);
                        file
                    })
                    .collect()
            })
        };
        let mut pending = None;
        for batch in batches.iter().map(|b| &fresh[b.clone()]) {
            let next = scope.spawn(move || read_batch(batch));
            if let Some(previous) = pending.replace(next) {
                add_files(&mut writer, &mut summary, join(previous)).map_err(failed)?;
            }
        }
        if let Some(last) = pending {
            add_files(&mut writer, &mut summary, join(last)).map_err(failed)?;
        }
        Ok(())
    })?;
    progress.finish_and_clear();
    summary.added = writer.finish().map_err(failed)?;
    summary.seconds = start.elapsed().as_secs_f64();
    summary.games_per_second = f64::from(summary.added.games) / summary.seconds.max(1e-9);
    let position_bytes: u64 = std::fs::read_dir(&args.output)
        .map(|dir| {
            dir.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().starts_with("positions-"))
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0);
    summary.bytes_per_position =
        position_bytes as f64 / (summary.added.positions_in_archive.max(1)) as f64;

    let mut out = String::new();
    if args.json {
        out.push_str(&serde_json::to_string(&summary).map_err(|e| e.to_string())?);
        out.push('\n');
    } else {
        if !args.quiet {
            for p in &summary.problems {
                out.push_str(p);
                out.push('\n');
            }
        }
        let mut row = |label: &str, n: String| out.push_str(&format!("{label:<40}{n:>14}\n"));
        row("files read", summary.files.to_string());
        if summary.files_already_indexed > 0 {
            row(
                "files already in the archive, skipped",
                summary.files_already_indexed.to_string(),
            );
        }
        if summary.files_failed > 0 {
            row(
                "files that could not be read",
                summary.files_failed.to_string(),
            );
        }
        row("records read", summary.records.to_string());
        if summary.records_cut_at_error > 0 {
            row(
                "  indexed up to their first error",
                summary.records_cut_at_error.to_string(),
            );
        }
        if summary.records_cut_long > 0 {
            row(
                "  indexed up to ply 65,534",
                summary.records_cut_long.to_string(),
            );
        }
        row("games added", summary.added.games.to_string());
        row("positions added", summary.added.positions.to_string());
        row(
            "games in the archive",
            summary.added.games_in_archive.to_string(),
        );
        row(
            "positions in the archive",
            summary.added.positions_in_archive.to_string(),
        );
        row(
            "bytes per position",
            format!("{:.1}", summary.bytes_per_position),
        );
        out.push_str(&format!(
            "wrote {} in {:.2} s ({:.0} games/s)\n",
            summary.archive, summary.seconds, summary.games_per_second
        ));
    }
    std::io::stdout()
        .write_all(out.as_bytes())
        .map_err(|e| CliError::Failed(format!("writing the summary: {e}")))?;
    Ok(if summary.files_failed + summary.records_cut_at_error > 0 {
        Outcome::Invalid
    } else {
        Outcome::Ok
    })
}
