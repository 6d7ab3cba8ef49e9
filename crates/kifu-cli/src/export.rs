//! `kifu export`: validated positions for engine training (cshogi's hcpe, dlshogi's hcpe3,
//! YaneuraOu's psv) and Parquet tables of plies and games for data engines.
//!
//! Files are read in parallel, a batch at a time, and written in the order they were named,
//! so memory holds one batch whatever the archive's size. Outputs are written to a temporary
//! file beside their target and renamed into place when complete; an output that is one of the
//! inputs is refused.

use std::collections::{BTreeMap, HashSet};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use kifu_export::meta::{EndingClass, GameInfo, engine_line, game_facts, outcome_after};
use kifu_export::table::{
    GameKeys, GamePlies, GameRows, GamesTable, PliesTable, Ply, PlyRows, Source,
};
use kifu_export::training::{GameResult, Hcpe, Hcpe3Game, Hcpe3Move, Psv, hcpe3_result};
use kifu_export::{move16, packed};
use kifu_record::{Game as _, NodeId, Record, Side};
use kifu_shogi::Shogi;
use rayon::prelude::*;
use serde::Serialize;

use crate::Outcome;
use crate::error::CliError;
use crate::games::{Game, GameArg};
use crate::inputs::{FileIdentity, FileReader, Input, expand};
use crate::report::FileReport;

/// What to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum To {
    /// cshogi's HuffmanCodedPosAndEval, 38 bytes a position (shogi).
    Hcpe,
    /// dlshogi's hcpe3: a game's start and its moves with evaluations (shogi).
    Hcpe3,
    /// YaneuraOu's PackedSfenValue, 40 bytes a position (shogi).
    Psv,
    /// OUT/plies.parquet (a row per ply) and OUT/games.parquet (a row per game).
    Parquet,
}

/// The key Parquet tables are split by (hive-style: `OUT/plies/year=2024/part-0.parquet`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PartitionBy {
    /// The year the game started; a game without a readable date goes to Hive's null
    /// partition, `year=__HIVE_DEFAULT_PARTITION__` (which DuckDB, Spark and Arrow read as null).
    Year,
}

/// The partition directory Hive, Spark, Arrow and DuckDB read as a null value.
const NULL_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

impl PartitionBy {
    /// The directory (`year=2024`) a record's rows go to.
    fn directory(self, header: &kifu_record::Header) -> String {
        match self {
            PartitionBy::Year => match header.start_time() {
                Some(date) => format!("year={}", date.year),
                None => format!("year={NULL_PARTITION}"),
            },
        }
    }
}

/// Which side's positions to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SideArg {
    /// Positions where the first player (先手, black) is to move.
    Black,
    /// Positions where the second player (後手, white) is to move.
    White,
}

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  kifu export floodgate/ --to hcpe -o train.hcpe --min-rating 3000 \
--endings resign,checkmate,repetition,declaration\n  kifu export games.csa --to psv -o train.psv --dedup\n  \
kifu export records/ --to parquet -o tables/   (then: duckdb -c \"from 'tables/plies.parquet'\")"
)]
pub struct Args {
    /// Record files, or directories to search recursively; `-` reads standard input.
    #[arg(required = true, value_name = "FILE|DIR")]
    paths: Vec<PathBuf>,
    /// What to write.
    #[arg(long, value_enum)]
    to: To,
    /// The file to write (a directory for parquet; created if missing).
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// The game the records are of.
    #[arg(long, value_parser = GameArg::parser(), default_value = "auto")]
    game: GameArg,
    /// Format of the input (csa, kif, kifu, ki2, jkf, usi …) for every file, whatever its
    /// extension; needed for standard input only when the content does not tell.
    #[arg(long, visible_alias = "from", value_name = "FORMAT")]
    format: Option<String>,
    /// Cetkaik rule set for records that do not name one.
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
    /// Keep only games where both players' floodgate ratings (`'black_rate:`, `'white_rate:`)
    /// are at least this; a game without ratings is dropped.
    #[arg(long, value_name = "RATING")]
    min_rating: Option<f64>,
    /// Keep only games with at least this many moves.
    #[arg(long, value_name = "N")]
    min_plies: Option<usize>,
    /// Keep only games with these endings (comma-separated: resign, checkmate, repetition,
    /// declaration, max-moves, time-up, abort, illegal, other, none).
    #[arg(long, value_delimiter = ',', value_name = "ENDINGS")]
    endings: Option<Vec<EndingClass>>,
    /// Keep only positions whose evaluation (for the side to move; from the record's `'**`
    /// engine lines) is at least this; positions without one are dropped.
    #[arg(long, value_name = "EVAL", allow_negative_numbers = true)]
    min_eval: Option<i32>,
    /// Keep only positions whose evaluation (for the side to move) is at most this;
    /// positions without one are dropped.
    #[arg(long, value_name = "EVAL", allow_negative_numbers = true)]
    max_eval: Option<i32>,
    /// Write each position once (by its hash: board, hands and side to move), the first
    /// time it is seen (hcpe and psv; a table keeps every ply, for the query to choose).
    #[arg(long)]
    dedup: bool,
    /// Keep only positions with this side to move (not hcpe3, which keeps whole games: so do
    /// --min-eval and --max-eval).
    #[arg(long, value_enum)]
    side: Option<SideArg>,
    /// Parquet: split both tables by this key into hive-style directories,
    /// OUT/plies/year=2024/part-0.parquet and OUT/games/year=2024/part-0.parquet (read them
    /// with DuckDB's `read_parquet('OUT/plies/*/*.parquet', hive_partitioning = true)`).
    #[arg(long, value_enum, value_name = "KEY")]
    partition_by: Option<PartitionBy>,
    /// Parquet: a row for every move of the records' variations too, with its variation's
    /// number (`variation`, from 1; 0 is the main line) and the ply it branches from
    /// (`parent_ply`).
    #[arg(long)]
    variations: bool,
    /// Export an invalid record up to its first bad move instead of skipping it.
    #[arg(long)]
    keep_prefix: bool,
    /// Replace an existing output (never an input).
    #[arg(long)]
    force: bool,
    /// Print one JSON document with each file's problems and the summary.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// Print only the summary, not each problem found.
    #[arg(long, short)]
    quiet: bool,
}

