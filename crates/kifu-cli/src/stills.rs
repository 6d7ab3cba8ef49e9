//! `kifu render FILES… -o DIR/`: a picture per record, or per ply with `--ply all`, for many
//! files. Files are read one at a time on each worker thread and every picture is written as
//! soon as it is made, so memory follows the largest file, not the directory.
//!
//! Names are predictable: the file's path under the directory argument with `/` as `_`, then
//! `-R` for record R of a file holding several, then `-PPP` (the ply, three digits or more)
//! with `--ply all`: `games_2024_ryuo-1-080.png`.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;

use crate::Outcome;
use crate::error::CliError;
use crate::games::{Game, InputFile};
use crate::inputs::Input;
use crate::output::Outputs;
use crate::render::{Args, PlyChoice, Still, check_scale, finish};

/// Whether `kifu render` was asked for many pictures: several inputs, a directory, every
/// ply, or an output named as a directory.
pub fn is_batch(args: &Args) -> bool {
    let out = args.output.as_os_str().to_string_lossy();
    args.inputs.len() > 1
        || args.inputs.iter().any(|p| p.is_dir())
        || args.ply == Some(PlyChoice::All)
        || out.ends_with('/')
        || out.ends_with(std::path::MAIN_SEPARATOR)
        || args.output.is_dir()
}

/// The name of a picture of `input`, before collisions are settled.
fn picture_name(input: &Input, still: &Still, every_ply: bool, extension: &str) -> String {
    let path = input.path.as_deref().unwrap_or(Path::new("stdin"));
    let relative = match &input.root {
        Some(root) => path.strip_prefix(root).unwrap_or(path).to_path_buf(),
        None => PathBuf::from(path.file_name().unwrap_or(path.as_os_str())),
    };
    let relative = relative.with_extension("");
    let mut name = relative.to_string_lossy().replace(['/', '\\'], "_");
    if still.records > 1 {
        name.push_str(&format!("-{}", still.record + 1));
    }
    if every_ply {
        name.push_str(&format!("-{:03}", still.ply));
    }
    format!("{name}.{extension}")
}

pub fn run(args: &Args) -> Result<Outcome, CliError> {
    check_scale(args)?;
    if args.output.as_os_str() == "-" {
        return Err(CliError::usage(
            "several pictures need -o DIR/, the directory to write them into",
        ));
    }
    if args.animate {
        return Err(CliError::usage(
            "--animate makes one animation of one record; give one file and -o NAME.gif",
        ));
    }
    if args.record.is_some() {
        return Err(CliError::usage(
            "--record picks one record of one file; several pictures draw every record",
        ));
    }
    let game = Game::from_arg(&args.game);
    crate::games::validate(game, &args.read_options(), None)?;
    let (inputs, _skipped) = crate::inputs::expand(&args.inputs, Game::filter(game))?;
    if inputs.is_empty() {
        return Err(CliError::Failed("no record files found".to_string()));
    }
    if inputs.iter().filter(|i| i.path.is_none()).count() > 1 {
        return Err(CliError::usage("standard input (-) can be read once"));
    }
    std::fs::create_dir_all(&args.output)
        .map_err(|e| CliError::Failed(format!("{}: {e}", args.output.display())))?;
    let options = kifu_render::Options {
        flip: args.flip,
        scale: args.scale,
        caption: args.caption,
        lang: args.lang.into(),
    };
    let every_ply = args.ply == Some(PlyChoice::All);
    let ply = match args.ply {
        Some(PlyChoice::One(n)) => Some(n),
        Some(PlyChoice::All) => None,
        None => Some(-1),
    };
    let extension = if args.svg { "svg" } else { "png" };
    let outputs = Mutex::new(Outputs::new(&inputs, args.force));
    let progress = crate::inputs::file_progress(inputs.len());
    let outcomes: Vec<Result<Outcome, CliError>> = inputs
        .par_iter()
        .map(|input| {
            let outcome = one_file(input, args, &options, ply, every_ply, extension, &outputs);
            progress.inc(1);
            outcome
        })
        .collect();
    progress.finish_and_clear();
    let mut outcome = Outcome::Ok;
    for result in outcomes {
        match result {
            Ok(Outcome::Ok) => {}
            Ok(Outcome::Invalid) => outcome = Outcome::Invalid,
            // A file that cannot be read or drawn is reported; the others are still drawn.
            Err(e) => {
                eprintln!("{e}");
                outcome = Outcome::Invalid;
            }
        }
    }
    Ok(outcome)
}

/// The pictures of one file, each written as it is made.
fn one_file(
    input: &Input,
    args: &Args,
    options: &kifu_render::Options,
    ply: Option<i64>,
    every_ply: bool,
    extension: &str,
    outputs: &Mutex<Outputs>,
) -> Result<Outcome, CliError> {
    let name = input.name();
    let bytes = input
        .read()
        .map_err(|e| crate::inputs::open_error(&name, e))?;
    let file = InputFile {
        name: &name,
        path: input.path.as_deref(),
        bytes: &bytes,
    };
    let read = args.read_options();
    let opened = match crate::games::open(&file, Game::from_arg(&args.game), &read) {
        Ok(opened) => opened,
        Err(report) => return Ok(finish(&report)),
    };
    // Pictures are named `-R` after their record only when the file holds several, so the
    // file's records are read before any is drawn (as many as `kifu convert` holds for one
    // file); a record with errors gets no picture.
    let mut read_records = Vec::new();
    let report = crate::games::stream(&opened, &file, &read, None, &mut |_, one, valid| {
        read_records.push(valid.then_some(one));
        Ok(())
    })?;
    let records = read_records.len();
    let mut missing: Vec<char> = Vec::new();
    for (record, batch) in read_records.into_iter().enumerate() {
        let Some(batch) = batch else { continue };
        let wanted = match ply {
            None => None,
            Some(ply) => match crate::ply::resolve_ply(Some(ply), batch.main_line_len()) {
                Ok(n) => Some(n),
                Err(e) => {
                    let which = if records > 1 {
                        format!(" record {}", record + 1)
                    } else {
                        String::new()
                    };
                    eprintln!("warning: {name}{which}: {e}; no picture");
                    continue;
                }
            },
        };
        batch.stills(wanted, options, &mut |ply, drawing| {
            for c in &drawing.missing {
                if !missing.contains(c) {
                    missing.push(*c);
                }
            }
            let still = Still {
                record,
                records,
                ply,
                drawing,
            };
            let wanted = args
                .output
                .join(picture_name(input, &still, every_ply, extension));
            let (target, _) = outputs
                .lock()
                .map_err(|_| CliError::Failed("a drawing thread failed".to_string()))?
                .claim(wanted);
            let bytes = if args.svg {
                still.drawing.svg.into_bytes()
            } else {
                kifu_render::png(&still.drawing.svg)
                    .map_err(|e| CliError::Failed(format!("{name}: {e}")))?
            };
            crate::output::write_atomically(&target, &bytes, args.force).map_err(CliError::Failed)
        })?;
    }
    if !missing.is_empty() {
        eprint!("{name}: ");
        crate::render::warn_font_lacks(
            &missing,
            if args.svg {
                "the SVG writes them in the viewer's serif font"
            } else {
                "the PNG leaves them out"
            },
        );
    }
    Ok(finish(&report))
}
