//! Chu record readers and writers must never panic on any input.
#![no_main]

use kifu_records::chu::FORMATS;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // Every format's reader one game at a time, and every writer with its list of losses.
    for reader in FORMATS {
        let games: Vec<_> = reader.records(text).take(4).map(|r| r.record).collect();
        for writer in FORMATS {
            let _ = writer.write(&games);
        }
    }
});
