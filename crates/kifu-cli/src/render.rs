//! `kifu render`: a picture (SVG or PNG) of a record's position after some moves; and the
//! table of pictured games that `kifu html` and `kifu show --svg` share.
//!
//! A file is read as every command reads it: opened by the front door and read by its game's
//! driver (`crate::games`), so `--game`, `--format`, `--rules`, `--record` and `--ply` mean
//! what they mean in `kifu show`; the drawing is `kifu_render`'s, written once for every game
//! ([`kifu_render::Picture`]).

use std::path::PathBuf;

use crate::Outcome;
use crate::error::CliError;
use crate::games::{Game, GameArg, InputFile, ReadOptions, RecordBatch};
use crate::inputs::Input;
use crate::report::FileReport;

#[derive(clap::Args)]
pub struct Args {
    /// Record file; `-` reads standard input. Several files or directories make a picture
    /// per record (or per ply, with `--ply all`) in the directory `-o` names.
    #[arg(value_name = "FILE", required = true, num_args = 1..)]
    pub(crate) inputs: Vec<PathBuf>,
    /// The picture to write: `.svg` or `.png` by its extension; `-` writes SVG to standard
    /// output. For several records, a directory (`DIR/`), made if missing.
    #[arg(short, long, value_name = "PICTURE|DIR")]
    pub(crate) output: PathBuf,
    /// Draw the position after this many moves of the main line; negative counts from the
    /// end (-1, the default, is the last position); `all` draws every position, a picture
    /// each, into the directory `-o` names.
    #[arg(
        long,
        value_name = "N|all",
        allow_negative_numbers = true,
        value_parser = PlyChoice::parse,
        conflicts_with = "animate"
    )]
    pub(crate) ply: Option<PlyChoice>,
    /// In a directory of pictures: write SVG rather than PNG.
    #[arg(long)]
    pub(crate) svg: bool,
    /// Write the main line as an animation, one frame per position, the last move marked and
    /// captioned: a GIF (`-o NAME.gif`, and on standard output) or an animated PNG
    /// (`-o NAME.apng` or `NAME.png`).
    #[arg(long)]
    pub(crate) animate: bool,
    /// With --animate: the first position shown, in moves from the start (negative counts
    /// from the end); 0, the start, by default.
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        requires = "animate"
    )]
    from_ply: Option<i64>,
    /// With --animate: the last position shown; -1, the end, by default.
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        requires = "animate"
    )]
    to_ply: Option<i64>,
    /// With --animate: how long each position is shown, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000, requires = "animate")]
    delay: u32,
    /// With --animate: how long the last position is shown before the animation starts
    /// again, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 4000, requires = "animate")]
    last_delay: u32,
    /// Write a caption under the board: the move number, the last move, its player and the
    /// evaluation a comment gives (`80手目 △６三銀`). An animation always has one.
    #[arg(long)]
    pub(crate) caption: bool,
    /// The language of the picture's words: `ja` (kanji pieces, 一…九, `80手目 △６三銀`) or
    /// `en` (Western piece letters, ranks a…i, `Move 80 ☖ S7b-6c`).
    #[arg(long, value_enum, default_value_t = Lang::Ja)]
    pub(crate) lang: Lang,
    /// The record to draw when the file holds several (counted from 1).
    #[arg(long, value_name = "N")]
    pub(crate) record: Option<usize>,
    /// Turn the board round: the second player at the bottom.
    #[arg(long)]
    pub(crate) flip: bool,
    /// Pixels per square relative to the default size (48 pixels; 40 for chu's 12×12 board).
    #[arg(long, value_name = "FACTOR", default_value_t = 1.0)]
    pub(crate) scale: f32,
    /// Replace the picture if it exists.
    #[arg(long)]
    pub(crate) force: bool,
    /// Format of the input when its extension does not tell.
    #[arg(long, visible_alias = "from", value_name = "FORMAT")]
    pub(crate) format: Option<String>,
    /// Cetkaik rule set for records that do not name one.
    #[arg(long, value_name = "RULES")]
    pub(crate) rules: Option<String>,
    /// The game the record is of.
    #[arg(long, value_parser = GameArg::parser(), default_value = "auto")]
    pub(crate) game: GameArg,
}

/// `--lang`: one language per picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// Japanese, as Japanese programs draw.
    Ja,
    /// English, with Western labels and piece letters.
    En,
}

impl From<Lang> for kifu_render::Lang {
    fn from(lang: Lang) -> kifu_render::Lang {
        match lang {
            Lang::Ja => kifu_render::Lang::Ja,
            Lang::En => kifu_render::Lang::En,
        }
    }
}

