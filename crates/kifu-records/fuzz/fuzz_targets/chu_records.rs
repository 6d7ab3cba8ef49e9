//! Record readers and writers must never panic on any input.
#![no_main]

use kifu_chu::record::{Format, csl, json, kif, usi};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = csl::parse(text);
    let _ = kif::parse(text);
    let _ = usi::parse_many(text);
    let _ = json::parse_many(text);
    // Every format's reader one game at a time, and every writer with its list of losses.
    for f in [Format::Csl, Format::Kif, Format::Usi, Format::Json] {
        let games: Vec<_> = f.records(text).take(4).map(|(r, _)| r).collect();
        for to in [Format::Csl, Format::CslJapanese, Format::Kif, Format::Usi, Format::Json] {
            let _ = to.losses(games.first().unwrap_or(&Default::default()));
            let _ = to.write_all(&games);
        }
    }
});
