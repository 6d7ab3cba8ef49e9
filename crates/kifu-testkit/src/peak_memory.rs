//! Peak live heap memory of a piece of code, for tests that hold a reader to a memory bound.
//!
//! A test binary installs [`Counting`] as its global allocator (the allocator counts for the
//! whole process, so such a test has a binary of its own) and measures with [`peak_during`]:
//!
//! ```
//! use kifu_testkit::peak_memory::{Counting, peak_during};
//!
//! #[global_allocator]
//! static ALLOCATOR: Counting = Counting;
//!
//! fn main() {
//!     let (bytes, len) = peak_during(|| vec![1u8; 1 << 20].len());
//!     assert_eq!(len, 1 << 20);
//!     assert!(bytes >= 1 << 20);
//! }
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes live and their peak.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on unchanged to the system allocator; only counters change.
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

/// Bytes live now. Meaningful only in a binary whose global allocator is [`Counting`].
pub fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// Bytes allocated at the peak of `f`, above what was live before it, and what `f` returns.
/// Meaningful only in a binary whose global allocator is [`Counting`].
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = f();
    (PEAK.load(Ordering::Relaxed).saturating_sub(before), out)
}

/// The largest peak resident set of any child process this process has waited for, in bytes
/// (`getrusage(RUSAGE_CHILDREN)`): what a test that runs the `kifu` binary holds to a memory
/// bound. The kernel keeps the largest child's peak, so a test file that measures this way
/// holds one test, whose children are the ones measured.
#[cfg(unix)]
pub fn largest_child_peak_rss() -> u64 {
    // SAFETY: an all-zero `rusage` is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct it is given and nothing else.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(rc, 0, "getrusage: {}", std::io::Error::last_os_error());
    // Kilobytes on Linux.
    usage.ru_maxrss as u64 * 1024
}
