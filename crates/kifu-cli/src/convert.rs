use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use kifu_shogi::formats::csa::CsaVersion;

use crate::Outcome;
use crate::error::CliError;
use crate::games::{Game, GameArg, Loaded, ReadOptions, Target};
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
    #[arg(long, value_enum, default_value_t = GameArg::Auto)]
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
    #[arg(long)]
    force: bool,
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
    let game = Game::from_arg(args.game);
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
    let target = Target {
        format: &to,
        csa_version: if args.csa_version == "2.2" {
            CsaVersion::V22
        } else {
            CsaVersion::V30
        },
    };
    let inputs = if is_dir {
        expand(std::slice::from_ref(&args.input), Game::filter(game))?.0
    } else {
        vec![Input::from_arg(&args.input)]
    };
    let mut outputs = Outputs::new(&inputs, args.force);
    let run = Run {
        game,
        read: &read,
        target: &target,
        record: args.record,
    };
    match destination {
        Destination::Stdout | Destination::File(_) => {
            let input = &inputs[0];
            let Some((loaded, _)) = run.load(input)? else {
                return Ok(Outcome::Invalid);
            };
            let written = run.write_one_file(&input.name(), &loaded)?;
            report_warnings(&input.name(), &written.1);
            match destination {
                Destination::File(path) => outputs.write(&path, &written.0)?,
                _ => write_stdout(&written.0)?,
            }
            Ok(Outcome::Ok)
        }
        Destination::Directory(dir) => run.into_directory(&inputs, &dir, &mut outputs, is_dir),
    }
}

struct Run<'a> {
    game: Option<Game>,
    read: &'a ReadOptions<'a>,
    target: &'a Target<'a>,
    record: Option<usize>,
}

impl Run<'_> {
    /// Reads one input and prints what reading found. `None` when it has errors: a record
    /// with errors is not converted (its valid part would pass for the whole game).
    fn load(&self, input: &Input) -> Result<Option<(Loaded, usize)>, CliError> {
        let name = input.name();
        let bytes = input.read().map_err(|e| format!("{name}: {e}"))?;
        let path = input.path.as_deref();
        let game = self
            .game
            .or_else(|| Game::detect(path, &bytes))
            .ok_or_else(|| format!("{name}: cannot tell which game this is; use --game"))?;
        let mut loaded = crate::games::load(game, &name, path, self.read, &bytes)?;
        for d in &loaded.report.diagnostics {
            eprintln!("{}", d.rendered);
        }
        if !loaded.report.is_valid() {
            eprintln!(
                "{name}: not converted: {} error(s) in the input",
                loaded.report.errors
            );
            return Ok(None);
        }
        if let Some(n) = self.record {
            loaded.records = loaded.records.pick(n, &name)?;
        }
        let count = loaded.records.len();
        Ok(Some((loaded, count)))
    }

    /// All the records as one file: a usage error when the target holds one game and there
    /// are several (the user must choose one, or a directory).
    fn write_one_file(
        &self,
        name: &str,
        loaded: &Loaded,
    ) -> Result<(Vec<u8>, Vec<String>), CliError> {
        let count = loaded.records.len();
        if count > 1 && !loaded.records.target_holds_many(self.target)? {
            return Err(CliError::usage(format!(
                "{name} holds {count} records and {} holds one game per file: write them to a \
                 directory (-o DIR/) for one file each, or pick one with --record N (1 to {count})",
                self.target.format
            )));
        }
        loaded.records.write(0..count, self.target)
    }

    fn into_directory(
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
            let game = self
                .game
                .or_else(|| Game::detect(input.path.as_deref(), &[]))
                .unwrap_or(Game::Shogi);
            let ext = crate::games::target_extension(game, self.target).map_err(CliError::Usage)?;
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
                Ok(paths) => {
                    converted += 1;
                    written += paths.len();
                    if let (Some(why), Some(first)) = (&clash, paths.first()) {
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
        eprintln!(
            "converted {converted} of {} files ({written} written into {}), {failed} failed",
            inputs.len(),
            dir.display()
        );
        Ok(if failed == 0 {
            Outcome::Ok
        } else {
            Outcome::Invalid
        })
    }

    /// Converts one input into `wanted` (or `wanted`-1, -2, … for several records of a one-game
    /// format) and returns the paths written.
    fn convert_into(
        &self,
        input: &Input,
        wanted: &Path,
        outputs: &mut Outputs,
    ) -> Result<Vec<PathBuf>, CliError> {
        let name = input.name();
        let Some((loaded, count)) = self.load(input)? else {
            return Err(CliError::Failed("the input has errors".into()));
        };
        let records = &loaded.records;
        let one_file = count <= 1 || records.target_holds_many(self.target)?;
        let mut files = Vec::new();
        if one_file {
            let (bytes, warnings) = records.write(0..count, self.target)?;
            report_warnings(&name, &warnings);
            files.push((wanted.to_path_buf(), bytes));
        } else {
            let width = count.to_string().len();
            for i in 0..count {
                let (bytes, warnings) = records.write(i..i + 1, self.target)?;
                report_warnings(&format!("{name} record {}", i + 1), &warnings);
                files.push((numbered(wanted, &format!("{:0width$}", i + 1)), bytes));
            }
            eprintln!(
                "{name}: note: {count} records, one file each: {} …",
                files[0].0.display()
            );
        }
        let mut paths = Vec::new();
        for (path, bytes) in files {
            let (path, renamed) = outputs.claim(path.clone());
            if renamed {
                eprintln!(
                    "{name}: note: another output of this run is already named so; written as {}",
                    path.display()
                );
            }
            outputs.write(&path, &bytes)?;
            paths.push(path);
        }
        Ok(paths)
    }
}

fn report_warnings(name: &str, warnings: &[String]) {
    for w in warnings {
        eprintln!("{name}: warning: {w}");
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
