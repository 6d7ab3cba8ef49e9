//! `kifu render`: a picture (SVG or PNG) of a record's position after some moves; and the
//! table of pictured games that `kifu html` and `kifu show --svg` share.
//!
//! The game of a file is found by the games table ([`crate::games::Game::detect`]); the
//! drawing is `kifu_render`'s, written once for every game ([`kifu_render::Picture`]).

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use kifu_record::{NodeId, Record, SourceText};
use kifu_render::Picture;

use crate::Outcome;
use crate::error::CliError;
use crate::games::{Game, GameArg, ReadOptions};
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

/// The records of one file, read through the game's formats.
pub struct FileRecords<G: kifu_record::Game> {
    pub text: String,
    pub records: Vec<Record<G>>,
    /// What reading found in each record, as reports print it.
    pub problems: Vec<Vec<String>>,
    /// Whether each record was read without errors (the file's decoding included).
    pub valid: Vec<bool>,
    pub report: FileReport,
}

/// What a pictured game needs: its pictures and the records layer's table of formats.
pub trait Readable: Picture + kifu_records::GameRecords {}

impl<G: Picture + kifu_records::GameRecords> Readable for G {}

/// Reads every record of a file of game `G`.
pub fn read_file<G: Readable>(
    name: &str,
    path: Option<&Path>,
    bytes: &[u8],
    format: Option<&str>,
) -> Result<FileRecords<G>, CliError> {
    // The front door of the records layer decodes and judges the format, as for every
    // command; the game is this viewer's.
    let request = kifu_records::open::Request {
        path,
        game: kifu_records::detect::GameKind::by_name(G::NAME),
        format,
    };
    let opened = match kifu_records::open::open(bytes, &request) {
        Ok(opened) => opened,
        Err(kifu_records::open::OpenError::UnknownFormat { .. }) => {
            return Err(CliError::usage(format!(
                "--format: not a {} format; see `kifu convert --help`",
                G::NAME
            )));
        }
        Err(e) => {
            let mut report = FileReport::failed(name.to_string(), G::NAME, "?", e.to_string());
            report.records = 0;
            return Ok(FileRecords {
                text: String::new(),
                records: Vec::new(),
                problems: Vec::new(),
                valid: Vec::new(),
                report,
            });
        }
    };
    let format = G::format_by_name(opened.format)
        .ok_or_else(|| CliError::usage(format!("--format: not a {} format", G::NAME)))?;
    let decoded = opened.decoded;
    let mut report = FileReport::new(name.to_string(), G::NAME, format.name());
    let source = SourceText::new(name, &decoded.text);
    // What a page shows names the file alone: a page is shared, the path is the user's.
    let base = path.and_then(Path::file_name).map_or_else(
        || "record".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let page_source = SourceText::new(&base, &decoded.text);
    report.add_diagnostics(&source, &decoded.diagnostics);
    let mut records = Vec::new();
    let mut problems = Vec::new();
    let mut valid = Vec::new();
    let decoding_failed = decoded
        .diagnostics
        .iter()
        .any(kifu_record::Diagnostic::is_error);
    for read in format.records(&decoded.text) {
        report.records += 1;
        valid.push(!decoding_failed && !read.has_errors());
        let mut own = FileReport::new(name.to_string(), G::NAME, format.name());
        own.add_diagnostics(&page_source, &read.diagnostics);
        problems.push(own.diagnostics.iter().map(|d| d.rendered.clone()).collect());
        report.add_diagnostics(&source, &read.diagnostics);
        records.push(read.record);
    }
    report.require_a_record(bytes);
    Ok(FileRecords {
        text: decoded.text.into_owned(),
        records,
        problems,
        valid,
        report,
    })
}

/// The main-line node after `ply` playable moves, and how many there are.
pub fn main_line_nodes<G: kifu_record::Game>(record: &Record<G>) -> Vec<NodeId> {
    let mut nodes = vec![record.moves.root()];
    record.walk_main_line(|id, _, _| nodes.push(id));
    nodes
}

/// What a command asks of a pictured game, without knowing which game it is.
pub trait Viewer: Sync {
    /// The game's name in the games table.
    fn name(&self) -> &'static str;

    /// The SVG of record `record` (from 0) after `ply` moves (as `--ply` gives it), with the
    /// file's report.
    fn svg(
        &self,
        input: &FileInput<'_>,
        record: usize,
        ply: Option<i64>,
        options: &kifu_render::Options,
    ) -> Result<(kifu_render::Drawing, FileReport), CliError>;

    /// An animation (of `kind`) of record `record`'s main line from ply `from` to ply `to`
    /// (as `--from-ply`/`--to-ply` give them), with the file's report.
    #[allow(clippy::too_many_arguments)]
    fn animate(
        &self,
        kind: kifu_render::animate::Kind,
        input: &FileInput<'_>,
        record: usize,
        plies: (Option<i64>, Option<i64>),
        options: &kifu_render::Options,
        timing: &kifu_render::animate::Timing,
    ) -> Result<(Vec<u8>, kifu_render::animate::Animation, FileReport), CliError>;

    /// Draws every record of the file at `ply` (as `--ply` gives it), or at every ply of its
    /// main line when `ply` is `None`, handing each picture to `each` as it is made; returns
    /// the file's report.
    fn stills(
        &self,
        input: &FileInput<'_>,
        ply: Option<i64>,
        options: &kifu_render::Options,
        each: &mut dyn FnMut(Still) -> Result<(), CliError>,
    ) -> Result<FileReport, CliError>;

    /// One replay page per record of the file, each with a title, and the file's report.
    fn pages(
        &self,
        input: &FileInput<'_>,
    ) -> Result<(Vec<(String, kifu_render::html::Page)>, FileReport), CliError>;
}

/// One picture of a batch: record `record` (from 0) of the file's `records`, after `ply`
/// moves.
pub struct Still {
    pub record: usize,
    pub records: usize,
    pub ply: usize,
    pub drawing: kifu_render::Drawing,
}

/// A file to draw.
pub struct FileInput<'a> {
    pub name: &'a str,
    pub path: Option<&'a Path>,
    pub bytes: &'a [u8],
    pub format: Option<&'a str>,
    /// Pages for records with errors too, replaying the moves before the first error and
    /// showing it (`kifu html --keep-prefix`).
    pub keep_prefix: bool,
    /// Where the pages' font comes from: inside each page, or a file beside them.
    pub font: kifu_render::html::PageFont<'a>,
}

