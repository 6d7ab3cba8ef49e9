//! Shogi record files: the first byte chooses the format of `shogi::FORMATS`, the rest is the
//! file's bytes.

use kifu_record::RecordCheck;
use kifu_records::read_bytes;
use kifu_records::shogi::{FORMATS, MainLine, main_lines};

use crate::round_trip::assert_round_trip;

/// No panic; every diagnostic's span inside the decoded text; the streaming reader gives the
/// same records as the whole-text one (at least one), and checking and reading main lines
/// find what reading records finds;
/// every record read without an error, written in every format that reports no loss, reads
/// back with the same start, moves and ending.
pub fn run(data: &[u8]) {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let format = FORMATS[usize::from(selector) % FORMATS.len()];
    let (text, parsed) = read_bytes(bytes, format);
    for d in &parsed.diagnostics {
        assert!(
            d.span.start <= d.span.end && d.span.end as usize <= text.len(),
            "{d:?}"
        );
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
    let lines: Vec<MainLine> = main_lines(format, &text).collect();
    let expected: Vec<MainLine> = format.records(&text).map(MainLine::from_record).collect();
    assert_eq!(lines, expected);
    for read in streamed.iter().filter(|r| !r.has_errors()).take(4) {
        for to in FORMATS {
            assert_round_trip(&read.record, *to);
        }
    }
    for to in FORMATS {
        let _ = to.write(&parsed.records).encode(to.encoding());
    }
}
