//! `kifu analyze`: records read position by position by a USI engine, written again with the
//! findings as comments, and each move judged — a thin door onto `kifu_engines::analysis`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use kifu_engines::analysis::Budget;
use kifu_engines::analysis::batch::{BatchReport, BatchSettings, analyse};
use kifu_engines::analysis::cache::Cache;
use kifu_engines::analysis::judgement::{Class, Tally, Thresholds};
use kifu_records::shogi::ShogiRecord;

use kifu_records::shogi::analysis_comments::CommentDialect;

use crate::analyze_output;
use crate::analyze_records::{
    GameJudgement, InputRecords, input_paths, judge_all, player_names, read_inputs,
};
use crate::error::CliError;
use crate::outcome::Outcome;

const AFTER_HELP: &str = "\
Analyse shogi records with a USI engine: at every position of each record's main line
(and of its variations with --variations) the engine searches under a budget; its score,
best move and principal variation are written into a copy of the record as comments, and
every move is judged against the engine's best. Inputs are never written.

Scores are from Black's (先手's) side, in centipawns; a mate is ±30000 where one number is
given (JSON, Parquet), and written in each dialect's own way in the records.

Judgement: the loss of a move is the score before it (the engine's best line) minus the
score after it, from the mover's side, turned into points of winning chance by
100/(1+e^(-cp/600)) as ShogiHome does. A loss of 5 points is a 緩手 (inaccuracy), 10 a
疑問手 (dubious), 20 a 悪手 (mistake), 50 a 大悪手 (blunder) — ShogiHome's defaults;
--thresholds moves them. The engine's own move is never classed.

Findings are kept in a cache (SQLite; by default analysis-cache.sqlite in the output
directory, or beside the output file), keyed by position, engine (its `id name`, command
and options) and budget: the same command again asks the engine nothing, and an
interrupted run (Ctrl-C) continues where it stopped.

An engine that crashes, hangs (--timeout) or answers an illegal move or a line that is not
USI is restarted and the position asked once more; a position that fails twice is listed
as not analysed, and the rest of the batch goes on.

Comments already in a record are kept: analysing a copy that was analysed before adds a
second set of findings beside the first.

Chu shogi: no engine speaking lishogi's chu USI (Fairy-Stockfish) is installed here to
test against, so kifu analyze reads shogi records only.

Exit status: 0 every position analysed, 1 an input was invalid or some position was not
analysed (the summary says which), 2 usage.

Examples:
  kifu analyze game.kif --engine sekirei --usi-option Threads=1 --nodes 20000 \\
      --jobs 2 --comments shogihome -o analysed/
  kifu analyze games/ --engine sekirei --depth 10 --to csa --comments floodgate \\
      -o out/ --json --parquet out/analysis.parquet";

/// The command line of `kifu analyze` (its whole story is [`AFTER_HELP`]).
#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Record files or directories (shogi, any format kifu reads).
    #[arg(value_name = "FILES", required = true)]
    inputs: Vec<PathBuf>,
    /// The USI engine: a program (looked up in PATH) and its arguments, as one word.
    #[arg(long, value_name = "COMMAND")]
    engine: String,
    /// An engine option, NAME=VALUE (repeat). Threads=1 is set unless given here.
    #[arg(long = "usi-option", value_name = "NAME=VALUE")]
    usi_options: Vec<String>,
    /// Nodes a position (the default budget: 100000).
    #[arg(long, conflicts_with_all = ["depth", "movetime"])]
    nodes: Option<u64>,
    /// Depth a position.
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Milliseconds a position (sent as byoyomi: USI has no movetime).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Engine processes at once (default: the number of cores).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Analyse the variations' positions too.
    #[arg(long)]
    variations: bool,
    /// Seconds a search may take before the engine is taken to hang [default: 120, or the
    /// movetime plus 10].
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<u64>,
    /// Output: a file (one input record), or a directory (`DIR/`, one that exists, or
    /// several records), which receives each input under its own name.
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// The output format: csa, kif, kifu, ki2, ki2u, jkf, usi [default: the input's].
    #[arg(long, value_name = "FORMAT")]
    to: Option<String>,
    /// How the findings are written: shogihome (`*#評価値=…` lines, headed 【悪手】 etc. by the
    /// judgement), shogigui (`*解析 …`), floodgate (`'** score pv`) or csa3 (CSA V3.0's
    /// `'** score pv #nodes`) [default: shogihome, floodgate for CSA output].
    #[arg(long, value_name = "DIALECT", value_parser = analyze_output::parse_dialect)]
    comments: Option<CommentDialect>,
    /// The cache file [default: OUT_DIR/analysis-cache.sqlite].
    #[arg(long, value_name = "FILE", conflicts_with = "no_cache")]
    cache: Option<PathBuf>,
    /// Keep no cache.
    #[arg(long)]
    no_cache: bool,
    /// Class thresholds in points of winning chance:
    /// inaccuracy=5,dubious=10,mistake=20,blunder=50[,sigmoid=600].
    #[arg(long, value_name = "LIST")]
    thresholds: Option<String>,
    /// Also write a Parquet table, a row per position analysed (docs/parquet-schema.md).
    #[arg(long, value_name = "FILE")]
    parquet: Option<PathBuf>,
    /// Print the summary as one JSON object on standard output.
    #[arg(long)]
    json: bool,
}

