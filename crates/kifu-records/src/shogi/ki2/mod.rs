//! KI2: KIF's header and variations with moves in the JSA notation (`▲７六歩　△３四歩`),
//! several to a line, no times and the result only in the `まで` line.
//!
//! The KIF reader reads both (KI2-style lines inside a `.kif` occur in the wild), so
//! [`read`] is the same function; [`write`](fn@write) chooses the fewest relative words (右 左 直 上 寄
//! 引) that identify each move, as the JSA rules ask. As table entries the format is the two
//! values [`KI2`] (Shift_JIS) and [`KI2U`] (UTF-8) of [`Ki2Format`].

use kifu_record::{Record, RecordChecks, RecordFormat, Records, TextEncoding};
use kifu_shogi::Shogi;

use crate::shogi::{Parsed, ShogiRecord, Written};

/// Reads KI2 (or KIF) text.
pub fn read(text: &str) -> Parsed {
    crate::shogi::kif::read(text)
}

/// Writes one record as KI2.
pub fn write(record: &ShogiRecord) -> Written {
    crate::shogi::kif::writer::write_as(record, true)
}

/// KI2 in one of its two encodings: [`KI2`] (Shift_JIS, `.ki2`) or [`KI2U`] (UTF-8,
/// `.ki2u`). One game per file.
///
/// ```
/// use kifu_record::RecordFormat;
/// use kifu_records::shogi::ki2::KI2U;
///
/// let read = KI2U.records("▲７六歩　△３四歩　▲２二角成\n").next().unwrap();
/// assert!(!read.has_errors());
/// assert!(KI2U.write(&[read.record]).text.contains("▲２二角成"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ki2Format {
    encoding: TextEncoding,
}

/// KI2 in Shift_JIS (`.ki2`).
pub const KI2: Ki2Format = Ki2Format {
    encoding: TextEncoding::ShiftJis,
};

/// KI2 in UTF-8 (`.ki2u`).
pub const KI2U: Ki2Format = Ki2Format {
    encoding: TextEncoding::Utf8,
};

/// A line that starts with a KI2 move's side mark (▲ △, or ☗ ☖).
pub(crate) fn is_ki2_line(line: &str) -> bool {
    line.starts_with(['▲', '△', '☗', '☖'])
}

impl RecordFormat<Shogi> for Ki2Format {
    fn name(&self) -> &'static str {
        match self.encoding {
            TextEncoding::ShiftJis => "ki2",
            _ => "ki2u",
        }
    }

    fn encoding(&self) -> TextEncoding {
        self.encoding
    }

    fn sniff(&self, text: &str) -> bool {
        crate::sniffing::first_lines(text).any(is_ki2_line)
    }

    fn records<'t>(&self, text: &'t str) -> Records<'t, Shogi> {
        Box::new(std::iter::once_with(move || {
            crate::shogi::kif::read_one(text)
        }))
    }

    /// Replays the game as [`Ki2Format::records`] does into a tally, building no move tree
    /// unless the text has variations.
    fn check<'t>(&self, text: &'t str) -> RecordChecks<'t> {
        Box::new(std::iter::once_with(move || {
            crate::shogi::kif::check_one(text)
        }))
    }

    fn write(&self, records: &[Record<Shogi>]) -> kifu_record::Written {
        crate::shogi::record::write_first(records, "KI2 holds one game per file", write)
    }
}
