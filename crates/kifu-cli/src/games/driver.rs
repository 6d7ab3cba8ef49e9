//! The driver every game shares: reading, checking, converting and showing records through
//! the game's formats in the records layer.

use std::any::Any;
use std::marker::PhantomData;

use kifu_record::{
    Diagnostic, Game, NodeId, Record, RecordCheck, RecordChecks, RecordFormat, Records, SourceText,
};
use kifu_records::GameRecords;
use kifu_records::open::Opened;

use crate::error::CliError;
use crate::games::{GameDriver, InputFile, ReadOptions, RecordBatch, TargetFormat, View};
use crate::report::FileReport;

/// What the command line needs of a game beyond its records layer (and its pictures, which
/// `kifu_render` draws for every game).
pub trait CliGame: GameRecords + kifu_render::Picture {
    /// The game as the records layer's detection names it.
    const KIND: kifu_records::detect::GameKind;

    /// The format to write for `--to NAME` (with `--csa-version` where it applies).
    fn target_format(name: &str, _csa_version: &str) -> Option<&'static dyn RecordFormat<Self>> {
        Self::format_by_name(name)
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

    /// Hands `records` to this game's method of `visitor`.
    fn visit(records: &[Record<Self>], visitor: &mut dyn crate::games::RecordsVisitor);

