use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::Outcome;
use crate::error::CliError;
use crate::games::{
    Game, GameArg, InputFile, OpenedFile, ReadOptions, RecordBatch, Target, load, stream,
};
use crate::inputs::{Input, expand};
use crate::output::{Outputs, numbered};

#[derive(clap::Args)]
#[command(after_help = "\
Output: `-o FILE` writes one file (a file that exists is replaced only with --force); `-o DIR/`
(a trailing slash, or an existing directory) writes one file per input, and per record when the
format holds one game per file (KIF, KI2, JKF, CSL, CKKA): a file of 3 records becomes
NAME-1.kif, NAME-2.kif, NAME-3.kif. A run never writes over one of its inputs or over another of
its outputs: when two inputs would give the same name (game.csa and game.kif to KIFU), each output
keeps its input's name before the new extension (game.csa.kifu, game.kif.kifu), and a note says so.
Every file is written whole or not at all; a file whose input has errors is not written.

Exit status: 0 every file converted, 1 some input was invalid or could not be written, 2 usage.")]
pub struct Args {
    /// Record file, or a directory to convert file by file; `-` reads standard input.
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// Output file (`-`, the default, is standard output), or a directory: `DIR/` or one that
    /// exists.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Target format: csa, kif, kifu, ki2, ki2u, jkf, usi (shogi); csl, csl-ja, kif, usi, json
    /// (chu); ckka, ckka1, ckka2, ckka3, json (cetkaik). Default: the output file's extension;
    /// `.kifu`/`.ki2u` output is UTF-8 and `.kif`/`.ki2` Shift_JIS whichever of the pair is named.
    #[arg(long, value_name = "FORMAT")]
    to: Option<String>,
    /// Format of the input when its extension does not tell.
    #[arg(long, visible_alias = "from", value_name = "FORMAT")]
    format: Option<String>,
    /// The game the records are of.
    #[arg(long, value_parser = GameArg::parser(), default_value = "auto")]
    game: GameArg,
    /// Cetkaik rule set for records that do not name one.
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
    /// CSA edition to write.
    #[arg(long, value_name = "VERSION", default_value = "3.0", value_parser = ["2.2", "3.0"])]
    csa_version: String,
    /// Convert only the Nth record of the input (counted from 1).
    #[arg(long, value_name = "N")]
    record: Option<usize>,
    /// Replace output files that existed before this run (never an input).
    #[arg(long, conflicts_with = "skip_existing")]
    force: bool,
    /// Keep output files that exist and write the others: resumes a directory conversion
    /// that was interrupted (every output is renamed into place whole, so one that exists is
    /// finished).
    #[arg(long)]
    skip_existing: bool,
}

/// Where the output of a run goes.
enum Destination {
    Stdout,
    File(PathBuf),
    Directory(PathBuf),
}

/// The KIF and KI2 pairs differ only in encoding; an output file's extension picks the one
/// of the pair a user expects from its name.
fn encoding_twin(to: &str, extension: &str) -> bool {
    matches!(
        (to, extension),
        ("kif", "kifu") | ("kifu", "kif") | ("ki2", "ki2u") | ("ki2u", "ki2")
    )
}

fn target_name(to: Option<&str>, destination: &Destination) -> Result<String, CliError> {
    let extension = match destination {
        Destination::File(p) => p
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase),
        _ => None,
    };
    match (to, extension) {
        (Some(to), Some(ext)) if encoding_twin(to, &ext) => Ok(ext),
        (Some(to), _) => Ok(to.to_string()),
        (None, Some(ext)) => Ok(ext),
        (None, None) => Err(CliError::usage(
            "say which format to write with --to FORMAT (csa, kif, kifu, ki2, ki2u, jkf, usi, …)",
        )),
    }
}