fn budget(args: &Args) -> Budget {
    match (args.nodes, args.depth, args.movetime) {
        (_, Some(d), _) => Budget::Depth(d),
        (_, _, Some(ms)) => Budget::Movetime(ms),
        (n, _, _) => Budget::Nodes(n.unwrap_or(100_000)),
    }
}

fn options(args: &Args) -> Result<Vec<(String, String)>, CliError> {
    let mut options = Vec::new();
    for text in &args.usi_options {
        let (name, value) = text
            .split_once('=')
            .ok_or_else(|| CliError::usage(format!("--usi-option {text}: not NAME=VALUE")))?;
        options.push((name.to_owned(), value.to_owned()));
    }
    if !options.iter().any(|(n, _)| n == "Threads") {
        options.push(("Threads".to_owned(), "1".to_owned()));
    }
    Ok(options)
}

fn thresholds(text: Option<&str>) -> Result<Thresholds, CliError> {
    let mut t = Thresholds::default();
    for part in text.unwrap_or("").split(',').filter(|p| !p.is_empty()) {
        let bad = || CliError::usage(format!("--thresholds: `{part}` is not NAME=NUMBER"));
        let (name, value) = part.split_once('=').ok_or_else(bad)?;
        let value: f64 = value.parse().map_err(|_| bad())?;
        match name {
            "inaccuracy" => t.inaccuracy = value,
            "dubious" => t.dubious = value,
            "mistake" => t.mistake = value,
            "blunder" => t.blunder = value,
            "sigmoid" if value > 0.0 => t.coefficient = value,
            _ => {
                return Err(CliError::usage(format!(
                    "--thresholds: unknown `{name}` (inaccuracy, dubious, mistake, blunder, sigmoid)"
                )));
            }
        }
    }
    Ok(t)
}

