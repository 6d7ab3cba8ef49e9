//! What a match is, as the command line or a TOML match file says it: every setting optional,
//! a file's settings overlaid by the command line's, then checked and completed with the
//! defaults into a [`MatchConfig`].
//!
//! A match file holds what `kifu match`'s options hold, under the same names:
//!
//! ```toml
//! games = 200
//! concurrency = 2
//! openings = "book.sfen"        # relative to the file's folder, as `output` is
//! sprt = { elo0 = 0, elo1 = 100, alpha = 0.05, beta = 0.05 }
//! resign = { moves = 3, score = 1000 }
//! output = "match"
//! format = "kif"
//!
//! [[engine]]
//! name = "strong"
//! cmd = "sekirei"
//! nodes = 20000
//! options = { Threads = 1 }     # setoption, in the file's order
//!
//! [[engine]]
//! name = "weak"
//! cmd = "sekirei"
//! tc = "10+0.1"
//! ```

use std::path::{Path, PathBuf};

use kifu_shogi::DeclarationRule;
use kifu_stats::Sprt;
use serde::Deserialize;

use crate::adjudication::{DrawRule, ResignRule};
use crate::evaluation::RecordStyle;
use crate::game::Rules;
use crate::openings::{self, Opening};
use crate::runner::MatchConfig;
use crate::schedule::Mode;
use crate::spec::{EngineSpec, Limit, TimeControl};

/// Why settings make no match.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// The match file cannot be read.
    #[error("{path}: {reason}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A setting is missing, malformed or contradicts another (a usage error).
    #[error("{0}")]
    Invalid(String),
    /// The openings cannot be loaded.
    #[error("{0}")]
    Openings(String),
}

/// Every setting of a match, each optional: what a match file or the command line gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchSettings {
    /// The engines (none: not given here).
    pub engines: Vec<EngineSpec>,
    /// Match, gauntlet or round robin (default: match for two, round robin for more).
    pub mode: Option<Mode>,
    /// Games per pairing (default 2).
    pub games: Option<u64>,
    /// Games at once (default: the number of cores).
    pub concurrency: Option<usize>,
    /// Shuffles the openings.
    pub seed: Option<u64>,
    /// The openings' file or folder (default: the standard start).
    pub openings: Option<PathBuf>,
    /// Plies of each opening record played before the engines take over (default 16).
    pub opening_plies: Option<u32>,
    /// The limit of engines that set none.
    pub limit: Limit,
    /// Plies after which a game is drawn (default 512; 0: none).
    pub max_moves: Option<u32>,
    /// 27 or 24 (default 27).
    pub declaration: Option<u32>,
    /// Resignation adjudication.
    pub resign: Option<ResignRule>,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Ms a move may exceed its clock (default 1000).
    pub time_margin_ms: Option<u64>,
    /// Seconds an engine without a clock may think (default 60).
    pub hang_timeout_s: Option<u64>,
    /// The sequential test.
    pub sprt: Option<Sprt>,
    /// The records' event (default `kifu match`).
    pub event: Option<String>,
    /// The output directory (required, from one or the other).
    pub output: Option<PathBuf>,
    /// The records' format (default CSA).
    pub style: Option<RecordStyle>,
}

impl MatchSettings {
    /// These settings with `over`'s wherever `over` gives one (the command line over a file);
    /// engines given in `over` replace these engines as a whole.
    pub fn overlaid_by(self, over: MatchSettings) -> MatchSettings {
        MatchSettings {
            engines: if over.engines.is_empty() {
                self.engines
            } else {
                over.engines
            },
            mode: over.mode.or(self.mode),
            games: over.games.or(self.games),
            concurrency: over.concurrency.or(self.concurrency),
            seed: over.seed.or(self.seed),
            openings: over.openings.or(self.openings),
            opening_plies: over.opening_plies.or(self.opening_plies),
            limit: Limit {
                nodes: over.limit.nodes.or(self.limit.nodes),
                depth: over.limit.depth.or(self.limit.depth),
                movetime_ms: over.limit.movetime_ms.or(self.limit.movetime_ms),
                clock: over.limit.clock.or(self.limit.clock),
            },
            max_moves: over.max_moves.or(self.max_moves),
            declaration: over.declaration.or(self.declaration),
            resign: over.resign.or(self.resign),
            draw: over.draw.or(self.draw),
            time_margin_ms: over.time_margin_ms.or(self.time_margin_ms),
            hang_timeout_s: over.hang_timeout_s.or(self.hang_timeout_s),
            sprt: over.sprt.or(self.sprt),
            event: over.event.or(self.event),
            output: over.output.or(self.output),
            style: over.style.or(self.style),
        }
    }