pub fn run(args: Args) -> Result<Outcome, CliError> {
    let read = ReadOptions {
        format: args.format.as_deref(),
        rules: args.rules.as_deref(),
    };
    let game = Game::from_arg(&args.game);
    let is_dir = args.input.is_dir();
    let destination = match args.output.clone() {
        None if is_dir => {
            return Err(CliError::usage(
                "converting a directory needs an output directory (-o DIR/)",
            ));
        }
        None => Destination::Stdout,
        Some(p) if p.as_os_str() == "-" && is_dir => {
            return Err(CliError::usage(
                "converting a directory needs an output directory (-o DIR/), not standard output",
            ));
        }
        Some(p) if p.as_os_str() == "-" => Destination::Stdout,
        Some(p) if is_dir || p.is_dir() || p.as_os_str().to_string_lossy().ends_with('/') => {
            Destination::Directory(p)
        }
        Some(p) => Destination::File(p),
    };
    let to = target_name(args.to.as_deref(), &destination)?;
    crate::games::validate(game, &read, Some(&to))?;
    // Resolved once: every later question about the target is a field of it.
    let target = Target::resolve(&to, &args.csa_version);
    let inputs = if is_dir {
        expand(std::slice::from_ref(&args.input), Game::filter(game))?.0
    } else {
        vec![Input::from_arg(&args.input)]
    };
    let mut outputs = Outputs::new(&inputs, args.force);
    if args.skip_existing {
        outputs = outputs.keeping_existing();
    }
    let run = Run {
        game,
        read: &read,
        target: &target,
        only: crate::games::record_index(args.record)?,
        warnings: std::cell::RefCell::default(),
    };
    let outcome = match destination {
        Destination::Stdout | Destination::File(_) => {
            let input = &inputs[0];
            match run.convert_to_one(input)? {
                None => Ok(Outcome::Invalid),
                Some(bytes) => {
                    match destination {
                        Destination::File(path) => outputs.write(&path, &bytes)?,
                        _ => write_stdout(&bytes)?,
                    }
                    Ok(Outcome::Ok)
                }
            }
        }
        Destination::Directory(dir) => run.convert_directory(&inputs, &dir, &mut outputs, is_dir),
    };
    run.warnings.borrow().print();
    outcome
}

/// The warnings of a run, each said once with how many records it concerned: converting an
/// archive of 50,000 records to USI would otherwise print the same line 50,000 times.
#[derive(Default)]
struct Warnings {
    /// Each distinct warning (without its `record N: ` prefix), in the order first met, with
    /// where it was first met and how often.
    seen: Vec<(String, String, usize)>,
    index: std::collections::HashMap<String, usize>,
}

impl Warnings {
    fn add(&mut self, name: &str, warning: &str) {
        let text = strip_record_number(warning);
        match self.index.get(text) {
            Some(&at) => self.seen[at].2 += 1,
            None => {
                self.index.insert(text.to_string(), self.seen.len());
                self.seen
                    .push((text.to_string(), format!("{name}: warning: {warning}"), 1));
            }
        }
    }

    fn print(&self) {
        for (text, first, count) in &self.seen {
            if *count == 1 {
                eprintln!("{first}");
            } else {
                eprintln!("warning: {} records: {text}", thousands(*count));
            }
        }
    }
}

/// A writer's warning without the `record N: ` it starts with in a file of several.
fn strip_record_number(warning: &str) -> &str {
    let Some(rest) = warning.strip_prefix("record ") else {
        return warning;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    match rest[digits..].strip_prefix(": ") {
        Some(text) if digits > 0 => text,
        _ => warning,
    }
}

/// `50000` as `50,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

struct Run<'a> {
    game: Option<Game>,
    read: &'a ReadOptions<'a>,
    target: &'a Target,
    /// `--record N`, from 0.
    only: Option<usize>,
    /// What the writers could not hold, summarised at the end of the run.
    warnings: std::cell::RefCell<Warnings>,
}

/// One input read into memory.
struct InputBytes {
    name: String,
    bytes: Vec<u8>,
}

