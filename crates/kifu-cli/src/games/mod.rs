//! Which game a file belongs to, and each game's adapter from bytes to reports and output.

use std::path::Path;

use kifu_shogi::formats::csa::CsaVersion;

use crate::report::FileReport;

pub mod cetkaik;
pub mod chu;
pub mod shogi;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameArg {
    /// Decide by file extension, then by content.
    Auto,
    Shogi,
    Chu,
    Cetkaik,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    Shogi,
    Chu,
    Cetkaik,
}

/// How to read inputs, as given on the command line.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions<'a> {
    /// Input format when the extension does not tell (each game has its own names).
    pub format: Option<&'a str>,
    /// Cetkaik rule set when a record does not name one.
    pub rules: Option<&'a str>,
}

impl Game {
    pub const ALL: [Game; 3] = [Game::Shogi, Game::Chu, Game::Cetkaik];

    pub fn name(self) -> &'static str {
        match self {
            Game::Shogi => "shogi",
            Game::Chu => "chu",
            Game::Cetkaik => "cetkaik",
        }
    }

    pub fn from_arg(arg: GameArg) -> Option<Game> {
        match arg {
            GameArg::Auto => None,
            GameArg::Shogi => Some(Game::Shogi),
            GameArg::Chu => Some(Game::Chu),
            GameArg::Cetkaik => Some(Game::Cetkaik),
        }
    }

    /// Whether a file found in a directory is a record of this game, judged by its name.
    /// `explicit` (the user named the game) admits extensions other games share.
    pub fn wants(self, path: &Path, explicit: bool) -> bool {
        match self {
            Game::Shogi => shogi::format_of_path(path).is_some(),
            Game::Chu => chu::wants(path, explicit),
            Game::Cetkaik => cetkaik::wants(path, explicit),
        }
    }

    /// The file filter for directory walks: the named game's, or any game's.
    pub fn filter(game: Option<Game>) -> impl Fn(&Path) -> bool {
        move |p: &Path| match game {
            Some(g) => g.wants(p, true),
            None => Game::ALL.into_iter().any(|g| g.wants(p, false)),
        }
    }

    /// The game of a file: by an extension only one game uses, else by its first bytes.
    pub fn detect(path: Option<&Path>, bytes: &[u8]) -> Option<Game> {
        let ext = path
            .and_then(|p| p.extension())
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let text = String::from_utf8_lossy(bytes);
        // lishogi's chu exports share .kif/.json/.usi with shogi; their board gives them away.
        if chu::sniff(&text) {
            return Some(Game::Chu);
        }
        // kifu's cetkaik JSON shares .json with shogi's JKF.
        if kifu_cetkaik::ckka::json::looks_like_kifu_json(&text) {
            return Some(Game::Cetkaik);
        }
        match ext.as_deref() {
            Some(e) if cetkaik::is_ckka_extension(e) => return Some(Game::Cetkaik),
            Some("csl" | "chu" | "ndjson" | "jsonl") => return Some(Game::Chu),
            Some("txt") | None => {}
            Some(_) if path.is_some_and(|p| Game::Shogi.wants(p, false)) => {
                return Some(Game::Shogi);
            }
            Some(_) => return None,
        }
        let first = text.split_whitespace().next().unwrap_or("");
        let usi_like = ["position", "startpos", "sfen"].contains(&first)
            || kifu_shogi::usi::parse_move(first).is_ok();
        if !usi_like && kifu_cetkaik::ckka::sniff(&text) {
            return Some(Game::Cetkaik);
        }
        Some(Game::Shogi)
    }
}

/// Reads and validates one file of `game`.
pub fn check(
    game: Game,
    name: &str,
    path: Option<&Path>,
    read: &ReadOptions<'_>,
    bytes: &[u8],
) -> FileReport {
    let failed = |e: String| FileReport::failed(name.to_string(), game.name(), "?", e);
    match game {
        Game::Shogi => match read.format.map(shogi::parse_format).transpose() {
            Ok(forced) => shogi::check(name, path, forced, bytes),
            Err(e) => failed(e),
        },
        Game::Chu => chu::check(name, path, read.format, bytes),
        Game::Cetkaik => match cetkaik::rules(read.rules) {
            Ok(rules) => cetkaik::check(name, read.format, bytes, rules),
            Err(e) => failed(e),
        },
    }
}

/// A record turned into another format.
pub struct Converted {
    pub bytes: Vec<u8>,
    /// What reading the input found.
    pub report: FileReport,
    /// What the target format could not hold.
    pub warnings: Vec<String>,
}

/// The target of a conversion.
pub struct Target<'a> {
    pub format: &'a str,
    pub csa_version: CsaVersion,
}

/// The extension a converted file of `game` gets, or why the target is unknown.
pub fn target_extension(game: Game, target: &Target<'_>) -> Result<&'static str, String> {
    Ok(match game {
        Game::Shogi => shogi::parse_format(target.format)?.extension(),
        Game::Chu => chu::extension(chu::parse_format(target.format)?),
        Game::Cetkaik => match cetkaik::parse_target(target.format)? {
            Some(_) => "ckka",
            None => "json",
        },
    })
}

pub fn convert(
    game: Game,
    name: &str,
    path: Option<&Path>,
    read: &ReadOptions<'_>,
    target: &Target<'_>,
    bytes: &[u8],
) -> Result<Converted, String> {
    match game {
        Game::Shogi => {
            let to = shogi::parse_format(target.format)?;
            let from = read.format.map(shogi::parse_format).transpose()?;
            let (records, report) = shogi::load(name, path, from, bytes);
            let (bytes, warnings) = shogi::write(&records, to, target.csa_version);
            Ok(Converted {
                bytes,
                report,
                warnings,
            })
        }
        Game::Chu => {
            let to = chu::parse_format(target.format)?;
            let (records, report) = chu::load(name, path, read.format, bytes)?;
            let (bytes, warnings) = chu::write(&records, to);
            Ok(Converted {
                bytes,
                report,
                warnings,
            })
        }
        Game::Cetkaik => {
            let to = cetkaik::parse_target(target.format)?;
            let rules = cetkaik::rules(read.rules)?;
            let (game, report) = cetkaik::load(name, read.format, bytes, rules);
            let (bytes, warnings) = game.map(|g| cetkaik::write(&g, to)).unwrap_or_default();
            Ok(Converted {
                bytes,
                report,
                warnings,
            })
        }
    }
}

/// The position of a record after `ply` moves (the end when `None`), drawn for a terminal.
pub fn show(
    game: Game,
    name: &str,
    path: Option<&Path>,
    read: &ReadOptions<'_>,
    ply: Option<usize>,
    bytes: &[u8],
) -> Result<(String, FileReport), String> {
    match game {
        Game::Shogi => {
            let from = read.format.map(shogi::parse_format).transpose()?;
            let (records, report) = shogi::load(name, path, from, bytes);
            let record = records.first().ok_or("no record in the input")?;
            Ok((shogi::show(record, ply), report))
        }
        Game::Chu => {
            let (records, report) = chu::load(name, path, read.format, bytes)?;
            let record = records.first().ok_or("no record in the input")?;
            Ok((chu::show(record, ply), report))
        }
        Game::Cetkaik => {
            let rules = cetkaik::rules(read.rules)?;
            let (game, report) = cetkaik::load(name, read.format, bytes, rules);
            let game = game.ok_or("no record in the input")?;
            Ok((
                cetkaik::show(&game, ply, crate::stdout_is_terminal()),
                report,
            ))
        }
    }
}
