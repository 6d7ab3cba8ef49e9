//! The table of shogi record formats and the lookups a command needs: by name, by a file's
//! extension, and by content.

use std::path::Path;

use kifu_record::RecordFormat;
use kifu_shogi::Shogi;

use crate::shogi::{csa, jkf, ki2, kif, usi_record};
use crate::sniffing::first_lines;

/// Every shogi record format kifu reads and writes, one value each. A command searches this
/// table; adding a format is a module implementing [`RecordFormat<Shogi>`] and one line here.
///
/// ```
/// use kifu_records::shogi::FORMATS;
///
/// let names: Vec<&str> = FORMATS.iter().map(|f| f.name()).collect();
/// assert_eq!(names, ["csa", "kif", "kifu", "ki2", "ki2u", "usi", "jkf"]);
/// ```
pub static FORMATS: &[&dyn RecordFormat<Shogi>] = &[
    &csa::CSA,
    &kif::KIF,
    &kif::KIFU,
    &ki2::KI2,
    &ki2::KI2U,
    &usi_record::USI,
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
    let extension = path.extension()?.to_str()?;
    // The table's names are lower case: comparing without case is comparing the lowered
    // extension, without a `String` for every file of a directory walk.
    FORMATS
        .iter()
        .find(|f| {
            f.name().eq_ignore_ascii_case(extension)
                || f.extensions()
                    .iter()
                    .any(|e| e.eq_ignore_ascii_case(extension))
        })
        .copied()
}

/// The format of decoded text without a file name (e.g. from stdin), by the first of these
/// rules that matches: JSON is JKF; then, line by line, a USI `position` line, a CSA line, a
/// KI2 move, a KIF header, a bare USI move, a KIF move number (comment lines `#` and `'` are
/// passed over). Text that matches nothing is taken for USI.
///
/// The order matters where the formats overlap (`7g7f` starts with a digit like a KIF move
/// number; `'CSA` is a comment line that a CSA file opens with), so the rules are listed here,
/// in one place, rather than left to each format's [`RecordFormat::sniff`].
///
/// ```
/// use kifu_records::shogi::sniff;
///
/// assert_eq!(sniff("V2.2\nPI\n+\n").name(), "csa");
/// assert_eq!(sniff("▲７六歩　△３四歩\n").name(), "ki2u");
/// assert_eq!(sniff("   1 ７六歩(77)\n").name(), "kifu");
/// assert_eq!(sniff("7g7f 3c3d\n").name(), "usi");
/// ```
pub fn sniff(text: &str) -> &'static dyn RecordFormat<Shogi> {
    type LineRule = (fn(&str) -> bool, &'static dyn RecordFormat<Shogi>);
    const RULES: [LineRule; 6] = [
        (usi_record::is_position_line, &usi_record::USI),
        (csa::is_csa_line, &csa::CSA),
        (ki2::is_ki2_line, &ki2::KI2U),
        (kif::is_kif_header_line, &kif::KIFU),
        (usi_record::starts_with_move, &usi_record::USI),
        (kif::is_numbered_line, &kif::KIFU),
    ];
    if jkf::JKF.sniff(text) {
        return &jkf::JKF;
    }
    for line in first_lines(text) {
        for (matches, format) in RULES {
            if matches(line) {
                return format;
            }
        }
    }
    &usi_record::USI
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_found_by_its_name_and_extensions() {
        for format in FORMATS {
            assert_eq!(format_by_name(format.name()).unwrap().name(), format.name());
            for extension in format.extensions() {
                let path = format!("game.{}", extension.to_ascii_uppercase());
                let found = format_by_extension(Path::new(&path)).unwrap();
                assert_eq!(found.name(), format.name());
            }
        }
    }

    #[test]
    fn the_first_deciding_line_wins_and_each_format_agrees_with_the_table() {
        for (text, name) in [
            ("{\"moves\":[]}", "jkf"),
            ("# kifu\n'x\nposition startpos moves 7g7f\n", "usi"),
            ("'CSA encoding=UTF-8\nV3.0\n", "csa"),
            ("#KIF version=2.0\n手合割：平手\n", "kifu"),
            ("7g7f 先手：x\n", "kifu"), // a header word before a bare move list
            ("7g7f\n   1 ７六歩(77)\n", "usi"),
            ("nothing\n", "usi"),
        ] {
            let found = sniff(text);
            assert_eq!(found.name(), name, "{text:?}");
            assert!(
                found.sniff(text) || name == "usi",
                "{name} disowns {text:?}"
            );
        }
    }
}