struct View<G>(PhantomData<fn() -> G>);

impl<G: Readable> Viewer for View<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn svg(
        &self,
        input: &FileInput<'_>,
        record: usize,
        ply: Option<i64>,
        options: &kifu_render::Options,
    ) -> Result<(kifu_render::Drawing, FileReport), CliError> {
        let file = read_file::<G>(input.name, input.path, input.bytes, input.format)?;
        let chosen = chosen_record(&file, record, input.name)?;
        let nodes = main_line_nodes(chosen);
        let ply = crate::ply::resolve_ply(ply, nodes.len() - 1)?;
        Ok((kifu_render::draw(chosen, nodes[ply], options), file.report))
    }

    fn animate(
        &self,
        kind: kifu_render::animate::Kind,
        input: &FileInput<'_>,
        record: usize,
        (from, to): (Option<i64>, Option<i64>),
        options: &kifu_render::Options,
        timing: &kifu_render::animate::Timing,
    ) -> Result<(Vec<u8>, kifu_render::animate::Animation, FileReport), CliError> {
        let file = read_file::<G>(input.name, input.path, input.bytes, input.format)?;
        let chosen = chosen_record(&file, record, input.name)?;
        let nodes = kifu_render::main_line(chosen);
        let moves = nodes.len() - 1;
        let first = crate::ply::ply_in_line("--from-ply", from.unwrap_or(0), moves)?;
        let last = crate::ply::ply_in_line("--to-ply", to.unwrap_or(-1), moves)?;
        if first > last {
            return Err(CliError::usage(format!(
                "--from-ply {first} comes after --to-ply {last}"
            )));
        }
        let mut bytes = Vec::new();
        let made = kifu_render::animate::write(
            kind,
            chosen,
            &nodes[first..=last],
            options,
            timing,
            &mut bytes,
        )
        .map_err(|e| CliError::Failed(e.to_string()))?;
        Ok((bytes, made, file.report))
    }

    fn stills(
        &self,
        input: &FileInput<'_>,
        ply: Option<i64>,
        options: &kifu_render::Options,
        each: &mut dyn FnMut(Still) -> Result<(), CliError>,
    ) -> Result<FileReport, CliError> {
        let file = read_file::<G>(input.name, input.path, input.bytes, input.format)?;
        let records = file.records.len();
        for (record, chosen) in file.records.iter().enumerate() {
            let nodes = kifu_render::main_line(chosen);
            let wanted = match ply {
                None => &nodes[..],
                Some(ply) => match crate::ply::resolve_ply(Some(ply), nodes.len() - 1) {
                    Ok(n) => &nodes[n..=n],
                    Err(e) => {
                        let which = if records > 1 {
                            format!(" record {}", record + 1)
                        } else {
                            String::new()
                        };
                        eprintln!("warning: {}{which}: {e}; no picture", input.name);
                        continue;
                    }
                },
            };
            kifu_render::walk_line(chosen, wanted, |step| {
                each(Still {
                    record,
                    records,
                    ply: chosen.moves[step.node].ply() as usize,
                    drawing: step.draw(chosen, options),
                })
            })?;
        }
        Ok(file.report)
    }

    fn pages(
        &self,
        input: &FileInput<'_>,
    ) -> Result<(Vec<(String, kifu_render::html::Page)>, FileReport), CliError> {
        let file = read_file::<G>(input.name, input.path, input.bytes, input.format)?;
        let stem = input
            .path
            .and_then(|p| p.file_name())
            .map_or("record".into(), |s| s.to_string_lossy().into_owned());
        let many = file.records.len() > 1;
        // A page replaying a record with errors would pass for the game: such a record gets
        // its report and no page.
        let pages = file
            .records
            .iter()
            .enumerate()
            .filter(|(i, _)| input.keep_prefix || file.valid[*i])
            .map(|(i, record)| {
                let title = if many {
                    format!("{stem} ({})", i + 1)
                } else {
                    stem.clone()
                };
                let page = kifu_render::html::page_with(
                    record,
                    Some(&file.text),
                    &title,
                    &file.problems[i],
                    &input.font,
                );
                (title, page)
            })
            .collect();
        Ok((pages, file.report))
    }
}

