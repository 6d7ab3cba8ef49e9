//! The table of shogi record formats and the lookups a command needs: by name, by a file's
//! extension, and by content.

use std::path::Path;

use kifu_record::{Record, RecordFormat, Written};
use kifu_shogi::Shogi;

use crate::shogi::{csa, jkf, ki2, kif};

/// Every shogi record format kifu reads and writes, one value each. A command searches this
/// table; adding a format is a module implementing [`RecordFormat<Shogi>`] and one line here.
///
/// ```
/// use kifu_records::shogi::FORMATS;
///
/// let names: Vec<&str> = FORMATS.iter().map(|f| f.name()).collect();
/// assert_eq!(names, ["csa", "kif", "kifu", "ki2", "ki2u", "jkf"]);
/// ```
pub static FORMATS: &[&dyn RecordFormat<Shogi>] = &[
    &csa::CSA,
    &kif::KIF,
    &kif::KIFU,
    &ki2::KI2,
    &ki2::KI2U,
    &jkf::JKF,
];

/// The format a user names (`csa`, `kif`, `kifu` …) or one of its further extensions
/// (`json` for JKF).
///
/// ```
/// use kifu_records::shogi::format_by_name;
///
/// assert_eq!(format_by_name("kifu").unwrap().name(), "kifu");
/// assert_eq!(format_by_name("json").unwrap().name(), "jkf");
/// assert!(format_by_name("pgn").is_none());
/// ```
pub fn format_by_name(name: &str) -> Option<&'static dyn RecordFormat<Shogi>> {
    FORMATS
        .iter()
        .find(|f| f.name() == name || f.extensions().contains(&name))
        .copied()
}

/// The format of a file, by its extension in any case (`game.KIF` is KIF).
///
/// ```
/// use std::path::Path;
/// use kifu_records::shogi::format_by_extension;
///
/// assert_eq!(format_by_extension(Path::new("a/b.KIF")).unwrap().name(), "kif");
/// assert!(format_by_extension(Path::new("board.bod")).is_none());
/// ```
pub fn format_by_extension(path: &Path) -> Option<&'static dyn RecordFormat<Shogi>> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    format_by_name(&extension)
}

/// The first lines a sniffer looks at: up to 40 non-blank ones, without leading blanks.
pub(crate) fn first_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim_start)
        .filter(|line| !line.is_empty())
        .take(40)
}

/// What a format that holds one game per file writes: the first record, and a warning
/// (`"{holds_one}; N more dropped"`) when there were more.
pub(crate) fn write_first(
    records: &[Record<Shogi>],
    holds_one: &str,
    write_one: fn(&Record<Shogi>) -> Written,
) -> Written {
    let mut out = records.first().map(write_one).unwrap_or_default();
    if records.len() > 1 {
        let more = records.len() - 1;
        out.warnings
            .push(format!("{holds_one}; {more} more dropped"));
    }
    out
}
