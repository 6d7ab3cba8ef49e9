//! The table of shogi record formats and the lookups a command needs: by name, by a file's
//! extension, and by content.

use std::path::Path;
use std::sync::LazyLock;

use kifu_record::{RecordFormat, TextEncoding};
use kifu_shogi::Shogi;

use crate::evidence::{Evidence, Judged};
use crate::shogi::main_line::MainLine;
use crate::shogi::{csa, jkf, ki2, kif, usi_record};

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
    /// Every name and further extension of [`FORMATS`] with its format, in the table's
    /// order: a file is asked this four times on its way through the front door (the
    /// directory walk, its game, its format, its encoding), and asking each format for its
    /// names through the trait was 13 instructions a ply of `kifu check` over KIF files.
    static BY_EXTENSION: LazyLock<Vec<(&str, &dyn RecordFormat<Shogi>)>> = LazyLock::new(|| {
        FORMATS
            .iter()
            .flat_map(|&f| {
                std::iter::once(f.name())
                    .chain(f.extensions().iter().copied())
                    .map(move |e| (e, f))
            })
            .collect()
    });
    let extension = crate::extension::extension_bytes(path)?;
    // The table's names are lower case ASCII: comparing without case is comparing the
    // lowered extension, without a `String` for every file of a directory walk, and a
    // name equals an extension's bytes only where it equals the extension as text.
    BY_EXTENSION
        .iter()
        .find(|(e, _)| e.as_bytes().eq_ignore_ascii_case(extension))
        .map(|&(_, f)| f)
}

/// A shogi format told by a text's content: the format, and the line that told it.
#[derive(Clone, Copy)]
pub struct Recognised {
    /// The format; for KIF and KI2, the Shift_JIS one (see [`judge`] for the encoding).
    pub format: &'static dyn RecordFormat<Shogi>,
    /// The deciding line, from 1.
    pub line: usize,
    /// What that line is.
    pub shape: &'static str,
}

/// What a line of a shogi record can be: the shapes that tell the formats apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    UsiPosition,
    Sfen,
    Csa,
    Ki2Move,
    KifHeader,
    UsiMoves,
    KifMove,
}

impl Shape {
    fn format(self) -> &'static dyn RecordFormat<Shogi> {
        match self {
            Shape::UsiPosition | Shape::Sfen | Shape::UsiMoves => &usi_record::USI,
            Shape::Csa => &csa::CSA,
            Shape::Ki2Move => &ki2::KI2,
            Shape::KifHeader | Shape::KifMove => &kif::KIF,
        }
    }

    fn description(self) -> &'static str {
        match self {
            Shape::UsiPosition => "a USI position line",
            Shape::Sfen => "an SFEN position",
            Shape::Csa => "a CSA line",
            Shape::Ki2Move => "a KI2 move",
            Shape::KifHeader => "a KIF/KI2 header, board or comment line",
            Shape::UsiMoves => "a line of USI moves",
            Shape::KifMove => "a numbered KIF move",
        }
    }

    /// The shape of one line without leading blanks; the order of the tests matters where
    /// formats overlap: `7g7f` starts with a digit like a KIF move number, `'CSA` is a
    /// comment line that a CSA file opens with, a `：` line is KIF before a bare USI move.
    fn of(line: &str) -> Option<Shape> {
        if usi_record::is_position_line(line) {
            Some(Shape::UsiPosition)
        } else if is_sfen_line(line) {
            Some(Shape::Sfen)
        } else if is_csa_shape(line) {
            Some(Shape::Csa)
        } else if ki2::is_ki2_line(line) {
            Some(Shape::Ki2Move)
        } else if kif::is_kif_header_line(line) || is_board_line(line) {
            Some(Shape::KifHeader)
        } else if line.is_ascii() && usi_record::starts_with_move(line) {
            Some(Shape::UsiMoves)
        } else if is_kif_move_line(line) {
            Some(Shape::KifMove)
        } else {
            None
        }
    }
}

/// A bare SFEN position (`lnsgkgsnl/1r5b1/… b - 1`): nine ranks in its first word.
fn is_sfen_line(line: &str) -> bool {
    // Most lines tried (KIF headers and moves) begin with a byte no board does: no split.
    let board_byte = |b: &u8| *b == b'/' || *b == b'+' || b.is_ascii_alphanumeric();
    if !line.as_bytes().first().is_some_and(board_byte) {
        return false;
    }
    let mut words = line.split_ascii_whitespace();
    let board = words.next().unwrap_or("");
    board.bytes().filter(|&b| b == b'/').count() == 8
        && board
            .bytes()
            .all(|b| b == b'/' || b == b'+' || b.is_ascii_alphanumeric())
        && matches!(words.next(), Some("b" | "w"))
}

