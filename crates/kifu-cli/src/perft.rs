use std::time::Instant;

use kifu_shogi::Position;

use crate::Outcome;

#[derive(clap::Args)]
pub struct Args {
    /// Start position as SFEN (default: the even-game start).
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
}

pub fn run(args: Args) -> Result<Outcome, String> {
    let mut pos = match &args.sfen {
        None => Position::startpos(),
        Some(s) => Position::from_sfen(s).map_err(|e| format!("--sfen: {e}"))?,
    };
    let start = Instant::now();
    let (total, divided) = if args.divide {
        let rows = kifu_shogi::perft_divide(&mut pos, args.depth);
        (rows.iter().map(|r| r.1).sum(), Some(rows))
    } else {
        (kifu_shogi::perft(&mut pos, args.depth), None)
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
                .map(|(m, n)| serde_json::json!({ "move": m.to_string(), "nodes": n }))
                .collect::<Vec<_>>()
        });
        let out = serde_json::json!({
            "sfen": pos.to_sfen(),
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
