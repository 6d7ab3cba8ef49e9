//! The interface every record file format implements, for whichever game it holds.

use crate::{Game, Record, RecordCheck, RecordRead, TextEncoding, Written};

/// The records of one text, read one at a time (see [`RecordFormat::records`]). `Send`, so that
/// a reading under way can be handed to another thread with its text.
pub type Records<'t, G> = Box<dyn Iterator<Item = RecordRead<G>> + Send + 't>;

/// What checking the records of one text found, one record at a time (see
/// [`RecordFormat::check`]).
pub type RecordChecks<'t> = Box<dyn Iterator<Item = RecordCheck> + 't>;

/// A record file format of game `G`: how to recognise it, read it with spans and
/// diagnostics, and write records back with a list of what it could not hold.
///
/// Formats are values (a CSA writer carries its version, a KIF format its encoding), so a
/// game's formats form a table of `&'static dyn RecordFormat<G>` that commands search by name,
/// extension or content. Adding a format is one implementation and one entry in that table.
///
/// A format for a toy game whose records are one move (a number) per line:
///
/// ```
/// use kifu_record::{
///     Diagnostic, Game, NoEnding, Outcome, Record, RecordFormat, RecordRead, Records, Side, Span,
///     Written,
/// };
///
/// #[derive(Debug)]
/// struct Count; // each move adds 1 or 2; the game goes on forever
/// #[derive(Debug, thiserror::Error)]
/// #[error("add 1 or 2")]
/// struct BadStep;
/// impl Game for Count {
///     const NAME: &'static str = "count";
///     type Position = u32;
///     type Move = u32;
///     type Start = u32;
///     type Ending = NoEnding;
///     type IllegalMove = BadStep;
///     fn start_position(start: &u32) -> u32 { *start }
///     fn turn(p: &u32) -> Side { if p % 2 == 0 { Side::First } else { Side::Second } }
///     fn check_move(_: &u32, m: &u32) -> Result<(), BadStep> {
///         if matches!(m, 1 | 2) { Ok(()) } else { Err(BadStep) }
///     }
///     fn play_unchecked(p: &mut u32, m: &u32) { *p += m }
///     fn outcome(_: &u32) -> Option<Outcome> { None }
///     fn move_text(_: &u32, m: &u32) -> String { m.to_string() }
///     fn position_text(p: &u32) -> String { p.to_string() }
/// }
///
/// struct Lines;
/// impl RecordFormat<Count> for Lines {
///     fn name(&self) -> &'static str { "lines" }
///     fn sniff(&self, text: &str) -> bool { text.bytes().all(|b| b.is_ascii_digit() || b == b'\n') }
///     fn records<'t>(&self, text: &'t str) -> Records<'t, Count> {
///         let mut record = Record::new(0);
///         let mut diagnostics = Vec::new();
///         let mut position = 0;
///         let mut at = record.moves.root();
///         let mut offset = 0;
///         for line in text.split_inclusive('\n') {
///             let span = Span::new(offset, offset + line.trim_end().len());
///             offset += line.len();
///             match line.trim().parse::<u32>() {
///                 Ok(step) => match Count::play(&mut position, &step) {
///                     Ok(()) => at = record.moves.add_move(at, step, span),
///                     Err(rule) => diagnostics.push(Diagnostic::illegal_move(span, rule.to_string())),
///                 },
///                 Err(_) => diagnostics.push(Diagnostic::syntax(span, "not a number")),
///             }
///         }
///         Box::new(std::iter::once(RecordRead::checked(record, diagnostics, 0)))
///     }
///     fn write(&self, records: &[Record<Count>]) -> Written {
///         let mut written = Written::default();
///         for record in records.iter().take(1) {
///             for id in record.moves.main_line() {
///                 if let Some(step) = record.moves[id].mv() {
///                     written.text.push_str(&format!("{step}\n"));
///                 }
///             }
///         }
///         if records.len() > 1 {
///             written.warnings.push(format!("{} records dropped: one per file", records.len() - 1));
///         }
///         written
///     }
/// }
///
/// let read = Lines.records("1\n2\n3\n").next().unwrap();
/// assert_eq!(read.diagnostics[0].kind.code(), "illegal-move");
/// assert_eq!(Lines.write(&[read.record]).text, "1\n2\n");
/// ```
pub trait RecordFormat<G: Game>: Sync {
    /// The name users type (`csa`, `kif`, `csl` …); also the extension it writes.
    fn name(&self) -> &'static str;

    /// Further extensions (without the dot) that files of this format carry.
    fn extensions(&self) -> &'static [&'static str] {
        &[]
    }

    /// The extension (without the dot) a file written in this format gets: its name unless
    /// several formats share one (Japanese CSL is written to `.csl` too).
    fn file_extension(&self) -> &'static str {
        self.name()
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

    /// Reads and replays the records of a decoded text like [`RecordFormat::records`], but
    /// hands out only what each one holds in moves and what was wrong with it: for a caller
    /// that validates and drops every record. A format may override it to skip building the
    /// move tree; the diagnostics must be the same as `records` gives.
    fn check<'t>(&self, text: &'t str) -> RecordChecks<'t> {
        Box::new(self.records(text).map(RecordCheck::from))
    }

    /// Writes records as text. A format that holds one record per file lists the others as
    /// dropped.
    fn write(&self, records: &[Record<G>]) -> Written;

    /// Whether [`RecordFormat::write_part`] writes a file of this format in parts.
    fn writes_in_parts(&self) -> bool {
        false
    }

    /// `records` as one part of a file of this format that holds more records than these: the
    /// ones after its first `before`. The parts of a file of two records or more, joined in
    /// order ([`Written::append`]), are what [`RecordFormat::write`] makes of all its records,
    /// warnings included, so that a long file can be written as it is read. A format that
    /// does not write in parts ([`RecordFormat::writes_in_parts`]) writes `records` as a file
    /// of their own.
    fn write_part(&self, records: &[Record<G>], before: usize) -> Written {
        let _ = before;
        self.write(records)
    }
}
