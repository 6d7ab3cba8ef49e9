//! `kifu html`: a self-contained HTML replay page per record (no network, no external script;
//! works from `file://`), or for a directory a page per record and an index linking them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use kifu_render::html::PageFont;

use crate::Outcome;
use crate::error::CliError;
use crate::games::{Game, GameArg, ReadOptions};
use crate::inputs::Input;
use crate::render::{FileInput, finish, viewer_for};

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

pub fn run(args: Args) -> Result<Outcome, CliError> {
    let game = Game::from_arg(&args.game);
    crate::games::validate(
        game,
        &ReadOptions {
            format: args.format.as_deref(),
            rules: None,
        },
        None,
    )?;
    let to_stdout = args.output.as_deref() == Some(Path::new("-"));
    if args.input.is_dir() {
        let Some(out_dir) = args.output.clone().filter(|_| !to_stdout) else {
            return Err(CliError::usage(
                "a directory of records needs -o DIR for its pages and index",
            ));
        };
        return directory(&args, &out_dir);
    }
    let input = Input::from_arg(&args.input);
    let name = input.name();
    let bytes = input
        .read()
        .map_err(|e| crate::inputs::open_error(&name, e))?;
    let path = input.path.as_deref();
    let viewer = viewer_for(&args.game, path, &bytes)?;
    let (mut pages, report) = viewer.pages(&FileInput {
        name: &name,
        path,
        bytes: &bytes,
        format: args.format.as_deref(),
        keep_prefix: args.keep_prefix,
        // Known to go into a directory only once read: linked then, if they are.
        font: PageFont::Embedded,
    })?;
    warn_font_lacks(&name, &pages);
    let source = path.unwrap_or(Path::new("record"));
    match pages.len() {
        0 => {}
        1 => {
            let page = &pages[0].1.html;
            if to_stdout {
                crate::check::print_all(page)?;
            } else {
                let out = args
                    .output
                    .clone()
                    .unwrap_or_else(|| page_name(source, None));
                if Some(out.as_path()) == path {
                    return Err(CliError::usage(
                        "-o names the input file; a page never replaces its record",
                    ));
                }
                crate::output::write_atomically(&out, page.as_bytes(), args.force)?;
            }
        }
        _ => {
            // One page holds one record: `-o one.html` for many would quietly become a
            // directory of that name.
            let page_named = args.output.as_deref().is_some_and(|o| {
                o.extension().is_some_and(|e| {
                    e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm")
                })
            });
            if to_stdout || page_named {
                return Err(CliError::usage(format!(
                    "{name} holds {} records and a page replays one: give -o DIR/ for a page \
                     each and an index, or take one record out first (kifu convert {name} \
                     --record N -o one.csa)",
                    pages.len()
                )));
            }
            let dir = args.output.clone().unwrap_or_else(|| {
                PathBuf::from(
                    source
                        .file_stem()
                        .map_or("records".into(), |s| s.to_string_lossy().into_owned()),
                )
            });
            let mut links = Vec::new();
            let mut chars = BTreeSet::new();
            for (i, (title, page)) in pages.iter_mut().enumerate() {
                if let PageFont::Linked(font) = directory_font(&args) {
                    page.link_font(font);
                }
                chars.extend(page.chars.iter().copied());
                let file = page_name(source, Some(i + 1));
                crate::output::write_atomically(
                    &dir.join(&file),
                    page.html.as_bytes(),
                    args.force,
                )?;
                links.push((file.to_string_lossy().into_owned(), title.clone()));
            }
            let title = source
                .file_name()
                .map_or_else(|| "records".into(), |n| n.to_string_lossy().into_owned());
            finish_directory(&args, &dir, &title, &links, chars)?;
        }
    }
    Ok(finish(&report))
}

/// Every record file under `args.input`, a page each in `out_dir`, and an index.
fn directory(args: &Args, out_dir: &Path) -> Result<Outcome, CliError> {
    let filter = Game::filter(Game::from_arg(&args.game));
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
    for file in &files {
        let name = file.display().to_string();
        let bytes = std::fs::read(file).map_err(|e| crate::inputs::open_error(&name, e))?;
        let viewer = viewer_for(&args.game, Some(file), &bytes)?;
        let result = viewer.pages(&FileInput {
            name: &name,
            path: Some(file),
            bytes: &bytes,
            format: args.format.as_deref(),
            keep_prefix: args.keep_prefix,
            font: directory_font(args),
        });
        let (pages, report) = match result {
            Ok(found) => found,
            Err(e) => {
                eprintln!("{name}: {e}");
                outcome = Outcome::Invalid;
                continue;
            }
        };
        if let Outcome::Invalid = finish(&report) {
            outcome = Outcome::Invalid;
        }
        warn_font_lacks(&name, &pages);
        let relative = file.strip_prefix(&args.input).unwrap_or(file);
        let flat = relative.to_string_lossy().replace(['/', '\\'], "_");
        let many = pages.len() > 1;
        for (i, (_, page)) in pages.iter().enumerate() {
            chars.extend(page.chars.iter().copied());
            let page_file = page_name(Path::new(&flat), many.then_some(i + 1));
            crate::output::write_atomically(
                &out_dir.join(&page_file),
                page.html.as_bytes(),
                args.force,
            )?;
            let label = if many {
                format!("{} ({})", relative.display(), i + 1)
            } else {
                relative.display().to_string()
            };
            links.push((page_file.to_string_lossy().into_owned(), label));
        }
    }
    // The directory's own name, not its path on this machine.
    let title = std::fs::canonicalize(&args.input)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "records".into());
    finish_directory(args, out_dir, &title, &links, chars)?;
    Ok(outcome)
}

/// Says which characters of a file's pages their font lacks (the browser writes them in its
/// own serif font), once per file.
fn warn_font_lacks(name: &str, pages: &[(String, kifu_render::html::Page)]) {
    let mut missing: Vec<char> = Vec::new();
    for c in pages.iter().flat_map(|(_, page)| &page.missing) {
        if !missing.contains(c) {
            missing.push(*c);
        }
    }
    crate::render::warn_font_lacks(
        &missing,
        &format!("{name}'s pages write them in the browser's serif font"),
    );
}