/// Record `record` (from 0) of a file.
fn chosen_record<'f, G: Readable>(
    file: &'f FileRecords<G>,
    record: usize,
    name: &str,
) -> Result<&'f Record<G>, CliError> {
    let count = file.records.len();
    file.records.get(record).ok_or_else(|| {
        if count == 0 {
            // The report says why (a format nobody can tell, an empty file).
            CliError::Failed(
                file.report
                    .diagnostics
                    .first()
                    .map_or_else(|| format!("{name}: no record"), |d| d.rendered.clone()),
            )
        } else {
            crate::games::no_such_record(record + 1, count, name)
        }
    })
}

/// Every pictured game, by its name in the games table.
static VIEWERS: [&dyn Viewer; 3] = [
    &View::<kifu_shogi::Shogi>(PhantomData),
    &View::<kifu_chu::Chu>(PhantomData),
    &View::<kifu_cetkaik::Cetkaik>(PhantomData),
];

/// The viewer of a file: the game named with `--game`, or the one the games table detects.
pub fn viewer_for(
    game: &GameArg,
    path: Option<&Path>,
    bytes: &[u8],
) -> Result<&'static dyn Viewer, CliError> {
    let game = Game::from_arg(game).unwrap_or_else(|| Game::detect(path, bytes));
    VIEWERS
        .iter()
        .copied()
        .find(|v| v.name() == game.name())
        .ok_or_else(|| CliError::Failed(format!("{} records cannot be drawn", game.name())))
}

/// Reads `input` and hands it, with the viewer of its game, to `make`.
fn with_viewer<T>(
    input: &Input,
    game: &GameArg,
    format: Option<&str>,
    make: impl FnOnce(&dyn Viewer, &FileInput<'_>) -> Result<T, CliError>,
) -> Result<T, CliError> {
    crate::games::validate(
        Game::from_arg(game),
        &ReadOptions {
            format,
            rules: None,
        },
        None,
    )?;
    let name = input.name();
    let bytes = input
        .read()
        .map_err(|e| crate::inputs::open_error(&name, e))?;
    let path = input.path.as_deref();
    let viewer = viewer_for(game, path, &bytes)?;
    make(
        viewer,
        &FileInput {
            name: &name,
            path,
            bytes: &bytes,
            format,
            keep_prefix: false,
            font: kifu_render::html::PageFont::Embedded,
        },
    )
}

/// The picture for `kifu render` and `kifu show --svg`, with the report of the file.
pub fn svg_of_input(
    input: &Input,
    game: &GameArg,
    format: Option<&str>,
    record: Option<usize>,
    ply: Option<i64>,
    options: &kifu_render::Options,
) -> Result<(kifu_render::Drawing, FileReport), CliError> {
    let record = crate::games::record_index(record)?.unwrap_or(0);
    with_viewer(input, game, format, |viewer, file| {
        viewer.svg(file, record, ply, options)
    })
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
        &args.game,
        args.format.as_deref(),
        args.record,
        match args.ply {
            Some(PlyChoice::One(n)) => Some(n),
            _ => None,
        },
        &options,
    )?;
    // A picture of a board kifu did not read is worse than none: an input with errors gets
    // its report and no picture.
    if !report.is_valid() {
        return Ok(finish(&report));
    }
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
    let (bytes, made, report) =
        with_viewer(input, &args.game, args.format.as_deref(), |viewer, file| {
            viewer.animate(
                kind,
                file,
                record,
                (args.from_ply, args.to_ply),
                options,
                &timing,
            )
        })?;
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
