//! Every shogi reader on arbitrary bytes (decoded as a file of that format would be): no
//! panic, spans inside the text, and whatever was read can be written in every format.
#![no_main]

use kifu_shogi::formats::{Format, csa::CsaVersion, read_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for format in Format::ALL {
        let (text, parsed) = read_bytes(data, format);
        for d in &parsed.diagnostics {
            assert!(d.span.end as usize <= text.len(), "{format:?}: {d:?}");
        }
        for target in Format::ALL {
            let _ = target.write(&parsed.records, CsaVersion::V30);
        }
    }
});