pub fn run(args: Args) -> Result<Outcome, CliError> {
    let budget = budget(&args);
    let options = options(&args)?;
    let thresholds = thresholds(args.thresholds.as_deref())?;
    let paths = input_paths(&args.inputs)?;
    let mut invalid = false;
    let inputs = read_inputs(&paths, &mut invalid);
    let record_count: usize = inputs.iter().map(|i| i.records.len()).sum();
    let destination = analyze_output::Destination::of(&args.output, record_count);
    if let Some(to) = &args.to
        && kifu_records::shogi::format_by_name(to).is_none()
    {
        return Err(CliError::usage(format!(
            "--to {to}: not a shogi format kifu writes"
        )));
    }
    if record_count == 0 {
        return Err(CliError::Failed("no record to analyse".to_owned()));
    }
    // Decided (and refused) before the engines start, not after an hour of analysis.
    let written = analyze_output::output_paths(&inputs, &destination, args.to.as_deref(), &paths)?;
    let cache_path = if args.no_cache {
        None
    } else {
        Some(
            args.cache
                .clone()
                .unwrap_or_else(|| destination.dir().join("analysis-cache.sqlite")),
        )
    };
    if let Some(p) = &cache_path
        && let Some(dir) = p.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Failed(format!("{}: {e}", dir.display())))?;
    }
    let cache = cache_path
        .as_deref()
        .map(Cache::open)
        .transpose()
        .map_err(|e| CliError::Failed(e.to_string()))?;

    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let settings = BatchSettings {
        command: args.engine.clone(),
        options,
        budget,
        jobs,
        timeout: args
            .timeout
            .map_or_else(|| budget.default_timeout(), Duration::from_secs),
        variations: args.variations,
    };
    let all: Vec<ShogiRecord> = inputs
        .iter()
        .flat_map(|i| i.records.iter().cloned())
        .collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Failed(format!("cannot start the runtime: {e}")))?;
    let bar = crate::stderr_is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} positions {eta}")
                .expect("a fixed template"),
        );
        bar
    });
    let report = runtime
        .block_on(analyse(
            &settings,
            &all,
            cache.as_ref(),
            |p| {
                if let Some(bar) = &bar {
                    bar.set_length(p.total as u64);
                    bar.set_position(p.done as u64);
                }
            },
            async {
                let _ = tokio::signal::ctrl_c().await;
            },
        ))
        .map_err(|e| CliError::Failed(e.to_string()))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if report.interrupted {
        eprintln!(
            "kifu analyze: interrupted after {} searches; nothing was written. The same command \
             continues from the cache{}",
            report.searched,
            cache_path
                .as_deref()
                .map(|p| format!(" ({})", p.display()))
                .unwrap_or_default()
        );
        return Ok(Outcome::Invalid);
    }

    let games = judge_all(&inputs, &report, &thresholds);
    analyze_output::write_records(
        &inputs,
        &report,
        &written,
        args.to.as_deref(),
        args.comments,
        &games,
    )?;
    if let Some(path) = &args.parquet {
        analyze_output::write_parquet(path, &inputs, &report, &games)?;
    }
    let players = players(&inputs, &games);
    if args.json {
        println!(
            "{}",
            json(&settings, &inputs, &report, &games, &players, &written)
        );
    } else {
        print!("{}", text(&inputs, &report, &games, &players, &written));
    }
    Ok(if invalid || !report.unanalysed.is_empty() {
        Outcome::Invalid
    } else {
        Outcome::Ok
    })
}

fn players(inputs: &[InputRecords], games: &[GameJudgement]) -> BTreeMap<String, Tally> {
    let mut players: BTreeMap<String, Tally> = BTreeMap::new();
    for g in games {
        let (black, white) = player_names(&inputs[g.file].records[g.record_in_file]);
        players.entry(black).or_default().merge(&g.summary.black);
        players.entry(white).or_default().merge(&g.summary.white);
    }
    players
}

fn tally_line(t: &Tally) -> String {
    let classes: Vec<String> = Class::ALL
        .iter()
        .rev()
        .map(|c| format!("{} {}", c.japanese(), t.count(*c)))
        .collect();
    format!(
        "{} moves, {} best, average loss {:.0} cp / {:.1} pt; {}",
        t.moves,
        t.best_moves,
        t.average_loss_cp,
        t.average_loss_win_rate,
        classes.join(", ")
    )
}

fn worst_line(t: &Tally) -> Option<String> {
    let worst: Vec<String> = t
        .worst
        .iter()
        .filter(|w| w.judgement.loss_cp > 0)
        .map(|w| {
            format!(
                "ply {} {} (best {}, -{:.1} pt{})",
                w.judgement.ply,
                w.judgement.played,
                w.judgement.best,
                w.judgement.loss_win_rate,
                w.judgement
                    .class
                    .map(|c| format!(", {}", c.japanese()))
                    .unwrap_or_default()
            )
        })
        .collect();
    (!worst.is_empty()).then(|| format!("      worst: {}", worst.join("; ")))
}

