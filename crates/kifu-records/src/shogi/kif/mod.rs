//! KIF and KIFU (Kakinoki's format): headers, handicaps, board diagrams, moves with times,
//! comments, bookmarks and variations.
//!
//! `.kif` is Shift_JIS and `.kifu` UTF-8; both are read from decoded text
//! ([`kifu_record::decode`]) and written as text ([`kifu_record::encode`] for Shift_JIS). As
//! table entries they are the two values [`KIF`] and [`KIFU`] of [`KifFormat`].

mod board;
mod lines;
#[cfg(test)]
mod plain_tests;
mod reader;
pub mod syntax;
pub(crate) mod writer;

use kifu_record::{Record, RecordChecks, RecordFormat, Records, TextEncoding, Written};
use kifu_shogi::Shogi;

pub use board::write_bod;
pub(crate) use reader::header_field;
pub use reader::read;
pub(crate) use reader::{check_one, read_one};
pub use writer::write;

/// KIF, in one of its two encodings: [`KIF`] (Shift_JIS, `.kif`) or [`KIFU`] (UTF-8,
/// `.kifu`). One game per file.
///
/// ```
/// use kifu_record::{RecordFormat, TextEncoding};
/// use kifu_records::shogi::kif::{KIF, KIFU};
///
/// let text = "手合割：平手\n   1 ７六歩(77)   ( 0:03/00:00:03)\n   2 投了\n";
/// let read = KIFU.records(text).next().unwrap();
/// assert!(!read.has_errors());
/// assert_eq!(read.record.moves.main_line().count(), 2); // a move and the ending
/// assert_eq!(KIF.encoding(), TextEncoding::ShiftJis);
/// let written = KIF.write(&[read.record]);
/// assert!(written.text.contains("７六歩(77)"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KifFormat {
    encoding: TextEncoding,
}

/// KIF in Shift_JIS, as Kakinoki's program writes `.kif` files.
pub const KIF: KifFormat = KifFormat {
    encoding: TextEncoding::ShiftJis,
};

/// KIF in UTF-8 (`.kifu`).
pub const KIFU: KifFormat = KifFormat {
    encoding: TextEncoding::Utf8,
};

/// A line that, before any move, shows a KIF header or the move list's heading (the
/// Kakinoki KIF page: `key：value` header lines, `手数----指手---------消費時間--`).
pub(crate) fn is_kif_header_line(line: &str) -> bool {
    has_wide_colon(line) || line.starts_with("手数----") || line.starts_with("#KIF")
}

/// Whether `line` holds `：` (U+FF1A, EF BC 9A in UTF-8): its last byte looked for with
/// memchr and the two before it checked. Every file's format is judged by its first lines,
/// and `str::contains` with a `char` took about 200 instructions a line for this.
fn has_wide_colon(line: &str) -> bool {
    let b = line.as_bytes();
    memchr::memchr_iter(0x9A, b).any(|at| at >= 2 && b[at - 2] == 0xEF && b[at - 1] == 0xBC)
}

/// A line that starts like a numbered KIF move line (`   1 ７六歩(77)`).
pub(crate) fn is_numbered_line(line: &str) -> bool {
    line.as_bytes().first().is_some_and(u8::is_ascii_digit)
}

impl RecordFormat<Shogi> for KifFormat {
    fn name(&self) -> &'static str {
        match self.encoding {
            TextEncoding::ShiftJis => "kif",
            _ => "kifu",
        }
    }

    fn encoding(&self) -> TextEncoding {
        self.encoding
    }

    fn sniff(&self, text: &str) -> bool {
        crate::sniffing::first_lines(text)
            .any(|line| is_kif_header_line(line) || is_numbered_line(line))
    }

    fn records<'t>(&self, text: &'t str) -> Records<'t, Shogi> {
        Box::new(std::iter::once_with(move || read_one(text)))
    }

    /// Replays the game as [`KifFormat::records`] does into a tally, building no move tree
    /// unless the text has variations.
    fn check<'t>(&self, text: &'t str) -> RecordChecks<'t> {
        Box::new(std::iter::once_with(move || check_one(text)))
    }

    fn write(&self, records: &[Record<Shogi>]) -> Written {
        crate::shogi::record::write_first(records, "KIF holds one game per file", write)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wide_colon_is_found_as_contains_finds_it() {
        for line in [
            "先手：a",
            "：",
            "a：",
            "手合割:平手",
            "",
            "   1 ７六歩(77)",
            "ｚ：ｚ",
            "\u{FF1B}\u{FF1A}",
            "\u{9A}",
            "\u{FF5A}\u{FF1A}",
        ] {
            assert_eq!(has_wide_colon(line), line.contains('：'), "{line:?}");
        }
    }
}
