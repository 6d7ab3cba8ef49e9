use std::path::PathBuf;

use crate::Outcome;
use crate::games::{Game, GameArg, ReadOptions};
use crate::inputs::Input;

#[derive(clap::Args)]
pub struct Args {
    /// Record file; `-` reads standard input.
    #[arg(value_name = "FILE")]
    input: PathBuf,
    /// Show the position after this many moves of the main line (default: the end).
    #[arg(long, value_name = "N")]
    ply: Option<usize>,
    /// Format of the input when its extension does not tell.
    #[arg(long, value_name = "FORMAT")]
    from: Option<String>,
    /// Cetkaik rule set for records that do not name one.
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
    /// The game the record is of.
    #[arg(long, value_enum, default_value_t = GameArg::Auto)]
    game: GameArg,
}

pub fn run(args: Args) -> Result<Outcome, String> {
    let input = Input::from_arg(&args.input);
    let name = input.name();
    let bytes = input.read().map_err(|e| format!("{name}: {e}"))?;
    let path = input.path.as_deref();
    let game = Game::from_arg(args.game)
        .or_else(|| Game::detect(path, &bytes))
        .ok_or_else(|| format!("{name}: cannot tell which game this is; use --game"))?;
    let (text, report) = crate::games::show(
        game,
        &name,
        path,
        &ReadOptions {
            format: args.from.as_deref(),
            rules: args.rules.as_deref(),
        },
        args.ply,
        &bytes,
    )?;
    for d in &report.diagnostics {
        eprintln!("{}", d.rendered);
    }
    print!("{text}");
    Ok(if report.is_valid() {
        Outcome::Ok
    } else {
        Outcome::Invalid
    })
}
