//! The Ki2 reader alone on arbitrary bytes: no panic, spans inside the decoded text, and what
//! was read can be written back in the same format and read again without a panic.
#![no_main]

use kifu_records::shogi::{Format, csa::CsaVersion, read_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, parsed) = read_bytes(data, Format::Ki2);
    for d in &parsed.diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end as usize <= text.len(), "{d:?}");
    }
    let (bytes, _) = Format::Ki2.encode(Format::Ki2.write(&parsed.records, CsaVersion::V30));
    let _ = read_bytes(&bytes, Format::Ki2);
});