/// Which positions `--ply` draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlyChoice {
    /// Every position of the main line.
    All,
    /// The position after this many moves (negative: from the end).
    One(i64),
}

impl PlyChoice {
    fn parse(text: &str) -> Result<PlyChoice, String> {
        if text == "all" {
            return Ok(PlyChoice::All);
        }
        text.parse().map(PlyChoice::One).map_err(|_| {
            format!("`{text}`: give a number of moves (negative from the end) or `all`")
        })
    }
}

/// One picture of a batch: command record `record` (from 0) of a file's `records`, after
/// `ply` moves (as `--ply` counts them).
pub struct Still {
    pub record: usize,
    pub records: usize,
    pub ply: usize,
    pub drawing: kifu_render::Drawing,
}

/// Command record `record` (from 0) of `input`, read through the one driver table as `kifu
/// show` reads it (`--game`, `--format`, `--rules`, `--record` mean the same), with the
/// file's report; `None` when the file cannot be opened, holds no such record, or the record
/// has errors (the report says which): nothing is drawn of a record kifu did not read.
pub fn one_record(
    input: &Input,
    game: Option<Game>,
    read: &ReadOptions<'_>,
    record: usize,
) -> Result<(Option<Box<dyn RecordBatch>>, FileReport), CliError> {
    let name = input.name();
    let bytes = input
        .read()
        .map_err(|e| crate::inputs::open_error(&name, e))?;
    let file = InputFile {
        name: &name,
        path: input.path.as_deref(),
        bytes: &bytes,
    };
    let opened = match crate::games::open(&file, game, read) {
        Ok(opened) => opened,
        Err(report) => return Ok((None, report)),
    };
    let mut chosen = None;
    let report = crate::games::stream(&opened, &file, read, Some(record), &mut |_, one, _| {
        chosen = Some(one);
        Ok(())
    })?;
    Ok((chosen.filter(|_| report.is_valid()), report))
}

/// The picture for `kifu render` and `kifu show --svg`, with the report of the file: `None`
/// for an input with errors.
pub fn svg_of_input(
    input: &Input,
    game: Option<Game>,
    read: &ReadOptions<'_>,
    record: Option<usize>,
    ply: Option<i64>,
    options: &kifu_render::Options,
) -> Result<(Option<kifu_render::Drawing>, FileReport), CliError> {
    let record = crate::games::record_index(record)?.unwrap_or(0);
    let (chosen, report) = one_record(input, game, read, record)?;
    let Some(records) = chosen else {
        return Ok((None, report));
    };
    let ply = crate::ply::resolve_ply(ply, records.main_line_len())?;
    Ok((records.draw(ply, options), report))
}

/// Says which characters of a picture's text the embedded font lacks: a PNG leaves them out,
/// an SVG writes them in the viewer's serif font. The picture is made all the same.
pub fn warn_missing_glyphs(drawing: &kifu_render::Drawing, png: bool) {
    let fate = if png {
        "the PNG leaves them out"
    } else {
        "the SVG writes them in the viewer's serif font"
    };
    warn_font_lacks(&drawing.missing, fate);
}

/// Says which characters the embedded font lacks (`missing`) and what becomes of them.
pub fn warn_font_lacks(missing: &[char], fate: &str) {
    if missing.is_empty() {
        return;
    }
    let listed: Vec<String> = missing
        .iter()
        .map(|c| format!("{c} (U+{:04X})", u32::from(*c)))
        .collect();
    eprintln!(
        "warning: the embedded font has no glyph for {}; {fate}",
        listed.join(", ")
    );
}

/// Prints what reading found and says whether the file was valid.
pub fn finish(report: &FileReport) -> Outcome {
    for d in &report.diagnostics {
        eprintln!("{}", d.rendered);
    }
    if report.is_valid() {
        Outcome::Ok
    } else {
        Outcome::Invalid
    }
}

impl Args {
    /// How the inputs are read: as every command reads them.
    pub(crate) fn read_options(&self) -> ReadOptions<'_> {
        ReadOptions {
            format: self.format.as_deref(),
            rules: self.rules.as_deref(),
        }
    }
}

/// `--scale` within what a picture can be drawn at; batch stills (`stills::run`) ask it too.
pub fn check_scale(args: &Args) -> Result<(), CliError> {
    if !(args.scale > 0.0 && args.scale <= 16.0) {
        return Err(CliError::usage(
            "--scale: give a factor above 0, at most 16",
        ));
    }
    Ok(())
}

