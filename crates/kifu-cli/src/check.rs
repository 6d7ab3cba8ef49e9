use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;

use crate::Outcome;
use crate::error::CliError;
use crate::games::{Game, GameArg, ReadOptions};
use crate::inputs::{FileReader, Input, expand};
use crate::report::{FileReport, Summary};

#[derive(clap::Args)]
pub struct Args {
    /// Record files, or directories to search recursively; `-` reads standard input.
    #[arg(required = true, value_name = "FILE|DIR")]
    paths: Vec<PathBuf>,
    /// The game the records are of.
    #[arg(long, value_parser = GameArg::parser(), default_value = "auto")]
    game: GameArg,
    /// Format of the input (csa, kif, kifu, ki2, ki2u, jkf, usi; chu: csl, csl-ja, kif, usi,
    /// json; cetkaik: ckka): for standard input, or to read every file named as this format
    /// whatever its extension.
    #[arg(long, visible_alias = "from", value_name = "FORMAT")]
    format: Option<String>,
    /// Cetkaik rule set for records that do not name one.
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
    /// Print one JSON document with every file's result, the skipped files and the summary.
    #[arg(long)]
    json: bool,
    /// Check only the Nth record of each file (counted from 1).
    #[arg(long, value_name = "N")]
    record: Option<usize>,
    /// Count warnings as failures too: exit 1 if any file has a warning.
    #[arg(long)]
    strict: bool,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// Print only the summary, not each problem found.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> Result<Outcome, CliError> {
    let game = Game::from_arg(&args.game);
    let read = ReadOptions {
        format: args.format.as_deref(),
        rules: args.rules.as_deref(),
    };
    crate::games::validate(game, &read, None)?;
    let only = crate::games::record_index(args.record)?;
    let (inputs, skipped) = expand(&args.paths, Game::filter(game))?;
    if inputs.is_empty() {
        return Err(CliError::usage(format!(
            "no record files found ({} other files skipped); name the files, or say which game \
             with --game",
            skipped.len()
        )));
    }
    let progress = crate::inputs::file_progress(inputs.len());
    // A hidden bar still takes its lock and reads the clock at every `inc`: 300 instructions
    // a file, asked once here instead.
    let shown = !progress.is_hidden();
    let start = Instant::now();
    // One read buffer and open directory per worker, reused for every file it checks.
    let worker = || FileReader::with_capacity(READ_BUFFER_CAPACITY);
    let check = |reader: &mut FileReader, input: &Input| {
        let r = check_one(input, game, &read, only, reader);
        if shown {
            progress.inc(1);
        }
        r
    };
    let reports: Vec<FileReport> = if args.jobs == Some(1) {
        // One worker is this thread: no pool to start and hand the files to.
        let mut state = worker();
        inputs
            .iter()
            .map(|input| check(&mut state, input))
            .collect()
    } else {
        crate::inputs::worker_pool(args.jobs)?
            .install(|| inputs.par_iter().map_init(worker, check).collect())
    };
    progress.finish_and_clear();
    let summary = Summary::of(&reports, skipped.len(), start.elapsed().as_secs_f64());
    let mut out = String::new();
    if args.json {
        let skipped: Vec<String> = skipped.iter().map(|p| p.display().to_string()).collect();
        let doc = serde_json::json!({
            "files": reports,
            "skipped": skipped,
            "strict": args.strict,
            "summary": summary,
        });
        out.push_str(&doc.to_string());
        out.push('\n');
    } else {
        if !args.quiet {
            for r in &reports {
                for d in &r.diagnostics {
                    out.push_str(&d.rendered);
                    out.push('\n');
                }
            }
        }
        out.push_str(&summary.table());
        out.push('\n');
        if args.strict && summary.total.warnings > 0 && summary.total.invalid == 0 {
            out.push_str("--strict: the warnings count as failures\n");
        }
    }
    print_all(&out)?;
    let failed = summary.total.invalid > 0 || (args.strict && summary.total.warnings > 0);
    // Everything is printed and the process ends next: freeing a report and a path per file
    // one by one would only delay the exit.
    std::mem::forget(reports);
    std::mem::forget(inputs);
    Ok(if failed {
        Outcome::Invalid
    } else {
        Outcome::Ok
    })
}

/// Writes to stdout; a reader that went away (`kifu check … | head`) ends the output quietly.
pub fn print_all(text: &str) -> Result<(), CliError> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::Failed(format!("standard output: {e}"))),
    }
}

/// Room for most record files at once (a game of 300 moves with times is about 4 KB); a
/// larger file grows the buffer.
const READ_BUFFER_CAPACITY: usize = 64 * 1024;

fn check_one(
    input: &Input,
    game: Option<Game>,
    read: &ReadOptions<'_>,
    only: Option<usize>,
    reader: &mut FileReader,
) -> FileReport {
    let name = input.name();
    let bytes = match reader.read(input) {
        Ok(bytes) => bytes,
        Err(e) => return FileReport::failed(name, "?", "?", e.to_string()),
    };
    let file = crate::games::InputFile {
        name: &name,
        path: input.path.as_deref(),
        bytes,
    };
    crate::games::check(game, &file, read, only)
}
