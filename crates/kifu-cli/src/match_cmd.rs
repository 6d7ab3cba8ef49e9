//! `kifu match`: engine-against-engine matches with SPRT, a thin door onto `kifu-engines`.

use std::path::PathBuf;

use kifu_engines::adjudication::{DrawRule, ResignRule};
use kifu_engines::evaluation::RecordStyle;
use kifu_engines::runner::{MatchConfig, MatchError, run};
use kifu_engines::schedule::Mode;
use kifu_engines::settings::{MatchSettings, SettingsError};
use kifu_engines::spec::{EngineSpec, Limit, TimeControl};
use kifu_engines::stats::Sprt;

use crate::error::CliError;
use crate::outcome::Outcome;

/// Play engines against each other (match, gauntlet or round robin) with SPRT, saving a CSA
/// record of every game.
///
/// Each --engine takes key=value words: name=NAME cmd=PROGRAM option.NAME=VALUE and a limit
/// (nodes=N, depth=N, movetime=MS, tc=MAIN+BYOYOMI[+INCREMENT] in seconds, `sw` appended
/// for the stop-watch rule). Games are played in pairs from one opening with colours
/// reversed. Running the same command on the same -o directory continues an interrupted
/// match after its last finished game. A TOML match file (--config) can hold every option;
/// the options given on the command line override it.
///
/// Example:
///   kifu match --engine name=strong cmd=sekirei nodes=20000 \
///              --engine name=weak cmd=sekirei nodes=200 \
///              --games 200 --concurrency 2 --openings examples/book.sfen \
///              --sprt elo0=0,elo1=100,alpha=0.05,beta=0.05 -o match/ --json
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// A TOML match file holding any of these options (engines as `[[engine]]` tables); the
    /// options given here override it.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// An engine: name=NAME cmd=PROGRAM [option.NAME=VALUE]… [nodes=N|depth=N|movetime=MS|tc=…] (repeat for each engine).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// The first engine against each of the others (default with more than two: round robin).
    #[arg(long, conflicts_with = "round_robin")]
    gauntlet: bool,
    /// Everyone against everyone.
    #[arg(long)]
    round_robin: bool,
    /// Games per pairing, played in pairs (an odd number is rounded up) [default: 2].
    #[arg(long)]
    games: Option<u64>,
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Shuffle the openings with this seed (default: the file's order).
    #[arg(long)]
    seed: Option<u64>,
    /// Openings: a file of SFEN or `position …` lines, or records (any format, a directory too).
    #[arg(long, value_name = "PATH")]
    openings: Option<PathBuf>,
    /// From records, start after this many plies of each [default: 16].
    #[arg(long, value_name = "N")]
    opening_plies: Option<u32>,
    /// Default node limit for engines that set none.
    #[arg(long)]
    nodes: Option<u64>,
    /// Default depth limit.
    #[arg(long)]
    depth: Option<u32>,
    /// Default fixed time a move, in ms.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Default clock: MAIN+BYOYOMI[+INCREMENT] in seconds (`sw` appended: stop-watch).
    #[arg(long, value_name = "TC")]
    tc: Option<String>,
    /// Draw after this many plies (opening included; 0: no limit) [default: 512].
    #[arg(long)]
    max_moves: Option<u32>,
    /// Point rule for `bestmove win`: 27 or 24 [default: 27].
    #[arg(long, value_parser = clap::value_parser!(u32).range(24..=27))]
    declaration: Option<u32>,
    /// Resignation adjudication: moves=N,score=CP (both engines agree for N moves each).
    #[arg(long, value_name = "moves=N,score=CP")]
    resign: Option<String>,
    /// Draw adjudication: after=PLY,moves=N,score=CP.
    #[arg(long, value_name = "after=PLY,moves=N,score=CP")]
    draw: Option<String>,
    /// Milliseconds a move may exceed its clock before it loses on time [default: 1000].
    #[arg(long, value_name = "MS")]
    time_margin: Option<u64>,
    /// Seconds an engine without a clock may think before it is taken to hang [default: 60].
    #[arg(long, value_name = "SECONDS")]
    hang_timeout: Option<u64>,
    /// Sequential test that stops the match: elo0=E0,elo1=E1[,alpha=A,beta=B,model=normalized|logistic].
    #[arg(long, value_name = "SPEC")]
    sprt: Option<String>,
    /// The records' event name [default: kifu match].
    #[arg(long)]
    event: Option<String>,
    /// Directory for the records, the ledger, games.parquet and summary.json.
    #[arg(short, long, value_name = "DIR")]
    output: Option<PathBuf>,
    /// The records' format: csa (V3.0, `'**` evaluation lines) or kif (ShogiHome's
    /// `**評価値=` and `**読み筋=` comment lines; Shift_JIS, or UTF-8 as .kifu when a name
    /// needs it) [default: csa].
    #[arg(long, value_name = "FORMAT", value_parser = ["csa", "kif"])]
    format: Option<String>,
    /// Print the summary as one JSON object on standard output.
    #[arg(long)]
    json: bool,
}