/// How many files are read at once before their output is written: bounds memory.
const BATCH_FILES: usize = 256;

/// Everything counted on the way, for the summary.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Counts {
    files: usize,
    files_failed: usize,
    records: usize,
    records_exported: usize,
    records_invalid_skipped: usize,
    records_cut_at_bad_move: usize,
    records_below_rating: usize,
    records_too_short: usize,
    records_ending_dropped: usize,
    positions: usize,
    positions_exported: usize,
    positions_other_side: usize,
    positions_outside_eval: usize,
    positions_duplicate: usize,
    positions_unpackable: usize,
    games_written: usize,
    bytes_written: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        macro_rules! sum { ($($f:ident),*) => { $(self.$f += o.$f;)* } }
        sum!(
            files,
            files_failed,
            records,
            records_exported,
            records_invalid_skipped,
            records_cut_at_bad_move,
            records_below_rating,
            records_too_short,
            records_ending_dropped,
            positions,
            positions_exported,
            positions_other_side,
            positions_outside_eval,
            positions_duplicate,
            positions_unpackable,
            games_written,
            bytes_written
        );
    }

    fn table(&self) -> String {
        let mut s = String::new();
        let mut row = |label: &str, n: u64| {
            if n > 0 || label.starts_with("records read") || label.starts_with("positions") {
                s.push_str(&format!("{label:<44}{n:>12}\n"));
            }
        };
        row("files", self.files as u64);
        row("files that could not be read", self.files_failed as u64);
        row("records read", self.records as u64);
        row("records exported", self.records_exported as u64);
        row("  invalid, skipped", self.records_invalid_skipped as u64);
        row(
            "  invalid, cut at the bad move",
            self.records_cut_at_bad_move as u64,
        );
        row(
            "  filtered: rating below --min-rating",
            self.records_below_rating as u64,
        );
        row(
            "  filtered: fewer moves than --min-plies",
            self.records_too_short as u64,
        );
        row(
            "  filtered: ending not in --endings",
            self.records_ending_dropped as u64,
        );
        row("positions in exported records", self.positions as u64);
        row("positions exported", self.positions_exported as u64);
        row(
            "  filtered: other side to move",
            self.positions_other_side as u64,
        );
        row(
            "  filtered: evaluation out of range",
            self.positions_outside_eval as u64,
        );
        row("  filtered: duplicate", self.positions_duplicate as u64);
        row(
            "  not representable (no king, too many)",
            self.positions_unpackable as u64,
        );
        row("bytes written", self.bytes_written);
        s
    }
}

/// The filters, checked while reading.
struct Filters {
    min_rating: Option<f64>,
    min_plies: Option<usize>,
    endings: Option<Vec<EndingClass>>,
    min_eval: Option<i32>,
    max_eval: Option<i32>,
    side: Option<Side>,
    keep_prefix: bool,
}

impl Filters {
    /// Whether a record passes the game-level filters; counts it if not.
    fn keep_record<G: kifu_record::Game>(
        &self,
        record: &Record<G>,
        info: &GameInfo,
        counts: &mut Counts,
    ) -> bool {
        if let Some(min) = self.min_rating {
            let both = info.black_rate.zip(info.white_rate);
            if !both.is_some_and(|(b, w)| b >= min && w >= min) {
                counts.records_below_rating += 1;
                return false;
            }
        }
        if let Some(min) = self.min_plies
            && record.main_line_plies() < min
        {
            counts.records_too_short += 1;
            return false;
        }
        if let Some(endings) = &self.endings
            && !endings.contains(&info.ending)
        {
            counts.records_ending_dropped += 1;
            return false;
        }
        true
    }

