//! The games the command line knows, as one table of drivers: every command finds the game of
//! a file and then calls its driver, never a `match` on the game.
//!
//! A driver is written once for every game ([`driver::Driver`]), on top of the records layer
//! (`kifu_records::GameRecords`); what differs between games (which files are theirs, how
//! `kifu show` draws a position, options only one game has) is a [`driver::CliGame`]
//! implementation in the game's module.

use std::any::Any;
use std::fmt;
use std::path::Path;

use clap::builder::TypedValueParser;

use kifu_records::open::{OpenError, Opened, Request};

use crate::error::CliError;
use crate::report::FileReport;

pub mod cetkaik;
pub mod chu;
pub mod driver;
pub mod shogi;

/// Every game, the default (the one a file nothing else claims is read as) first.
static DRIVERS: [&dyn GameDriver; 3] = [
    &driver::Driver::<kifu_shogi::Shogi>::NEW,
    &driver::Driver::<kifu_chu::Chu>::NEW,
    &driver::Driver::<kifu_cetkaik::Cetkaik>::NEW,
];

/// What a command needs of a game.
pub trait GameDriver: Sync {
    /// The name users type (`--game shogi`).
    fn name(&self) -> &'static str;

    /// The game as the records layer names it, for its file and game detection.
    fn kind(&self) -> kifu_records::detect::GameKind;

    /// Every format the game reads and writes, by name, for messages.
    fn format_names(&self) -> Vec<&'static str>;

    /// Whether `name` names a format of this game.
    fn knows_format(&self, name: &str) -> bool {
        self.format_names().contains(&name)
    }

    /// Checks the options only some games take (`--rules` for cetkaik).
    fn check_read_options(&self, _read: &ReadOptions<'_>) -> Result<(), String> {
        Ok(())
    }

    /// This game's format named `name` (`--to`), resolved once for a whole run, with
    /// `--csa-version` where it applies; `None` when the game has no such format.
    fn target(&self, name: &str, csa_version: &str) -> Option<TargetFormat>;

    /// A file of `target` (this game's) written in parts, as bytes in its encoding, with what
    /// it could not hold.
    fn encode_parts(
        &self,
        target: &TargetFormat,
        written: kifu_record::Written,
    ) -> Result<(Vec<u8>, Vec<String>), CliError>;

    /// Reads one file record by record: `each` gets each record's index (from 0), the record
    /// alone and whether it was read without errors, and the record is dropped before the
    /// next is read. `only` (from 0) hands out that record alone.
    fn stream(
        &self,
        file: &InputFile<'_>,
        opened: &Opened<'_>,
        read: &ReadOptions<'_>,
        only: Option<usize>,
        each: &mut dyn FnMut(usize, Box<dyn RecordBatch>, bool) -> Result<(), CliError>,
    ) -> Result<FileReport, CliError>;

    /// Reads and validates one file like [`GameDriver::stream`], handing out no record:
    /// what `kifu check` needs, and formats can do it without building the records.
    fn check(
        &self,
        file: &InputFile<'_>,
        opened: &Opened<'_>,
        read: &ReadOptions<'_>,
        only: Option<usize>,
    ) -> Result<FileReport, CliError>;

    /// An empty batch of this game's records, to gather a file's records in.
    fn empty_batch(&self) -> Box<dyn RecordBatch>;

    /// `kifu perft`: the positions `depth` moves ahead, or why the game has no such count
    /// (a usage error) or the request is wrong.
    fn perft(&self, request: &PerftRequest<'_>) -> Result<Perft, CliError>;

    /// Whether [`GameDriver::perft`] counts this game's positions.
    fn has_perft(&self) -> bool;
}

/// A command's work on records of any game (`kifu export`): a batch hands its records to the
/// method of its game, so the command never matches on a game's name, and a new game is a
/// method every visitor must write (or refuse in), which the compiler lists.
pub trait RecordsVisitor {
    fn shogi(&mut self, records: &[kifu_record::Record<kifu_shogi::Shogi>]);
    fn chu(&mut self, records: &[kifu_record::Record<kifu_chu::Chu>]);
    fn cetkaik(&mut self, records: &[kifu_record::Record<kifu_cetkaik::Cetkaik>]);
}

/// What `kifu perft` asks of a game.
#[derive(Clone, Copy, Debug)]
pub struct PerftRequest<'a> {
    /// The start position as SFEN (the game's start when `None`).
    pub sfen: Option<&'a str>,
    pub depth: u32,
    /// Count below each legal first move too.
    pub divide: bool,
    /// The game's own way of counting (chu: `path` or `canonical`).
    pub counting: Option<&'a str>,
    /// The game's rule set (as `--rules` names it).
    pub rules: Option<&'a str>,
}

