//! Every record reader on arbitrary bytes: no panic, every diagnostic's span inside the
//! decoded text, the streaming reader gives the same records as the whole-text one (and at
//! least one), checking without building records finds what reading finds, and whatever was
//! read can be written in every format without panicking.
#![no_main]

use kifu_record::RecordCheck;
use kifu_records::read_bytes;
use kifu_records::shogi::FORMATS;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else { return };
    let format = FORMATS[usize::from(selector) % FORMATS.len()];
    let (text, parsed) = read_bytes(bytes, format);
    for d in &parsed.diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end as usize <= text.len(), "{d:?}");
    }
    assert!(!parsed.records.is_empty());
    let streamed: Vec<_> = format.records(&text).collect();
    assert_eq!(streamed.len(), parsed.records.len());
    for (i, read) in streamed.iter().enumerate() {
        assert_eq!(read.record, parsed.records[i]);
    }
    let checked: Vec<RecordCheck> = format.check(&text).collect();
    let expected: Vec<RecordCheck> = format.records(&text).map(RecordCheck::from).collect();
    assert_eq!(checked, expected);
    if let Some(last) = streamed.len().checked_sub(1) {
        assert_eq!(format.records(&text).nth(last).map(|r| r.record), Some(streamed[last].record.clone()));
    }
    for to in FORMATS {
        let _ = to.write(&parsed.records).encode(to.encoding());
    }
});
