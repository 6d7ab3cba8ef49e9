//! The `chu_records` target: its body and oracles are `kifu_fuzz::chu_records::run`, which
//! `crates/kifu-fuzz/tests/seeds.rs` also runs on every committed seed.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| kifu_fuzz::chu_records::run(data));