fn key_values(text: &str, what: &str, keys: &[&str]) -> Result<Vec<i64>, CliError> {
    let mut values = vec![None; keys.len()];
    for part in text.split(',').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').ok_or_else(|| {
            CliError::usage(format!("--{what} {text}: `{part}` is not key=value"))
        })?;
        let at = keys.iter().position(|x| *x == k).ok_or_else(|| {
            CliError::usage(format!("--{what}: unknown key `{k}` ({})", keys.join(", ")))
        })?;
        values[at] = Some(
            v.parse::<i64>()
                .map_err(|_| CliError::usage(format!("--{what}: `{v}` is not a whole number")))?,
        );
    }
    values
        .into_iter()
        .zip(keys)
        .map(|(v, k)| v.ok_or_else(|| CliError::usage(format!("--{what}: {k}= is missing"))))
        .collect()
}

/// The words of each `--engine`, in order. Clap's derive gives every occurrence's values as
/// one list (grouping occurrences needs its unstable `Vec<Vec<_>>`), so the groups are read
/// again from the command line, where each `--engine` takes the words up to the next option,
/// and checked against clap's list.
fn engine_groups(parsed: &[String], argv: Vec<String>) -> Result<Vec<Vec<String>>, CliError> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut inside = false;
    for word in argv {
        if word == "--engine" {
            groups.push(Vec::new());
            inside = true;
        } else if word.starts_with('-') {
            inside = false;
        } else if inside && let Some(g) = groups.last_mut() {
            g.push(word);
        }
    }
    if groups.concat() != parsed {
        return Err(CliError::usage(
            "give each engine as --engine KEY=VALUE… (the form --engine=… is not read)",
        ));
    }
    Ok(groups)
}

/// The settings the flags give, each only where given, so that they override a match file.
fn flag_settings(args: &Args, argv: Vec<String>) -> Result<MatchSettings, CliError> {
    let mut engines = Vec::new();
    if !args.engine.is_empty() {
        for words in &engine_groups(&args.engine, argv)? {
            engines.push(EngineSpec::parse(words).map_err(|e| CliError::usage(e.to_string()))?);
        }
    }
    let mode = if args.gauntlet {
        Some(Mode::Gauntlet)
    } else if args.round_robin {
        Some(Mode::RoundRobin)
    } else {
        None
    };
    let sprt = args
        .sprt
        .as_deref()
        .map(str::parse::<Sprt>)
        .transpose()
        .map_err(|e| CliError::usage(format!("--sprt: {e}")))?;
    let resign = args
        .resign
        .as_deref()
        .map(|t| key_values(t, "resign", &["moves", "score"]))
        .transpose()?
        .map(|v| ResignRule {
            moves: v[0].max(1) as usize,
            score: v[1],
        });
    let draw = args
        .draw
        .as_deref()
        .map(|t| key_values(t, "draw", &["after", "moves", "score"]))
        .transpose()?
        .map(|v| DrawRule {
            after_ply: v[0].max(0) as u32,
            moves: v[1].max(1) as usize,
            score: v[2],
        });
    if args.declaration.is_some_and(|d| d != 24 && d != 27) {
        return Err(CliError::usage("--declaration: 27 or 24"));
    }
    Ok(MatchSettings {
        engines,
        mode,
        games: args.games,
        concurrency: args.concurrency,
        seed: args.seed,
        openings: args.openings.clone(),
        opening_plies: args.opening_plies,
        limit: Limit {
            nodes: args.nodes,
            depth: args.depth,
            movetime_ms: args.movetime,
            clock: args
                .tc
                .as_deref()
                .map(TimeControl::parse)
                .transpose()
                .map_err(|e| CliError::usage(format!("--tc: {e}")))?,
        },
        max_moves: args.max_moves,
        declaration: args.declaration,
        resign,
        draw,
        time_margin_ms: args.time_margin,
        hang_timeout_s: args.hang_timeout,
        sprt,
        event: args.event.clone(),
        output: args.output.clone(),
        style: args.format.as_deref().and_then(RecordStyle::from_name),
    })
}