/// A line only a CSA record writes (CSA standard V3.0, sections 1–3): a version, `'CSA`,
/// names, `$` header keys, position lines, a turn, a move, a time or a `%` ending. Stricter
/// than [`csa::is_csa_line`] (a 7-character line of dashes is not a move).
fn is_csa_shape(line: &str) -> bool {
    let line = line.trim_end();
    let b = line.as_bytes();
    let word = |from: usize| {
        b.len() > from
            && b[from..]
                .iter()
                .all(|&c| c.is_ascii_uppercase() || c == b'_')
    };
    let is_move = |m: &[u8]| {
        m.len() == 7
            && matches!(m[0], b'+' | b'-')
            && m[1..5].iter().all(u8::is_ascii_digit)
            && m[5..].iter().all(u8::is_ascii_uppercase)
    };
    match b.first() {
        Some(b'V') => matches!(line, "V1" | "V2" | "V2.1" | "V2.2" | "V3.0"),
        Some(b'\'') => line.starts_with("'CSA"),
        Some(b'N') => matches!(b.get(1), Some(b'+' | b'-')),
        Some(b'$') => line.find(':').is_some_and(|at| {
            at > 1
                && b[1..at]
                    .iter()
                    .all(|&c| c.is_ascii_uppercase() || c == b'_')
        }),
        Some(b'P') => match b.get(1) {
            Some(b'I') => b[2..].iter().all(|c| c.is_ascii_alphanumeric()),
            Some(b'1'..=b'9') => b.len() == 29 || b.len() > 2 && matches!(b[2], b' ' | b'+' | b'-'),
            Some(b'+' | b'-') => b.len() >= 6 && b[2..4].iter().all(u8::is_ascii_digit),
            _ => false,
        },
        Some(b'+' | b'-') => b.len() == 1 || b.split(|&c| c == b',').next().is_some_and(is_move),
        Some(b'%') => word(1) || line.starts_with("%+") || line.starts_with("%-"),
        Some(b'T') => b.len() > 1 && b[1..].iter().all(|c| c.is_ascii_digit() || *c == b'.'),
        _ => false,
    }
}

/// A rank of a KIF board diagram (`|v香v桂v銀v金v玉v金v銀v桂v香|一`).
fn is_board_line(line: &str) -> bool {
    line.starts_with('|') && line[1..].contains('|')
}

/// `   1 ７六歩(77)`: a move number, blanks, then the move in Japanese.
fn is_kif_move_line(line: &str) -> bool {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &line[digits..];
    let after = trim_start(rest);
    digits > 0 && after.len() < rest.len() && after.chars().next().is_some_and(|c| !c.is_ascii())
}

/// `text.lines()`, each line's end found with memchr: every file opened is recognised, and
/// `str::lines` found each `\n` through a generic character search, a few hundred
/// instructions a line.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let Some(end) = memchr::memchr(b'\n', rest.as_bytes()) else {
            // As `str::lines`: a last line without `\n` keeps a `\r` it ends with.
            return Some(std::mem::take(&mut rest));
        };
        let line = &rest[..end];
        rest = &rest[end + 1..];
        Some(line.strip_suffix('\r').unwrap_or(line))
    })
}

/// `line.trim_start()`, which decodes characters, only when the first byte can start white
/// space: ASCII tab to carriage return and space, and the lead bytes of U+0085 and U+00A0
/// (0xC2), U+1680 (0xE1), U+2000–U+205F (0xE2) and U+3000 (0xE3). Nearly every line of a
/// record starts with something else.
fn trim_start(line: &str) -> &str {
    match line.as_bytes().first() {
        Some(b'\t'..=b'\r' | b' ' | 0xC2 | 0xE1..=0xE3) => line.trim_start(),
        _ => line,
    }
}

/// Lines that say nothing of the format: CSA comments (`'`, but `'CSA` opens a V3.0
/// file), KIF and USI comments (`#`, but `#KIF` is a KIF header) and KIF comments and
/// bookmarks (`*`, `&`).
fn is_comment_line(line: &str) -> bool {
    (line.starts_with('\'') && !line.starts_with("'CSA"))
        || (line.starts_with('#') && !line.starts_with("#KIF"))
        || line.starts_with(['*', '&'])
}

