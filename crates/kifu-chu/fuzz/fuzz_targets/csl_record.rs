//! Record readers must never panic on any input.
#![no_main]

use kifu_chu::record::{csl, json, kif, usi};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = csl::parse(text);
    let _ = kif::parse(text);
    let _ = usi::parse_many(text);
    let _ = json::parse_many(text);
});