/// The match file's settings, if one is given, overridden by the flags.
fn settings(args: &Args, argv: Vec<String>) -> Result<MatchSettings, CliError> {
    let flags = flag_settings(args, argv)?;
    Ok(match &args.config {
        Some(path) => MatchSettings::load(path)
            .map_err(|e| CliError::usage(e.to_string()))?
            .overlaid_by(flags),
        None => flags,
    })
}

fn config(args: &Args) -> Result<MatchConfig, CliError> {
    settings(args, std::env::args().collect())?
        .into_config()
        .map_err(|e| match e {
            SettingsError::Openings(m) => CliError::Failed(m),
            other => CliError::usage(other.to_string()),
        })
}

pub fn run_match(args: Args) -> Result<Outcome, CliError> {
    let config = config(&args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Failed(format!("cannot start the runtime: {e}")))?;
    let show_progress = crate::stderr_is_terminal();
    let report = runtime
        .block_on(run(
            &config,
            |standings, done, total| {
                if show_progress {
                    eprint!("\r\x1b[2K{}", standings.progress_line(done, total));
                }
            },
            async {
                let _ = tokio::signal::ctrl_c().await;
            },
        ))
        .map_err(|e| match e {
            MatchError::Mismatch(m) => CliError::Usage(m),
            other => CliError::Failed(other.to_string()),
        })?;
    if show_progress {
        eprintln!();
    }
    if report.interrupted {
        eprintln!(
            "kifu match: interrupted after {} of {} games; the same command continues it",
            report.finished, report.planned
        );
    }
    if args.json {
        println!("{}", report.json);
    } else {
        print!("{}", report.standings.to_text(config.sprt.as_ref()));
        println!(
            "{} of {} games finished ({} in this run); records in {}",
            report.finished,
            report.planned,
            report.played_now,
            config.out_dir.display()
        );
    }
    Ok(Outcome::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    #[test]
    fn flags_override_the_match_file() {
        use clap::Parser;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("match.toml");
        std::fs::write(
            &file,
            "games = 10\nconcurrency = 3\nformat = \"kif\"\noutput = \"out\"\n\
             [[engine]]\nname = \"a\"\ncmd = \"x\"\nnodes = 5\n\
             [[engine]]\nname = \"b\"\ncmd = \"y\"\nnodes = 6\n",
        )
        .unwrap();
        let line = format!("kifu --config {} --games 4 --format csa", file.display());
        let cli = Cli::try_parse_from(words(&line)).unwrap();
        let config = settings(&cli.args, words(&line))
            .unwrap()
            .into_config()
            .unwrap();
        assert_eq!(config.games, 4, "the flag wins");
        assert_eq!(config.concurrency, 3, "the file's where no flag is given");
        assert_eq!(config.style, RecordStyle::Csa);
        assert_eq!(config.out_dir, dir.path().join("out"));
        assert_eq!(config.engines[1].limit.nodes, Some(6));
        let line = format!(
            "kifu --config {} --engine name=c cmd=z nodes=1 --engine name=d cmd=w nodes=1 -o elsewhere",
            file.display()
        );
        let cli = Cli::try_parse_from(words(&line)).unwrap();
        let config = settings(&cli.args, words(&line))
            .unwrap()
            .into_config()
            .unwrap();
        let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["c", "d"]);
        assert_eq!(config.out_dir, PathBuf::from("elsewhere"));
        assert_eq!(config.style, RecordStyle::Kif);
    }

    #[test]
    fn each_engine_keeps_its_words() {
        let argv =
            words("kifu match --engine name=a cmd=x nodes=1 --engine cmd=y nodes=2 --games 4 -o d");
        let parsed = words("name=a cmd=x nodes=1 cmd=y nodes=2");
        let groups = engine_groups(&parsed, argv).unwrap();
        assert_eq!(
            groups,
            [words("name=a cmd=x nodes=1"), words("cmd=y nodes=2")]
        );
        let argv = words("kifu match --engine=name=a --engine cmd=y");
        assert!(engine_groups(&words("name=a cmd=y"), argv).is_err());
    }
}
