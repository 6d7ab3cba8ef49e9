//! What a person types at `kifu link --player human`: any text, in several positions
//! (with and without a previous move for `同`, pieces in hand, promotions possible). Parsing
//! must never panic, and a move it accepts must be legal where it was typed.
#![no_main]

use kifu_csa::player::parse_input;
use kifu_csa::session::Decision;
use kifu_shogi::Position;
use libfuzzer_sys::fuzz_target;

fn positions() -> Vec<Position> {
    let mut after = Position::startpos();
    for m in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
        let mv = after.parse_usi_move(m).unwrap();
        after.play_unchecked(mv);
    }
    vec![
        Position::startpos(),
        after,
        Position::from_sfen("4k4/9/9/2S6/9/4G4/3G5/9/3GKG3 b Sr2b 1").unwrap(),
        Position::from_sfen("3gkg3/9/4g4/9/9/9/6s2/9/4K4 w RS 1").unwrap(),
    ]
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for pos in positions() {
        if let Ok(Decision::Move(mv)) = parse_input(&pos, text) {
            assert!(
                pos.check_move(mv).is_ok(),
                "{text:?} gave an illegal {mv:?}"
            );
        }
    }
});
