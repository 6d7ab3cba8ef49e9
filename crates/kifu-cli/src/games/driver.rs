//! The driver every game shares: reading, checking, converting and showing records through
//! the game's formats in the records layer.

use std::any::Any;
use std::marker::PhantomData;

use kifu_record::{
    Diagnostic, Game, Record, RecordCheck, RecordChecks, RecordFormat, Records, SourceText,
};
use kifu_records::GameRecords;
use kifu_records::open::Opened;

use crate::error::CliError;
use crate::games::{GameDriver, InputFile, ReadOptions, RecordBatch, Target, View};
use crate::report::FileReport;

/// What the command line needs of a game beyond its records layer.
pub trait CliGame: GameRecords {
    /// The game as the records layer's detection names it.
    const KIND: kifu_records::detect::GameKind;

    /// The format to write for `--to NAME` (with `--csa-version` where it applies).
    fn target_format(target: &Target<'_>) -> Option<&'static dyn RecordFormat<Self>> {
        Self::format_by_name(target.format)
    }

    /// Why the game refuses to read these bytes as text at all (`None`: it reads them, through
    /// the shared decoder and the format's encoding).
    fn refuse(_bytes: &[u8]) -> Option<String> {
        None
    }

    /// Checks the options only this game takes (`--rules` for cetkaik).
    fn check_read_options(_read: &ReadOptions<'_>) -> Result<(), String> {
        Ok(())
    }

    /// The records of a decoded text in `format`, read with the options given on the command
    /// line (checked before by [`CliGame::check_read_options`]).
    fn read<'t>(
        format: &'static dyn RecordFormat<Self>,
        text: &'t str,
        _read: &ReadOptions<'_>,
    ) -> Result<Records<'t, Self>, String> {
        Ok(format.records(text))
    }

    /// What [`CliGame::read`] finds in each record, for `kifu check`, which drops every
    /// record once checked: a game whose reading takes no options lets its formats skip
    /// building the records ([`RecordFormat::check`]).
    fn check<'t>(
        format: &'static dyn RecordFormat<Self>,
        text: &'t str,
        read: &ReadOptions<'_>,
    ) -> Result<RecordChecks<'t>, String> {
        Ok(Box::new(
            Self::read(format, text, read)?.map(RecordCheck::from),
        ))
    }

    /// Commands count a whole file as one record, however many the reader hands out:
    /// a cetkaik file is one match, which the records layer reads as its seasons.
    const ONE_RECORD_PER_FILE: bool = false;

    /// The number of moves `kifu show` steps through in `records` (one command record: one
    /// record, or a whole file's under [`CliGame::ONE_RECORD_PER_FILE`]).
    fn shown_plies(records: &[Record<Self>]) -> usize {
        records
            .first()
            .map_or(0, |record| record.positions().count().saturating_sub(1))
    }

    /// What `kifu show` prints after `ply` moves of `records` (see [`CliGame::shown_plies`]).
    fn show_records(
        records: &[Record<Self>],
        ply: usize,
        view: View,
        colour: bool,
    ) -> Option<String> {
        let record = records.first()?;
        let (node, position) = record.positions().nth(ply)?;
        Self::show(record, &position, node, view, colour)
    }

    /// The position after `ply` moves of the main line (`node` is the move that led there,
    /// the root at ply 0), drawn as `view` asks; `None` when the game has no such view.
    fn show(
        record: &Record<Self>,
        position: &Self::Position,
        node: kifu_record::NodeId,
        view: View,
        colour: bool,
    ) -> Option<String>;
}

/// The driver of game `G`.
pub struct Driver<G>(PhantomData<fn() -> G>);

impl<G> Driver<G> {
    pub const NEW: Driver<G> = Driver(PhantomData);
}