    /// Reads a match file; relative `openings` and `output` paths are taken from the file's
    /// folder, so a match file and its book travel together.
    pub fn load(path: &Path) -> Result<MatchSettings, SettingsError> {
        let text = std::fs::read_to_string(path).map_err(|e| SettingsError::Read {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
        let base = path.parent().unwrap_or(Path::new(""));
        MatchSettings::from_toml(&text, base).map_err(|e| match e {
            SettingsError::Invalid(reason) => SettingsError::Read {
                path: path.to_owned(),
                reason,
            },
            other => other,
        })
    }

    /// Reads a match file's text; relative paths are joined to `base`.
    pub fn from_toml(text: &str, base: &Path) -> Result<MatchSettings, SettingsError> {
        let file: MatchFile =
            toml::from_str(text).map_err(|e| SettingsError::Invalid(e.to_string()))?;
        let invalid = SettingsError::Invalid;
        let engines = file
            .engine
            .iter()
            .map(EngineEntry::spec)
            .collect::<Result<Vec<_>, _>>()?;
        let mode = file
            .mode
            .as_deref()
            .map(|m| match m {
                "match" => Ok(Mode::Match),
                "gauntlet" => Ok(Mode::Gauntlet),
                "round-robin" => Ok(Mode::RoundRobin),
                other => Err(invalid(format!(
                    "mode = \"{other}\": match, gauntlet or round-robin"
                ))),
            })
            .transpose()?;
        let style = file
            .format
            .as_deref()
            .map(|f| {
                RecordStyle::from_name(f)
                    .ok_or_else(|| invalid(format!("format = \"{f}\": csa or kif")))
            })
            .transpose()?;
        let sprt = file
            .sprt
            .map(|s| s.to_spec().parse::<Sprt>())
            .transpose()
            .map_err(|e| invalid(format!("sprt: {e}")))?;
        Ok(MatchSettings {
            engines,
            mode,
            games: file.games,
            concurrency: file.concurrency,
            seed: file.seed,
            openings: file.openings.map(|p| base.join(p)),
            opening_plies: file.opening_plies,
            limit: Limit {
                nodes: file.nodes,
                depth: file.depth,
                movetime_ms: file.movetime,
                clock: file.tc.as_deref().map(parse_tc).transpose()?,
            },
            max_moves: file.max_moves,
            declaration: file.declaration,
            resign: file.resign.map(|r| ResignRule {
                moves: r.moves.max(1),
                score: r.score,
            }),
            draw: file.draw.map(|d| DrawRule {
                after_ply: d.after,
                moves: d.moves.max(1),
                score: d.score,
            }),
            time_margin_ms: file.time_margin,
            hang_timeout_s: file.hang_timeout,
            sprt,
            event: file.event,
            output: file.output.map(|p| base.join(p)),
            style,
        })
    }

    /// The match these settings describe, with the defaults filled in; the openings are
    /// loaded here.
    pub fn into_config(self) -> Result<MatchConfig, SettingsError> {
        let invalid = SettingsError::Invalid;
        let mut engines: Vec<EngineSpec> = Vec::new();
        for mut spec in self.engines {
            spec.limit = spec.limit.or(self.limit);
            if !spec.limit.is_bounded() {
                return Err(invalid(format!(
                    "engine {} has no limit: give it nodes=, depth=, movetime= or tc=, or the match --nodes, --depth, --movetime or --tc",
                    spec.name
                )));
            }
            if engines.iter().any(|e| e.name == spec.name) {
                return Err(invalid(format!(
                    "two engines are named {}: give each its own name=",
                    spec.name
                )));
            }
            engines.push(spec);
        }
        if engines.len() < 2 {
            return Err(invalid(
                "a match needs at least two engines (--engine, or [[engine]] in the match file)"
                    .to_owned(),
            ));
        }
        let mode = match self.mode {
            Some(Mode::Match) if engines.len() > 2 => {
                return Err(invalid(format!(
                    "a match is two engines; {} need a gauntlet or a round robin",
                    engines.len()
                )));
            }
            Some(mode) => mode,
            None if engines.len() > 2 => Mode::RoundRobin,
            None => Mode::Match,
        };
        let declaration = match self.declaration.unwrap_or(27) {
            27 => DeclarationRule::Points27,
            24 => DeclarationRule::Points24,
            other => return Err(invalid(format!("declaration {other}: 27 or 24"))),
        };
        let concurrency = self
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        if concurrency == 0 {
            return Err(invalid("concurrency must be at least 1".to_owned()));
        }
        let out_dir = self.output.ok_or_else(|| {
            invalid(
                "no output directory: give -o DIR, or output = \"DIR\" in the match file"
                    .to_owned(),
            )
        })?;
        let openings: Vec<Opening> = match &self.openings {
            Some(path) => openings::load(path, self.opening_plies.unwrap_or(16))
                .map_err(|e| SettingsError::Openings(e.to_string()))?,
            None => vec![Opening::startpos()],
        };
        Ok(MatchConfig {
            engines,
            mode,
            games: self.games.unwrap_or(2),
            concurrency,
            openings,
            seed: self.seed,
            rules: Rules {
                max_plies: self.max_moves.unwrap_or(512),
                declaration,
                resign: self.resign,
                draw: self.draw,
                margin_ms: self.time_margin_ms.unwrap_or(1000),
                hang_ms: self.hang_timeout_s.unwrap_or(60).saturating_mul(1000),
            },
            sprt: self.sprt,
            out_dir,
            event: self.event.unwrap_or_else(|| "kifu match".to_owned()),
            style: self.style.unwrap_or_default(),
        })
    }
}

fn parse_tc(text: &str) -> Result<TimeControl, SettingsError> {
    TimeControl::parse(text).map_err(|e| SettingsError::Invalid(format!("tc: {e}")))
}

/// The file's shape; unknown keys are refused, so a misspelt setting is not silently ignored.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct MatchFile {
    #[serde(default)]
    engine: Vec<EngineEntry>,
    mode: Option<String>,
    games: Option<u64>,
    concurrency: Option<usize>,
    seed: Option<u64>,
    openings: Option<PathBuf>,
    #[serde(alias = "opening_plies")]
    opening_plies: Option<u32>,
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime: Option<u64>,
    tc: Option<String>,
    #[serde(alias = "max_moves")]
    max_moves: Option<u32>,
    declaration: Option<u32>,
    resign: Option<ResignEntry>,
    draw: Option<DrawEntry>,
    #[serde(alias = "time_margin")]
    time_margin: Option<u64>,
    #[serde(alias = "hang_timeout")]
    hang_timeout: Option<u64>,
    sprt: Option<SprtEntry>,
    event: Option<String>,
    output: Option<PathBuf>,
    format: Option<String>,
}

/// `[[engine]]`: the words of an `--engine`, with `options` a table in the file's order.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineEntry {
    name: Option<String>,
    cmd: String,
    #[serde(default)]
    options: toml::Table,
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime: Option<u64>,
    tc: Option<String>,
}

