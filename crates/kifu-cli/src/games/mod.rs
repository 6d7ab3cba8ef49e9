//! Which game a file belongs to, and each game's adapter from bytes to reports and output.

use std::path::Path;

use kifu_records::shogi::csa::CsaVersion;

use kifu_cetkaik::ckka::GameRecord;
use kifu_chu::record::ChuRecord;
use kifu_records::shogi::ShogiRecord;

use crate::error::CliError;
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
        // An extension only shogi uses decides before the content is looked at: the chu
        // sniffer took a CSA record whose comment mentions 中将棋 for chu, and reading every
        // CSA file three more times for it was 3% of `kifu check` over a directory of them.
        if let Some("csa" | "ki2" | "ki2u" | "jkf") = ext.as_deref() {
            return Some(Game::Shogi);
        }
        let text = lossy_utf8(bytes);
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
            // `Game::Shogi.wants(path)`, on the extension already at hand.
            Some(e) if kifu_records::shogi::Format::from_name(e).is_some() => {
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

/// The bytes as text for sniffing: borrowed when they are UTF-8 (every ASCII file is), with
/// U+FFFD for what is not. `String::from_utf8_lossy` gives the same text, but it walks valid
/// input byte by byte, without the word-at-a-time ASCII path of `str::from_utf8`: 3–4% of
/// `kifu check`'s time on a directory of small CSA files.
pub fn lossy_utf8(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Checks the names given on the command line before any file is read, so that a mistyped
/// format or rule set is a usage error (exit 2) and not one failure per file.
pub fn validate(
    game: Option<Game>,
    read: &ReadOptions<'_>,
    to: Option<&str>,
) -> Result<(), CliError> {
    if let Some(name) = read.format {
        known_format(game, name, "--format", |g, n| match g {
            Game::Shogi => shogi::parse_format(n).map(drop),
            Game::Chu => chu::parse_format(n).map(drop),
            Game::Cetkaik => cetkaik::parse_target(n).map(drop),
        })?;
    }
    if let Some(name) = to {
        known_format(game, name, "--to", |g, n| {
            target_extension(
                g,
                &Target {
                    format: n,
                    csa_version: CsaVersion::V30,
                },
            )
            .map(drop)
        })?;
    }
    if let Some(rules) = read.rules {
        cetkaik::rules(Some(rules)).map_err(CliError::Usage)?;
    }
    Ok(())
}

fn known_format(
    game: Option<Game>,
    name: &str,
    flag: &str,
    parse: impl Fn(Game, &str) -> Result<(), String>,
) -> Result<(), CliError> {
    match game {
        Some(g) => parse(g, name).map_err(|e| CliError::Usage(format!("{flag}: {e}"))),
        None if Game::ALL.iter().any(|&g| parse(g, name).is_ok()) => Ok(()),
        None => Err(CliError::Usage(format!(
            "{flag}: unknown format `{name}`; shogi: csa, kif, kifu, ki2, ki2u, jkf, usi; \
             chu (--game chu): csl, csl-ja, kif, usi, json; \
             cetkaik (--game cetkaik): ckka, ckka1, ckka2, ckka3, json"
        ))),
    }
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

/// Whether `target` holds several games in one file (CSA, USI lists, chu NDJSON).
pub fn target_holds_many(game: Game, target: &Target<'_>) -> Result<bool, CliError> {
    Ok(match game {
        Game::Shogi => {
            use kifu_records::shogi::Format;
            matches!(
                shogi::parse_format(target.format).map_err(CliError::Usage)?,
                Format::Csa | Format::Usi
            )
        }
        Game::Chu => {
            use kifu_chu::record::Format;
            matches!(
                chu::parse_format(target.format).map_err(CliError::Usage)?,
                Format::Usi | Format::Json
            )
        }
        Game::Cetkaik => {
            cetkaik::parse_target(target.format).map_err(CliError::Usage)?;
            false
        }
    })
}

/// The records of one file, of whichever game.
pub enum Records {
    Shogi(Vec<ShogiRecord>),
    Chu(Vec<ChuRecord>),
    Cetkaik(Vec<GameRecord>),
}

/// One file read: its records and what reading them found.
pub struct Loaded {
    pub records: Records,
    pub report: FileReport,
}

impl Records {
    pub fn len(&self) -> usize {
        match self {
            Records::Shogi(r) => r.len(),
            Records::Chu(r) => r.len(),
            Records::Cetkaik(r) => r.len(),
        }
    }

    /// Keeps only record `n` (counted from 1), or says how many there are.
    pub fn pick(self, n: usize, name: &str) -> Result<Records, CliError> {
        let count = self.len();
        if n == 0 || n > count {
            return Err(no_such_record(n, count, name));
        }
        fn nth<T>(mut v: Vec<T>, n: usize) -> Vec<T> {
            vec![v.swap_remove(n - 1)]
        }
        Ok(match self {
            Records::Shogi(r) => Records::Shogi(nth(r, n)),
            Records::Chu(r) => Records::Chu(nth(r, n)),
            Records::Cetkaik(r) => Records::Cetkaik(nth(r, n)),
        })
    }

    /// Writes the records in `range` as one file of `target`, with what it could not hold.
    pub fn write(
        &self,
        range: std::ops::Range<usize>,
        target: &Target<'_>,
    ) -> Result<(Vec<u8>, Vec<String>), CliError> {
        Ok(match self {
            Records::Shogi(r) => {
                let to = shogi::parse_format(target.format).map_err(CliError::Usage)?;
                shogi::write(&r[range], to, target.csa_version)
            }
            Records::Chu(r) => {
                let to = chu::parse_format(target.format).map_err(CliError::Usage)?;
                chu::write(&r[range], to)
            }
            Records::Cetkaik(r) => {
                let to = cetkaik::parse_target(target.format).map_err(CliError::Usage)?;
                let mut bytes = Vec::new();
                let mut warnings = Vec::new();
                for game in &r[range] {
                    let (one, lost) = cetkaik::write(game, to);
                    bytes.extend(one);
                    warnings.extend(lost);
                }
                (bytes, warnings)
            }
        })
    }
}

/// Reads one file of `game` (every record in it), replaying every move.
pub fn load(
    game: Game,
    name: &str,
    path: Option<&Path>,
    read: &ReadOptions<'_>,
    bytes: &[u8],
) -> Result<Loaded, CliError> {
    let (records, mut report) = match game {
        Game::Shogi => {
            let from = read
                .format
                .map(shogi::parse_format)
                .transpose()
                .map_err(CliError::Usage)?;
            let (records, report) = shogi::load(name, path, from, bytes);
            (Records::Shogi(records), report)
        }
        Game::Chu => {
            let (records, report) = chu::load(name, path, read.format, bytes)?;
            (Records::Chu(records), report)
        }
        Game::Cetkaik => {
            let rules = cetkaik::rules(read.rules).map_err(CliError::Usage)?;
            let (record, report) = cetkaik::load(name, read.format, bytes, rules);
            (Records::Cetkaik(record.into_iter().collect()), report)
        }
    };
    report.require_a_record(bytes);
    Ok(Loaded { records, report })
}

/// Reads one file record by record: `each` gets each record's index (from 0), the record
/// alone and whether it was read without errors, and the record is dropped before the next is
/// read (shogi; chu and cetkaik files are read whole first, and a record of them is valid when
/// the whole file is). `only` (from 0) hands out that record alone.
pub fn stream(
    game: Game,
    name: &str,
    path: Option<&Path>,
    read: &ReadOptions<'_>,
    bytes: &[u8],
    only: Option<usize>,
    each: &mut dyn FnMut(usize, Records, bool) -> Result<(), CliError>,
) -> Result<FileReport, CliError> {
    let mut report = if game == Game::Shogi {
        let from = read
            .format
            .map(shogi::parse_format)
            .transpose()
            .map_err(CliError::Usage)?;
        shogi::stream(
            name,
            path,
            from,
            bytes,
            only,
            &mut |index, record, valid| each(index, Records::Shogi(vec![record]), valid),
        )?
    } else {
        let loaded = load(game, name, path, read, bytes)?;
        let valid = loaded.report.is_valid();
        let mut report = loaded.report;
        let records = match only {
            // Nothing to choose from: the report says why.
            Some(_) if loaded.records.len() == 0 => Vec::new(),
            Some(n) => {
                let picked = loaded.records.pick(n + 1, name)?;
                report.records = 1;
                vec![(n, picked)]
            }
            None => split(loaded.records).into_iter().enumerate().collect(),
        };
        for (index, one) in records {
            each(index, one, valid)?;
        }
        return Ok(report);
    };
    report.require_a_record(bytes);
    Ok(report)
}

/// One `Records` per record.
fn split(records: Records) -> Vec<Records> {
    match records {
        Records::Shogi(r) => r.into_iter().map(|x| Records::Shogi(vec![x])).collect(),
        Records::Chu(r) => r.into_iter().map(|x| Records::Chu(vec![x])).collect(),
        Records::Cetkaik(r) => r.into_iter().map(|x| Records::Cetkaik(vec![x])).collect(),
    }
}

/// Reads and validates one file of `game`.
pub fn check(
    game: Game,
    name: &str,
    path: Option<&Path>,
    read: &ReadOptions<'_>,
    bytes: &[u8],
    only: Option<usize>,
) -> FileReport {
    // Each record is dropped as soon as it is checked.
    match stream(game, name, path, read, bytes, only, &mut |_, _, _| Ok(())) {
        Ok(report) => report,
        Err(e) => FileReport::failed(name.to_string(), game.name(), "?", e.to_string()),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shogi_only_extension_decides_the_game() {
        let csa = "V2.2\n'中将棋ではなく本将棋の棋譜\nPI\n+\n+7776FU\n%TORYO\n";
        assert!(chu::sniff(csa), "the content alone looks like chu");
        let detect = |name: &str| Game::detect(Some(Path::new(name)), csa.as_bytes());
        assert_eq!(detect("game.csa"), Some(Game::Shogi));
        assert_eq!(detect("GAME.CSA"), Some(Game::Shogi));
        // Extensions chu shares with shogi still go by the content.
        assert_eq!(detect("game.kif"), Some(Game::Chu));
    }
}
