//! The Ki2 reader alone on arbitrary bytes: no panic, spans inside the decoded text, and what
//! was read can be written back in the same format and read again without a panic.
#![no_main]

use kifu_record::RecordFormat;
use kifu_records::read_bytes;
use kifu_records::shogi::ki2::KI2;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, parsed) = read_bytes(data, &KI2);
    for d in &parsed.diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end as usize <= text.len(), "{d:?}");
    }
    let (bytes, _) = KI2.write(&parsed.records).encode(KI2.encoding());
    let _ = read_bytes(&bytes, &KI2);
});