/// The format of a decoded text by its content alone, or `None` when no line is shaped like a
/// shogi record's. The whole text may be read, not a window: a KIF whose first move comes
/// after pages of commentary is still told by its header keys or its first move, and USI is
/// chosen only for lines shaped like USI (a position, an SFEN, ASCII moves), never as what is
/// left. JSON is JKF. A KIF header decides KIF or KI2 by the first move after it (the two
/// share a reader; a record without moves is KIF).
///
/// ```
/// use kifu_records::shogi::recognise;
///
/// assert_eq!(recognise("V2.2\nPI\n+\n").unwrap().format.name(), "csa");
/// assert_eq!(recognise("先手：a\n▲７六歩　△３四歩\n").unwrap().format.name(), "ki2");
/// assert_eq!(recognise("   1 ７六歩(77)\n").unwrap().format.name(), "kif");
/// assert_eq!(recognise("7g7f 3c3d\n").unwrap().format.name(), "usi");
/// assert!(recognise("これは棋譜ではない\n").is_none());
/// ```
pub fn recognise(text: &str) -> Option<Recognised> {
    if jkf::JKF.sniff(text) {
        return Some(Recognised {
            format: &jkf::JKF,
            line: 1,
            shape: "a JSON document",
        });
    }
    let mut header: Option<usize> = None;
    for (index, line) in lines(text).enumerate() {
        let line = trim_start(line);
        if line.is_empty() || is_comment_line(line) {
            continue;
        }
        // After a KIF header only a KIF or KI2 move decides; a line that cannot be one (the
        // other header lines, every file's first lines) is not classified at all.
        if header.is_some() && !ki2::is_ki2_line(line) && !is_kif_move_line(line) {
            continue;
        }
        let Some(shape) = Shape::of(line) else {
            continue;
        };
        let found = |shape: Shape| Recognised {
            format: shape.format(),
            line: index + 1,
            shape: shape.description(),
        };
        match (header, shape) {
            (None, Shape::KifHeader) => header = Some(index + 1),
            (None, shape) => return Some(found(shape)),
            (Some(_), Shape::KifMove | Shape::Ki2Move) => return Some(found(shape)),
            (Some(_), _) => {}
        }
    }
    header.map(|line| Recognised {
        format: &kif::KIF,
        line,
        shape: Shape::KifHeader.description(),
    })
}

/// The format for the front door (`crate::open`): the content decides ([`recognise`]); among
/// the formats that differ by encoding alone (KIF and KIFU, KI2 and KI2U), the one the
/// extension names, else the one of the encoding the text was decoded from. Content that
/// decides nothing goes by the extension, if it names a format.
pub fn judge(
    text: &str,
    hint: Option<&'static dyn RecordFormat<Shogi>>,
    encoding: TextEncoding,
) -> Judged<&'static dyn RecordFormat<Shogi>> {
    let Some(found) = recognise(text) else {
        return hint.map(|format| (format, Evidence::Extension));
    };
    let family = |f: &dyn RecordFormat<Shogi>| match f.name() {
        "kifu" => "kif",
        "ki2u" => "ki2",
        other => other,
    };
    let format: &'static dyn RecordFormat<Shogi> = match hint {
        Some(h) if family(h) == family(found.format) => h,
        _ => match (found.format.name(), encoding) {
            ("kif", TextEncoding::Utf8 | TextEncoding::Utf16Le | TextEncoding::Utf16Be) => {
                &kif::KIFU
            }
            ("ki2", TextEncoding::Utf8 | TextEncoding::Utf16Le | TextEncoding::Utf16Be) => {
                &ki2::KI2U
            }
            _ => found.format,
        },
    };
    let why = Evidence::Content {
        line: found.line,
        shape: found.shape,
    };
    Some((format, why))
}

/// The format of decoded text by its content ([`recognise`]), USI when nothing decides: for
/// a caller that must read the text as something (the front door, [`crate::open::open`],
/// refuses such text instead).
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
    // Without the bytes the encoding is unknown: the UTF-8 forms, as decoded text is.
    match recognise(text).map(|r| r.format.name()) {
        None => &usi_record::USI,
        Some("kif") => &kif::KIFU,
        Some("ki2") => &ki2::KI2U,
        Some(_) => recognise(text).map_or(&usi_record::USI, |r| r.format),
    }
}