/// A perft count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Perft {
    /// The position counted from, as SFEN.
    pub sfen: String,
    pub nodes: u64,
    /// The count below each first move, with `divide`.
    pub divided: Option<Vec<(String, u64)>>,
}

impl Perft {
    /// A count from its rows (`divide`) or its total.
    pub fn of(
        sfen: String,
        divided: Option<Vec<(String, u64)>>,
        total: impl FnOnce() -> u64,
    ) -> Perft {
        let nodes = match &divided {
            Some(rows) => rows.iter().map(|r| r.1).sum(),
            None => total(),
        };
        Perft {
            sfen,
            nodes,
            divided,
        }
    }
}

/// Records of one game, held by a command without knowing the game.
pub trait RecordBatch {
    fn len(&self) -> usize;

    /// Appends the records of another batch of the same game.
    fn append(&mut self, other: Box<dyn RecordBatch>);

    /// Keeps only record `n` (counted from 1), or says how many there are.
    fn pick(self: Box<Self>, n: usize, name: &str) -> Result<Box<dyn RecordBatch>, CliError>;

    /// Writes the records in `range` as one file of `target` (a format of their game), with
    /// what it could not hold.
    fn write(
        &self,
        range: std::ops::Range<usize>,
        target: &TargetFormat,
    ) -> Result<(Vec<u8>, Vec<String>), CliError>;

    /// Writes the records as the part of a file of `target` after its first `before` records
    /// (see [`TargetFormat::writes_in_parts`]).
    fn write_part(
        &self,
        before: usize,
        target: &TargetFormat,
    ) -> Result<kifu_record::Written, CliError>;

    /// The number of moves `--ply` can step through in the first command record, the same
    /// in `kifu show`, `kifu render` and `kifu html` (see `driver::CliGame::shown_nodes`).
    fn main_line_len(&self) -> usize;

    /// The first record's position after `ply` moves, drawn as `view` asks (`None` when this
    /// game has no such view).
    fn show(&self, ply: usize, view: View, colour: bool) -> Option<String>;

    /// The picture of the first command record's position after `ply` moves, counted as
    /// [`RecordBatch::main_line_len`] counts them (`None` past the end).
    fn draw(&self, ply: usize, options: &kifu_render::Options) -> Option<kifu_render::Drawing>;

    /// The first command record's positions after `plies` moves as an animation of `kind`
    /// (GIF or animated PNG) into `out`; a usage error when they are not one line of one
    /// record.
    fn animate(
        &self,
        kind: kifu_render::animate::Kind,
        plies: std::ops::RangeInclusive<usize>,
        options: &kifu_render::Options,
        timing: &kifu_render::animate::Timing,
        out: &mut Vec<u8>,
    ) -> Result<kifu_render::animate::Animation, CliError>;

    /// Pictures of the first command record after `ply` moves, or after every number of moves
    /// when `None`, handed to `each` with their number of moves as they are drawn.
    fn stills(
        &self,
        ply: Option<usize>,
        options: &kifu_render::Options,
        each: &mut dyn FnMut(usize, kifu_render::Drawing) -> Result<(), CliError>,
    ) -> Result<(), CliError>;

    /// A replay page per record read (a cetkaik match: one per season), made from the
    /// decoded `source`, titled `title` when the record names nothing better, its problems
    /// (what reading found) rendered by `problems`.
    fn pages(
        &self,
        source: &str,
        title: &str,
        problems: &dyn Fn(&[kifu_record::Diagnostic]) -> Vec<String>,
    ) -> Vec<(kifu_render::html::Page, Summary)>;

    /// Hands the records to the method of their game in `visitor`.
    fn visit(&self, visitor: &mut dyn RecordsVisitor);

    /// The batch as `Any`, for [`RecordBatch::append`].
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

/// What an index of pages lists of a record: its players, date, result and length.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub first_player: Option<String>,
    pub second_player: Option<String>,
    /// The start time as the record writes it.
    pub date: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (no result).
    pub result: String,
    /// Moves of the main line.
    pub plies: usize,
}