impl<G: CliGame> Driver<G> {
    /// Goes through what a file's reader hands out (`items`, one per record read) as
    /// commands count records: each on its own, or all as one under
    /// [`CliGame::ONE_RECORD_PER_FILE`]. `only` (from 0) visits that command record alone;
    /// `visit` gets each item with its command record's index. Counts the command records
    /// in `report`; asking for one the file does not hold is a usage error.
    fn command_records<T>(
        items: impl Iterator<Item = T>,
        only: Option<usize>,
        name: &str,
        report: &mut FileReport,
        mut visit: impl FnMut(usize, T, &mut FileReport) -> Result<(), CliError>,
    ) -> Result<(), CliError> {
        if G::ONE_RECORD_PER_FILE {
            if let Some(n) = only
                && n > 0
            {
                return Err(crate::games::no_such_record(n + 1, 1, name));
            }
            for item in items {
                visit(0, item, report)?;
            }
            report.records = 1;
            return Ok(());
        }
        let mut count = 0;
        for (index, item) in items.enumerate() {
            count += 1;
            if only.is_some_and(|n| n != index) {
                continue;
            }
            report.records += 1;
            visit(index, item, report)?;
        }
        if let Some(n) = only
            && n >= count
        {
            return Err(crate::games::no_such_record(n + 1, count, name));
        }
        Ok(())
    }

    /// What every reading of a file shares: the format and the decoded text the front door
    /// chose (`opened`), and the file's report. `records` goes through the decoded text's
    /// records, adding each one's diagnostics to the report with `add`; `decoding_failed`
    /// says whether the text is already invalid.
    fn read_file(
        file: &InputFile<'_>,
        opened: &Opened<'_>,
        records: impl FnOnce(
            &'static dyn RecordFormat<G>,
            &str,
            bool,
            &mut FileReport,
            &mut dyn FnMut(&mut FileReport, &[Diagnostic]),
        ) -> Result<(), CliError>,
    ) -> Result<FileReport, CliError> {
        let format = G::format_by_name(opened.format)
            .ok_or_else(|| CliError::Usage(unknown_format::<G>(opened.format)))?;
        if let Some(why) = G::refuse(file.bytes) {
            return Ok(FileReport::failed(
                file.name.to_string(),
                G::NAME,
                format.name(),
                why,
            ));
        }
        let decoded = &opened.decoded;
        // The line index that turns spans into line:column costs 4 bytes a line (50 MB for a
        // 100 MB CSA archive): built only once there is something to report.
        let mut source = None;
        let mut report = FileReport::new(file.name.to_string(), G::NAME, format.name());
        report.chosen_by(opened);
        let mut add = |report: &mut FileReport, diagnostics: &[Diagnostic]| {
            if !diagnostics.is_empty() {
                let source =
                    source.get_or_insert_with(|| SourceText::new(file.name, &decoded.text));
                report.add_diagnostics(source, diagnostics);
            }
        };
        add(&mut report, &decoded.diagnostics);
        let decoding_failed = decoded.diagnostics.iter().any(Diagnostic::is_error);
        records(
            format,
            &decoded.text,
            decoding_failed,
            &mut report,
            &mut add,
        )?;
        Ok(report)
    }
}

impl<G: CliGame> GameDriver for Driver<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn kind(&self) -> kifu_records::detect::GameKind {
        G::KIND
    }

    fn format_names(&self) -> Vec<&'static str> {
        G::format_names()
    }

    fn knows_format(&self, name: &str) -> bool {
        G::format_by_name(name).is_some()
    }

    fn check_read_options(&self, read: &ReadOptions<'_>) -> Result<(), String> {
        G::check_read_options(read)
    }

    fn target_extension(&self, target: &Target<'_>) -> Result<&'static str, String> {
        G::target_format(target)
            .map(|f| f.file_extension())
            .ok_or_else(|| unknown_format::<G>(target.format))
    }

    fn target_holds_many(&self, target: &Target<'_>) -> Result<bool, String> {
        G::target_format(target)
            .map(|f| f.holds_many())
            .ok_or_else(|| unknown_format::<G>(target.format))
    }

    /// Not for a game whose file is one command record (a cetkaik match): its records come
    /// out together at the end.
    fn target_writes_in_parts(&self, target: &Target<'_>) -> Result<bool, String> {
        G::target_format(target)
            .map(|f| !G::ONE_RECORD_PER_FILE && f.writes_in_parts())
            .ok_or_else(|| unknown_format::<G>(target.format))
    }

    fn encode_parts(
        &self,
        target: &Target<'_>,
        written: kifu_record::Written,
    ) -> Result<(Vec<u8>, Vec<String>), CliError> {
        let format = G::target_format(target)
            .ok_or_else(|| CliError::Usage(unknown_format::<G>(target.format)))?;
        Ok(written.encode(format.encoding()))
    }

    fn stream(
        &self,
        file: &InputFile<'_>,
        opened: &Opened<'_>,
        read: &ReadOptions<'_>,
        only: Option<usize>,
        each: &mut dyn FnMut(usize, Box<dyn RecordBatch>, bool) -> Result<(), CliError>,
    ) -> Result<FileReport, CliError> {
        Self::read_file(
            file,
            opened,
            |format, text, decoding_failed, report, add| {
                let reads = G::read(format, text, read).map_err(CliError::Usage)?;
                // Under ONE_RECORD_PER_FILE, the records gathered into one command record.
                let mut whole = Vec::new();
                let mut whole_valid = !decoding_failed;
                Self::command_records(reads, only, file.name, report, |index, read, report| {
                    report.plies += read.record.main_line_plies();
                    add(report, &read.diagnostics);
                    let valid = !decoding_failed && !read.has_errors();
                    if G::ONE_RECORD_PER_FILE {
                        whole_valid &= valid;
                        whole.push(read.record);
                        return Ok(());
                    }
                    each(index, Box::new(Batch::<G>(vec![read.record])), valid)
                })?;
                if G::ONE_RECORD_PER_FILE {
                    each(0, Box::new(Batch::<G>(whole)), whole_valid)?;
                }
                Ok(())
            },
        )
    }

    fn check(
        &self,
        file: &InputFile<'_>,
        opened: &Opened<'_>,
        read: &ReadOptions<'_>,
        only: Option<usize>,
    ) -> Result<FileReport, CliError> {
        Self::read_file(file, opened, |format, text, _, report, add| {
            let checks = G::check(format, text, read).map_err(CliError::Usage)?;
            Self::command_records(checks, only, file.name, report, |_, check, report| {
                report.plies += check.plies;
                add(report, &check.diagnostics);
                Ok(())
            })
        })
    }

    fn empty_batch(&self) -> Box<dyn RecordBatch> {
        Box::new(Batch::<G>(Vec::new()))
    }
}

