//! The CSL / lishogi move reader must never panic, and whatever it accepts must be legal.
#![no_main]

use kifu_chu::Position;
use kifu_chu::notation::{Dialect, parse_move, western};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let positions = [
        Position::startpos(),
        Position::from_sfen("k11/12/12/3g8/4p7/5N6/12/12/12/12/12/11K b - 1").unwrap(),
    ];
    for pos in &positions {
        for dialect in [Dialect::Csl, Dialect::LishogiEngine, Dialect::LishogiWestern] {
            if let Ok(p) = parse_move(pos, text, dialect, None) {
                assert!(pos.is_legal(p.mv), "accepted an illegal move {}", p.mv);
                let _ = western(pos, p.mv);
            }
        }
    }
});