impl Summary {
    pub fn of<G: kifu_record::Game>(record: &kifu_record::Record<G>) -> Summary {
        use kifu_record::HeaderField;
        let field = |f| record.header.get(f).map(str::to_string);
        Summary {
            first_player: field(HeaderField::FirstPlayer),
            second_player: field(HeaderField::SecondPlayer),
            date: field(HeaderField::StartTime),
            result: record.outcome().to_string(),
            plies: record.main_line_plies(),
        }
    }
}

impl fmt::Display for Summary {
    /// `羽生善治 – 藤井聡太, 2024/01/02 10:00, 0-1, 120 moves` (what the record lacks left out).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first_player.is_some() || self.second_player.is_some() {
            let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".to_string());
            write!(
                f,
                "{} – {}, ",
                name(&self.first_player),
                name(&self.second_player)
            )?;
        }
        if let Some(date) = &self.date {
            write!(f, "{date}, ")?;
        }
        let s = if self.plies == 1 { "" } else { "s" };
        write!(f, "{}, {} move{s}", self.result, self.plies)
    }
}

/// A game, as the command line handles it: a driver from the table.
#[derive(Clone, Copy)]
pub struct Game(&'static dyn GameDriver);

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Game {}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::ops::Deref for Game {
    type Target = dyn GameDriver;
    fn deref(&self) -> &(dyn GameDriver + 'static) {
        self.0
    }
}

/// `--game`: a game's name, or `auto` to decide by extension, then by content.
/// The default, `None`, is `auto`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameArg(Option<Game>);

impl GameArg {
    /// The value parser of `--game`, listing the names from the table.
    pub fn parser() -> impl clap::builder::TypedValueParser<Value = GameArg> {
        let names: Vec<&'static str> = std::iter::once("auto")
            .chain(DRIVERS.iter().map(|d| d.name()))
            .collect();
        clap::builder::PossibleValuesParser::new(names).map(|name| GameArg(Game::by_name(&name)))
    }
}

impl fmt::Display for GameArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.map_or("auto", |g| g.name()))
    }
}

/// How to read inputs, as given on the command line.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions<'a> {
    /// Input format when the extension does not tell (each game has its own names).
    pub format: Option<&'a str>,
    /// Cetkaik rule set when a record does not name one.
    pub rules: Option<&'a str>,
}

/// One input file in memory.
pub struct InputFile<'a> {
    /// How reports name it (its path, or `-`).
    pub name: &'a str,
    pub path: Option<&'a Path>,
    pub bytes: &'a [u8],
}

/// The target of a conversion (`--to`), resolved once for the run: the format of each game
/// that has one of that name. Commands ask it for a game's format, never look the name up
/// again.
pub struct Target {
    /// The name asked for (`--to`, or the output's extension).
    pub name: String,
    formats: Vec<(Game, TargetFormat)>,
}

impl Target {
    /// Every game's format named `name`.
    pub fn resolve(name: &str, csa_version: &str) -> Target {
        Target {
            name: name.to_string(),
            formats: Game::all()
                .filter_map(|g| g.target(name, csa_version).map(|f| (g, f)))
                .collect(),
        }
    }

    /// The format of `game`, or why it has none (with the names it has).
    pub fn of(&self, game: Game) -> Result<&TargetFormat, String> {
        self.formats
            .iter()
            .find(|(g, _)| *g == game)
            .map(|(_, f)| f)
            .ok_or_else(|| {
                format!(
                    "{} records have no format `{}` (one of: {})",
                    game.name(),
                    self.name,
                    game.format_names().join(", ")
                )
            })
    }

    /// The games that have the format, the default first.
    pub fn games(&self) -> impl Iterator<Item = Game> + '_ {
        self.formats.iter().map(|(g, _)| *g)
    }
}

/// One game's format to write, as [`Target`] resolved it.
pub struct TargetFormat {
    /// The extension of a file of it.
    pub extension: &'static str,
    /// Whether one file of it holds several records.
    pub holds_many: bool,
    /// Whether a file of it can be written in parts as its records are read
    /// ([`RecordBatch::write_part`]).
    pub writes_in_parts: bool,
    /// The game's `&'static dyn RecordFormat<G>`, which only that game's batches open.
    pub(crate) format: Box<dyn Any + Send + Sync>,
}

/// How `kifu show` draws a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The players and the board, as the game draws it, with its machine notation.
    Board,
    /// A KIF board diagram (BOD) alone (shogi).
    Bod,
    /// SFEN alone (shogi, chu).
    Sfen,
    /// CSA position lines (shogi).
    Csa,
}

impl Game {
    /// Every game, the default first.
    pub fn all() -> impl Iterator<Item = Game> {
        DRIVERS.iter().map(|&d| Game(d))
    }

