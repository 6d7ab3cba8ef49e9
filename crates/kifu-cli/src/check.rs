use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::Outcome;
use crate::games::{Game, GameArg, ReadOptions};
use crate::inputs::{Input, expand};
use crate::report::{FileReport, Summary};

#[derive(clap::Args)]
pub struct Args {
    /// Record files, or directories to search recursively; `-` reads standard input.
    #[arg(required = true, value_name = "FILE|DIR")]
    paths: Vec<PathBuf>,
    /// The game the records are of.
    #[arg(long, value_enum, default_value_t = GameArg::Auto)]
    game: GameArg,
    /// Format of standard input, or of files whose extension does not tell (csa, kif, kifu, usi, …).
    #[arg(long, value_name = "FORMAT")]
    format: Option<String>,
    /// Cetkaik rule set for records that do not name one.
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
    /// Print one JSON document with every file's result and the summary.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// Print only the summary, not each problem found.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> Result<Outcome, String> {
    let game = Game::from_arg(args.game);
    let read = ReadOptions {
        format: args.format.as_deref(),
        rules: args.rules.as_deref(),
    };
    let (inputs, skipped) = expand(&args.paths, Game::filter(game))?;
    if inputs.is_empty() {
        return Err("no record files found".into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())?;
    let progress = if crate::stderr_is_terminal() && inputs.len() > 1 {
        let pb =
            ProgressBar::with_draw_target(Some(inputs.len() as u64), ProgressDrawTarget::stderr());
        pb.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} files {per_sec} eta {eta}")
                .map_err(|e| e.to_string())?,
        );
        pb
    } else {
        ProgressBar::hidden()
    };
    let start = Instant::now();
    let reports: Vec<FileReport> = pool.install(|| {
        inputs
            .par_iter()
            .map(|input| {
                let r = check_one(input, game, &read);
                progress.inc(1);
                r
            })
            .collect()
    });
    progress.finish_and_clear();
    let summary = Summary::of(&reports, skipped, start.elapsed().as_secs_f64());
    if args.json {
        let doc = serde_json::json!({ "files": reports, "summary": summary });
        println!("{doc}");
    } else {
        if !args.quiet {
            for r in &reports {
                for d in &r.diagnostics {
                    println!("{}", d.rendered);
                }
            }
        }
        println!("{}", summary.table());
    }
    Ok(if summary.total.invalid > 0 {
        Outcome::Invalid
    } else {
        Outcome::Ok
    })
}

fn check_one(input: &Input, game: Option<Game>, read: &ReadOptions<'_>) -> FileReport {
    let name = input.name();
    let bytes = match input.read() {
        Ok(b) => b,
        Err(e) => return FileReport::failed(name, "?", "?", e.to_string()),
    };
    let path = input.path.as_deref();
    let Some(game) = game.or_else(|| Game::detect(path, &bytes)) else {
        return FileReport::failed(
            name,
            "?",
            "?",
            "cannot tell which game this is; use --game".into(),
        );
    };
    crate::games::check(game, &name, path, read, &bytes)
}
