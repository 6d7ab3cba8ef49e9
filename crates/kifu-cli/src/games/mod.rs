//! Which game a file belongs to, and each game's adapter from bytes to reports and output.

use std::path::Path;

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

impl Game {
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
    pub fn wants(self, path: &Path) -> bool {
        match self {
            Game::Shogi => shogi::format_of_path(path).is_some(),
            Game::Chu | Game::Cetkaik => false,
        }
    }

    /// The game of a file: by extension where that is unambiguous, else by its first bytes.
    pub fn detect(path: Option<&Path>, _bytes: &[u8]) -> Option<Game> {
        if path.is_some_and(|p| Game::Shogi.wants(p)) {
            return Some(Game::Shogi);
        }
        if path.is_none() {
            return Some(Game::Shogi);
        }
        None
    }
}

/// Reads and validates one file of `game`.
pub fn check(
    game: Game,
    name: &str,
    path: Option<&Path>,
    forced_shogi: Option<kifu_shogi::formats::Format>,
    bytes: &[u8],
) -> crate::report::FileReport {
    match game {
        Game::Shogi => shogi::check(name, path, forced_shogi, bytes),
        Game::Chu | Game::Cetkaik => crate::report::FileReport::failed(
            name.to_string(),
            game.name(),
            "?",
            format!(
                "{} records are not wired into the command line yet",
                game.name()
            ),
        ),
    }
}

/// A record turned into another format.
pub struct Converted {
    pub bytes: Vec<u8>,
    /// Extension for the output file.
    pub extension: &'static str,
    /// What reading the input found.
    pub report: crate::report::FileReport,
    /// What the target format could not hold.
    pub warnings: Vec<String>,
}

/// Options a conversion may need besides the target format.
pub struct ConvertOptions<'a> {
    pub from: Option<&'a str>,
    pub to: &'a str,
    pub csa_version: kifu_shogi::formats::csa::CsaVersion,
}

pub fn convert(
    game: Game,
    name: &str,
    path: Option<&Path>,
    options: &ConvertOptions<'_>,
    bytes: &[u8],
) -> Result<Converted, String> {
    match game {
        Game::Shogi => {
            let to = shogi::parse_format(options.to)?;
            let from = options.from.map(shogi::parse_format).transpose()?;
            let (records, report) = shogi::load(name, path, from, bytes);
            let (bytes, warnings) = shogi::write(&records, to, options.csa_version);
            Ok(Converted {
                bytes,
                extension: to.extension(),
                report,
                warnings,
            })
        }
        Game::Chu | Game::Cetkaik => Err(format!(
            "{} records are not wired into the command line yet",
            game.name()
        )),
    }
}

/// The position of a record after `ply` moves (the end when `None`), drawn for a terminal.
pub fn show(
    game: Game,
    name: &str,
    path: Option<&Path>,
    from: Option<&str>,
    ply: Option<usize>,
    bytes: &[u8],
) -> Result<(String, crate::report::FileReport), String> {
    match game {
        Game::Shogi => {
            let from = from.map(shogi::parse_format).transpose()?;
            let (records, report) = shogi::load(name, path, from, bytes);
            let record = records.first().ok_or("no record in the input")?;
            let (pos, played, last) = shogi::position_at(record, ply);
            let mut out = String::new();
            use kifu_record::HeaderField;
            let players = [
                ("先手", record.header.get(HeaderField::FirstPlayer)),
                ("後手", record.header.get(HeaderField::SecondPlayer)),
            ];
            for (key, value) in players {
                if let Some(v) = value {
                    out.push_str(&format!("{key}：{v}\n"));
                }
            }
            match last {
                Some(mv) => out.push_str(&format!("手数＝{played}  {mv}  まで\n")),
                None => out.push_str("手数＝0\n"),
            }
            out.push_str(&pos.diagram());
            out.push_str(&format!("SFEN: {}\n", pos.to_sfen()));
            Ok((out, report))
        }
        Game::Chu | Game::Cetkaik => Err(format!(
            "{} records are not wired into the command line yet",
            game.name()
        )),
    }
}
