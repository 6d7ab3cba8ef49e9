//! Choosing a format by file name or content, and reading or writing any of them: the entry
//! points a command-line tool needs.

use std::borrow::Cow;
use std::path::Path;

use kifu_record::{TextEncoding, decode, encode};

use kifu_record::RecordFormat;
use kifu_shogi::Shogi;

use crate::shogi::{Parsed, RecordRead, ShogiRecord, Written, csa, jkf, ki2, kif, usi_record};

/// The shogi record formats kifu reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Csa,
    /// KIF in Shift_JIS.
    Kif,
    /// KIF in UTF-8.
    Kifu,
    /// KI2 (JSA notation) in Shift_JIS.
    Ki2,
    /// KI2 in UTF-8.
    Ki2u,
    /// USI move lists, one game per line.
    Usi,
    /// JSON Kifu Format.
    Jkf,
}

impl Format {
    pub const ALL: [Format; 7] = [
        Format::Csa,
        Format::Kif,
        Format::Kifu,
        Format::Ki2,
        Format::Ki2u,
        Format::Usi,
        Format::Jkf,
    ];

    /// By extension: `.csa`, `.kif`, `.kifu`, `.usi` / `.sfen` / `.txt`.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Format::from_name(&ext)
    }

    /// By name, as a user types it (`csa`, `kif`, `kifu`, `usi`), or by a further extension
    /// of a format (`sfen`, `txt`, `json`).
    pub fn from_name(name: &str) -> Option<Format> {
        let value = crate::shogi::format_by_name(name)?;
        Format::ALL
            .into_iter()
            .find(|f| f.value().name() == value.name())
    }

    pub fn name(self) -> &'static str {
        self.value().name()
    }

    /// The table entry this format stands for (see [`crate::shogi::FORMATS`]); CSA's writes
    /// V3.0.
    pub fn value(self) -> &'static dyn RecordFormat<Shogi> {
        match self {
            Format::Csa => &csa::CSA,
            Format::Kif => &kif::KIF,
            Format::Kifu => &kif::KIFU,
            Format::Ki2 => &ki2::KI2,
            Format::Ki2u => &ki2::KI2U,
            Format::Usi => &usi_record::USI,
            Format::Jkf => &jkf::JKF,
        }
    }

    /// The extension a file of this format gets.
    pub fn extension(self) -> &'static str {
        self.name()
    }

    /// The encoding a file of this format is written in (and expected in when reading).
    pub fn encoding(self) -> TextEncoding {
        self.value().encoding()
    }

    /// Guesses the format of decoded text without a file name (e.g. from stdin); see
    /// [`crate::shogi::sniff`] for the rules.
    pub fn sniff(text: &str) -> Format {
        // Every table entry has its Format, and USI is the sniffer's fallback anyway.
        Format::from_name(crate::shogi::sniff(text).name()).unwrap_or(Format::Usi)
    }

    /// Reads decoded text: every record, and every problem found. A text that holds no
    /// record (empty, not a record, noise) gives one empty record and an error.
    pub fn read(self, text: &str) -> Parsed {
        Parsed::collect(self.records(text))
    }

    /// The records of decoded text one at a time, each with its own diagnostics: a caller
    /// can check or convert a record and drop it before the next is read, so a large
    /// multi-record file (a CSA archive with `/` between games, USI with one game per line)
    /// is handled in memory bounded by its largest game, not by the file. KIF, KI2 and JKF
    /// hold one game per file and give one record.
    ///
    /// There is always at least one item: a text without any record gives an empty record
    /// with an error.
    ///
    /// ```
    /// use kifu_record::decode;
    /// use kifu_records::shogi::Format;
    ///
    /// let archive = b"PI\n+\n+7776FU\n%TORYO\n/\nPI\n+\n+2726FU\n-0000FU\n/\nPI\n+\n%CHUDAN\n";
    /// let decoded = decode(archive, Format::Csa.encoding()); // decoding diagnostics: decoded.diagnostics
    /// let mut valid = 0;
    /// for (index, read) in Format::Csa.records(&decoded.text).enumerate() {
    ///     if read.has_errors() {
    ///         assert_eq!(index, 1); // `-0000FU` is no move
    ///     } else {
    ///         valid += 1;
    ///     }
    ///     // `read.record` is dropped here, before the next record is read.
    /// }
    /// assert_eq!(valid, 2);
    /// // The third record alone:
    /// let third = Format::Csa.nth_record(&decoded.text, 2).unwrap();
    /// assert_eq!(third.record.moves.main_line().count(), 1); // the ending
    /// ```
    pub fn records(self, text: &str) -> Records<'_> {
        Records {
            inner: self.value().records(text),
        }
    }

    /// The record at `index` (0 = the first) of a text, read on its own with its
    /// diagnostics; `None` if the text holds fewer records. The records before it are read
    /// (a record's end is only known by reading it) but not kept.
    pub fn nth_record(self, text: &str, index: usize) -> Option<RecordRead> {
        self.records(text).nth(index)
    }

    /// How many records a text holds, reading each and dropping it.
    pub fn count_records(self, text: &str) -> usize {
        self.records(text).count()
    }

    /// Writes records as text (see [`Format::encode`] for bytes). CSA and USI hold several
    /// records per file; KIF holds one, and extra records are listed as dropped.
    pub fn write(self, records: &[ShogiRecord], csa_version: csa::CsaVersion) -> Written {
        match self {
            Format::Csa => csa::CsaFormat::new(csa_version).write(records),
            _ => self.value().write(records),
        }
    }

    /// The bytes of written text in this format's encoding; characters the encoding cannot
    /// hold become `?` and are listed as a warning.
    pub fn encode(self, written: Written) -> (Vec<u8>, Vec<String>) {
        let Written { text, mut warnings } = written;
        let (bytes, lost) = encode(&text, self.encoding());
        if !lost.is_empty() {
            let chars: String = lost.iter().collect();
            warnings.push(format!(
                "characters {} cannot be written in {}; replaced with `?`",
                chars,
                self.encoding().name()
            ));
        }
        (bytes.into_owned(), warnings)
    }
}

