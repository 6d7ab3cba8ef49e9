//! `kifu html`: a self-contained HTML replay page per record (no network, no external script;
//! works from `file://`), or for a directory a page per record and an index linking them,
//! each link with the record's players, date, result and length. Files are read through the
//! one driver table as every command reads them, and each page is written as its record is
//! read, so an archive of any size takes the memory of its largest record.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use kifu_record::SourceText;
use kifu_render::html::PageFont;

use crate::Outcome;
use crate::error::CliError;
use crate::games::{Game, GameArg, InputFile, ReadOptions, RecordBatch, Summary};
use crate::inputs::Input;
use crate::render::finish;
use crate::report::FileReport;

#[derive(clap::Args)]
pub struct Args {
    /// Record file or directory of records; `-` reads standard input.
    #[arg(value_name = "FILE|DIR")]
    input: PathBuf,
    /// The page to write (default: the record's name with `.html`, in the current
    /// directory); for a directory, or a file holding several records, the directory to
    /// write the pages and `index.html` into. `-` writes a single page to standard output.
    #[arg(short, long, value_name = "OUTPUT")]
    output: Option<PathBuf>,
    /// Replace pages that exist.
    #[arg(long)]
    force: bool,
    /// Format of the input when its extension does not tell.
    #[arg(long, visible_alias = "from", value_name = "FORMAT")]
    format: Option<String>,
    /// Cetkaik rule set for records that do not name one.
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
    /// The game the records are of.
    #[arg(long, value_parser = GameArg::parser(), default_value = "auto")]
    game: GameArg,
    /// Write a page for a record with errors too: it replays the moves before the first
    /// error and shows the error (without it such a record gets no page).
    #[arg(long)]
    keep_prefix: bool,
    /// Pages written into a directory each carry their own font, as a single page does
    /// (they otherwise share one font file, `kifu-font.ttf`, beside them).
    #[arg(long)]
    self_contained: bool,
    /// A shogi archive made by `kifu index`: each page shows, for every position of its
    /// record, the moves the archive's games played from it (games, wins, draws, losses,
    /// average rating), and lists the archive's games most like the record.
    #[arg(long, value_name = "ARCHIVE")]
    archive: Option<PathBuf>,
}

/// The font file the pages of a directory share, beside them.
const SHARED_FONT: &str = "kifu-font.ttf";

/// The font of pages written into a directory.
fn directory_font(args: &Args) -> PageFont<'static> {
    if args.self_contained {
        PageFont::Embedded
    } else {
        PageFont::Linked(SHARED_FONT)
    }
}

/// Writes the index of a directory of pages and, unless they are self-contained, the font
/// they share: the glyphs of every character of `chars` (the pages') and of the index.
fn finish_directory(
    args: &Args,
    dir: &Path,
    title: &str,
    links: &[(String, String)],
    mut chars: BTreeSet<char>,
) -> Result<(), CliError> {
    let font = directory_font(args);
    if let PageFont::Linked(file) = font {
        chars.extend(title.chars());
        chars.extend(links.iter().flat_map(|(_, label)| label.chars()));
        let bytes = kifu_render::html::shared_font(chars);
        crate::output::write_atomically(&dir.join(file), &bytes, args.force)?;
    }
    let index = kifu_render::html::index_with(title, links, &font);
    crate::output::write_atomically(&dir.join("index.html"), index.as_bytes(), args.force)?;
    Ok(())
}

impl Args {
    /// How the inputs are read: as every command reads them.
    fn read_options(&self) -> ReadOptions<'_> {
        ReadOptions {
            format: self.format.as_deref(),
            rules: self.rules.as_deref(),
        }
    }
}

/// A file name for a page: the record's file name with `.html` (and `-N` for record N of
/// several).
fn page_name(input: &Path, number: Option<usize>) -> PathBuf {
    let stem = input
        .file_stem()
        .map_or("record".into(), |s| s.to_string_lossy().into_owned());
    PathBuf::from(match number {
        Some(n) => format!("{stem}-{n}.html"),
        None => format!("{stem}.html"),
    })
}

/// One page made of a record.
struct MadePage {
    /// Counted from 1 over the file's records (a cetkaik match: its seasons), whether or not
    /// each got a page.
    number: usize,
    /// Whether the file holds several records, each a page: then pages are numbered.
    many: bool,
    page: kifu_render::html::Page,
    summary: Summary,
}

