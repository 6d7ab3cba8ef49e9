//! Decoding arbitrary bytes under every expected encoding: no panic, and spans of the
//! diagnostics lie inside the decoded text.
#![no_main]

use kifu_record::{TextEncoding, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for expected in [
        TextEncoding::Utf8,
        TextEncoding::ShiftJis,
        TextEncoding::EucJp,
    ] {
        let d = decode(data, expected);
        for diag in &d.diagnostics {
            assert!(diag.span.end as usize <= d.text.len());
        }
    }
});
