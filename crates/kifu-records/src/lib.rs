//! Game record files for kifu: reading them with spans and diagnostics, replaying their moves
//! with the rules of their game, and writing them back.
//!
//! The rules crates (`kifu-shogi`, `kifu-chu`, `kifu-cetkaik`) know positions, moves and move
//! notations; this crate knows files: headers, move lists and trees, comments, times, endings,
//! and what each format can and cannot hold. Every format implements
//! [`kifu_record::RecordFormat`] for its game, and each game lists its formats in one table,
//! reached through [`GameRecords`]:
//!
//! ```
//! use kifu_records::GameRecords;
//! use kifu_shogi::Shogi;
//!
//! let csa = Shogi::format_by_name("csa").unwrap();
//! let read = csa.records("PI\n+\n+7776FU\n-3334FU\n%TORYO\n").next().unwrap();
//! assert!(!read.has_errors());
//! let kif = Shogi::format_by_name("kifu").unwrap();
//! assert!(kif.write(&[read.record]).text.contains("７六歩(77)"));
//! assert_eq!(Shogi::sniff_format("V2.2\nPI\n+\n").name(), "csa");
//! ```
//!
//! The records of a multi-record file (a CSA archive with `/` between games, USI with a game
//! per line) come one at a time, each with its own diagnostics: a caller checks or converts a
//! record and drops it before the next is read, so memory follows the largest record, not the
//! file. There is always at least one: a text without any record gives an empty one and an
//! error.
//!
//! ```
//! use kifu_record::decode;
//! use kifu_records::GameRecords;
//! use kifu_shogi::Shogi;
//!
//! let archive = b"PI\n+\n+7776FU\n%TORYO\n/\nPI\n+\n+2726FU\n-0000FU\n/\nPI\n+\n%CHUDAN\n";
//! let csa = Shogi::format_by_name("csa").unwrap();
//! let decoded = decode(archive, csa.encoding()); // with its own diagnostics
//! let mut valid = 0;
//! for (index, read) in csa.records(&decoded.text).enumerate() {
//!     if read.has_errors() {
//!         assert_eq!(index, 1); // `-0000FU` is no move
//!     } else {
//!         valid += 1;
//!     }
//!     // `read.record` is dropped here, before the next record is read.
//! }
//! assert_eq!(valid, 2);
//! let third = csa.records(&decoded.text).nth(2).unwrap();
//! assert_eq!(third.record.moves.main_line().count(), 1); // the ending
//! ```
//!
//! Which game a file holds is [`detect::game_of`]'s answer, the same for every program.

#![warn(missing_docs)]

use std::borrow::Cow;
use std::path::Path;

use kifu_record::{Game, Parsed, RecordFormat, TextEncoding, decode};

use crate::evidence::{Evidence, Judged};

pub mod cetkaik;
pub mod chu;
#[cfg(test)]
mod corpus_texts;
pub mod detect;
pub mod evidence;
mod extension;
pub mod open;
pub mod shogi;
pub mod sniffing;

/// Decodes a file's bytes (by byte-order mark, a declared encoding, detection, then the
/// encoding of `format`) and reads every record in it, for any game's format. Decoding
/// problems come first among the diagnostics; spans refer to the returned text, which a
/// caller needs to show `file:line:column`.
///
/// For a large multi-record file, decode once and take [`RecordFormat::records`] one at a
/// time instead: this gathers every record.
///
/// ```
/// use kifu_records::{GameRecords, read_bytes};
/// use kifu_shogi::Shogi;
///
/// let kif = Shogi::format_by_name("kif").unwrap(); // Shift_JIS
/// let (text, parsed) = read_bytes("手合割：平手\n   1 ７六歩(77)\n".as_bytes(), kif);
/// assert!(!parsed.has_errors()); // UTF-8 is detected
/// assert!(text.starts_with("手合割"));
/// // Back to bytes in the format's own encoding, with a warning for what it cannot hold.
/// let (bytes, warnings) = kif.write(&parsed.records).encode(kif.encoding());
/// assert!(warnings.is_empty() && !bytes.is_empty());
/// ```
pub fn read_bytes<'b, G: Game>(
    bytes: &'b [u8],
    format: &dyn RecordFormat<G>,
) -> (Cow<'b, str>, Parsed<G>) {
    let decoded = decode(bytes, format.encoding());
    let mut parsed = Parsed::collect(format.records(&decoded.text));
    if !decoded.diagnostics.is_empty() {
        let mut all = decoded.diagnostics;
        all.append(&mut parsed.diagnostics);
        parsed.diagnostics = all;
    }
    (decoded.text, parsed)
}