/// The main lines of the records of `text` in `format`, one at a time.
pub fn main_lines<'t>(
    format: &dyn RecordFormat<Shogi>,
    text: &'t str,
) -> Box<dyn Iterator<Item = MainLine> + 't> {
    if format.name() == crate::shogi::csa::CSA.name() {
        Box::new(super::csa::MainLines::new(text))
    } else {
        Box::new(format.records(text).map(MainLine::from_record))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`recognise`] as it was, classifying every line: the reference the shortcut after a
    /// KIF header is held to.
    fn recognise_every_line(text: &str) -> Option<(&'static str, usize, &'static str)> {
        if jkf::JKF.sniff(text) {
            return Some(("jkf", 1, "a JSON document"));
        }
        let mut header: Option<usize> = None;
        for (index, line) in text.lines().enumerate() {
            let line = line.trim_start();
            if line.is_empty() || is_comment_line(line) {
                continue;
            }
            let Some(shape) = Shape::of(line) else {
                continue;
            };
            match (header, shape) {
                (None, Shape::KifHeader) => header = Some(index + 1),
                (None, shape) | (Some(_), shape @ (Shape::KifMove | Shape::Ki2Move)) => {
                    return Some((shape.format().name(), index + 1, shape.description()));
                }
                (Some(_), _) => {}
            }
        }
        header.map(|line| ("kif", line, Shape::KifHeader.description()))
    }

    /// The memchr line split and the byte-tested trim give what `str::lines` and
    /// `str::trim_start` give: line ends of every kind, and every white space character and
    /// its neighbours first on a line.
    #[test]
    fn lines_and_trim_start_as_str_has_them() {
        for text in [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\r",
            "a\r\r\n",
            "\r\n",
            "\r",
            "a\rb\n",
            "先手：x\r\n   1 ７六歩(77)\r\n",
        ] {
            assert_eq!(
                lines(text).collect::<Vec<_>>(),
                text.lines().collect::<Vec<_>>(),
                "{text:?}"
            );
        }
        let mut firsts: Vec<char> = (0..0x80u8).map(char::from).collect();
        firsts.extend(('\u{80}'..='\u{3100}').filter(|c| c.is_whitespace() || c.len_utf8() > 1));
        firsts.extend(['先', '▲', '７', '\u{FEFF}', '\u{FF10}']);
        for c in firsts {
            for tail in ["", "x", " x", "\u{3000}x"] {
                let line = format!("{c}{tail}");
                assert_eq!(trim_start(&line), line.trim_start(), "{line:?}");
            }
        }
    }

    #[test]
    fn every_corpus_file_is_recognised_as_by_classifying_every_line() {
        let texts = crate::corpus_texts::every_corpus_text();
        assert!(texts.len() > 1_000, "{} corpus files", texts.len());
        let mut kif_headers = 0;
        for (path, text) in &texts {
            let found = recognise(text).map(|r| (r.format.name(), r.line, r.shape));
            assert_eq!(found, recognise_every_line(text), "{}", path.display());
            kif_headers += usize::from(found.is_some_and(|f| f.0 == "kif" || f.0 == "ki2"));
        }
        assert!(kif_headers > 500, "{kif_headers}");
        // Lines of other shapes after a header, and a header followed by no move.
        for text in [
            "先手：a\nV2.2\n+7776FU\n7g7f\n   1 ７六歩(77)\n",
            "先手：a\nposition startpos\n▲７六歩\n",
            "先手：a\n|・|\n12 x\n",
            "先手：a\n1 ７六歩 x\n",
            "先手：a\n",
        ] {
            let found = recognise(text).map(|r| (r.format.name(), r.line, r.shape));
            assert_eq!(found, recognise_every_line(text), "{text:?}");
        }
    }

    #[test]
    fn every_entry_is_found_by_its_name_and_extensions() {
        for format in FORMATS {
            assert_eq!(format_by_name(format.name()).unwrap().name(), format.name());
            for extension in std::iter::once(&format.name()).chain(format.extensions()) {
                let path = format!("game.{}", extension.to_ascii_uppercase());
                let found = format_by_extension(Path::new(&path)).unwrap();
                assert_eq!(found.name(), format.name());
            }
        }
        for path in [
            "game.bod",
            "game.kif.bak",
            "game",
            "ki2",
            ".kif",
            "kif/game",
        ] {
            assert!(format_by_extension(Path::new(path)).is_none(), "{path}");
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
            ("'棋戦：x\nV2.2\n", "csa"), // a CSA comment says nothing of the format
            ("*解説\n   1 ７六歩(77)\n", "kifu"),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n",
                "usi",
            ),
        ] {
            let found = sniff(text);
            assert_eq!(found.name(), name, "{text:?}");
            assert!(
                found.sniff(text) || name == "usi",
                "{name} disowns {text:?}"
            );
        }
        for text in [
            "nothing\n",
            "",
            "これは棋譜ではない\n2024年の対局\n",
            "-------\n",
        ] {
            assert!(recognise(text).is_none(), "{text:?}");
        }
    }
}
