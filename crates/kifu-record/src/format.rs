//! The interface every record file format implements, for whichever game it holds.

use crate::{Game, Record, RecordRead, TextEncoding, Written};

/// The records of one text, read one at a time (see [`RecordFormat::records`]).
pub type Records<'t, G> = Box<dyn Iterator<Item = RecordRead<G>> + 't>;

/// A record file format of game `G`: how to recognise it, read it with spans and
/// diagnostics, and write records back with a list of what it could not hold.
///
/// Formats are values (a CSA writer carries its version, a KIF format its encoding), so a
/// game's formats form a table of `&'static dyn RecordFormat<G>` that commands search by name,
/// extension or content. Adding a format is one implementation and one entry in that table.
pub trait RecordFormat<G: Game>: Sync {
    /// The name users type (`csa`, `kif`, `csl` …); also the extension it writes.
    fn name(&self) -> &'static str;

    /// Further extensions (without the dot) that files of this format carry.
    fn extensions(&self) -> &'static [&'static str] {
        &[]
    }

    /// The encoding a file of this format is written in and expected in when reading.
    fn encoding(&self) -> TextEncoding {
        TextEncoding::Utf8
    }

    /// True when decoded text looks like this format (for input without a file name).
    fn sniff(&self, text: &str) -> bool;

    /// How many records one file of this format can hold (1 for one-game formats).
    fn holds_many(&self) -> bool {
        false
    }

    /// The records of a decoded text one at a time, each with its own diagnostics; there is
    /// always at least one (a text without any record gives an empty record with an error).
    fn records<'t>(&self, text: &'t str) -> Records<'t, G>;

    /// Writes records as text. A format that holds one record per file lists the others as
    /// dropped.
    fn write(&self, records: &[Record<G>]) -> Written;
}
