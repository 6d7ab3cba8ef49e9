//! Validated games/s reading the corpus' bulk records, single-threaded: ours and rsshogi's
//! validating CSA and KIF readers on the same bytes in the same run. Files are read into
//! memory first, so only decoding, parsing and replay are measured.
//!
//! `cargo bench -p kifu-records --bench records`; criterion's throughput is games/s.
//! cshogi's figure comes from `benches/peers/cshogi_csa.py` (see the README).

use std::path::PathBuf;
use std::sync::OnceLock;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kifu_record::RecordFormat;
use kifu_records::read_bytes;
use kifu_records::shogi::{csa, kif};
use kifu_shogi::Shogi;

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

fn kifu_reads(files: &[Vec<u8>], format: &dyn RecordFormat<Shogi>) {
    for bytes in files {
        let (_, parsed) = read_bytes(bytes, format);
        assert!(!parsed.has_errors());
    }
}

fn records(c: &mut Criterion) {
    for kind in ["csa", "kif"] {
        let files = corpus(kind);
        let mut group = c.benchmark_group(format!("read bulk {kind}"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(files.len() as u64));
        let ours: &dyn RecordFormat<Shogi> = if kind == "csa" { &csa::CSA } else { &kif::KIF };
        group.bench_function("kifu", |b| b.iter(|| kifu_reads(files, ours)));
        group.bench_function("rsshogi", |b| {
            b.iter(|| {
                for bytes in files {
                    if kind == "csa" {
                        rsshogi::records::formats::csa::parse_csa_bytes(bytes).unwrap();
                    } else {
                        rsshogi::records::formats::kif::parse_kif_bytes(bytes).unwrap();
                    }
                }
            })
        });
        if kind == "csa" {
            // The same CSA files through `check` (validation without building records), as
            // `kifu check` reads them.
            group.bench_function("kifu check", |b| {
                b.iter(|| {
                    for bytes in files {
                        let text = std::str::from_utf8(bytes).expect("UTF-8 corpus");
                        for check in csa::CSA.check(text) {
                            assert!(check.diagnostics.is_empty());
                        }
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, records);
criterion_main!(benches);