    /// Whether a position passes the position filters; counts it if not. `eval` is for the
    /// side to move.
    fn keep_position(&self, turn: Side, eval: Option<i32>, counts: &mut Counts) -> bool {
        if self.side.is_some_and(|side| side != turn) {
            counts.positions_other_side += 1;
            return false;
        }
        if self.min_eval.is_some() || self.max_eval.is_some() {
            let inside = eval.is_some_and(|e| {
                self.min_eval.is_none_or(|min| e >= min) && self.max_eval.is_none_or(|max| e <= max)
            });
            if !inside {
                counts.positions_outside_eval += 1;
                return false;
            }
        }
        true
    }
}

/// One file's output, held until it is written in order.
#[derive(Default)]
struct FileOutput {
    /// The file as named in reports and in the tables' `source_file`.
    name: String,
    report: Option<FileReport>,
    counts: Counts,
    /// The entries, back to back: fixed-size ones (hcpe, psv) or whole hcpe3 games.
    entries: Vec<u8>,
    /// Each fixed-size entry's position hash, for `--dedup`.
    hashes: Vec<u64>,
    plies: PlyRows,
    games: GameRows,
    /// With `--partition-by`, the rows by partition directory instead of `plies`/`games`.
    partitions: BTreeMap<String, (PlyRows, GameRows)>,
}

impl FileOutput {
    /// Drops the fixed-size entries (`size` bytes each) whose position was `seen` before.
    fn drop_duplicates(&mut self, size: usize, seen: &mut HashSet<u64>) {
        let mut kept = 0;
        for (index, hash) in self.hashes.iter().enumerate() {
            if seen.insert(*hash) {
                self.entries
                    .copy_within(index * size..(index + 1) * size, kept * size);
                kept += 1;
            }
        }
        let dropped = self.hashes.len() - kept;
        self.entries.truncate(kept * size);
        self.counts.positions_duplicate += dropped;
        self.counts.positions_exported -= dropped;
    }
}

