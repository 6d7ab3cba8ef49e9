//! Every record reader on arbitrary bytes: no panic, every diagnostic's span inside the
//! decoded text, and whatever was read can be written in every format without panicking.
#![no_main]

use kifu_shogi::formats::{Format, csa::CsaVersion, read_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else { return };
    let format = Format::ALL[usize::from(selector) % Format::ALL.len()];
    let (text, parsed) = read_bytes(bytes, format);
    for d in &parsed.diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end as usize <= text.len(), "{d:?}");
    }
    for to in Format::ALL {
        let _ = to.encode(to.write(&parsed.records, CsaVersion::V30));
    }
});
