//! The league file: one `[[league]]` table per league.
//!
//! ```toml
//! [[league]]
//! game = "floodgate-300-10F"
//! every = "30m"               # or: at = ["00:00", "12:30", "Sun 09:00"] (UTC)
//! pairing = "least-difference" # or "round-robin" (with players = [...]), "random"
//! ```

use std::path::Path;

use serde::Deserialize;

use crate::game_name::GameName;
use crate::server::league::schedule::Schedule;

/// Why a league file cannot be used: each says which league and what to change.
#[derive(Debug, thiserror::Error)]
pub enum LeagueError {
    /// The file cannot be read.
    #[error("cannot read the league file {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not TOML, or has keys or values a league does not take.
    #[error("the league file {path} is not valid TOML for leagues: {message}")]
    Syntax {
        /// The file.
        path: String,
        /// What the TOML reader said.
        message: String,
    },
    /// One league is not usable.
    #[error("league {index}: {message}")]
    League {
        /// Which `[[league]]`, from 1.
        index: usize,
        /// What is wrong and what to write instead.
        message: String,
    },
}

/// How a round's players are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PairingStrategy {
    /// floodgate's default (`least_diff_pairing`): the pairing with the least total rating
    /// difference, with penalties for meeting the last opponent again.
    LeastDifference,
    /// Everyone in `players` meets everyone else in turn (the circle method); players of
    /// the round who are not waiting sit it out.
    RoundRobin,
    /// floodgate's `random_pairing`.
    Random,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    league: Vec<RawLeague>,
    #[serde(default)]
    ratings: RawRatings,
}

/// `[ratings]`: the rating method's parameters, `mk_rate`'s defaults when absent.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRatings {
    half_life_days: Option<f64>,
    min_games: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLeague {
    game: String,
    every: Option<String>,
    at: Option<Vec<String>>,
    #[serde(default = "least_difference")]
    pairing: PairingStrategy,
    players: Option<Vec<String>>,
}

fn least_difference() -> PairingStrategy {
    PairingStrategy::LeastDifference
}

/// One league, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct LeagueSpec {
    /// The game name players ask for to join the league.
    pub game: GameName,
    /// When rounds start.
    pub schedule: Schedule,
    /// How a round's players are paired.
    pub pairing: PairingStrategy,
    /// The fixed list of a round robin (login names).
    pub players: Vec<String>,
}

/// Every league of a server, and how its players are rated.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Leagues {
    /// The leagues, in the file's order.
    pub leagues: Vec<LeagueSpec>,
    /// How ratings are computed (`[ratings]`: `half_life_days`, `min_games`).
    pub method: kifu_stats::ratings::Method,
}

impl Leagues {
    /// Reads and checks a league file.
    pub fn load(path: &Path) -> Result<Leagues, LeagueError> {
        let text = std::fs::read_to_string(path).map_err(|source| LeagueError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Leagues::parse(&text).map_err(|e| match e {
            LeagueError::Syntax { message, .. } => LeagueError::Syntax {
                path: path.display().to_string(),
                message,
            },
            other => other,
        })
    }

    /// Checks the text of a league file.
    pub fn parse(text: &str) -> Result<Leagues, LeagueError> {
        let file: File = toml::from_str(text).map_err(|e| LeagueError::Syntax {
            path: String::new(),
            message: e.message().to_owned(),
        })?;
        let mut leagues = Vec::new();
        for (i, raw) in file.league.into_iter().enumerate() {
            let index = i + 1;
            let bad = |message: String| LeagueError::League { index, message };
            let game = GameName::parse(&raw.game).ok_or_else(|| {
                bad(format!(
                    "`{}` is not a game name like floodgate-300-10F",
                    raw.game
                ))
            })?;
            let schedule = match (raw.every, raw.at) {
                (Some(every), None) => {
                    Schedule::every(&every).map_err(|m| bad(format!("every = \"{every}\": {m}")))?
                }
                (None, Some(at)) => Schedule::at(&at).map_err(|m| bad(format!("at: {m}")))?,
                _ => {
                    return Err(bad(
                        "give either `every` (\"30m\") or `at` (a list of times)".into(),
                    ));
                }
            };
            let players = raw.players.unwrap_or_default();
            if raw.pairing == PairingStrategy::RoundRobin && players.len() < 2 {
                return Err(bad(
                    "a round robin needs `players`, a list of at least two login names".into(),
                ));
            }
            if leagues
                .iter()
                .any(|l: &LeagueSpec| l.game.name == game.name)
            {
                return Err(bad(format!("a league for {} is already given", game.name)));
            }
            leagues.push(LeagueSpec {
                game,
                schedule,
                pairing: raw.pairing,
                players,
            });
        }
        let mut method = kifu_stats::ratings::Method::default();
        if let Some(days) = file.ratings.half_life_days.filter(|d| *d > 0.0) {
            method.half_life_days = days;
        }
        if let Some(games) = file.ratings.min_games.filter(|g| *g >= 1.0) {
            method.min_games = games;
        }
        Ok(Leagues { leagues, method })
    }

    /// The league of a game name, if it is one.
    pub fn get(&self, game: &str) -> Option<&LeagueSpec> {
        self.leagues.iter().find(|l| l.game.name == game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_example_parses() {
        let leagues = Leagues::parse(
            "[[league]]\ngame = \"floodgate-300-10F\"\nevery = \"30m\"\npairing = \"least-difference\"\n",
        )
        .unwrap();
        assert_eq!(leagues.leagues.len(), 1);
        let l = leagues.get("floodgate-300-10F").unwrap();
        assert_eq!(l.pairing, PairingStrategy::LeastDifference);
        assert_eq!(l.schedule, Schedule::every("30m").unwrap());
    }

    #[test]
    fn several_leagues_and_times() {
        let leagues = Leagues::parse(
            r#"
            [[league]]
            game = "floodgate-300-10F"
            every = "30m"
            [[league]]
            game = "rr-600-10"
            at = ["09:00", "Sun 12:30"]
            pairing = "round-robin"
            players = ["a", "b", "c"]
            "#,
        )
        .unwrap();
        assert_eq!(leagues.leagues.len(), 2);
        assert_eq!(leagues.leagues[1].players, ["a", "b", "c"]);
    }

    #[test]
    fn mistakes_name_the_league_and_the_fix() {
        let cases = [
            (
                "[[league]]\ngame = \"nope\"\nevery = \"30m\"",
                "league 1: `nope` is not a game name",
            ),
            (
                "[[league]]\ngame = \"g-300-10\"",
                "league 1: give either `every`",
            ),
            (
                "[[league]]\ngame = \"g-300-10\"\nevery = \"soon\"",
                "league 1: every = \"soon\"",
            ),
            (
                "[[league]]\ngame = \"g-300-10\"\nevery = \"1m\"\npairing = \"round-robin\"",
                "needs `players`",
            ),
            (
                "[[league]]\ngame = \"g-300-10\"\nevery = \"1m\"\npairing = \"swiss\"",
                "not valid TOML for leagues",
            ),
            (
                "[[league]]\ngame = \"g-300-10\"\nevry = \"1m\"",
                "not valid TOML for leagues",
            ),
        ];
        for (text, want) in cases {
            let e = Leagues::parse(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }
}