    /// `kifu perft` of this game (none by default: a usage error saying which games count).
    fn perft(_request: &crate::games::PerftRequest<'_>) -> Result<crate::games::Perft, CliError> {
        Err(CliError::Usage(format!(
            "perft counts no {} positions; the games it counts: {}",
            Self::NAME,
            crate::games::Game::all()
                .filter(|g| g.has_perft())
                .map(|g| g.name())
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }

    /// Whether [`CliGame::perft`] counts this game's positions.
    const PERFT: bool = false;

    /// Commands count a whole file as one record, however many the reader hands out:
    /// a cetkaik file is one match, which the records layer reads as its seasons.
    const ONE_RECORD_PER_FILE: bool = false;

    /// The positions `--ply` counts through in `records` (one command record: one record, or
    /// a whole file's under [`CliGame::ONE_RECORD_PER_FILE`]), the start first, each as the
    /// record it is in and the node that led there: `--ply N` is entry N in `kifu show`,
    /// `kifu render` and `kifu html` alike. By default the first record's main line, as far
    /// as it replays.
    fn shown_nodes(records: &[Record<Self>]) -> Vec<(usize, NodeId)> {
        records.first().map_or_else(Vec::new, |record| {
            let mut nodes = vec![(0, record.moves.root())];
            record.walk_main_line(|id, _, _| nodes.push((0, id)));
            nodes
        })
    }

    /// What `kifu show` prints after `ply` moves of `records` (see [`CliGame::shown_nodes`]).
    fn show_records(
        records: &[Record<Self>],
        ply: usize,
        view: View,
        colour: bool,
    ) -> Option<String> {
        let &(index, node) = Self::shown_nodes(records).get(ply)?;
        let record = &records[index];
        Self::show(record, &record.position_at(node), node, view, colour)
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

    /// A game whose file is one command record (a cetkaik match) is not written in parts:
    /// its records come out together at the end.
    fn target(&self, name: &str, csa_version: &str) -> Option<TargetFormat> {
        let format = G::target_format(name, csa_version)?;
        Some(TargetFormat {
            extension: format.file_extension(),
            holds_many: format.holds_many(),
            writes_in_parts: !G::ONE_RECORD_PER_FILE && format.writes_in_parts(),
            format: Box::new(format),
        })
    }

    fn encode_parts(
        &self,
        target: &TargetFormat,
        written: kifu_record::Written,
    ) -> Result<(Vec<u8>, Vec<String>), CliError> {
        Ok(written.encode(format_of::<G>(target)?.encoding()))
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
                let mut whole = Batch::<G>::default();
                let mut whole_valid = !decoding_failed;
                Self::command_records(reads, only, file.name, report, |index, read, report| {
                    report.plies += read.record.main_line_plies();
                    add(report, &read.diagnostics);
                    let valid = !decoding_failed && !read.has_errors();
                    if G::ONE_RECORD_PER_FILE {
                        whole_valid &= valid;
                        whole.records.push(read.record);
                        whole.diagnostics.push(read.diagnostics);
                        return Ok(());
                    }
                    let one = Batch::<G> {
                        records: vec![read.record],
                        diagnostics: vec![read.diagnostics],
                    };
                    each(index, Box::new(one), valid)
                })?;
                if G::ONE_RECORD_PER_FILE {
                    each(0, Box::new(whole), whole_valid)?;
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
        Box::new(Batch::<G>::default())
    }

    fn perft(
        &self,
        request: &crate::games::PerftRequest<'_>,
    ) -> Result<crate::games::Perft, CliError> {
        G::perft(request)
    }

    fn has_perft(&self) -> bool {
        G::PERFT
    }
}

/// Game `G`'s format in `target`; a target resolved for another game is a bug of the caller,
/// reported rather than written wrong.
fn format_of<G: CliGame>(target: &TargetFormat) -> Result<&'static dyn RecordFormat<G>, CliError> {
    target
        .format
        .downcast_ref::<&'static dyn RecordFormat<G>>()
        .copied()
        .ok_or_else(|| {
            CliError::Failed(format!("a target format of another game than {}", G::NAME))
        })
}

fn unknown_format<G: CliGame>(name: &str) -> String {
    format!(
        "unknown {} format `{name}` (one of: {})",
        G::NAME,
        G::format_names().join(", ")
    )
}

/// Records of game `G`: each a command record, or together one under
/// [`CliGame::ONE_RECORD_PER_FILE`]; each with what reading it found.
struct Batch<G: Game> {
    records: Vec<Record<G>>,
    /// The diagnostics of each record, in the order of `records`.
    diagnostics: Vec<Vec<Diagnostic>>,
}

impl<G: Game> Default for Batch<G> {
    fn default() -> Batch<G> {
        Batch {
            records: Vec::new(),
            diagnostics: Vec::new(),
        }
    }
}

impl<G: CliGame> RecordBatch for Batch<G> {
    fn len(&self) -> usize {
        if G::ONE_RECORD_PER_FILE {
            usize::from(!self.records.is_empty())
        } else {
            self.records.len()
        }
    }

    fn append(&mut self, other: Box<dyn RecordBatch>) {
        let other = crate::games::same_game::<Batch<G>>(other);
        self.records.extend(other.records);
        self.diagnostics.extend(other.diagnostics);
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
        let Batch {
            records,
            diagnostics,
        } = *self;
        let pairs: Vec<(Record<G>, Vec<Diagnostic>)> =
            records.into_iter().zip(diagnostics).collect();
        let (records, diagnostics) = crate::games::pick_one(pairs, n, name)?.into_iter().unzip();
        Ok(Box::new(Batch::<G> {
            records,
            diagnostics,
        }))
    }

    fn write(
        &self,
        range: std::ops::Range<usize>,
        target: &TargetFormat,
    ) -> Result<(Vec<u8>, Vec<String>), CliError> {
        let format = format_of::<G>(target)?;
        let records = if G::ONE_RECORD_PER_FILE {
            if range.is_empty() {
                &[][..]
            } else {
                &self.records[..]
            }
        } else {
            &self.records[range]
        };
        Ok(format.write(records).encode(format.encoding()))
    }

    fn write_part(
        &self,
        before: usize,
        target: &TargetFormat,
    ) -> Result<kifu_record::Written, CliError> {
        let format = format_of::<G>(target)?;
        Ok(format.write_part(&self.records, before))
    }

    fn main_line_len(&self) -> usize {
        G::shown_nodes(self.shown()).len().saturating_sub(1)
    }

    fn show(&self, ply: usize, view: View, colour: bool) -> Option<String> {
        G::show_records(self.shown(), ply, view, colour)
    }

    fn draw(&self, ply: usize, options: &kifu_render::Options) -> Option<kifu_render::Drawing> {
        let records = self.shown();
        let &(index, node) = G::shown_nodes(records).get(ply)?;
        Some(kifu_render::draw(&records[index], node, options))
    }

    fn animate(
        &self,
        kind: kifu_render::animate::Kind,
        plies: std::ops::RangeInclusive<usize>,
        options: &kifu_render::Options,
        timing: &kifu_render::animate::Timing,
        out: &mut Vec<u8>,
    ) -> Result<kifu_render::animate::Animation, CliError> {
        let records = self.shown();
        let shown = G::shown_nodes(records);
        let (first, last) = (*plies.start(), *plies.end());
        let line = shown
            .get(first..=last)
            .ok_or_else(|| CliError::usage(format!("--to-ply {last}: past the end")))?;
        // An animation replays one line of one record: a cetkaik match is several seasons, each its
        // own record starting from its own board.
        let index = line[0].0;
        if let Some(&(other, _)) = line.iter().find(|(i, _)| *i != index) {
            let starts: Vec<String> = (index + 1..=other)
                .filter_map(|season| shown.iter().position(|(i, _)| *i == season))
                .map(|ply| ply.to_string())
                .collect();
            return Err(CliError::usage(format!(
                "--from-ply {first} to --to-ply {last} crosses into another {} record (after \
                 ply {}); an animation replays one: keep the plies within it",
                G::NAME,
                starts.join(", ")
            )));
        }
        let nodes: Vec<NodeId> = line.iter().map(|&(_, node)| node).collect();
        kifu_render::animate::write(kind, &records[index], &nodes, options, timing, out)
            .map_err(|e| CliError::Failed(e.to_string()))
    }

    fn stills(
        &self,
        ply: Option<usize>,
        options: &kifu_render::Options,
        each: &mut dyn FnMut(usize, kifu_render::Drawing) -> Result<(), CliError>,
    ) -> Result<(), CliError> {
        let records = self.shown();
        let shown = G::shown_nodes(records);
        let wanted = match ply {
            Some(ply) => shown.get(ply..=ply).unwrap_or(&[]),
            None => &shown[..],
        };
        // Each record's stretch is walked move by move rather than replayed per picture.
        let mut at = 0;
        for stretch in wanted.chunk_by(|a, b| a.0 == b.0) {
            let record = &records[stretch[0].0];
            let nodes: Vec<NodeId> = stretch.iter().map(|&(_, node)| node).collect();
            let first = ply.unwrap_or(at);
            let mut n = 0;
            kifu_render::walk_line(record, &nodes, |step| {
                let drawn = step.draw(record, options);
                n += 1;
                each(first + n - 1, drawn)
            })?;
            at += stretch.len();
        }
        Ok(())
    }

    fn pages(
        &self,
        source: &str,
        title: &str,
        problems: &dyn Fn(&[Diagnostic]) -> Vec<String>,
    ) -> Vec<(kifu_render::html::Page, crate::games::Summary)> {
        self.records
            .iter()
            .zip(&self.diagnostics)
            .map(|(record, diagnostics)| {
                let page =
                    kifu_render::html::page(record, Some(source), title, &problems(diagnostics));
                (page, crate::games::Summary::of(record))
            })
            .collect()
    }

    fn visit(&self, visitor: &mut dyn crate::games::RecordsVisitor) {
        G::visit(&self.records, visitor);
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

impl<G: CliGame> Batch<G> {
    /// The records of the first command record, which `kifu show` and `kifu render` draw.
    fn shown(&self) -> &[Record<G>] {
        if G::ONE_RECORD_PER_FILE {
            &self.records
        } else {
            &self.records[..self.records.len().min(1)]
        }
    }
}
