//! The cetkaik record formats as [`RecordFormat`]s, in one table: CKKA in each of its four
//! notations, cerke_noter's app file and kifu's JSON form. Each reads a match season by
//! season ([`super::stream`]); the JSON forms are parsed whole first, as JSON is.

use kifu_cetkaik::{Cetkaik, Rules};
use kifu_record::{RecordFormat, Records, Written};

use super::record::{ElementKind, Notation};
use super::seasons::match_of;
use super::write::{json_losses, losses, write, write_json};
use super::{json, noter, parse_text, stream};

/// A CKKA file written in one notation. Reading accepts every notation (a file may mix
/// them); the notation decides what [`RecordFormat::write`] writes and what it recognises.
pub struct Ckka {
    /// The notation written (any is read).
    pub notation: Notation,
}

/// cerke_noter's app file: a JSON object with a `note` array of notation ③ strings.
pub struct NoterApp;

/// kifu's JSON form of a match (what `kifu convert --to json` writes).
pub struct KifuJson;

/// Every cetkaik format, the first the default: commands look formats up here by name,
/// extension or content.
pub static FORMATS: [&dyn RecordFormat<Cetkaik>; 6] = [
    &Ckka {
        notation: Notation::Full,
    },
    &Ckka {
        notation: Notation::Abbreviated,
    },
    &Ckka {
        notation: Notation::Phonetic,
    },
    &Ckka {
        notation: Notation::Mrf,
    },
    &NoterApp,
    &KifuJson,
];

/// The format named `name` (`ckka`, `ckka1` … `ckka3`, `noter`, `json`).
pub fn by_name(name: &str) -> Option<&'static dyn RecordFormat<Cetkaik>> {
    FORMATS
        .iter()
        .copied()
        .find(|f| f.name() == name || f.extensions().contains(&name))
}

/// The records of `text` read as `format` would, with `default_rules` for a match that names
/// none (`{律:…}`) instead of the standard rules ([`RecordFormat::records`] has no place for
/// options): what `kifu --rules` reads with. Seasons come one at a time, as
/// [`super::stream`] reads them.
///
/// ```
/// use kifu_cetkaik::Rules;
/// use kifu_records::cetkaik::format::{by_name, records_under};
///
/// let ckka = by_name("ckka").unwrap();
/// let seasons: Vec<_> = records_under(ckka, "MAU弓MAIMY橋一\n", Rules::cerke_online()).collect();
/// assert_eq!(seasons[0].record.start.rules, Rules::cerke_online());
/// ```
pub fn records_under<'t>(
    format: &dyn RecordFormat<Cetkaik>,
    text: &'t str,
    default_rules: Rules,
) -> Records<'t, Cetkaik> {
    stream::seasons(text, format.name() == KifuJson.name(), default_rules)
}

/// The format of a cetkaik text by its content, as [`super::parse`] decides how to read it:
/// kifu's JSON form, or else CKKA text (in any notation, or a noter app file, which the CKKA
/// reader takes too).
pub fn sniff(text: &str) -> &'static dyn RecordFormat<Cetkaik> {
    let json = noter::looks_like_noter(text)
        && match noter::json_kind(text) {
            Some(noter::JsonKind::Noter) => false,
            Some(noter::JsonKind::Kifu | noter::JsonKind::Other) => true,
            None => text.contains("\"seasons\""),
        };
    if json { FORMATS[5] } else { FORMATS[0] }
}

impl RecordFormat<Cetkaik> for Ckka {
    fn name(&self) -> &'static str {
        // As `Notation`'s Display writes it, but 'static.
        match self.notation {
            Notation::Full => "ckka",
            Notation::Abbreviated => "ckka1",
            Notation::Phonetic => "ckka2",
            Notation::Mrf => "ckka3",
        }
    }

    fn extensions(&self) -> &'static [&'static str] {
        match self.notation {
            Notation::Full => &["ckka0"],
            _ => &[],
        }
    }

    /// Every notation is written to `.ckka`: a reader takes any notation, and a file may mix
    /// them.
    fn file_extension(&self) -> &'static str {
        "ckka"
    }

    fn sniff(&self, text: &str) -> bool {
        let (record, diags) = parse_text(text);
        let moves = record
            .body
            .iter()
            .filter(|e| matches!(e.kind, ElementKind::Move { .. }))
            .count();
        moves > 0
            && diags.iter().filter(|d| d.is_error()).count() < moves
            && record.notation() == self.notation
            && !noter::looks_like_noter(text)
    }

    fn holds_many(&self) -> bool {
        true
    }

    fn records<'t>(&self, text: &'t str) -> Records<'t, Cetkaik> {
        stream::seasons(text, false, Rules::standard())
    }

    fn write(&self, records: &[kifu_record::Record<Cetkaik>]) -> Written {
        let game = match_of(records);
        Written {
            text: write(&game, self.notation),
            warnings: losses(&game, self.notation),
        }
    }
}

impl RecordFormat<Cetkaik> for NoterApp {
    fn name(&self) -> &'static str {
        "noter"
    }

    /// cerke_noter's app files are JSON.
    fn file_extension(&self) -> &'static str {
        "json"
    }

    fn sniff(&self, text: &str) -> bool {
        noter::looks_like_noter(text) && noter::parse_noter(text).is_some()
    }

    fn holds_many(&self) -> bool {
        true
    }

    fn records<'t>(&self, text: &'t str) -> Records<'t, Cetkaik> {
        // The CKKA reader takes a noter file as such, and says what is wrong with anything
        // else.
        stream::seasons(text, false, Rules::standard())
    }

    fn write(&self, records: &[kifu_record::Record<Cetkaik>]) -> Written {
        let game = match_of(records);
        Written {
            text: noter::write_noter(&game),
            warnings: losses(&game, Notation::Mrf),
        }
    }
}

impl RecordFormat<Cetkaik> for KifuJson {
    fn name(&self) -> &'static str {
        "json"
    }

    fn sniff(&self, text: &str) -> bool {
        json::looks_like_kifu_json(text)
    }

    fn holds_many(&self) -> bool {
        true
    }

    fn records<'t>(&self, text: &'t str) -> Records<'t, Cetkaik> {
        stream::seasons(text, true, Rules::standard())
    }

    fn write(&self, records: &[kifu_record::Record<Cetkaik>]) -> Written {
        let game = match_of(records);
        Written {
            text: write_json(&game),
            warnings: json_losses(&game),
        }
    }
}