fn text(
    inputs: &[InputRecords],
    report: &BatchReport,
    games: &[GameJudgement],
    players: &BTreeMap<String, Tally>,
    written: &[PathBuf],
) -> String {
    let mut out = String::new();
    for g in games {
        let input = &inputs[g.file];
        let (black, white) = player_names(&input.records[g.record_in_file]);
        let name = if input.records.len() > 1 {
            format!("{} #{}", input.path.display(), g.record_in_file + 1)
        } else {
            input.path.display().to_string()
        };
        out.push_str(&format!("{name}\n"));
        for (label, who, t) in [
            ("▲", black, &g.summary.black),
            ("△", white, &g.summary.white),
        ] {
            out.push_str(&format!("  {label}{who}: {}\n", tally_line(t)));
            if let Some(w) = worst_line(t) {
                out.push_str(&w);
                out.push('\n');
            }
        }
    }
    if games.len() > 1 {
        out.push_str("players\n");
        for (name, t) in players {
            out.push_str(&format!("  {name}: {}\n", tally_line(t)));
        }
    }
    for u in &report.unanalysed {
        let g = &games[u.record];
        out.push_str(&format!(
            "not analysed: {} record {} ply {}{}: {}\n",
            inputs[g.file].path.display(),
            g.record_in_file + 1,
            u.ply,
            if u.main_line { "" } else { " (variation)" },
            u.reason
        ));
    }
    out.push_str(&format!(
        "{} positions searched, {} from the cache, {} shared, {} decided by the rules, {} not analysed; {} engine processes ({} retries); {} files written\n",
        report.searched,
        report.from_cache,
        report.shared,
        report.decided,
        report.unanalysed.len(),
        report.engines_started,
        report.retried,
        written.len()
    ));
    out
}

fn json(
    settings: &BatchSettings,
    inputs: &[InputRecords],
    report: &BatchReport,
    games: &[GameJudgement],
    players: &BTreeMap<String, Tally>,
    written: &[PathBuf],
) -> serde_json::Value {
    let games_json: Vec<serde_json::Value> = games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let input = &inputs[g.file];
            let (black, white) = player_names(&input.records[g.record_in_file]);
            let positions = &report.records[i];
            serde_json::json!({
                "file": input.path.display().to_string(),
                "record": g.record_in_file + 1,
                "black": black,
                "white": white,
                "positions": positions.len(),
                "analysed": positions.iter().filter(|p| p.finding.is_some()).count(),
                "summary": g.summary,
                "moves": g.moves,
                "evaluations": positions.iter().filter(|p| p.task.main_line).map(|p| serde_json::json!({
                    "ply": p.task.ply,
                    "eval": p.finding.as_ref().and_then(|f| f.score).map(|s| s.value()),
                    "best": p.finding.as_ref().map(|f| f.bestmove.clone()),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let unanalysed: Vec<serde_json::Value> = report
        .unanalysed
        .iter()
        .map(|u| {
            let g = &games[u.record];
            serde_json::json!({
                "file": inputs[g.file].path.display().to_string(),
                "record": g.record_in_file + 1,
                "ply": u.ply,
                "main_line": u.main_line,
                "reason": u.reason,
            })
        })
        .collect();
    serde_json::json!({
        "engine": {
            "name": report.engine.name,
            "command": report.engine.command,
            "options": report.engine.options.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
        },
        "budget": settings.budget.to_string(),
        "jobs": settings.jobs,
        "searched": report.searched,
        "from_cache": report.from_cache,
        "shared": report.shared,
        "decided": report.decided,
        "engines_started": report.engines_started,
        "retried": report.retried,
        "games": games_json,
        "players": players,
        "unanalysed": unanalysed,
        "written": written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
    })
}