fn unknown_format<G: CliGame>(name: &str) -> String {
    format!(
        "unknown {} format `{name}` (one of: {})",
        G::NAME,
        G::format_names().join(", ")
    )
}

/// Records of game `G`: each a command record, or together one under
/// [`CliGame::ONE_RECORD_PER_FILE`].
struct Batch<G: Game>(Vec<Record<G>>);

impl<G: CliGame> RecordBatch for Batch<G> {
    fn len(&self) -> usize {
        if G::ONE_RECORD_PER_FILE {
            usize::from(!self.0.is_empty())
        } else {
            self.0.len()
        }
    }

    fn append(&mut self, other: Box<dyn RecordBatch>) {
        self.0.extend(crate::games::same_game::<Batch<G>>(other).0);
    }

    fn pick(self: Box<Self>, n: usize, name: &str) -> Result<Box<dyn RecordBatch>, CliError> {
        if G::ONE_RECORD_PER_FILE {
            let count = self.len();
            return if n == 1 && count == 1 {
                Ok(self)
            } else {
                Err(crate::games::no_such_record(n, count, name))
            };
        }
        Ok(Box::new(Batch::<G>(crate::games::pick_one(
            self.0, n, name,
        )?)))
    }

    fn write(
        &self,
        range: std::ops::Range<usize>,
        target: &Target<'_>,
    ) -> Result<(Vec<u8>, Vec<String>), CliError> {
        let format = G::target_format(target)
            .ok_or_else(|| CliError::Usage(unknown_format::<G>(target.format)))?;
        let records = if G::ONE_RECORD_PER_FILE {
            if range.is_empty() {
                &[][..]
            } else {
                &self.0[..]
            }
        } else {
            &self.0[range]
        };
        Ok(format.write(records).encode(format.encoding()))
    }

    fn write_part(
        &self,
        before: usize,
        target: &Target<'_>,
    ) -> Result<kifu_record::Written, CliError> {
        let format = G::target_format(target)
            .ok_or_else(|| CliError::Usage(unknown_format::<G>(target.format)))?;
        Ok(format.write_part(&self.0, before))
    }

    fn main_line_len(&self) -> usize {
        G::shown_plies(self.shown())
    }

    fn show(&self, ply: usize, view: View, colour: bool) -> Option<String> {
        G::show_records(self.shown(), ply, view, colour)
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

impl<G: CliGame> Batch<G> {
    /// The records of the first command record, which `kifu show` draws.
    fn shown(&self) -> &[Record<G>] {
        if G::ONE_RECORD_PER_FILE {
            &self.0
        } else {
            &self.0[..self.0.len().min(1)]
        }
    }
}
