//! Any text given as SFEN either fails with a column inside the text (or just past it)
//! or gives a position whose SFEN reads back to the same position, with legal moves
//! that all pass `check_move` and can be played and taken back.
#![no_main]

use kifu_shogi::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Position::from_sfen(text) {
        Err(e) => assert!(e.column >= 1 && e.column <= text.chars().count() + 1, "{e}"),
        Ok(mut pos) => {
            let sfen = pos.to_sfen();
            assert_eq!(Position::from_sfen(&sfen).unwrap(), pos);
            let hash = pos.hash();
            for mv in pos.legal_moves().iter().copied() {
                assert_eq!(pos.check_move(mv), Ok(()));
                pos.play_unchecked(mv);
                pos.undo();
            }
            assert_eq!(pos.hash(), hash);
            assert_eq!(pos.to_sfen(), sfen);
            let _ = pos.repetition();
            let _ = pos.declaration(kifu_shogi::DeclarationRule::Points27);
        }
    }
});
