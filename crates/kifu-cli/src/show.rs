use std::path::PathBuf;

use crate::Outcome;
use crate::error::CliError;
use crate::games::{Game, GameArg, ReadOptions, View};
use crate::inputs::Input;
use crate::ply::resolve_ply;

#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("view").args(["sfen", "csa", "bod", "svg"]))]
pub struct Args {
    /// Record file; `-` reads standard input.
    #[arg(value_name = "FILE")]
    input: PathBuf,
    /// Show the position after this many moves of the main line; negative counts from the
    /// end (-1, the default, is the last position).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    ply: Option<i64>,
    /// The record to show when the file holds several (counted from 1).
    #[arg(long, value_name = "N")]
    record: Option<usize>,
    /// Print the position as SFEN only.
    #[arg(long)]
    sfen: bool,
    /// Print the position as CSA position lines (P1 … P9, hands, side to move).
    #[arg(long)]
    csa: bool,
    /// Print the position as a KIF board diagram (BOD) only.
    #[arg(long)]
    bod: bool,
    /// Print the position as an SVG picture (what `kifu render -o -` writes).
    #[arg(long)]
    svg: bool,
    /// With --svg: turn the board round, the second player at the bottom (as `kifu render
    /// --flip`).
    #[arg(long, requires = "svg")]
    flip: bool,
    /// Format of the input when its extension does not tell.
    #[arg(long, visible_alias = "from", value_name = "FORMAT")]
    format: Option<String>,
    /// Cetkaik rule set for records that do not name one.
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
    /// The game the record is of.
    #[arg(long, value_parser = GameArg::parser(), default_value = "auto")]
    game: GameArg,
}

pub fn run(args: Args) -> Result<Outcome, CliError> {
    let game = Game::from_arg(&args.game);
    let read = ReadOptions {
        format: args.format.as_deref(),
        rules: args.rules.as_deref(),
    };
    crate::games::validate(game, &read, None)?;
    let input = Input::from_arg(&args.input);
    let record = crate::games::record_index(args.record)?.unwrap_or(0);
    if args.svg {
        let (drawing, report) = crate::render::svg_of_input(
            &input,
            game,
            &read,
            args.record,
            args.ply,
            &kifu_render::Options {
                flip: args.flip,
                ..kifu_render::Options::default()
            },
        )?;
        // A picture of a record kifu reported invalid would pass for the game: none is drawn.
        if let Some(drawing) = drawing {
            crate::render::warn_missing_glyphs(&drawing, false);
            crate::check::print_all(&drawing.svg)?;
        }
        return Ok(crate::render::finish(&report));
    }
    let view = if args.sfen {
        View::Sfen
    } else if args.csa {
        View::Csa
    } else if args.bod {
        View::Bod
    } else {
        View::Board
    };
    let (chosen, report) = crate::render::one_record(&input, game, &read, record)?;
    for d in &report.diagnostics {
        eprintln!("{}", d.rendered);
    }
    // A position of a record with errors is not the game's: nothing is shown.
    let Some(records) = chosen else {
        return Ok(Outcome::Invalid);
    };
    let game = report.game;
    let name = input.name();
    let ply = resolve_ply(args.ply, records.main_line_len())?;
    let Some(text) = records.show(ply, view, crate::stdout_is_terminal()) else {
        return Err(CliError::usage(format!(
            "--sfen, --csa and --bod are not drawn for {} records ({name}): --sfen is for shogi \
             and chu, --csa and --bod for shogi",
            game
        )));
    };
    crate::check::print_all(&text)?;
    Ok(Outcome::Ok)
}
