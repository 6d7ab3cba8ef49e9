//! The `positions` target: its body and oracles are `kifu_fuzz::positions::run`, which
//! `crates/kifu-fuzz/tests/seeds.rs` also runs on every committed seed.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| kifu_fuzz::positions::run(data));