impl Run<'_> {
    fn read_input(&self, input: &Input) -> Result<InputBytes, CliError> {
        let name = input.name();
        let bytes = input
            .read()
            .map_err(|e| crate::inputs::open_error(&name, e))?;
        Ok(InputBytes { name, bytes })
    }

    /// The input through the front door (`crate::games::open`); `None` after its one-line
    /// reason when it fits no format.
    fn open<'a>(&self, file: &InputFile<'a>) -> Option<OpenedFile<'a>> {
        match crate::games::open(file, self.game, self.read) {
            Ok(opened) => Some(opened),
            Err(report) => {
                print_diagnostics(&report);
                None
            }
        }
    }

    /// Every record of a file that the target holds together (CSA, USI lists, NDJSON), read
    /// whole. `None` (after the diagnostics) when the input has errors: a record with errors
    /// is not converted, as its valid part would pass for the whole game.
    fn convert_together(
        &self,
        opened: &OpenedFile<'_>,
        file: &InputFile<'_>,
    ) -> Result<Option<Vec<u8>>, CliError> {
        let name = file.name;
        let target = self.target.of(opened.game).map_err(CliError::Usage)?;
        if target.writes_in_parts {
            return self.convert_in_parts(opened, file);
        }
        let mut loaded = load(opened, file, self.read)?;
        print_diagnostics(&loaded.report);
        if !loaded.report.is_valid() {
            eprintln!(
                "{name}: not converted: {} error(s) in the input",
                loaded.report.errors
            );
            return Ok(None);
        }
        if let Some(n) = self.only {
            loaded.records = loaded.records.pick(n + 1, name)?;
        }
        let count = loaded.records.len();
        let (bytes, warnings) = loaded.records.write(0..count, target)?;
        self.report_warnings(name, &warnings);
        Ok(Some(bytes))
    }

    /// [`Run::convert_together`] for a target written in parts: each record is written as it
    /// is read, so that an archive of any size takes the memory of its text and of the output,
    /// not of every record. One record is held back until the next is read, since a file's
    /// only record may be written otherwise than one of several (chu JSON: an object, not a
    /// line). Nothing is output when a record has errors, as for the whole file. With
    /// `--record N` only that record is read into memory, written and judged, as for a
    /// one-game target.
    fn convert_in_parts(
        &self,
        opened: &OpenedFile<'_>,
        file: &InputFile<'_>,
    ) -> Result<Option<Vec<u8>>, CliError> {
        let game = opened.game;
        let target = self.target.of(game).map_err(CliError::Usage)?;
        let mut parts = kifu_record::Written::default();
        let mut held: Option<Box<dyn RecordBatch>> = None;
        let mut before = 0;
        let mut valid = true;
        let report = stream(
            opened,
            file,
            self.read,
            self.only,
            &mut |_, one, one_valid| {
                valid &= one_valid;
                if !valid {
                    held = None;
                    parts = kifu_record::Written::default();
                    return Ok(());
                }
                if let Some(previous) = held.replace(one) {
                    parts.append(previous.write_part(before, target)?);
                    before += previous.len();
                }
                Ok(())
            },
        )?;
        print_diagnostics(&report);
        let name = file.name;
        let last = match held {
            Some(last) if valid && report.is_valid() => last,
            _ => {
                eprintln!(
                    "{name}: not converted: {} error(s) in the input",
                    report.errors
                );
                return Ok(None);
            }
        };
        let (bytes, warnings) = if before == 0 {
            last.write(0..last.len(), target)?
        } else {
            parts.append(last.write_part(before, target)?);
            game.encode_parts(target, parts)?
        };
        self.report_warnings(name, &warnings);
        Ok(Some(bytes))
    }

    /// The input as one output (a file or standard output). A one-game target takes one
    /// record: several without `--record` are a usage error naming the count.
    fn convert_to_one(&self, input: &Input) -> Result<Option<Vec<u8>>, CliError> {
        let read = self.read_input(input)?;
        let name = &read.name;
        let file = InputFile {
            name,
            path: input.path.as_deref(),
            bytes: &read.bytes,
        };
        let Some(opened) = self.open(&file) else {
            return Ok(None);
        };
        let target = self.target.of(opened.game).map_err(CliError::Usage)?;
        if target.holds_many {
            return self.convert_together(&opened, &file);
        }
        let mut first = None;
        let mut count = 0;
        let mut all_valid = true;
        let report = stream(
            &opened,
            &file,
            self.read,
            self.only,
            &mut |_, one, valid| {
                count += 1;
                all_valid &= valid;
                if first.is_none() && valid {
                    first = Some(one.write(0..1, target)?);
                }
                Ok(())
            },
        )?;
        if count > 1 {
            return Err(CliError::usage(format!(
                "{name} holds {count} records and {} holds one game per file: write them to a \
                 directory (-o DIR/) for one file each, or pick one with --record N (1 to {count})",
                self.target.name
            )));
        }
        print_diagnostics(&report);
        match first {
            Some((bytes, warnings)) if all_valid && report.is_valid() => {
                self.report_warnings(name, &warnings);
                Ok(Some(bytes))
            }
            _ => {
                eprintln!(
                    "{name}: not converted: {} error(s) in the input",
                    report.errors
                );
                Ok(None)
            }
        }
    }

    fn convert_directory(
        &self,
        inputs: &[Input],
        dir: &Path,
        outputs: &mut Outputs,
        walked: bool,
    ) -> Result<Outcome, CliError> {
        // Name every output before writing any, so that names do not depend on which
        // conversion finishes first and colliding inputs are all told apart the same way.
        let mut planned: Vec<(PathBuf, &Input)> = Vec::new();
        for input in inputs {
            // Named by the file's name before any file is read, so that names do not depend
            // on the order of conversion; the game its bytes show may change the extension
            // when the file is converted (`Run::convert_into`). A game without the target
            // gives way to one that has it: a directory of chu `.kif` files to `--to csl`.
            let by_name = self
                .game
                .unwrap_or_else(|| Game::detect(input.path.as_deref(), &[]));
            let ext = std::iter::once(by_name)
                .chain(self.target.games())
                .find_map(|g| self.target.of(g).ok())
                .map(|f| f.extension)
                .ok_or_else(|| {
                    CliError::Usage(format!("no game has the format `{}`", self.target.name))
                })?;
            let relative = if walked {
                input.relative()
            } else {
                PathBuf::from(
                    input
                        .path
                        .as_deref()
                        .and_then(Path::file_name)
                        .unwrap_or("stdin".as_ref()),
                )
            };
            planned.push((dir.join(relative).with_extension(ext), input));
        }
        let mut by_name: BTreeMap<&Path, usize> = BTreeMap::new();
        for (path, _) in &planned {
            *by_name.entry(path.as_path()).or_default() += 1;
        }
        // Why an output cannot have its plain name, if it cannot.
        let clashing: Vec<Option<String>> = planned
            .iter()
            .map(|(path, _)| {
                let shared = by_name[path.as_path()];
                if shared > 1 {
                    Some(format!(
                        "{shared} inputs of this run would become {}",
                        path.display()
                    ))
                } else if !outputs.is_free(path) {
                    Some(format!("{} is an input of this run", path.display()))
                } else {
                    None
                }
            })
            .collect();
        let mut converted = 0;
        let mut failed = 0;
        let mut written = 0;
        for ((wanted, input), clash) in planned.iter().zip(clashing) {
            let name = input.name();
            let wanted = if clash.is_some() {
                // game.kif → game.kif.kifu: the input's own name tells the outputs apart.
                let own = input
                    .path
                    .as_deref()
                    .and_then(Path::file_name)
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "stdin".into());
                let ext = wanted.extension().unwrap_or_default().to_string_lossy();
                wanted.with_file_name(format!("{own}.{ext}"))
            } else {
                wanted.clone()
            };
            match self.convert_into(input, &wanted, outputs) {
                Ok(done) => {
                    converted += 1;
                    written += done.files;
                    if let (Some(why), Some(first)) = (&clash, &done.first) {
                        eprintln!("{name}: note: {why}; written as {}", first.display());
                    }
                }
                Err(e) => {
                    failed += 1;
                    if let CliError::Usage(_) = e {
                        return Err(e);
                    }
                    eprintln!("{name}: error: {e}");
                }
            }
        }
        let kept = match outputs.kept() {
            0 => String::new(),
            n => format!(", {n} of them kept as they were"),
        };
        eprintln!(
            "converted {converted} of {} files ({written} written into {}{kept}), {failed} failed",
            inputs.len(),
            dir.display()
        );
        Ok(if failed == 0 {
            Outcome::Ok
        } else {
            Outcome::Invalid
        })
    }

    /// Converts one input into `wanted`, or for several records of a one-game format into
    /// `wanted`-1, -2, … (each written as soon as it is converted, so that an archive of any
    /// size is split in bounded memory). Returns the paths written; an input with errors
    /// writes nothing of its erroneous records and fails.
    fn convert_into(
        &self,
        input: &Input,
        wanted: &Path,
        outputs: &mut Outputs,
    ) -> Result<Written, CliError> {
        let read = self.read_input(input)?;
        let name = read.name.clone();
        let file = InputFile {
            name: &name,
            path: input.path.as_deref(),
            bytes: &read.bytes,
        };
        let Some(opened) = self.open(&file) else {
            return Err(CliError::Failed(
                "not converted: its format is not known".into(),
            ));
        };
        // The game the bytes show decides the extension, and whether the target exists
        // for it: a file of another game than its name suggested is converted all the same,
        // or named with the reason, while the rest of the directory goes on.
        let target = self
            .target
            .of(opened.game)
            .map_err(|why| CliError::Failed(format!("not converted: {why}")))?;
        let ext = target.extension;
        let renamed;
        let wanted = if wanted.extension().and_then(|e| e.to_str()) == Some(ext) {
            wanted
        } else {
            renamed = wanted.with_extension(ext);
            renamed.as_path()
        };
        if target.holds_many {
            let Some(bytes) = self.convert_together(&opened, &file)? else {
                return Err(CliError::Failed("the input has errors".into()));
            };
            let mut split = Split::new(&name, wanted, outputs);
            split.write(None, bytes)?;
            return Ok(split.done());
        }
        let mut split = Split::new(&name, wanted, outputs);
        let mut failed = 0;
        let report = stream(
            &opened,
            &file,
            self.read,
            self.only,
            &mut |index, one, valid| {
                let bytes = if valid {
                    let (bytes, warnings) = one.write(0..1, target)?;
                    self.report_warnings(&format!("{name} record {}", index + 1), &warnings);
                    Some(bytes)
                } else {
                    failed += 1;
                    None
                };
                split.record(index, bytes)
            },
        )?;
        print_diagnostics(&report);
        let count = split.seen;
        let done = split.finish(self.only.is_some())?;
        if count > 1
            && let Some(first) = &done.first
        {
            eprintln!(
                "{name}: note: {count} records, one file each: {} …",
                first.display()
            );
        }
        if failed > 0 || !report.is_valid() {
            return Err(CliError::Failed(format!(
                "{failed} of {count} records not converted: they have errors"
            )));
        }
        Ok(done)
    }
}