pub fn run(args: Args) -> Result<Outcome, CliError> {
    refuse_filters_the_output_cannot_apply(&args)?;
    let game = Game::from_arg(&args.game);
    crate::games::validate(
        game,
        &crate::games::ReadOptions {
            format: args.format.as_deref(),
            rules: args.rules.as_deref(),
        },
        None,
    )?;
    let (inputs, skipped) = expand(&args.paths, Game::filter(game))?;
    if inputs.is_empty() {
        return Err(CliError::usage(format!(
            "no record files found ({} other files skipped); name the files, or say which game \
             with --game",
            skipped.len()
        )));
    }
    let targets = match args.to {
        To::Parquet if args.partition_by.is_some() => {
            vec![args.output.join("plies"), args.output.join("games")]
        }
        To::Parquet => vec![
            args.output.join("plies.parquet"),
            args.output.join("games.parquet"),
        ],
        _ => vec![args.output.clone()],
    };
    refuse_inputs_as_outputs(&inputs, &targets)?;
    if !args.force
        && let Some(existing) = targets.iter().find(|t| t.exists())
    {
        return Err(CliError::usage(format!(
            "{} exists; not overwritten (--force replaces it)",
            existing.display()
        )));
    }
    if args.partition_by.is_some() && args.to != To::Parquet {
        return Err(CliError::usage(
            "--partition-by needs --to parquet (it splits the Parquet tables)",
        ));
    }
    if args.variations && args.to != To::Parquet {
        return Err(CliError::usage(
            "--variations needs --to parquet (the training formats hold positions of played games)",
        ));
    }
    if let (Some(min), Some(max)) = (args.min_eval, args.max_eval)
        && min > max
    {
        return Err(CliError::usage(format!(
            "--min-eval {min} is above --max-eval {max}: no position could pass"
        )));
    }
    let filters = Filters {
        min_rating: args.min_rating,
        min_plies: args.min_plies,
        endings: args.endings.clone(),
        min_eval: args.min_eval,
        max_eval: args.max_eval,
        side: args.side.map(|s| match s {
            SideArg::Black => Side::First,
            SideArg::White => Side::Second,
        }),
        keep_prefix: args.keep_prefix,
    };
    // With one job the files are exported on this thread, as `check` does: no pool to
    // start, hand each batch to and wait for.
    let pool = match args.jobs {
        Some(1) => None,
        jobs => Some(crate::inputs::worker_pool(jobs)?),
    };
    let progress = crate::inputs::file_progress(inputs.len());

    let start = Instant::now();
    let mut sink = Sink::open(args.to, &args.output, args.partition_by)?;
    let mut counts = Counts::default();
    let mut reports: Vec<FileReport> = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut this_thread = FileReader::default();
    for batch in inputs.chunks(BATCH_FILES) {
        let export = |reader: &mut FileReader, input: &Input| {
            let out = export_file(input, game, &args, &filters, reader);
            progress.inc(1);
            out
        };
        let outputs: Vec<FileOutput> = match &pool {
            None => batch
                .iter()
                .map(|input| export(&mut this_thread, input))
                .collect(),
            Some(pool) => pool.install(|| {
                batch
                    .par_iter()
                    .map_init(FileReader::default, export)
                    .collect()
            }),
        };
        for mut out in outputs {
            match args.to {
                To::Hcpe if args.dedup => out.drop_duplicates(Hcpe::SIZE, &mut seen),
                To::Psv if args.dedup => out.drop_duplicates(Psv::SIZE, &mut seen),
                _ => {}
            }
            sink.write(&out)?;
            counts.add(&out.counts);
            if let Some(report) = out.report.take()
                && !report.diagnostics.is_empty()
            {
                reports.push(report);
            }
        }
    }
    progress.finish_and_clear();
    counts.bytes_written = sink.finish(args.force)?;
    let seconds = start.elapsed().as_secs_f64();

    let mut out = String::new();
    if args.json {
        let skipped: Vec<String> = skipped.iter().map(|p| p.display().to_string()).collect();
        let doc = serde_json::json!({
            "output": args.output.display().to_string(),
            "to": format!("{:?}", args.to).to_lowercase(),
            "files": reports,
            "skipped": skipped,
            "summary": counts,
            "seconds": seconds,
        });
        out.push_str(&doc.to_string());
        out.push('\n');
    } else {
        if !args.quiet {
            for report in &reports {
                for d in &report.diagnostics {
                    out.push_str(&d.rendered);
                    out.push('\n');
                }
            }
        }
        out.push_str(&counts.table());
        out.push_str(&format!(
            "wrote {} in {seconds:.2} s\n",
            targets
                .iter()
                .map(|t| t.display().to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        ));
    }
    std::io::stdout()
        .write_all(out.as_bytes())
        .map_err(|e| CliError::Failed(format!("writing the summary: {e}")))?;
    let invalid =
        counts.records_invalid_skipped + counts.records_cut_at_bad_move + counts.files_failed;
    Ok(if invalid > 0 {
        Outcome::Invalid
    } else {
        Outcome::Ok
    })
}

/// Refuses options that would be silently ignored: an hcpe3 game keeps every move, so that
/// its positions follow from its start; a table keeps every ply, whose duplicates a query drops
/// (`select distinct on (sfen) …`).
fn refuse_filters_the_output_cannot_apply(args: &Args) -> Result<(), CliError> {
    let position_filters = [
        ("--side", args.side.is_some()),
        ("--min-eval", args.min_eval.is_some()),
        ("--max-eval", args.max_eval.is_some()),
        ("--dedup", args.dedup),
    ];
    let refused: &[_] = match args.to {
        To::Hcpe3 => &position_filters,
        To::Parquet => &position_filters[3..],
        To::Hcpe | To::Psv => &[],
    };
    if let Some((option, _)) = refused.iter().find(|(_, given)| *given) {
        let why = match args.to {
            To::Hcpe3 => {
                "an hcpe3 game holds every move from its start (filter whole games with \
                 --min-rating, --min-plies, --endings; or write hcpe or psv)"
            }
            _ => {
                "a table keeps every ply; drop repeated positions in the query \
                 (`select distinct on (split_part(sfen, ' ', 1), split_part(sfen, ' ', 2), \
                 split_part(sfen, ' ', 3)) *`), or write hcpe or psv"
            }
        };
        return Err(CliError::usage(format!(
            "{option} does not apply to --to {}: {why}",
            format!("{:?}", args.to).to_lowercase()
        )));
    }
    Ok(())
}

/// Refuses to write over an input. Only a target that exists can be one, so a new output
/// asks nothing of the inputs; over an old one, each input is one `stat` (a path
/// resolution per input was six system calls, a tenth of an export of small files).
fn refuse_inputs_as_outputs(inputs: &[Input], targets: &[PathBuf]) -> Result<(), CliError> {
    let existing: Vec<(&PathBuf, FileIdentity)> = targets
        .iter()
        .filter_map(|t| FileIdentity::of(t).map(|id| (t, id)))
        .collect();
    if existing.is_empty() {
        return Ok(());
    }
    for path in inputs.iter().filter_map(|i| i.path.as_deref()) {
        let Some(input) = FileIdentity::of(path) else {
            continue;
        };
        if let Some((target, _)) = existing.iter().find(|(_, id)| *id == input) {
            return Err(CliError::usage(format!(
                "{} is one of the inputs; choose another -o",
                target.display()
            )));
        }
    }
    Ok(())
}

/// Reads one file and builds its output.
fn export_file(
    input: &Input,
    game: Option<Game>,
    args: &Args,
    filters: &Filters,
    reader: &mut FileReader,
) -> FileOutput {
    let name = input.name();
    let mut out = FileOutput {
        name: name.clone(),
        ..FileOutput::default()
    };
    out.counts.files = 1;
    let bytes = match reader.read(input) {
        Ok(bytes) => bytes,
        Err(e) => {
            out.counts.files_failed = 1;
            out.report = Some(FileReport::failed(name, "?", "?", e.to_string()));
            return out;
        }
    };
    let file = crate::games::InputFile {
        name: &name,
        path: input.path.as_deref(),
        bytes,
    };
    let read = crate::games::ReadOptions {
        format: args.format.as_deref(),
        rules: args.rules.as_deref(),
    };
    let opened = match crate::games::open(&file, game, &read) {
        Ok(opened) => opened,
        Err(report) => {
            out.counts.files_failed = 1;
            out.report = Some(report);
            return out;
        }
    };
    let text: &str = &opened.opened.decoded.text;
    let mut exporter = Exporter {
        args,
        filters,
        text,
        out: &mut out,
        index: 0,
        valid: true,
        refused: None,
    };
    // Read as every command reads, by the game's driver; each record (or cetkaik match) is
    // dropped once exported.
    let result = crate::games::stream(&opened, &file, &read, None, &mut |_, records, valid| {
        exporter.valid = valid;
        records.visit(&mut exporter);
        match &exporter.refused {
            Some(why) => Err(CliError::Failed(why.clone())),
            None => Ok(()),
        }
    });
    match result {
        Ok(report) => out.report = Some(report),
        Err(e) => {
            out.counts.files_failed = 1;
            out.report = Some(FileReport::failed(
                name.clone(),
                opened.game.name(),
                opened.opened.format,
                e.to_string(),
            ));
        }
    }
    out
}

/// What is done with each record that passed the filters: `(record, its index, the decoded
/// text, its facts, the output)`.
type OnRecord<G> = fn(&Record<G>, usize, &str, GameInfo, &Args, &Filters, &mut FileOutput);

/// Exports the records of one file as the driver hands them out, whatever their game.
struct Exporter<'a> {
    args: &'a Args,
    filters: &'a Filters,
    text: &'a str,
    out: &'a mut FileOutput,
    /// The index in the file of the next record.
    index: usize,
    /// Whether the records being visited were read without errors.
    valid: bool,
    /// Why the file's records cannot be written to the output, once seen.
    refused: Option<String>,
}

