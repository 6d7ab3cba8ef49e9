//! Validated games/s reading the corpus' bulk records, single-threaded: ours and rsshogi's
//! validating CSA and KIF readers on the same bytes in the same run. Files are read into
//! memory first, so only decoding, parsing and replay are measured.
//!
//! `cargo bench -p kifu-records --bench records`; divan's `items/s` column is games/s.
//! cshogi's figure comes from `benches/peers/cshogi_csa.py` (see the README).

use std::path::PathBuf;
use std::sync::OnceLock;

use divan::Bencher;
use divan::counter::ItemsCount;
use kifu_record::RecordFormat;
use kifu_records::read_bytes;
use kifu_records::shogi::{csa, kif};
use kifu_shogi::Shogi;

fn main() {
    divan::main();
}

fn corpus(kind: &str) -> &'static [Vec<u8>] {
    static CSA: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    static KIF: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    let cell = if kind == "csa" { &CSA } else { &KIF };
    cell.get_or_init(|| {
        let dir = kifu_testkit::corpus::path("shogi/bulk").join(kind);
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("bulk corpus")
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == kind))
            .collect();
        paths.sort();
        paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
    })
}

fn kifu_reads(bencher: Bencher, kind: &str, format: &dyn RecordFormat<Shogi>) {
    let files = corpus(kind);
    bencher.counter(ItemsCount::new(files.len())).bench(|| {
        for bytes in files {
            let (_, parsed) = read_bytes(bytes, format);
            assert!(!parsed.has_errors());
        }
    });
}

#[divan::bench(sample_count = 10)]
fn kifu_csa(bencher: Bencher) {
    kifu_reads(bencher, "csa", &csa::CSA);
}

#[divan::bench(sample_count = 10)]
fn kifu_kif(bencher: Bencher) {
    kifu_reads(bencher, "kif", &kif::KIF);
}

#[divan::bench(sample_count = 10)]
fn rsshogi_csa(bencher: Bencher) {
    let files = corpus("csa");
    bencher.counter(ItemsCount::new(files.len())).bench(|| {
        for bytes in files {
            rsshogi::records::formats::csa::parse_csa_bytes(bytes).unwrap();
        }
    });
}

#[divan::bench(sample_count = 10)]
fn rsshogi_kif(bencher: Bencher) {
    let files = corpus("kif");
    bencher.counter(ItemsCount::new(files.len())).bench(|| {
        for bytes in files {
            rsshogi::records::formats::kif::parse_kif_bytes(bytes).unwrap();
        }
    });
}

/// The same CSA files through `check` (validation without building records), as `kifu check`
/// reads them.
#[divan::bench(sample_count = 10)]
fn kifu_csa_check(bencher: Bencher) {
    let files = corpus("csa");
    bencher.counter(ItemsCount::new(files.len())).bench(|| {
        for bytes in files {
            let text = std::str::from_utf8(bytes).expect("UTF-8 corpus");
            for check in csa::CSA.check(text) {
                assert!(check.diagnostics.is_empty());
            }
        }
    });
}