/// What one input became: the first file written (for notes) and how many.
struct Written {
    first: Option<PathBuf>,
    files: usize,
}

/// The output files of one input, named once it is known whether there are several.
struct Split<'a> {
    name: &'a str,
    wanted: &'a Path,
    outputs: &'a mut Outputs,
    /// Only the first path and a count are kept: an archive may be split into 100,000 files.
    first: Option<PathBuf>,
    files: usize,
    /// The first record's output, held until a second record shows whether it is `NAME.ext`
    /// or `NAME-1.ext`.
    held: Option<(usize, Option<Vec<u8>>)>,
    seen: usize,
}

impl<'a> Split<'a> {
    fn new(name: &'a str, wanted: &'a Path, outputs: &'a mut Outputs) -> Split<'a> {
        Split {
            name,
            wanted,
            outputs,
            first: None,
            files: 0,
            held: None,
            seen: 0,
        }
    }

    /// Record `index` (from 0) converted, or `None` if it could not be.
    fn record(&mut self, index: usize, bytes: Option<Vec<u8>>) -> Result<(), CliError> {
        self.seen += 1;
        if self.seen == 1 {
            self.held = Some((index, bytes));
            return Ok(());
        }
        if let Some((first, held)) = self.held.take()
            && let Some(held) = held
        {
            self.write(Some(first), held)?;
        }
        match bytes {
            Some(bytes) => self.write(Some(index), bytes),
            None => Ok(()),
        }
    }

    /// Writes what is held: a lone record (or the one `--record` chose) gets the plain name.
    fn finish(mut self, chosen: bool) -> Result<Written, CliError> {
        if let Some((index, Some(bytes))) = self.held.take() {
            let suffix = (self.seen > 1 && !chosen).then_some(index);
            self.write(suffix, bytes)?;
        }
        Ok(self.done())
    }

    fn done(self) -> Written {
        Written {
            first: self.first,
            files: self.files,
        }
    }

    fn write(&mut self, index: Option<usize>, bytes: Vec<u8>) -> Result<(), CliError> {
        let wanted = match index {
            Some(i) => numbered(self.wanted, &(i + 1).to_string()),
            None => self.wanted.to_path_buf(),
        };
        let (path, renamed) = self.outputs.claim(wanted);
        if renamed {
            eprintln!(
                "{}: note: another output of this run is already named so; written as {}",
                self.name,
                path.display()
            );
        }
        self.outputs.write(&path, &bytes)?;
        self.files += 1;
        if self.first.is_none() {
            self.first = Some(path);
        }
        Ok(())
    }
}

fn print_diagnostics(report: &crate::report::FileReport) {
    for d in &report.diagnostics {
        eprintln!("{}", d.rendered);
    }
}

impl Run<'_> {
    fn report_warnings(&self, name: &str, warnings: &[String]) {
        let mut tally = self.warnings.borrow_mut();
        for w in warnings {
            tally.add(name, w);
        }
    }
}

fn write_stdout(bytes: &[u8]) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::Failed(format!("standard output: {e}")))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_met_in_many_records_is_counted_once() {
        let mut w = Warnings::default();
        for i in 1..=50_000 {
            w.add(
                "a.csa",
                &format!("record {i}: USI cannot hold times, the header; dropped"),
            );
        }
        w.add("a.csa", "record 3: USI cannot hold the header; dropped");
        assert_eq!(w.seen.len(), 2);
        assert_eq!(w.seen[0].0, "USI cannot hold times, the header; dropped");
        assert_eq!(w.seen[0].2, 50_000);
        assert_eq!(
            w.seen[1].1,
            "a.csa: warning: record 3: USI cannot hold the header; dropped"
        );
        assert_eq!(thousands(50_000), "50,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(strip_record_number("record x: y"), "record x: y");
    }
}
