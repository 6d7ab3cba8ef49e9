use std::time::Instant;

use kifu_shogi::Position;

use crate::Outcome;

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PerftGame {
    Shogi,
    Chu,
}

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
    /// The game.
    #[arg(long, value_enum, default_value_t = PerftGame::Shogi)]
    game: PerftGame,
    /// Chu: count every lion route (`path`, as lishogi does) or each resulting position once (`canonical`).
    #[arg(long, value_name = "COUNTING", default_value = "path")]
    counting: String,
    /// Chu: rule set (`lishogi` or `jcsa`).
    #[arg(long, value_name = "RULES", default_value = "lishogi")]
    rules: String,
}

pub fn run(args: Args) -> Result<Outcome, String> {
    let start = Instant::now();
    let (sfen, total, divided) = match args.game {
        PerftGame::Shogi => shogi(&args)?,
        PerftGame::Chu => chu(&args)?,
    };
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

type Counted = (String, u64, Option<Vec<(String, u64)>>);

fn shogi(args: &Args) -> Result<Counted, String> {
    let mut pos = match &args.sfen {
        None => Position::startpos(),
        Some(s) => Position::from_sfen(s).map_err(|e| format!("--sfen: {e}"))?,
    };
    let sfen = pos.to_sfen();
    Ok(if args.divide {
        let rows: Vec<(String, u64)> = kifu_shogi::perft_divide(&mut pos, args.depth)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect();
        (sfen, rows.iter().map(|r| r.1).sum(), Some(rows))
    } else {
        (sfen, kifu_shogi::perft(&mut pos, args.depth), None)
    })
}

fn chu(args: &Args) -> Result<Counted, String> {
    let counting = kifu_chu::Counting::from_name(&args.counting).ok_or_else(|| {
        format!(
            "--counting: `{}` is neither `path` nor `canonical`",
            args.counting
        )
    })?;
    let rules = kifu_chu::RuleSet::from_name(&args.rules)
        .ok_or_else(|| format!("--rules: `{}` is neither `lishogi` nor `jcsa`", args.rules))?;
    let pos = match &args.sfen {
        None => kifu_chu::Position::startpos(),
        Some(s) => kifu_chu::Position::from_sfen(s).map_err(|e| format!("--sfen: {e}"))?,
    }
    .with_rules(rules);
    let sfen = pos.to_sfen();
    Ok(if args.divide {
        let rows: Vec<(String, u64)> = kifu_chu::perft_divide(&pos, args.depth, counting)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect();
        (sfen, rows.iter().map(|r| r.1).sum(), Some(rows))
    } else {
        (sfen, kifu_chu::perft(&pos, args.depth, counting), None)
    })
}
