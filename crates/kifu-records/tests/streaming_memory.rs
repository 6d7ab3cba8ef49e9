//! Issue 11, case 6: reading a multi-record file record by record holds one record at a
//! time. Counted with an allocator that tracks the peak of live bytes: streaming an archive
//! stays within a small bound however many games it holds, where collecting them does not.
//! (Its own test binary, as the global allocator counts for the whole process.)

use kifu_record::RecordFormat;
use kifu_records::shogi::{Parsed, csa};
use kifu_testkit::peak_memory::{Counting, peak_during};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn streaming_an_archive_holds_one_record_at_a_time() {
    let one = kifu_testkit::corpus::text("shogi/bulk/all_games.csa");
    // 2,000 real games, 2 MB of text.
    let archive = format!("{one}\n/\n").repeat(4);
    let mut count = 0;
    let (streaming, ()) = peak_during(|| {
        for read in csa::CSA.records(&archive) {
            assert!(read.diagnostics.is_empty());
            count += 1;
        }
    });
    assert_eq!(count, 2000);
    let (collected, ()) = peak_during(|| {
        let parsed = Parsed::collect(csa::CSA.records(&archive));
        assert_eq!(parsed.records.len(), 2000);
    });
    // One record with its position, replay and tree is some hundred kilobytes at most; all
    // of them are many megabytes.
    assert!(
        streaming < 1024 * 1024,
        "streaming peaked at {streaming} bytes"
    );
    assert!(
        collected > 20 * streaming,
        "collected {collected} vs streaming {streaming}"
    );
}