/// The records of a text, read one at a time: see [`Format::records`].
pub struct Records<'t> {
    inner: kifu_record::Records<'t, Shogi>,
}

impl Iterator for Records<'_> {
    type Item = RecordRead;

    fn next(&mut self) -> Option<RecordRead> {
        self.inner.next()
    }
}

/// Decodes a file's bytes (by BOM, encoding line, detection, then `format`'s encoding) and
/// reads it. Decoding warnings come first among the diagnostics; spans refer to the returned
/// text, which a caller needs to show `file:line:column`.
pub fn read_bytes(bytes: &[u8], format: Format) -> (Cow<'_, str>, Parsed) {
    let decoded = decode(bytes, format.encoding());
    let mut parsed = format.read(&decoded.text);
    if !decoded.diagnostics.is_empty() {
        let mut all = decoded.diagnostics;
        all.append(&mut parsed.diagnostics);
        parsed.diagnostics = all;
    }
    (decoded.text, parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_paths() {
        assert_eq!(Format::from_path(Path::new("a/b.KIF")), Some(Format::Kif));
        assert_eq!(Format::from_path(Path::new("x.kifu")), Some(Format::Kifu));
        assert_eq!(Format::from_path(Path::new("x.jkf")), Some(Format::Jkf));
        assert_eq!(Format::from_path(Path::new("x.bod")), None);
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.name()), Some(f));
        }
    }

    #[test]
    fn sniffing() {
        assert_eq!(Format::sniff("V2.2\nPI\n+\n"), Format::Csa);
        assert_eq!(Format::sniff("'comment\n+7776FU\n"), Format::Csa);
        assert_eq!(Format::sniff("# ---\n手合割：平手\n"), Format::Kifu);
        assert_eq!(Format::sniff("   1 ７六歩(77)\n"), Format::Kifu);
        assert_eq!(Format::sniff("7g7f 3c3d\n"), Format::Usi);
        assert_eq!(Format::sniff("▲７六歩　△３四歩\n"), Format::Ki2u);
        assert_eq!(Format::sniff("position startpos moves 7g7f\n"), Format::Usi);
    }

    #[test]
    fn shift_jis_output_reports_lost_characters() {
        let (_, parsed) = read_bytes("先手：☗名人\n1 ７六歩(77)\n".as_bytes(), Format::Kifu);
        let (bytes, warnings) =
            Format::Kif.encode(Format::Kif.write(&parsed.records, csa::CsaVersion::V30));
        assert!(warnings.iter().any(|w| w.contains('☗')), "{warnings:?}");
        let (text, _) = read_bytes(&bytes, Format::Kif);
        assert!(text.contains("先手：?名人"));
    }
}