    /// The game a file nothing else claims is read as (shogi).
    pub fn default_game() -> Game {
        Game(DRIVERS[0])
    }

    pub fn by_name(name: &str) -> Option<Game> {
        Game::all().find(|g| g.name() == name)
    }

    pub fn from_arg(arg: &GameArg) -> Option<Game> {
        arg.0
    }

    /// The file filter for directory walks: the named game's, or any game's (see
    /// `kifu_records::detect::is_record_file`).
    pub fn filter(game: Option<Game>) -> impl Fn(&Path) -> bool {
        move |p: &Path| kifu_records::detect::is_record_file(p, game.map(|g| g.kind()))
    }

    /// The game of a file named on the command line, in the records layer's order of
    /// evidence (`kifu_records::detect::game_of_named_file`): an extension only one game
    /// uses, content only one game writes, an extension games share, what the text reads as
    /// (for an extension no game reads, the content alone: a `.bod` board is shogi's).
    pub fn detect(path: Option<&Path>, bytes: &[u8]) -> Game {
        Game::of_kind(kifu_records::detect::game_of_named_file(path, bytes))
    }

    /// The driver of a game of the records layer.
    pub fn of_kind(kind: kifu_records::detect::GameKind) -> Game {
        Game::all()
            .find(|g| g.kind() == kind)
            .unwrap_or_else(Game::default_game)
    }
}

/// One input decoded once, its game and format decided by the records layer's front door
/// (`kifu_records::open`): what every command reads a file through.
pub struct OpenedFile<'a> {
    pub game: Game,
    pub opened: Opened<'a>,
}

/// Decodes `file` once and decides its game (`game` when the user named one) and format
/// (`--format`, else its decoded content with the extension as a hint). A file that fits
/// no format is a failed report with one line saying so, not a flood of a reader's errors.
// The error is the file's whole report, made once per file that cannot be opened and handed
// on as it is; boxing it would cost an allocation and buy nothing.
#[allow(clippy::result_large_err)]
pub fn open<'a>(
    file: &InputFile<'a>,
    game: Option<Game>,
    read: &ReadOptions<'_>,
) -> Result<OpenedFile<'a>, FileReport> {
    let request = Request {
        path: file.path,
        game: game.map(|g| g.kind()),
        format: read.format,
    };
    match kifu_records::open::open(file.bytes, &request) {
        Ok(opened) => Ok(OpenedFile {
            game: Game::of_kind(opened.game),
            opened,
        }),
        Err(e) => {
            let game = match &e {
                OpenError::CannotTell { game, .. } | OpenError::UnknownFormat { game, .. } => {
                    Game::of_kind(*game)
                }
            };
            let blank = matches!(
                e,
                OpenError::CannotTell {
                    why: kifu_records::open::EMPTY,
                    ..
                }
            );
            if blank {
                // An empty file is reported as every empty file is.
                let mut report = FileReport::new(file.name.to_string(), game.name(), "?");
                report.require_a_record(file.bytes);
                return Err(report);
            }
            Err(FileReport::failed(
                file.name.to_string(),
                game.name(),
                "?",
                e.to_string(),
            ))
        }
    }
}

/// Checks the names given on the command line before any file is read, so that a mistyped
/// format or rule set is a usage error (exit 2) and not one failure per file.
pub fn validate(
    game: Option<Game>,
    read: &ReadOptions<'_>,
    to: Option<&str>,
) -> Result<(), CliError> {
    let candidates: Vec<Game> = match game {
        Some(g) => vec![g],
        None => Game::all().collect(),
    };
    for (flag, name) in [("--format", read.format), ("--to", to)] {
        let Some(name) = name else { continue };
        if !candidates.iter().any(|g| g.knows_format(name)) {
            return Err(CliError::Usage(match game {
                Some(g) => format!(
                    "{flag}: unknown {} format `{name}` (one of: {})",
                    g.name(),
                    g.format_names().join(", ")
                ),
                None => {
                    let known: Vec<String> = candidates
                        .iter()
                        .enumerate()
                        .map(|(i, g)| {
                            let needs = if i == 0 {
                                String::new()
                            } else {
                                format!(" (--game {})", g.name())
                            };
                            format!("{}{needs}: {}", g.name(), g.format_names().join(", "))
                        })
                        .collect();
                    format!("{flag}: unknown format `{name}`; {}", known.join("; "))
                }
            }));
        }
    }
    if read.rules.is_some() {
        for g in &candidates {
            if let Err(e) = g.check_read_options(read) {
                return Err(CliError::Usage(e));
            }
        }
    }
    Ok(())
}

