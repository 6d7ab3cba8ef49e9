//! Any text: the move readers of every notation must not panic, and a move they read must
//! resolve against the start position or be refused with a reason, never a panic.
#![no_main]

use kifu_cetkaik::notation::cursor::Cursor;
use kifu_cetkaik::notation::{kanji, machine, phonetic, resolve};
use kifu_cetkaik::{MatchState, Rules, Side};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let state = MatchState::new(Rules::standard(), Side::IASide, [20, 20]);
    let mut diags = Vec::new();
    let mut explicit = false;
    let written = [
        kanji::board_move(&mut Cursor::new(text, 0), &mut diags, &mut explicit),
        kanji::drop_move(&mut Cursor::new(text, 0), &mut diags),
        phonetic::phonetic_move(&mut Cursor::new(text, 0), &mut diags),
        phonetic::phonetic_drop(&mut Cursor::new(text, 0), &mut diags),
        machine::parse_mrf(text).ok().map(|m| m.note),
    ];
    for note in written.into_iter().flatten() {
        let _ = resolve::resolve(state.position(), &note, &state.rules);
    }
});
