//! Perft speed, ours against two crates.io generators on the same positions, single-threaded.
//!
//! All three count leaves in bulk: at depth 1 the legal moves are generated
//! and counted, not played. Run with `cargo bench -p kifu-shogi --bench perft`;
//! divan reports nodes/s in the `items/s` column.

use divan::Bencher;
use divan::counter::ItemsCount;

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

/// (name, SFEN, depth, expected nodes)
const CASES: [(&str, &str, u32, u64); 3] = [
    ("start-5", START, 5, 19_861_490),
    ("start-6", START, 6, 547_581_517),
    ("matsuri-4", MATSURI, 4, 516_925_165),
];

fn main() {
    divan::main();
}

fn case(name: &str) -> (&'static str, u32, u64) {
    let c = CASES.iter().find(|c| c.0 == name).expect("known case");
    (c.1, c.2, c.3)
}

#[divan::bench(args = ["start-5", "start-6", "matsuri-4"], sample_count = 3, sample_size = 1)]
fn kifu(bencher: Bencher, name: &str) {
    let (sfen, depth, expected) = case(name);
    let mut pos = kifu_shogi::Position::from_sfen(sfen).unwrap();
    bencher.counter(ItemsCount::new(expected)).bench_local(|| {
        let n = kifu_shogi::perft(&mut pos, depth);
        assert_eq!(n, expected);
    });
}

#[divan::bench(args = ["start-5", "start-6", "matsuri-4"], sample_count = 3, sample_size = 1)]
fn rsshogi(bencher: Bencher, name: &str) {
    let (sfen, depth, expected) = case(name);
    let pos = rsshogi::board::Position::from_sfen(sfen).unwrap();
    bencher.counter(ItemsCount::new(expected)).bench_local(|| {
        let n = rsshogi::board::perft::perft(&pos, depth as u8)
            .unwrap()
            .nodes;
        assert_eq!(n, expected);
    });
}

// About 10 M nodes/s, so one sample each keeps the run to a few minutes.
#[divan::bench(args = ["start-5", "start-6", "matsuri-4"], sample_count = 1, sample_size = 1)]
fn shogi_legality_lite(bencher: Bencher, name: &str) {
    use shogi_usi_parser::FromUsi;
    let (sfen, depth, expected) = case(name);
    let pos = shogi_core::PartialPosition::from_usi(&format!("sfen {sfen}")).unwrap();
    bencher.counter(ItemsCount::new(expected)).bench_local(|| {
        let n = shogi_legality_lite::perft::perft(pos.clone(), depth as usize).all;
        assert_eq!(n, expected);
    });
}
