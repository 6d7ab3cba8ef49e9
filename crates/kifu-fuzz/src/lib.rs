//! The bodies of kifu's fuzz targets, one module per target, each a `run(data: &[u8])` that
//! panics when an oracle fails.
//!
//! They live in an ordinary library so that two things run the same code: `cargo fuzz`
//! (`fuzz/`, one thin binary per target) and `tests/seeds.rs`, which replays every committed
//! seed (`seeds/<target>/`, made from the repository's corpus by `make-seeds`) through its
//! target on stable Rust in every `cargo test`. An oracle that a change breaks fails there
//! first, not in the next fuzzing run.
//!
//! The targets were seven crates of seventeen targets, one beside each fuzzed crate; they are
//! one crate of seven now, grouped by what an input is (a record file, a position or move text,
//! bytes from a line, bytes at the server), so that each gets a longer run in the same time and
//! the fuzzing build is done once.
//!
//! | target | input | oracles |
//! |---|---|---|
//! | [`shogi_records`] | a shogi record file, its first byte choosing the format | no panic; spans inside the text; streaming = whole-text reading = checking; every clean record written in every format that holds it reads back to the same start, moves and ending |
//! | [`chu_records`] | a chu record file | the same, over chu's formats |
//! | [`cetkaik_records`] | a CKKA or cetkaik JSON file; CKKA move text | no panic; spans inside the text; a clean match written as ⓪ and as JSON replays to the same game; a move read resolves or is refused |
//! | [`detect`] | any bytes | decoding spans inside the text; telling the game never panics and needs only the sniffed lines |
//! | [`positions`] | SFEN, `position … moves …`, chu move text | errors point inside the text; what is read writes back to the same position and moves; accepted chu moves are legal |
//! | [`csa_line`] | bytes from a CSA 1998 line; what a person types | framing, parsing and the session never panic; messages format back to their line; the session holds legal positions; accepted moves are legal |
//! | [`csa_server`] | bytes at the CSA server; lines at the client | the server's framing, parsing and game judging, and the client's summary reader and clocks, never panic |

pub mod cetkaik_records;
pub mod chu_records;
pub mod csa_line;
pub mod csa_server;
pub mod detect;
pub mod positions;
pub mod round_trip;
pub mod shogi_records;

/// A fuzz target's body: it takes the fuzzer's bytes and panics on a broken oracle.
pub type Target = fn(&[u8]);

/// Every target by name, as `fuzz/` and the seed test call them.
pub const TARGETS: &[(&str, Target)] = &[
    ("shogi_records", shogi_records::run),
    ("chu_records", chu_records::run),
    ("cetkaik_records", cetkaik_records::run),
    ("detect", detect::run),
    ("positions", positions::run),
    ("csa_line", csa_line::run),
    ("csa_server", csa_server::run),
];
