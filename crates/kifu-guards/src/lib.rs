//! The repository's own checks, run by `scripts/test` beside the tests: what a compiler and a
//! linter do not catch but the project's standards ask (DEVELOPERS.md).
//!
//! - [`import_cycles`]: no file of a crate imports another that imports it back, read from the
//!   Rust syntax tree (`cargo run -p kifu-guards --bin import-cycles -- crates/*`).

pub mod import_cycles;
