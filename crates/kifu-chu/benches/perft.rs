//! Perft from the start position, path-based (as lishogi/shogiops count), depths 3 and 4, and the
//! canonical count at depth 3. Compare with `bench-peer/perft.mjs` (shogiops) on the same machine.

use criterion::{Criterion, criterion_group, criterion_main};
use kifu_chu::{Counting, Position, perft};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let start = Position::startpos();
    let mut group = c.benchmark_group("chu perft start");
    group.sample_size(20);
    group.bench_function("path-based depth 3 (52,599)", |b| {
        b.iter(|| assert_eq!(perft(black_box(&start), 3, Counting::PathBased), 52_599))
    });
    group.bench_function("path-based depth 4 (2,134,748)", |b| {
        b.iter(|| assert_eq!(perft(black_box(&start), 4, Counting::PathBased), 2_134_748))
    });
    group.bench_function("canonical depth 3 (48,315)", |b| {
        b.iter(|| assert_eq!(perft(black_box(&start), 3, Counting::Canonical), 48_315))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
