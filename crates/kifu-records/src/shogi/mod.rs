//! Shogi record formats: reading (with replay under the full rules), writing, converting.
//!
//! Every reader turns decoded text into [`ShogiRecord`]s plus [`Diagnostic`]s with spans,
//! replaying each move with [`Position::check_move`]; every writer takes a record and returns
//! text plus warnings for whatever the target format cannot hold.
//!
//! ```
//! use kifu_records::shogi::csa;
//!
//! let parsed = csa::read("V2.2\nN+Sente\nPI\n+\n+7776FU\nT3\n-3334FU\n%TORYO\n");
//! assert!(parsed.diagnostics.is_empty());
//! let record = &parsed.records[0];
//! assert_eq!(record.moves.main_line().count(), 3); // two moves and the resignation
//! ```
//!
//! Converting: any format of the table ([`FORMATS`], looked up by name, extension or
//! content) to any other, from bytes to bytes.
//!
//! ```
//! use kifu_records::read_bytes;
//! use kifu_records::shogi::csa::{CsaFormat, CsaVersion};
//! use kifu_records::shogi::format_by_name;
//! use kifu_record::RecordFormat;
//!
//! let kif = "手合割：平手\n   1 ７六歩(77)   ( 0:03/00:00:03)\n   2 ３四歩(33)\n   3 投了\n";
//! let (_text, parsed) = read_bytes(kif.as_bytes(), format_by_name("kifu").unwrap());
//! assert!(!parsed.has_errors());
//! let written = CsaFormat::new(CsaVersion::V22).write(&parsed.records);
//! assert!(written.text.contains("+7776FU\nT3\n-3334FU\n%TORYO\n"));
//! let sjis = format_by_name("kif").unwrap();
//! let (bytes, warnings) = sjis.write(&parsed.records).encode(sjis.encoding());
//! assert!(warnings.is_empty() && !bytes.is_empty()); // Shift_JIS
//! ```
//!
//! What each format holds (a writer lists what it had to drop):
//!
//! | | header | custom start | variations | times | comments | bookmarks | endings |
//! |---|---|---|---|---|---|---|---|
//! | CSA | `N±`, `$` (others as `'` comments) | yes | no | yes (ms in V3.0) | yes | no | `%` specials |
//! | KIF/KIFU | yes | BOD | yes | whole seconds | yes | yes | words |
//! | KI2 | yes | BOD | yes | no | yes | yes | `まで` line |
//! | JKF | yes | yes | forks | whole seconds | yes | as `&` comments | specials |
//! | USI | no | SFEN | no | no | no | no | `resign` |
//!
//! [`Position::check_move`]: kifu_shogi::Position::check_move
//! [`Diagnostic`]: kifu_record::Diagnostic

pub mod analysis_comments;
pub mod csa;
mod formats;
pub mod jkf;
pub mod ki2;
pub mod kif;
mod line;
mod main_line;
mod record;
mod replay;
pub(crate) mod sniffing;
pub mod usi_record;

pub use formats::{
    FORMATS, Recognised, format_by_extension, format_by_name, judge, main_lines, recognise, sniff,
};
pub use main_line::MainLine;
pub use record::{
    Parsed, RecordRead, ShogiRecord, StartPosition, Written, color_of, main_line_node, position_at,
    side_of,
};
