//! `cargo run --release -p kifu-chu --example perft -- [depth] [path|canonical] [sfen]`:
//! perft from a position (the start by default) with the best time of five runs.

use std::time::Instant;

use kifu_chu::{Counting, Position, perft};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(4);
    let counting = match args.next().as_deref() {
        Some("canonical") => Counting::Canonical,
        _ => Counting::PathBased,
    };
    let rest: Vec<String> = args.collect();
    let pos = if rest.is_empty() {
        Position::startpos()
    } else {
        match Position::from_sfen(&rest.join(" ")) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    };
    let mut n = 0;
    let mut s = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        n = perft(&pos, depth, counting);
        s = s.min(t.elapsed().as_secs_f64());
    }
    println!(
        "perft({depth}, {counting:?}) = {n} in {s:.6}s ({:.2} Mnodes/s)",
        n as f64 / s / 1e6
    );
}