impl EngineEntry {
    fn spec(&self) -> Result<EngineSpec, SettingsError> {
        let mut words = vec![format!("cmd={}", self.cmd)];
        if let Some(name) = &self.name {
            words.push(format!("name={name}"));
        }
        for (key, value) in &self.options {
            let value = match value {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(_) | toml::Value::Float(_) | toml::Value::Boolean(_) => {
                    value.to_string()
                }
                other => {
                    return Err(SettingsError::Invalid(format!(
                        "engine option {key} = {other}: a string, number or boolean"
                    )));
                }
            };
            words.push(format!("option.{key}={value}"));
        }
        if let Some(n) = self.nodes {
            words.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            words.push(format!("depth={d}"));
        }
        if let Some(ms) = self.movetime {
            words.push(format!("movetime={ms}"));
        }
        if let Some(tc) = &self.tc {
            words.push(format!("tc={tc}"));
        }
        EngineSpec::parse(&words).map_err(|e| SettingsError::Invalid(e.to_string()))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResignEntry {
    moves: usize,
    score: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DrawEntry {
    #[serde(default)]
    after: u32,
    moves: usize,
    score: i64,
}

/// `sprt = "elo0=0,elo1=100"` as on the command line, or a table of the same keys.
#[derive(Deserialize)]
#[serde(untagged)]
enum SprtEntry {
    Words(String),
    Table(SprtTable),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SprtTable {
    elo0: f64,
    elo1: f64,
    alpha: Option<f64>,
    beta: Option<f64>,
    model: Option<String>,
}

impl SprtEntry {
    /// The command line's form, which [`Sprt`] parses.
    fn to_spec(&self) -> String {
        match self {
            SprtEntry::Words(words) => words.clone(),
            SprtEntry::Table(t) => {
                let mut s = format!("elo0={},elo1={}", t.elo0, t.elo1);
                if let Some(a) = t.alpha {
                    s.push_str(&format!(",alpha={a}"));
                }
                if let Some(b) = t.beta {
                    s.push_str(&format!(",beta={b}"));
                }
                if let Some(m) = &t.model {
                    s.push_str(&format!(",model={m}"));
                }
                s
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"
games = 8
concurrency = 2
seed = 7
openings = "book.sfen"
max-moves = 300
declaration = 24
resign = { moves = 3, score = 1000 }
draw = { after = 80, moves = 8, score = 20 }
time-margin = 500
sprt = { elo0 = 0, elo1 = 100, alpha = 0.05, beta = 0.1, model = "logistic" }
event = "nightly"
output = "out"
format = "kif"
movetime = 100

[[engine]]
name = "strong"
cmd = "sekirei --threads 1"
nodes = 20000
options = { Threads = 1, USI_Hash = "64", Ponder = false }

[[engine]]
name = "weak"
cmd = "sekirei"
tc = "10+0.1"

[[engine]]
cmd = "/opt/engines/other"
"#;

    #[test]
    fn a_match_file_holds_what_the_command_line_holds() {
        let s = MatchSettings::from_toml(FILE, Path::new("/m")).unwrap();
        assert_eq!(s.engines.len(), 3);
        let strong = &s.engines[0];
        assert_eq!(strong.cmd, "sekirei --threads 1");
        assert_eq!(
            strong.options,
            [
                ("Threads".to_owned(), "1".to_owned()),
                ("USI_Hash".to_owned(), "64".to_owned()),
                ("Ponder".to_owned(), "false".to_owned()),
            ],
            "options keep the file's order"
        );
        assert_eq!(strong.limit.nodes, Some(20_000));
        assert_eq!(s.engines[1].limit.to_string(), "tc=10+0.1");
        assert_eq!(s.engines[2].name, "other");
        assert_eq!(s.openings.as_deref(), Some(Path::new("/m/book.sfen")));
        assert_eq!(s.output.as_deref(), Some(Path::new("/m/out")));
        assert_eq!(s.style, Some(RecordStyle::Kif));
        assert_eq!(
            s.resign,
            Some(ResignRule {
                moves: 3,
                score: 1000
            })
        );
        assert_eq!(
            s.draw,
            Some(DrawRule {
                after_ply: 80,
                moves: 8,
                score: 20
            })
        );
        assert_eq!(
            s.sprt,
            Some(
                "elo0=0,elo1=100,alpha=0.05,beta=0.1,model=logistic"
                    .parse()
                    .unwrap()
            )
        );
        // Without openings to load, the settings make the whole match.
        let s = MatchSettings {
            openings: None,
            ..s
        };
        let config = s.into_config().unwrap();
        assert_eq!(config.mode, Mode::RoundRobin);
        assert_eq!(
            (config.games, config.concurrency, config.seed),
            (8, 2, Some(7))
        );
        assert_eq!(config.rules.max_plies, 300);
        assert_eq!(config.rules.declaration, DeclarationRule::Points24);
        assert_eq!(config.rules.margin_ms, 500);
        assert_eq!(config.event, "nightly");
        // The match's movetime fills in only the engine that set no limit.
        assert_eq!(config.engines[2].limit.movetime_ms, Some(100));
        assert_eq!(config.engines[0].limit.movetime_ms, None);
    }

    #[test]
    fn the_command_line_overrides_the_file() {
        let file = MatchSettings::from_toml(FILE, Path::new("")).unwrap();
        let flags = MatchSettings {
            games: Some(40),
            style: Some(RecordStyle::Csa),
            ..MatchSettings::default()
        };
        let s = file.clone().overlaid_by(flags);
        assert_eq!(s.games, Some(40));
        assert_eq!(s.style, Some(RecordStyle::Csa));
        assert_eq!(s.concurrency, Some(2), "what the flags leave open stays");
        assert_eq!(s.engines, file.engines);
        let two = vec![
            EngineSpec::parse(&["cmd=a", "nodes=1"]).unwrap(),
            EngineSpec::parse(&["cmd=b", "nodes=1"]).unwrap(),
        ];
        let s = file.overlaid_by(MatchSettings {
            engines: two.clone(),
            ..MatchSettings::default()
        });
        assert_eq!(
            s.engines, two,
            "engines on the command line replace the file's"
        );
    }

    #[test]
    fn mistakes_in_a_match_file_are_named() {
        let err = |text: &str| {
            MatchSettings::from_toml(text, Path::new(""))
                .unwrap_err()
                .to_string()
        };
        assert!(err("gamez = 3").contains("gamez"), "{}", err("gamez = 3"));
        assert!(err("[[engine]]\nname = \"x\"").contains("cmd"));
        assert!(err("format = \"pgn\"").contains("csa or kif"));
        assert!(err("mode = \"swiss\"").contains("round-robin"));
        assert!(err("sprt = \"elo0=x\"").contains("sprt"));
        assert!(err("[[engine]]\ncmd = \"x\"\ntc = \"60\"").contains("MAIN+BYOYOMI"));
        let no_output = MatchSettings::from_toml(
            "[[engine]]\ncmd = \"a\"\nnodes = 1\n[[engine]]\ncmd = \"b\"\nnodes = 1",
            Path::new(""),
        )
        .unwrap()
        .into_config()
        .unwrap_err();
        assert!(no_output.to_string().contains("output"), "{no_output}");
    }
}