/// A game whose record files this crate reads and writes: its table of formats, and how a
/// command picks one by name, by a file's extension or by content.
///
/// Code written once for every game takes a `G: GameRecords`:
///
/// ```
/// use kifu_records::GameRecords;
///
/// fn reads_cleanly<G: GameRecords>(text: &str) -> bool {
///     let format = G::sniff_format(text);
///     format.records(text).all(|read| !read.has_errors())
/// }
/// assert!(reads_cleanly::<kifu_shogi::Shogi>("7g7f 3c3d\n"));
/// assert!(reads_cleanly::<kifu_chu::Chu>("position startpos moves 7j7h 6c6e\n"));
/// assert!(reads_cleanly::<kifu_cetkaik::Cetkaik>("MAU弓MAIMY橋一\tME弓MIMU橋五\n"));
/// assert!(kifu_cetkaik::Cetkaik::format_names().contains(&"ckka"));
/// ```
pub trait GameRecords: Game {
    /// Every format of the game, the one written by default first.
    fn formats() -> &'static [&'static dyn RecordFormat<Self>];

    /// The format a decoded text is in, judged by its content (for input without a file
    /// name, or with an extension several formats share). Always answers: the game's most
    /// forgiving format when nothing decides.
    fn sniff_format(text: &str) -> &'static dyn RecordFormat<Self>;

    /// The format of a decoded text for the front door ([`open::open`]), judged on its
    /// content, with `hint` (the format the file's extension names) and `encoding` (what the
    /// text was decoded from) to choose between formats the content cannot tell apart;
    /// `None` when the text is shaped like none of the game's formats and no hint names one.
    /// By default the extension decides and the content when there is none, as
    /// [`GameRecords::sniff_format`] judges it.
    fn judge_format(
        text: &str,
        hint: Option<&'static dyn RecordFormat<Self>>,
        _encoding: TextEncoding,
    ) -> Judged<&'static dyn RecordFormat<Self>> {
        Some(match hint {
            Some(format) => (format, Evidence::Extension),
            None => (
                Self::sniff_format(text),
                Evidence::Content {
                    line: 0,
                    shape: "the game's formats sniffed",
                },
            ),
        })
    }

    /// The shapes of text the game's formats have, for "it looks like neither …".
    fn format_shapes() -> String {
        let names: Vec<String> = Self::format_names()
            .iter()
            .map(|n| n.to_ascii_uppercase())
            .collect();
        match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} nor {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    /// The format a user names (`csa`, `kif` …) or one of its further extensions.
    fn format_by_name(name: &str) -> Option<&'static dyn RecordFormat<Self>> {
        Self::formats()
            .iter()
            .find(|f| f.name() == name || f.extensions().contains(&name))
            .copied()
    }

    /// The format of a file by its extension, in any case.
    fn format_by_extension(path: &Path) -> Option<&'static dyn RecordFormat<Self>> {
        let extension = extension::extension(path)?.to_ascii_lowercase();
        Self::format_by_name(&extension)
    }

    /// The names of every format, as a user types them.
    fn format_names() -> Vec<&'static str> {
        Self::formats().iter().map(|f| f.name()).collect()
    }

    /// Whether an extension (lower case, without the dot) is this game's and no other's: it
    /// decides a file's game before anything else (see [`detect::game_of`]).
    fn owns_extension(extension: &str) -> bool;

    /// Whether the text holds content only this game writes: it decides a file's game before
    /// extensions several games share.
    fn claims_content(_text: &str) -> bool {
        false
    }

    /// Whether a file found in a directory is a record of this game, judged by its name.
    /// `explicit` (the user named the game) admits extensions other games share.
    fn is_record_file(path: &Path, _explicit: bool) -> bool {
        Self::format_by_extension(path).is_some()
    }

    /// Whether the text reads as this game when neither an extension nor content only one
    /// game writes decided.
    fn reads_as(_text: &str) -> bool {
        false
    }
}

impl GameRecords for kifu_shogi::Shogi {
    fn formats() -> &'static [&'static dyn RecordFormat<Self>] {
        shogi::FORMATS
    }

    fn sniff_format(text: &str) -> &'static dyn RecordFormat<Self> {
        shogi::sniff(text)
    }

    /// The content decides (see [`shogi::recognise`]); the extension only picks between the
    /// formats that differ by encoding alone, and stands in for content that decides nothing.
    fn judge_format(
        text: &str,
        hint: Option<&'static dyn RecordFormat<Self>>,
        encoding: TextEncoding,
    ) -> Judged<&'static dyn RecordFormat<Self>> {
        shogi::judge(text, hint, encoding)
    }

    fn format_shapes() -> String {
        "CSA, KIF, KI2, JKF nor USI/SFEN".to_string()
    }

    fn format_by_name(name: &str) -> Option<&'static dyn RecordFormat<Self>> {
        shogi::format_by_name(name)
    }

    fn format_by_extension(path: &Path) -> Option<&'static dyn RecordFormat<Self>> {
        shogi::format_by_extension(path)
    }

    /// `.kif`, `.json`, `.usi` and `.txt` are shared with chu or cetkaik files; these are not.
    fn owns_extension(extension: &str) -> bool {
        matches!(extension, "csa" | "ki2" | "ki2u" | "jkf")
    }

    /// Text with a line only a CSA or KIF record writes. Shogi is the default game anyway;
    /// saying so here spares such a text (a CSA file read from a pipe or from bytes) being
    /// tried as CKKA first.
    fn reads_as(text: &str) -> bool {
        shogi::sniffing::written_only_by_shogi(text)
    }
}

