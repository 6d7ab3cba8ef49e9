//! The `csa_line` target: its body and oracles are `kifu_fuzz::csa_line::run`, which
//! `crates/kifu-fuzz/tests/seeds.rs` also runs on every committed seed.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| kifu_fuzz::csa_line::run(data));