impl Exporter<'_> {
    /// Hands each record that is valid (or cut, with `--keep-prefix`) and passes the filters
    /// to `each`.
    fn records<G: kifu_record::Game>(&mut self, records: &[Record<G>], each: OnRecord<G>) {
        for record in records {
            let index = self.index;
            self.index += 1;
            self.out.counts.records += 1;
            if !self.valid {
                if !self.filters.keep_prefix {
                    self.out.counts.records_invalid_skipped += 1;
                    continue;
                }
                self.out.counts.records_cut_at_bad_move += 1;
            }
            // The result is left for `each`, which replays the game anyway.
            let info = game_facts(record);
            if !self
                .filters
                .keep_record(record, &info, &mut self.out.counts)
            {
                continue;
            }
            self.out.counts.records_exported += 1;
            each(
                record,
                index,
                self.text,
                info,
                self.args,
                self.filters,
                self.out,
            );
        }
    }

    /// A table takes any game; the training formats hold shogi positions only.
    fn table_only<G: kifu_record::Game>(&mut self, records: &[Record<G>]) {
        if self.args.to == To::Parquet {
            self.records(records, table_rows);
        } else {
            self.refused = Some(format!(
                "{} records cannot be exported to {} (hcpe, hcpe3 and psv hold shogi; parquet \
                 takes all three games)",
                G::NAME,
                format!("{:?}", self.args.to).to_lowercase()
            ));
        }
    }
}

impl crate::games::RecordsVisitor for Exporter<'_> {
    fn shogi(&mut self, records: &[Record<Shogi>]) {
        if self.args.to == To::Parquet {
            self.records(records, table_rows);
        } else {
            self.records(records, training_entries);
        }
    }

    fn chu(&mut self, records: &[Record<kifu_chu::Chu>]) {
        self.table_only(records);
    }

    fn cetkaik(&mut self, records: &[Record<kifu_cetkaik::Cetkaik>]) {
        self.table_only(records);
    }
}

