use std::time::Instant;

use crate::Outcome;
use crate::error::CliError;
use crate::games::{Game, GameArg, Perft, PerftRequest};

#[derive(clap::Args)]
pub struct Args {
    /// Start position as SFEN (default: the game's start).
    #[arg(long, value_name = "SFEN")]
    sfen: Option<String>,
    /// Number of plies to look ahead.
    #[arg(long, short)]
    depth: u32,
    /// Print the count below each legal first move.
    #[arg(long)]
    divide: bool,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// The game (shogi by default).
    #[arg(long, value_parser = GameArg::parser(), default_value = "shogi")]
    game: GameArg,
    /// Chu: count every lion route (`path`, the default, as lishogi does) or each resulting
    /// position once (`canonical`).
    #[arg(long, value_name = "COUNTING")]
    counting: Option<String>,
    /// Chu: rule set (`lishogi`, the default, or `jcsa`).
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
}

pub fn run(args: Args) -> Result<Outcome, CliError> {
    let start = Instant::now();
    let game = Game::from_arg(&args.game).unwrap_or_else(Game::default_game);
    let Perft {
        sfen,
        nodes: total,
        divided,
    } = game.perft(&PerftRequest {
        sfen: args.sfen.as_deref(),
        depth: args.depth,
        divide: args.divide,
        counting: args.counting.as_deref(),
        rules: args.rules.as_deref(),
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let nps = if seconds > 0.0 {
        total as f64 / seconds
    } else {
        0.0
    };
    if args.json {
        let moves = divided.as_ref().map(|rows| {
            rows.iter()
                .map(|(m, n)| serde_json::json!({ "move": m, "nodes": n }))
                .collect::<Vec<_>>()
        });
        let out = serde_json::json!({
            "sfen": sfen,
            "depth": args.depth,
            "nodes": total,
            "seconds": seconds,
            "nodes_per_second": nps.round(),
            "divide": moves,
        });
        println!("{out}");
    } else {
        if let Some(rows) = &divided {
            for (m, n) in rows {
                println!("{m}: {n}");
            }
            println!();
        }
        println!("{total}");
        if crate::stderr_is_terminal() {
            eprintln!(
                "perft({}) = {total} in {seconds:.3} s ({:.1} M nodes/s)",
                args.depth,
                nps / 1e6
            );
        }
    }
    Ok(Outcome::Ok)
}
