//! The driver every game shares: reading, checking, converting and showing records through
//! the game's formats in the records layer.

use std::any::Any;
use std::marker::PhantomData;
use std::path::Path;

use kifu_record::{Diagnostic, Game, NodeItem, Record, RecordFormat, SourceText, decode};
use kifu_records::GameRecords;

use crate::error::CliError;
use crate::games::{GameDriver, InputFile, ReadOptions, RecordBatch, Target, View};
use crate::report::FileReport;

/// What the command line needs of a game beyond its records layer.
pub trait CliGame: GameRecords {
    /// Whether a file found in a directory is this game's, by its name (`explicit`: the user
    /// named the game, so extensions other games share count too).
    fn wants(path: &Path, explicit: bool) -> bool;

    /// Whether an extension (lower case) is this game's and no other's.
    fn owns_extension(extension: &str) -> bool;

    /// Whether content only this game writes is in the text.
    fn claims_content(text: &str) -> bool;

    /// Whether the text reads as this game when nothing else decided.
    fn sniff_weakly(_text: &str) -> bool {
        false
    }

    /// The format to write for `--to NAME` (with `--csa-version` where it applies).
    fn target_format(target: &Target<'_>) -> Option<&'static dyn RecordFormat<Self>> {
        Self::format_by_name(target.format)
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

/// Moves on the main line (endings are not moves).
pub fn plies<G: Game>(record: &Record<G>) -> usize {
    record
        .moves
        .main_line()
        .filter(|&id| matches!(record.moves[id].item, NodeItem::Move(_)))
        .count()
}

impl<G: CliGame> Driver<G> {
    fn format_for(
        file: &InputFile<'_>,
        read: &ReadOptions<'_>,
    ) -> Result<&'static dyn RecordFormat<G>, CliError> {
        if let Some(name) = read.format {
            return G::format_by_name(name).ok_or_else(|| {
                CliError::Usage(format!(
                    "--format: unknown {} format `{name}` (one of: {})",
                    G::NAME,
                    G::format_names().join(", ")
                ))
            });
        }
        if let Some(format) = file.path.and_then(G::format_by_extension) {
            return Ok(format);
        }
        let head = &file.bytes[..file.bytes.len().min(4096)];
        Ok(G::sniff_format(&crate::games::lossy_utf8(head)))
    }
}

impl<G: CliGame> GameDriver for Driver<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn wants(&self, path: &Path, explicit: bool) -> bool {
        G::wants(path, explicit)
    }

    fn owns_extension(&self, extension: &str) -> bool {
        G::owns_extension(extension)
    }

    fn claims_content(&self, text: &str) -> bool {
        G::claims_content(text)
    }

    fn sniff_weakly(&self, text: &str) -> bool {
        G::sniff_weakly(text)
    }

    fn format_names(&self) -> Vec<&'static str> {
        G::format_names()
    }

    fn knows_format(&self, name: &str) -> bool {
        G::format_by_name(name).is_some()
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

    fn stream(
        &self,
        file: &InputFile<'_>,
        read: &ReadOptions<'_>,
        only: Option<usize>,
        each: &mut dyn FnMut(usize, Box<dyn RecordBatch>, bool) -> Result<(), CliError>,
    ) -> Result<FileReport, CliError> {
        let format = Self::format_for(file, read)?;
        let decoded = decode(file.bytes, format.encoding());
        // The line index that turns spans into line:column costs 4 bytes a line (50 MB for a
        // 100 MB CSA archive): built only once there is something to report.
        let mut source = None;
        let mut report = FileReport::new(file.name.to_string(), G::NAME, format.name());
        let mut add = |report: &mut FileReport, diagnostics: &[Diagnostic]| {
            if !diagnostics.is_empty() {
                let source =
                    source.get_or_insert_with(|| SourceText::new(file.name, &decoded.text));
                report.add_diagnostics(source, diagnostics);
            }
        };
        add(&mut report, &decoded.diagnostics);
        let decoding_failed = decoded.diagnostics.iter().any(Diagnostic::is_error);
        let mut count = 0;
        for (index, read) in format.records(&decoded.text).enumerate() {
            count += 1;
            if only.is_some_and(|n| n != index) {
                continue;
            }
            report.records += 1;
            report.plies += plies(&read.record);
            add(&mut report, &read.diagnostics);
            let valid = !decoding_failed && !read.has_errors();
            each(index, Box::new(Batch::<G>(vec![read.record])), valid)?;
        }
        if let Some(n) = only
            && n >= count
        {
            return Err(crate::games::no_such_record(n + 1, count, file.name));
        }
        Ok(report)
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

/// Records of game `G`.
struct Batch<G: Game>(Vec<Record<G>>);

impl<G: CliGame> RecordBatch for Batch<G> {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn append(&mut self, other: Box<dyn RecordBatch>) {
        self.0.extend(crate::games::same_game::<Batch<G>>(other).0);
    }

    fn pick(self: Box<Self>, n: usize, name: &str) -> Result<Box<dyn RecordBatch>, CliError> {
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
        Ok(format.write(&self.0[range]).encode(format.encoding()))
    }

    fn main_line_len(&self) -> usize {
        self.0
            .first()
            .map_or(0, |record| record.positions().count().saturating_sub(1))
    }

    fn show(&self, ply: usize, view: View, colour: bool) -> Option<String> {
        let record = self.0.first()?;
        let (node, position) = record.positions().nth(ply)?;
        G::show(record, &position, node, view, colour)
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}
