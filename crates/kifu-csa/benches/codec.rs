//! The line codec's cost per message: framing, parsing, and checking a move against the
//! position (the work a session does for every line it receives).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kifu_csa::lines::LineFramer;
use kifu_csa::{CsaMove, Message};
use kifu_shogi::Position;

/// A game as it would cross the line, and the position before each move.
fn game() -> (Vec<u8>, Vec<(Position, String)>) {
    let mut pos = Position::startpos();
    let mut bytes = Vec::new();
    let mut lines = Vec::new();
    // A deterministic walk through legal moves, long enough for captures and drops.
    for ply in 0..80usize {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[(ply * 7919) % legal.len()];
        let line = CsaMove::from_move(&pos, mv).to_string();
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        lines.push((pos.clone(), line));
        pos.play_unchecked(mv);
    }
    (bytes, lines)
}

fn codec(c: &mut Criterion) {
    let (bytes, lines) = game();
    let mut g = c.benchmark_group("codec");
    g.throughput(Throughput::Elements(lines.len() as u64));
    g.bench_function("frame", |b| {
        let mut out = Vec::with_capacity(lines.len());
        b.iter(|| {
            let mut f = LineFramer::new();
            out.clear();
            f.push(black_box(&bytes), &mut out);
            out.len()
        })
    });
    g.bench_function("parse+check", |b| {
        b.iter(|| {
            for (pos, line) in &lines {
                let Ok(Message::Move(m)) = Message::parse(black_box(line)) else {
                    unreachable!()
                };
                black_box(m.to_move(pos).unwrap());
            }
        })
    });
    g.bench_function("format", |b| {
        let moves: Vec<CsaMove> = lines
            .iter()
            .map(|(_, l)| CsaMove::parse(l).unwrap())
            .collect();
        b.iter(|| {
            moves
                .iter()
                .map(|m| black_box(m.to_string()).len())
                .sum::<usize>()
        })
    });
    g.finish();
    let garbage = vec![b'x'; 1 << 20];
    let mut g = c.benchmark_group("garbage");
    g.throughput(Throughput::Bytes(garbage.len() as u64));
    g.bench_function("1MB line", |b| {
        b.iter(|| {
            let mut f = LineFramer::new();
            let mut out = Vec::new();
            f.push(black_box(&garbage), &mut out);
            f.finish()
        })
    });
    g.finish();
}

criterion_group!(benches, codec);
criterion_main!(benches);
