//! Issue 11, case 6: reading a multi-record file record by record holds one record at a
//! time. Counted with an allocator that tracks the peak of live bytes: streaming an archive
//! stays within a small bound however many games it holds, where collecting them does not.
//! (Its own test binary, as the global allocator counts for the whole process.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use kifu_record::RecordFormat;
use kifu_records::shogi::{Parsed, csa};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes allocated at the peak of `f`, above what was live before it.
fn peak_during(f: impl FnOnce()) -> usize {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    f();
    PEAK.load(Ordering::Relaxed) - before
}

#[test]
fn streaming_an_archive_holds_one_record_at_a_time() {
    let one = kifu_testkit::corpus::text("shogi/bulk/all_games.csa");
    // 2,000 real games, 2 MB of text.
    let archive = format!("{one}\n/\n").repeat(4);
    let mut count = 0;
    let streaming = peak_during(|| {
        for read in csa::CSA.records(&archive) {
            assert!(read.diagnostics.is_empty());
            count += 1;
        }
    });
    assert_eq!(count, 2000);
    let collected = peak_during(|| {
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
