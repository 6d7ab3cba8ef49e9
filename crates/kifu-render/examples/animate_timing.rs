//! Times the animations (GIF, then APNG beside it) and the stills of every ply of one shogi
//! game, for docs/benchmarks.md:
//! `cargo run --release -p kifu-render --example animate_timing -- MOVES.usi OUT.gif`, where
//! MOVES.usi holds the game's moves in USI, one or more a line (`kifu convert GAME --to usi`
//! writes them after `moves`).

use std::time::Instant;

use kifu_record::{Record, Span};
use kifu_shogi::Shogi;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(moves), Some(out)) = (args.get(1), args.get(2)) else {
        return Err("usage: animate_timing MOVES.usi OUT.gif".into());
    };
    let text = std::fs::read_to_string(moves)?;
    let mut record: Record<Shogi> = Record::new(Default::default());
    let mut at = record.moves.root();
    for word in text.split_whitespace() {
        if let Ok(mv) = kifu_shogi::usi::parse_move(word) {
            at = record.moves.add_move(at, mv, Span::default());
        }
    }
    let nodes = kifu_render::main_line(&record);
    let options = kifu_render::Options {
        caption: true,
        ..Default::default()
    };

    let started = Instant::now();
    let mut gif = Vec::new();
    let made = kifu_render::animate::gif(&record, &nodes, &options, &Default::default(), &mut gif)?;
    let gif_time = started.elapsed();
    std::fs::write(out, &gif)?;
    println!(
        "gif: {} frames {}x{} in {:.2} s, {} bytes",
        made.frames,
        made.width,
        made.height,
        gif_time.as_secs_f64(),
        gif.len()
    );

    let started = Instant::now();
    let mut apng = Vec::new();
    let made =
        kifu_render::animate::apng(&record, &nodes, &options, &Default::default(), &mut apng)?;
    let apng_time = started.elapsed();
    std::fs::write(std::path::Path::new(out).with_extension("apng"), &apng)?;
    println!(
        "apng: {} frames {}x{} in {:.2} s, {} bytes",
        made.frames,
        made.width,
        made.height,
        apng_time.as_secs_f64(),
        apng.len()
    );

    let started = Instant::now();
    let mut bytes = 0;
    kifu_render::walk_line(&record, &nodes, |step| {
        let png = kifu_render::png(&step.draw(&record, &options).svg)?;
        bytes += png.len();
        Ok::<_, kifu_render::RenderError>(())
    })?;
    let stills_time = started.elapsed();
    println!(
        "stills: {} PNGs in {:.2} s ({:.0} a second, one thread), {} bytes",
        nodes.len(),
        stills_time.as_secs_f64(),
        nodes.len() as f64 / stills_time.as_secs_f64(),
        bytes
    );
    Ok(())
}
