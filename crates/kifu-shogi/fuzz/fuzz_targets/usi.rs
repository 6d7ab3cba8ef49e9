//! `position … moves …` lines: errors point inside the line; accepted games replay to
//! the same end position from their own USI text.
#![no_main]

use kifu_shogi::usi::parse_position_command;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse_position_command(text) {
        Err(e) => assert!(e.column >= 1 && e.column <= text.chars().count() + 1, "{e}"),
        Ok(cmd) => {
            let again = parse_position_command(&cmd.to_usi()).expect("our own output parses");
            assert_eq!(again.moves, cmd.moves);
            assert_eq!(again.end(), cmd.end());
        }
    }
});
