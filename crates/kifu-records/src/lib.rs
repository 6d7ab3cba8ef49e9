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

use std::path::Path;

use kifu_record::{Game, RecordFormat};

pub mod cetkaik;
pub mod chu;
pub mod shogi;

/// A game whose record files this crate reads and writes: its table of formats, and how a
/// command picks one by name, by a file's extension or by content.
pub trait GameRecords: Game {
    /// Every format of the game, the one written by default first.
    fn formats() -> &'static [&'static dyn RecordFormat<Self>];

    /// The format a decoded text is in, judged by its content (for input without a file
    /// name, or with an extension several formats share). Always answers: the game's most
    /// forgiving format when nothing decides.
    fn sniff_format(text: &str) -> &'static dyn RecordFormat<Self>;

    /// The format a user names (`csa`, `kif` …) or one of its further extensions.
    fn format_by_name(name: &str) -> Option<&'static dyn RecordFormat<Self>> {
        Self::formats()
            .iter()
            .find(|f| f.name() == name || f.extensions().contains(&name))
            .copied()
    }

    /// The format of a file by its extension, in any case.
    fn format_by_extension(path: &Path) -> Option<&'static dyn RecordFormat<Self>> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        Self::format_by_name(&extension)
    }

    /// The names of every format, as a user types them.
    fn format_names() -> Vec<&'static str> {
        Self::formats().iter().map(|f| f.name()).collect()
    }
}

impl GameRecords for kifu_shogi::Shogi {
    fn formats() -> &'static [&'static dyn RecordFormat<Self>] {
        shogi::FORMATS
    }

    fn sniff_format(text: &str) -> &'static dyn RecordFormat<Self> {
        shogi::sniff(text)
    }

    fn format_by_name(name: &str) -> Option<&'static dyn RecordFormat<Self>> {
        shogi::format_by_name(name)
    }

    fn format_by_extension(path: &Path) -> Option<&'static dyn RecordFormat<Self>> {
        shogi::format_by_extension(path)
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
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "json" | "ndjson" | "jsonl" | "usi" | "sfen" | "kif" | "kifu" => {
                chu::by_extension(&extension)
            }
            _ => None,
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
}