/// `--record N` as an index from 0: records are counted from 1 on the command line.
pub fn record_index(record: Option<usize>) -> Result<Option<usize>, CliError> {
    match record {
        Some(0) => Err(CliError::usage(
            "--record 0: records are counted from 1 (--record 1 is the first)",
        )),
        other => Ok(other.map(|n| n - 1)),
    }
}

/// `--record n` (from 1) of a file that holds `count`.
pub fn no_such_record(n: usize, count: usize, name: &str) -> CliError {
    CliError::Usage(format!(
        "--record {n}: {name} holds {count} record{}; give 1 to {count}",
        if count == 1 { "" } else { "s" }
    ))
}

/// The records of `other`, a batch of the same game as the one appending them.
pub fn same_game<T: 'static>(other: Box<dyn RecordBatch>) -> T {
    *other
        .into_any()
        .downcast::<T>()
        .expect("records of one file are of one game")
}

/// Record `n` (counted from 1) of `records`, or a usage error saying how many there are.
pub fn pick_one<T>(mut records: Vec<T>, n: usize, name: &str) -> Result<Vec<T>, CliError> {
    let count = records.len();
    if n == 0 || n > count {
        return Err(no_such_record(n, count, name));
    }
    Ok(vec![records.swap_remove(n - 1)])
}

/// One file read whole: its records and what reading them found.
pub struct Loaded {
    pub records: Box<dyn RecordBatch>,
    pub report: FileReport,
}

/// Reads every record of one opened file, replaying every move.
pub fn load(
    opened: &OpenedFile<'_>,
    file: &InputFile<'_>,
    read: &ReadOptions<'_>,
) -> Result<Loaded, CliError> {
    let mut records = opened.game.empty_batch();
    let report = stream(opened, file, read, None, &mut |_, one, _| {
        records.append(one);
        Ok(())
    })?;
    Ok(Loaded { records, report })
}

/// Reads one opened file record by record (see [`GameDriver::stream`]); a file without
/// any record is an error of the report.
pub fn stream(
    opened: &OpenedFile<'_>,
    file: &InputFile<'_>,
    read: &ReadOptions<'_>,
    only: Option<usize>,
    each: &mut dyn FnMut(usize, Box<dyn RecordBatch>, bool) -> Result<(), CliError>,
) -> Result<FileReport, CliError> {
    let mut report = opened.game.stream(file, &opened.opened, read, only, each)?;
    report.require_a_record(file.bytes);
    Ok(report)
}

/// Opens and validates one file, of `game` when the user named one; each record is dropped
/// as soon as it is checked.
pub fn check(
    game: Option<Game>,
    file: &InputFile<'_>,
    read: &ReadOptions<'_>,
    only: Option<usize>,
) -> FileReport {
    let opened = match open(file, game, read) {
        Ok(opened) => opened,
        Err(report) => return report,
    };
    let game = opened.game;
    match game.check(file, &opened.opened, read, only) {
        Ok(mut report) => {
            report.require_a_record(file.bytes);
            report
        }
        Err(e) => FileReport::failed(file.name.to_string(), game.name(), "?", e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_extension_only_one_game_uses_decides_the_game() {
        let csa = "V2.2\n'中将棋ではなく本将棋の棋譜\nPI\n+\n+7776FU\n%TORYO\n";
        let shogi = Game::by_name("shogi").unwrap();
        let chu = Game::by_name("chu").unwrap();
        assert!(
            kifu_records::chu::claims_text(csa),
            "the content alone looks like chu"
        );
        let detect = |name: &str| Game::detect(Some(Path::new(name)), csa.as_bytes());
        assert_eq!(detect("game.csa"), shogi);
        assert_eq!(detect("GAME.CSA"), shogi);
        // Extensions chu shares with shogi still go by the content.
        assert_eq!(detect("game.kif"), chu);
        // An extension no game reads: the content decides, as it does in Python.
        assert_eq!(Game::detect(Some(Path::new("board.bod")), b"7g7f\n"), shogi);
    }

    #[test]
    fn every_game_of_the_records_layer_has_a_driver() {
        for kind in kifu_records::detect::GameKind::ALL {
            let game = Game::all().find(|g| g.kind() == kind);
            assert_eq!(game.map(|g| g.name()), Some(kind.name()));
        }
    }
}
