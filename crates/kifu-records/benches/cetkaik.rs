//! Reading and replaying the largest record of the cetkaik corpus (whole, and season by season
//! as `records()` hands it out), and writing it back in notation ⓪.
//!
//! `cargo bench -p kifu-records --bench cetkaik`

use std::sync::OnceLock;

use divan::Bencher;
use kifu_cetkaik::Rules;
use kifu_records::cetkaik::{self as ckka, Notation, write};

fn main() {
    divan::main();
}

/// Read at run time: the corpus lies outside the crate, and the published package must build.
fn case1() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| kifu_testkit::corpus::text("cetkaik/cerke_online/case1_2022-05-31.ckka"))
}

#[divan::bench]
fn ckka_check_case1(bencher: Bencher) {
    let text = case1();
    bencher.bench(|| {
        ckka::check(divan::black_box(text), Rules::standard())
            .1
            .len()
    });
}

#[divan::bench]
fn ckka_records_case1(bencher: Bencher) {
    let text = case1();
    bencher.bench(|| ckka::FORMATS[0].records(divan::black_box(text)).count());
}

#[divan::bench]
fn ckka_write_case1(bencher: Bencher) {
    let (game, _) = ckka::check(case1(), Rules::standard());
    bencher.bench(|| write::write(divan::black_box(&game), Notation::Full).len());
}
