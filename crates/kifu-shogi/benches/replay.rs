//! Record replay under the full rules: the 500 bulk CSA games of the corpus, each move checked
//! with `Position::check_move` and played with `Position::play_unchecked`, as a record reader
//! replays them. The move text is read before timing, so this measures the rules alone.
//!
//! Run with `cargo bench -p kifu-shogi --bench replay`; criterion reports moves/s as the
//! throughput. For instruction counts, run the bench binary under `valgrind --tool=callgrind`
//! with `--bench replay --profile-time 1`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kifu_shogi::notation::csa::CsaMove;
use kifu_shogi::{Move, Position};

/// Each bulk game's moves, read from its CSA text (all start from the even position).
fn games() -> Vec<Vec<Move>> {
    kifu_testkit::corpus::files("shogi/bulk/csa", "csa")
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).expect("corpus file");
            let mut pos = Position::startpos();
            let mut moves = Vec::new();
            for line in text.lines() {
                if line.len() == 7 && (line.starts_with('+') || line.starts_with('-')) {
                    let text = CsaMove::parse(line).expect("move text");
                    let mv = text.to_move(&pos).expect("legal move");
                    pos.play_unchecked(mv);
                    moves.push(mv);
                }
            }
            moves
        })
        .collect()
}

fn replay(c: &mut Criterion) {
    let games = games();
    let plies: usize = games.iter().map(Vec::len).sum();
    let start = Position::startpos();
    let mut group = c.benchmark_group("replay");
    group.sample_size(20);
    group.throughput(Throughput::Elements(plies as u64));
    group.bench_function("bulk csa", |b| {
        b.iter(|| {
            let mut hash = 0u64;
            let mut pos = start.clone();
            for moves in &games {
                pos.clone_from(&start);
                pos.reserve(moves.len());
                for &mv in moves {
                    pos.check_move(mv).expect("legal move");
                    pos.play_unchecked(mv);
                }
                hash ^= pos.hash();
            }
            black_box(hash)
        })
    });
    group.finish();
}

criterion_group!(benches, replay);
criterion_main!(benches);
