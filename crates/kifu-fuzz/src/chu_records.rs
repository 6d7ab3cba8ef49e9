//! Chu shogi record files: the first byte chooses the format of `chu::FORMATS`, the rest is
//! the file's bytes.

use kifu_records::chu::FORMATS;
use kifu_records::read_bytes;

use crate::round_trip::assert_round_trip;

/// No panic; every diagnostic's span inside the decoded text; every writer takes whatever was
/// read; every game read without an error, written in every format that reports no loss,
/// reads back with the same start, moves and ending.
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
    let reads: Vec<_> = format.records(&text).take(4).collect();
    for read in reads.iter().filter(|r| !r.has_errors()) {
        for to in FORMATS {
            assert_round_trip(&read.record, *to);
        }
    }
    let games: Vec<_> = reads.into_iter().map(|r| r.record).collect();
    for to in FORMATS {
        let _ = to.write(&games);
    }
}