/// One picture, or an animation, of one record. Several inputs or `--ply all` into a
/// directory are batch stills, which `main` hands to `stills::run` instead.
pub fn run(args: Args) -> Result<Outcome, CliError> {
    check_scale(&args)?;
    crate::games::validate(Game::from_arg(&args.game), &args.read_options(), None)?;
    let to_stdout = args.output.as_os_str() == "-";
    let extension = args
        .output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let input = Input::from_arg(&args.inputs[0]);
    // After the check of the picture's extension: a record's own name has the wrong one.
    let refuse_the_input = || {
        if !to_stdout && input.path.as_deref() == Some(args.output.as_path()) {
            return Err(CliError::usage(
                "-o names the input file; a picture never replaces its record",
            ));
        }
        Ok(())
    };
    let options = kifu_render::Options {
        flip: args.flip,
        scale: args.scale,
        caption: args.caption || args.animate,
        lang: args.lang.into(),
    };
    if args.animate {
        let kind = if to_stdout {
            kifu_render::animate::Kind::Gif
        } else {
            match extension
                .as_deref()
                .and_then(kifu_render::animate::Kind::from_extension)
            {
                Some(kind) => kind,
                None => {
                    return Err(CliError::usage(format!(
                        "-o {}: an animation is a GIF or an animated PNG; give a name ending in \
                         .gif, .apng or .png, or - for a GIF on standard output",
                        args.output.display()
                    )));
                }
            }
        };
        refuse_the_input()?;
        return animate(&args, kind, &input, &options);
    }
    let png = match extension.as_deref() {
        _ if to_stdout => false,
        Some("svg") => false,
        Some("png") => true,
        _ => {
            return Err(CliError::usage(format!(
                "-o {}: give a picture name ending in .svg or .png, or - for SVG on standard output",
                args.output.display()
            )));
        }
    };
    refuse_the_input()?;
    let (drawing, report) = svg_of_input(
        &input,
        Game::from_arg(&args.game),
        &args.read_options(),
        args.record,
        match args.ply {
            Some(PlyChoice::One(n)) => Some(n),
            _ => None,
        },
        &options,
    )?;
    // A picture of a board kifu did not read is worse than none: an input with errors gets
    // its report and no picture.
    let Some(drawing) = drawing else {
        return Ok(finish(&report));
    };
    warn_missing_glyphs(&drawing, png);
    let bytes = if png {
        kifu_render::png(&drawing.svg).map_err(|e| CliError::Failed(e.to_string()))?
    } else {
        drawing.svg.into_bytes()
    };
    write_picture(&args, to_stdout, &bytes)?;
    Ok(finish(&report))
}

/// `kifu render --animate`: the main line (or `--from-ply`…`--to-ply` of it) as a GIF or an
/// animated PNG.
fn animate(
    args: &Args,
    kind: kifu_render::animate::Kind,
    input: &Input,
    options: &kifu_render::Options,
) -> Result<Outcome, CliError> {
    let to_stdout = args.output.as_os_str() == "-";
    let timing = kifu_render::animate::Timing {
        delay_ms: args.delay,
        last_delay_ms: args.last_delay,
    };
    let record = crate::games::record_index(args.record)?.unwrap_or(0);
    let (chosen, report) = one_record(
        input,
        Game::from_arg(&args.game),
        &args.read_options(),
        record,
    )?;
    let Some(records) = chosen else {
        return Ok(finish(&report));
    };
    let moves = records.main_line_len();
    let first = crate::ply::ply_in_line("--from-ply", args.from_ply.unwrap_or(0), moves)?;
    let last = crate::ply::ply_in_line("--to-ply", args.to_ply.unwrap_or(-1), moves)?;
    if first > last {
        return Err(CliError::usage(format!(
            "--from-ply {first} comes after --to-ply {last}"
        )));
    }
    let mut bytes = Vec::new();
    let made = records.animate(kind, first..=last, options, &timing, &mut bytes)?;
    warn_font_lacks(&made.missing, "the animation leaves them out");
    write_picture(args, to_stdout, &bytes)?;
    Ok(finish(&report))
}

/// Writes a picture to `-o`: standard output, or a file put in place whole.
fn write_picture(args: &Args, to_stdout: bool, bytes: &[u8]) -> Result<(), CliError> {
    if to_stdout {
        use std::io::Write;
        std::io::stdout()
            .write_all(bytes)
            .map_err(|e| CliError::Failed(format!("standard output: {e}")))?;
    } else {
        crate::output::write_atomically(&args.output, bytes, args.force)?;
    }
    Ok(())
}
