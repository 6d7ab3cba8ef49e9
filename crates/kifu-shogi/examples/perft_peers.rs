//! `cargo run --release --example perft_peers -- kifu|rsshogi|lite DEPTH [SFEN]`: one perft run by
//! one generator, for instruction counting (`valgrind --tool=callgrind`) or `hyperfine`,
//! which stay meaningful on a busy machine where the benchmark's wall-clock numbers do not.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let engine = args.get(1).map(String::as_str).unwrap_or("kifu");
    let depth: u32 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(5);
    let sfen = args.get(3).cloned().unwrap_or_else(|| {
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into()
    });
    let nodes = match engine {
        "kifu" => kifu_shogi::perft(&mut kifu_shogi::Position::from_sfen(&sfen).unwrap(), depth),
        "rsshogi" => {
            let pos = rsshogi::board::Position::from_sfen(&sfen).unwrap();
            rsshogi::board::perft::perft(&pos, depth as u8)
                .unwrap()
                .nodes
        }
        "lite" => {
            use shogi_usi_parser::FromUsi;
            let pos = shogi_core::PartialPosition::from_usi(&format!("sfen {sfen}")).unwrap();
            shogi_legality_lite::perft::perft(pos, depth as usize).all
        }
        other => panic!("unknown generator {other}"),
    };
    println!("{nodes}");
}