/// Clamps an evaluation into the i16 the training formats hold.
fn clamp16(eval: i32) -> i16 {
    eval.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
}

/// The hcpe `gameResult` of a winner.
fn hcpe_result(winner: Option<Side>) -> GameResult {
    match winner {
        Some(Side::First) => GameResult::BlackWin,
        Some(Side::Second) => GameResult::WhiteWin,
        None => GameResult::Draw,
    }
}

/// hcpe, hcpe3 or psv entries of one shogi record. The entries are written as the game is
/// replayed and their result filled in at its end, where the result is known without a
/// second replay.
fn training_entries(
    record: &Record<Shogi>,
    _index: usize,
    _text: &str,
    mut info: GameInfo,
    args: &Args,
    filters: &Filters,
    out: &mut FileOutput,
) {
    let counts = &mut out.counts;
    if args.to == To::Hcpe3 {
        let start = Shogi::start_position(&record.start);
        let Ok(hcp) = packed::hcp(&start) else {
            counts.positions_unpackable += 1;
            return;
        };
        let mut game = Hcpe3Game {
            hcp,
            result: 0,
            opponent: 0,
            moves: Vec::new(),
        };
        let (last, end) = record.walk_main_line(|id, position, &mv| {
            counts.positions += 1;
            counts.positions_exported += 1;
            let black_view = engine_line(&record.moves[id]).and_then(|(e, _)| e);
            let eval = black_view.map_or(0, |e| {
                clamp16(if position.turn() == kifu_shogi::Color::Black {
                    e
                } else {
                    -e
                })
            });
            let move16 = move16::cshogi_move16(mv);
            game.moves.push(Hcpe3Move {
                selected_move16: move16,
                eval,
                candidates: vec![(move16, 1)],
            });
        });
        info.set_outcome(outcome_after(record, last, &end));
        let flags = match info.ending {
            EndingClass::Repetition => hcpe3_result::REPETITION,
            EndingClass::Declaration => hcpe3_result::DECLARATION,
            EndingClass::MaxMoves => hcpe3_result::MAX_MOVES,
            _ => 0,
        };
        game.result = hcpe_result(info.result) as u8 | flags;
        game.write_to(&mut out.entries);
        counts.games_written += 1;
        return;
    }
    let first_entry = out.entries.len();
    // At most one entry a node: room made once, not grown entry by entry.
    let entry_size = if args.to == To::Hcpe {
        Hcpe::SIZE
    } else {
        Psv::SIZE
    };
    out.entries.reserve(record.moves.len() * entry_size);
    // The side to move of each entry written, for psv's result, which is for that side.
    let mut turns: Vec<Side> = Vec::new();
    let (last, end) = record.walk_main_line(|id, position, &mv| {
        counts.positions += 1;
        let turn = kifu_shogi::side_of(position.turn());
        let black_view = engine_line(&record.moves[id]).and_then(|(e, _)| e);
        let eval = black_view.map(|e| if turn == Side::First { e } else { -e });
        if !filters.keep_position(turn, eval, counts) {
            return;
        }
        let eval16 = eval.map_or(0, clamp16);
        let written = match args.to {
            To::Hcpe => packed::hcp(position).map(|hcp| {
                let entry = Hcpe {
                    hcp,
                    eval: eval16,
                    best_move16: move16::cshogi_move16(mv),
                    game_result: GameResult::Draw,
                };
                out.entries.extend_from_slice(&entry.to_bytes());
            }),
            _ => packed::packed_sfen(position).map(|sfen| {
                let entry = Psv {
                    sfen,
                    score: eval16,
                    mv: move16::yaneuraou_move16(mv),
                    game_ply: position.move_number().min(u32::from(u16::MAX)) as u16,
                    game_result: 0,
                };
                out.entries.extend_from_slice(&entry.to_bytes());
                turns.push(turn);
            }),
        };
        match written {
            Ok(()) => {
                counts.positions_exported += 1;
                if args.dedup {
                    out.hashes.push(position.hash());
                }
            }
            Err(_) => counts.positions_unpackable += 1,
        }
    });
    info.set_outcome(outcome_after(record, last, &end));
    let winner = info.result;
    let written = &mut out.entries[first_entry..];
    if args.to == To::Hcpe {
        let result = hcpe_result(winner) as u8;
        for entry in written.chunks_exact_mut(Hcpe::SIZE) {
            entry[Hcpe::RESULT_AT] = result;
        }
    } else {
        for (entry, turn) in written.chunks_exact_mut(Psv::SIZE).zip(turns) {
            let result: i8 = match winner {
                Some(w) if w == turn => 1,
                Some(_) => -1,
                None => 0,
            };
            entry[Psv::RESULT_AT] = result as u8;
        }
    }
}

