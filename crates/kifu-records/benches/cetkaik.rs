//! Reading and replaying the largest record of the cetkaik corpus (whole, and season by season
//! as `records()` hands it out), and writing it back in notation ⓪.
//!
//! `cargo bench -p kifu-records --bench cetkaik`

use std::hint::black_box;
use std::sync::OnceLock;

use criterion::{Criterion, criterion_group, criterion_main};
use kifu_cetkaik::Rules;
use kifu_records::cetkaik::{self as ckka, Notation, write};

/// Read at run time: the corpus lies outside the crate, and the published package must build.
fn case1() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| kifu_testkit::corpus::text("cetkaik/cerke_online/case1_2022-05-31.ckka"))
}

fn cetkaik(c: &mut Criterion) {
    let text = case1();
    let mut group = c.benchmark_group("ckka case1");
    group.bench_function("check", |b| {
        b.iter(|| ckka::check(black_box(text), Rules::standard()).1.len())
    });
    group.bench_function("records", |b| {
        b.iter(|| ckka::FORMATS[0].records(black_box(text)).count())
    });
    let (game, _) = ckka::check(text, Rules::standard());
    group.bench_function("write", |b| {
        b.iter(|| write::write(black_box(&game), Notation::Full).len())
    });
    group.finish();
}

criterion_group!(benches, cetkaik);
criterion_main!(benches);
