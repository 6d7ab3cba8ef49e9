//! The Kif reader alone on arbitrary bytes: no panic, spans inside the decoded text, and what
//! was read can be written back in the same format and read again without a panic.
#![no_main]

use kifu_record::RecordFormat;
use kifu_records::read_bytes;
use kifu_records::shogi::kif::KIF;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, parsed) = read_bytes(data, &KIF);
    for d in &parsed.diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end as usize <= text.len(), "{d:?}");
    }
    let (bytes, _) = KIF.write(&parsed.records).encode(KIF.encoding());
    let _ = read_bytes(&bytes, &KIF);
});
