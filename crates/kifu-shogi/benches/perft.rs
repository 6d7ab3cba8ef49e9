//! Perft speed, ours against two crates.io generators on the same positions, single-threaded.
//!
//! All three count leaves in bulk: at depth 1 the legal moves are generated
//! and counted, not played. Run with `cargo bench -p kifu-shogi --bench perft`;
//! criterion reports nodes/s as the throughput.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use shogi_usi_parser::FromUsi;

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

/// (name, SFEN, depth, expected nodes)
const CASES: [(&str, &str, u32, u64); 3] = [
    ("start-5", START, 5, 19_861_490),
    ("start-6", START, 6, 547_581_517),
    ("matsuri-4", MATSURI, 4, 516_925_165),
];

fn perft(c: &mut Criterion) {
    for (name, sfen, depth, expected) in CASES {
        let mut group = c.benchmark_group(format!("perft {name}"));
        // Each iteration is seconds long (start-6 is half a billion leaves): criterion's
        // smallest sample count keeps the run to a few minutes.
        group.sample_size(10);
        group.throughput(Throughput::Elements(expected));

        let mut pos = kifu_shogi::Position::from_sfen(sfen).unwrap();
        group.bench_function(BenchmarkId::new("kifu", name), |b| {
            b.iter(|| assert_eq!(kifu_shogi::perft(&mut pos, depth), expected))
        });

        let theirs = rsshogi::board::Position::from_sfen(sfen).unwrap();
        group.bench_function(BenchmarkId::new("rsshogi", name), |b| {
            b.iter(|| {
                let n = rsshogi::board::perft::perft(&theirs, depth as u8)
                    .unwrap()
                    .nodes;
                assert_eq!(n, expected)
            })
        });

        let lite = shogi_core::PartialPosition::from_usi(&format!("sfen {sfen}")).unwrap();
        group.bench_function(BenchmarkId::new("shogi_legality_lite", name), |b| {
            b.iter(|| {
                let n = shogi_legality_lite::perft::perft(lite.clone(), depth as usize).all;
                assert_eq!(n, expected)
            })
        });
        group.finish();
    }
}

criterion_group!(benches, perft);
criterion_main!(benches);