impl GameRecords for kifu_chu::Chu {
    fn formats() -> &'static [&'static dyn RecordFormat<Self>] {
        chu::FORMATS
    }

    fn sniff_format(text: &str) -> &'static dyn RecordFormat<Self> {
        chu::detect(text)
    }

    fn format_by_name(name: &str) -> Option<&'static dyn RecordFormat<Self>> {
        chu::by_name(name)
    }

    /// Only extensions that name one chu format decide it: `.csl` holds Western or Japanese
    /// CSL, which the content tells apart.
    fn format_by_extension(path: &Path) -> Option<&'static dyn RecordFormat<Self>> {
        let extension = extension::extension(path)?.to_ascii_lowercase();
        match extension.as_str() {
            "json" | "ndjson" | "jsonl" | "usi" | "sfen" | "kif" | "kifu" => {
                chu::by_extension(&extension)
            }
            _ => None,
        }
    }

    fn owns_extension(extension: &str) -> bool {
        matches!(extension, "csl" | "chu" | "ndjson" | "jsonl")
    }

    /// lishogi's exports and kifu's own share `.kif`, `.json` and `.usi` with shogi: see
    /// [`chu::claims_text`].
    fn claims_content(text: &str) -> bool {
        chu::claims_text(text)
    }

    /// Extensions that are chu records whatever else is around; the ones shared with shogi
    /// only when the user named chu.
    fn is_record_file(path: &Path, explicit: bool) -> bool {
        match lower_extension(path).as_deref() {
            Some(e) if Self::owns_extension(e) => true,
            Some("json" | "kif" | "kifu" | "usi" | "sfen" | "txt") => explicit,
            _ => false,
        }
    }
}

impl GameRecords for kifu_cetkaik::Cetkaik {
    fn formats() -> &'static [&'static dyn RecordFormat<Self>] {
        &cetkaik::FORMATS
    }

    /// kifu's JSON form or CKKA text, as [`cetkaik::parse`] reads them.
    fn sniff_format(text: &str) -> &'static dyn RecordFormat<Self> {
        cetkaik::format::sniff(text)
    }

    fn format_by_name(name: &str) -> Option<&'static dyn RecordFormat<Self>> {
        cetkaik::format::by_name(name)
    }

    /// The content decides, never the extension: a `.ckka` file may be a cerke_noter app
    /// file, a `.ckka1` file mixes notations, a `.json` file is kifu's JSON or a noter file.
    fn format_by_extension(_path: &Path) -> Option<&'static dyn RecordFormat<Self>> {
        None
    }

    /// `.ckka`, and `.ckka0` … `.ckka3` for a file that says its notation in its name.
    fn owns_extension(extension: &str) -> bool {
        matches!(extension, "ckka" | "ckka0" | "ckka1" | "ckka2" | "ckka3")
    }

    /// kifu's cetkaik JSON shares `.json` with shogi's JKF.
    fn claims_content(text: &str) -> bool {
        cetkaik::json::looks_like_kifu_json(text)
    }

    /// CKKA files, and `.txt` or `.json` when the user named cetkaik.
    fn is_record_file(path: &Path, explicit: bool) -> bool {
        match lower_extension(path).as_deref() {
            Some(e) if Self::owns_extension(e) => true,
            Some("txt" | "json") => explicit,
            _ => false,
        }
    }

    /// CKKA text, unless the first word reads as USI (a shogi or chu move list).
    fn reads_as(text: &str) -> bool {
        let first = text.split_whitespace().next().unwrap_or("");
        let usi_like = ["position", "startpos", "sfen"].contains(&first)
            || kifu_shogi::usi::parse_move(first).is_ok();
        !usi_like && cetkaik::sniff(text)
    }
}

/// A path's extension in lower case.
fn lower_extension(path: &Path) -> Option<String> {
    extension::extension(path).map(str::to_ascii_lowercase)
}