/// Parquet rows of one record of any game.
fn table_rows<G: kifu_record::Game>(
    record: &Record<G>,
    index: usize,
    text: &str,
    mut info: GameInfo,
    args: &Args,
    filters: &Filters,
    out: &mut FileOutput,
) {
    let source = Source {
        file: &out.name,
        record: index,
    };
    let counts = &mut out.counts;
    let (ply_rows, game_rows) = match args.partition_by {
        None => (&mut out.plies, &mut out.games),
        Some(by) => {
            let rows = out
                .partitions
                .entry(by.directory(&record.header))
                .or_default();
            (&mut rows.0, &mut rows.1)
        }
    };
    // A row holds the game's result, which the walk that writes the rows finds at its end:
    // the rows' result cells are filled then, with no replay of its own.
    let mut plies = ply_rows.game();
    let mut exported = 0u32;
    // Every position's key, filtered or not: the canonical game key folds them all.
    let mut keys = Vec::new();
    // One move's row, if the filters keep its position; true when written.
    let push_row = |plies: &mut GamePlies<'_>,
                    counts: &mut Counts,
                    info: &GameInfo,
                    (id, position, mv): (NodeId, &G::Position, &G::Move),
                    variation: u32,
                    parent_ply: Option<u32>|
     -> bool {
        let node = &record.moves[id];
        let turn = G::turn(position);
        let line = engine_line(node);
        let black_view = line.as_ref().and_then(|(e, _)| *e);
        let eval = black_view.map(|e| if turn == Side::First { e } else { -e });
        if !filters.keep_position(turn, eval, counts) {
            return false;
        }
        counts.positions_exported += 1;
        let ply = Ply {
            ply: node.ply(),
            position: &G::position_text(position),
            mv: &G::move_text(position, mv),
            notation: Some(node.text(text).trim()).filter(|n| !n.is_empty()),
            time_ms: node.time_ms(),
            eval: black_view,
            pv: line
                .as_ref()
                .map(|(_, pv)| pv.as_str())
                .filter(|pv| !pv.is_empty()),
            side_to_move: turn,
            position_key: G::position_key(position),
            facts: G::move_facts(position, mv),
            variation,
            parent_ply,
        };
        plies.push(source, info, &ply);
        true
    };
    let (last, end) = record.walk_main_line(|id, position, mv| {
        counts.positions += 1;
        let position_key = G::position_key(position);
        keys.extend(position_key);
        if push_row(&mut plies, counts, &info, (id, position, mv), 0, None) {
            exported += 1;
        }
    });
    if args.variations {
        // Each branch of the tree that is not its parent's main line is a variation, numbered
        // from 1 in the order the walk meets them (each line before its alternatives); a
        // move continuing a variation keeps its number.
        let tree = &record.moves;
        let mut numbers = vec![(0u32, None::<u32>); tree.len()];
        let mut variations = 0u32;
        record.walk_tree(|id, position, mv| {
            let parent = tree.parent(id).unwrap_or(tree.root());
            let (number, parent_ply) = if tree.main_child(parent) == Some(id) {
                numbers[parent.index()]
            } else {
                variations += 1;
                (variations, Some(tree[id].ply().saturating_sub(1)))
            };
            numbers[id.index()] = (number, parent_ply);
            if number > 0 {
                counts.positions += 1;
                push_row(
                    &mut plies,
                    counts,
                    &info,
                    (id, position, mv),
                    number,
                    parent_ply,
                );
            }
        });
    }
    info.set_outcome(outcome_after(record, last, &end));
    plies.finish(&info);
    counts.games_written += 1;
    let start = G::position_text(&G::start_position(&record.start));
    // The keys before each move, then the end's (the start's, when no move was played).
    let end_position = G::position_key(&end);
    keys.extend(end_position);
    let game_keys = GameKeys {
        game: end_position.map(|_| kifu_record::game_key(&keys)),
        end_position,
    };
    game_rows.push(source, &info, &start, exported, game_keys);
}

/// An output being written: a temporary file beside each target, renamed at the end.
enum Sink {
    Entries {
        file: BufWriter<tempfile::NamedTempFile>,
        target: PathBuf,
        written: u64,
    },
    Tables(Box<Tables>),
    /// `--partition-by`: a pair of tables per partition directory, opened as rows for it come.
    Partitioned {
        dir: PathBuf,
        open: BTreeMap<String, Tables>,
    },
}

/// The two Parquet tables being written.
struct Tables {
    plies: PliesTable<BufWriter<tempfile::NamedTempFile>>,
    games: GamesTable<BufWriter<tempfile::NamedTempFile>>,
    plies_target: PathBuf,
    games_target: PathBuf,
}