/// The pages of one file, made record by record as the driver table reads them (as `kifu
/// check` reads: memory follows the largest record, not the file) and handed to `each`. A
/// record with errors gets no page unless `keep_prefix`. A page is titled after the file's
/// name, never its path: a page is shared, the path is the user's.
fn file_pages(
    file: &InputFile<'_>,
    game: Option<Game>,
    read: &ReadOptions<'_>,
    keep_prefix: bool,
    archive: Option<&kifu_index::archive::Archive>,
    each: &mut dyn FnMut(MadePage) -> Result<(), CliError>,
) -> Result<FileReport, CliError> {
    let opened = match crate::games::open(file, game, read) {
        Ok(opened) => opened,
        Err(report) => return Ok(report),
    };
    let text: &str = &opened.opened.decoded.text;
    let base = file.path.and_then(Path::file_name).map_or_else(
        || "record".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    // The line index costs 4 bytes a line of the whole file: built once something is wrong.
    let page_source = std::cell::OnceCell::new();
    let problems = |diagnostics: &[kifu_record::Diagnostic]| -> Vec<String> {
        if diagnostics.is_empty() {
            return Vec::new();
        }
        let source = page_source.get_or_init(|| SourceText::new(&base, text));
        let mut own = FileReport::new(base.clone(), "", "");
        own.add_diagnostics(source, diagnostics);
        own.diagnostics.into_iter().map(|d| d.rendered).collect()
    };
    // Whether pages are numbered is known once a second record is read: the first waits.
    let mut pending: Option<(Box<dyn RecordBatch>, bool)> = None;
    let mut number = 0;
    let mut flush = |batch: Box<dyn RecordBatch>, valid: bool, many: bool| {
        let title = if many {
            format!("{base} ({})", number + 1)
        } else {
            base.clone()
        };
        let mut pages = batch.pages(text, &title, &problems);
        if let Some(archive) = archive {
            crate::html_explorer::attach(archive, &*batch, &mut pages)?;
        }
        let many = many || pages.len() > 1;
        for (page, summary) in pages {
            number += 1;
            if keep_prefix || valid {
                each(MadePage {
                    number,
                    many,
                    page,
                    summary,
                })?;
            }
        }
        Ok::<(), CliError>(())
    };
    let mut seen = 0;
    let report = crate::games::stream(&opened, file, read, None, &mut |_, one, valid| {
        seen += 1;
        if seen == 1 {
            pending = Some((one, valid));
            return Ok(());
        }
        if let Some((first, first_valid)) = pending.take() {
            flush(first, first_valid, true)?;
        }
        flush(one, valid, true)
    })?;
    if let Some((only, valid)) = pending {
        flush(only, valid, false)?;
    }
    Ok(report)
}

/// The text of a page's link in an index: its name and what the record is.
fn link_label(name: &str, made: &MadePage) -> String {
    let numbered = if made.many {
        format!("{name} ({})", made.number)
    } else {
        name.to_string()
    };
    format!("{numbered} — {}", made.summary)
}

pub fn run(args: Args) -> Result<Outcome, CliError> {
    let game = Game::from_arg(&args.game);
    crate::games::validate(game, &args.read_options(), None)?;
    let archive = crate::html_explorer::open(args.archive.as_deref())?;
    let archive = archive.as_ref();
    let to_stdout = args.output.as_deref() == Some(Path::new("-"));
    if args.input.is_dir() {
        let Some(out_dir) = args.output.clone().filter(|_| !to_stdout) else {
            return Err(CliError::usage(
                "a directory of records needs -o DIR for its pages and index",
            ));
        };
        return directory(&args, &out_dir, archive);
    }
    let input = Input::from_arg(&args.input);
    let name = input.name();
    let bytes = input
        .read()
        .map_err(|e| crate::inputs::open_error(&name, e))?;
    let path = input.path.as_deref();
    let source = path.unwrap_or(Path::new("record"));
    // One page holds one record: `-o one.html` for many would quietly become a directory of
    // that name.
    let page_named = args.output.as_deref().is_some_and(|o| {
        o.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
    });
    let dir = args.output.clone().unwrap_or_else(|| {
        PathBuf::from(
            source
                .file_stem()
                .map_or("records".into(), |s| s.to_string_lossy().into_owned()),
        )
    });
    let mut links = Vec::new();
    let mut chars = BTreeSet::new();
    let mut missing: Vec<char> = Vec::new();
    let file = InputFile {
        name: &name,
        path,
        bytes: &bytes,
    };
    let report = file_pages(
        &file,
        game,
        &args.read_options(),
        args.keep_prefix,
        archive,
        &mut |mut made| {
            add_missing(&mut missing, &made.page);
            if !made.many {
                let page = &made.page.html;
                if to_stdout {
                    return crate::check::print_all(page);
                }
                let out = args
                    .output
                    .clone()
                    .unwrap_or_else(|| page_name(source, None));
                if Some(out.as_path()) == path {
                    return Err(CliError::usage(
                        "-o names the input file; a page never replaces its record",
                    ));
                }
                return crate::output::write_atomically(&out, page.as_bytes(), args.force)
                    .map_err(CliError::Failed);
            }
            if to_stdout || page_named {
                return Err(CliError::usage(format!(
                    "{name} holds several records and a page replays one: give -o DIR/ for a \
                     page each and an index, or take one record out first (kifu convert \
                     {name} --record N -o one.csa)"
                )));
            }
            // Known to go into a directory only now: the pages share its font file then.
            if let PageFont::Linked(font) = directory_font(&args) {
                made.page.link_font(font);
            }
            chars.extend(made.page.chars.iter().copied());
            let file = page_name(source, Some(made.number));
            crate::output::write_atomically(
                &dir.join(&file),
                made.page.html.as_bytes(),
                args.force,
            )
            .map_err(CliError::Failed)?;
            let shown = source
                .file_stem()
                .map_or("record".into(), |s| s.to_string_lossy());
            links.push((
                file.to_string_lossy().into_owned(),
                link_label(&shown, &made),
            ));
            Ok(())
        },
    )?;
    crate::render::warn_font_lacks(
        &missing,
        &format!("{name}'s pages write them in the browser's serif font"),
    );
    if !links.is_empty() {
        let title = source
            .file_name()
            .map_or_else(|| "records".into(), |n| n.to_string_lossy().into_owned());
        finish_directory(&args, &dir, &title, &links, chars)?;
    }
    Ok(finish(&report))
}

/// Every record file under `args.input`, a page each in `out_dir`, and an index.
fn directory(
    args: &Args,
    out_dir: &Path,
    archive: Option<&kifu_index::archive::Archive>,
) -> Result<Outcome, CliError> {
    let game = Game::from_arg(&args.game);
    let filter = Game::filter(game);
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(&args.input)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && filter(e.path()))
        .map(|e| e.into_path())
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(CliError::Failed(format!(
            "{}: no record files found",
            args.input.display()
        )));
    }
    let mut links = Vec::new();
    let mut chars = BTreeSet::new();
    let mut outcome = Outcome::Ok;
    for path in &files {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| crate::inputs::open_error(&name, e))?;
        let relative = path.strip_prefix(&args.input).unwrap_or(path);
        let flat = relative.to_string_lossy().replace(['/', '\\'], "_");
        let mut missing: Vec<char> = Vec::new();
        let file = InputFile {
            name: &name,
            path: Some(path),
            bytes: &bytes,
        };
        let result = file_pages(
            &file,
            game,
            &args.read_options(),
            args.keep_prefix,
            archive,
            &mut |mut made| {
                add_missing(&mut missing, &made.page);
                if let PageFont::Linked(font) = directory_font(args) {
                    made.page.link_font(font);
                }
                chars.extend(made.page.chars.iter().copied());
                let page_file = page_name(Path::new(&flat), made.many.then_some(made.number));
                crate::output::write_atomically(
                    &out_dir.join(&page_file),
                    made.page.html.as_bytes(),
                    args.force,
                )
                .map_err(CliError::Failed)?;
                links.push((
                    page_file.to_string_lossy().into_owned(),
                    link_label(&relative.display().to_string(), &made),
                ));
                Ok(())
            },
        );
        let report = match result {
            Ok(report) => report,
            Err(e) => {
                eprintln!("{name}: {e}");
                outcome = Outcome::Invalid;
                continue;
            }
        };
        if let Outcome::Invalid = finish(&report) {
            outcome = Outcome::Invalid;
        }
        crate::render::warn_font_lacks(
            &missing,
            &format!("{name}'s pages write them in the browser's serif font"),
        );
    }
    // The directory's own name, not its path on this machine.
    let title = std::fs::canonicalize(&args.input)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "records".into());
    finish_directory(args, out_dir, &title, &links, chars)?;
    Ok(outcome)
}

/// Adds the characters a page's font lacks to `missing`, each once.
fn add_missing(missing: &mut Vec<char>, page: &kifu_render::html::Page) {
    for c in &page.missing {
        if !missing.contains(c) {
            missing.push(*c);
        }
    }
}