impl Tables {
    fn open(plies_target: PathBuf, games_target: PathBuf) -> Result<Tables, CliError> {
        let table_error = |e: kifu_export::table::TableError| CliError::Failed(e.to_string());
        for target in [&plies_target, &games_target] {
            if let Some(dir) = target.parent() {
                std::fs::create_dir_all(dir).map_err(|e| {
                    CliError::Failed(format!("{}: cannot make the directory: {e}", dir.display()))
                })?;
            }
        }
        let plies = BufWriter::new(temporary_beside(&plies_target)?);
        let games = BufWriter::new(temporary_beside(&games_target)?);
        Ok(Tables {
            plies: PliesTable::new(plies).map_err(table_error)?,
            games: GamesTable::new(games).map_err(table_error)?,
            plies_target,
            games_target,
        })
    }

    fn append(&mut self, plies: &PlyRows, games: &GameRows) -> Result<(), CliError> {
        let failed = |e: kifu_export::table::TableError| CliError::Failed(e.to_string());
        self.plies.append(plies).map_err(failed)?;
        self.games.append(games).map_err(failed)
    }

    /// Completes both tables and renames them into place; the bytes written.
    fn finish(self, force: bool) -> Result<u64, CliError> {
        let failed = |e: kifu_export::table::TableError| CliError::Failed(e.to_string());
        let plies = self.plies.finish().map_err(failed)?;
        let games = self.games.finish().map_err(failed)?;
        let mut written = 0;
        for (file, target) in [(plies, self.plies_target), (games, self.games_target)] {
            persist(file, &target, force)?;
            written += std::fs::metadata(&target).map_or(0, |m| m.len());
        }
        Ok(written)
    }
}

fn temporary_beside(target: &Path) -> Result<tempfile::NamedTempFile, CliError> {
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    crate::output::temporary_in(dir, ".kifu-export-")
        .map_err(|e| CliError::Failed(format!("{}: cannot write here: {e}", dir.display())))
}

fn persist(
    file: BufWriter<tempfile::NamedTempFile>,
    target: &Path,
    force: bool,
) -> Result<(), CliError> {
    let failed = |e: String| CliError::Failed(format!("{}: {e}", target.display()));
    let file = file.into_inner().map_err(|e| failed(e.to_string()))?;
    let temp_path = file.path().to_path_buf();
    let persisted = if force {
        file.persist(target)
            .map(drop)
            .map_err(|e| failed(e.to_string()))
    } else {
        file.persist_noclobber(target).map(drop).map_err(|e| {
            failed(if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                "exists; not overwritten (--force replaces it)".into()
            } else {
                e.to_string()
            })
        })
    };
    crate::output::finished(&temp_path);
    persisted
}

impl Sink {
    fn open(to: To, output: &Path, partition_by: Option<PartitionBy>) -> Result<Sink, CliError> {
        Ok(match (to, partition_by) {
            (To::Parquet, Some(_)) => Sink::Partitioned {
                dir: output.to_path_buf(),
                open: BTreeMap::new(),
            },
            (To::Parquet, None) => Sink::Tables(Box::new(Tables::open(
                output.join("plies.parquet"),
                output.join("games.parquet"),
            )?)),
            _ => Sink::Entries {
                file: BufWriter::with_capacity(1 << 20, temporary_beside(output)?),
                target: output.to_path_buf(),
                written: 0,
            },
        })
    }

    fn write(&mut self, out: &FileOutput) -> Result<(), CliError> {
        match self {
            Sink::Entries {
                file,
                target,
                written,
            } => {
                file.write_all(&out.entries)
                    .map_err(|e| CliError::Failed(format!("{}: {e}", target.display())))?;
                *written += out.entries.len() as u64;
            }
            Sink::Tables(tables) => tables.append(&out.plies, &out.games)?,
            Sink::Partitioned { dir, open } => {
                for (partition, (plies, games)) in &out.partitions {
                    let tables = match open.entry(partition.clone()) {
                        std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
                        std::collections::btree_map::Entry::Vacant(e) => e.insert(Tables::open(
                            dir.join("plies").join(partition).join("part-0.parquet"),
                            dir.join("games").join(partition).join("part-0.parquet"),
                        )?),
                    };
                    tables.append(plies, games)?;
                }
            }
        }
        Ok(())
    }

    /// Completes the output and renames it into place; the bytes written.
    fn finish(self, force: bool) -> Result<u64, CliError> {
        match self {
            Sink::Entries {
                file,
                target,
                written,
            } => {
                persist(file, &target, force)?;
                Ok(written)
            }
            Sink::Tables(tables) => tables.finish(force),
            Sink::Partitioned { open, .. } => {
                let mut written = 0;
                for tables in open.into_values() {
                    written += tables.finish(force)?;
                }
                Ok(written)
            }
        }
    }
}
