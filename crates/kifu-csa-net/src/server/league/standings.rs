//! Ratings and standings from the server's store: every finished game rated by
//! [`kifu_stats::ratings`] (shogi-server's `mk_rate` method), as `%%RATING`, the records' rate
//! lines and `kifu csa-server standings` show them.

use std::collections::{BTreeMap, HashMap};

use jiff::Timestamp;
use jiff::civil::DateTime;
use kifu_stats::ratings::{Method, Outcome, RatedGame, Ratings, rate};

use crate::server::identity::name_of;
use crate::server::store::GameRow;

/// The ratings of a moment, with what `%%RATING` prints beside each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rated {
    /// The rating run itself.
    pub ratings: Ratings,
    /// Each player's last game day (`YYYY-MM-DD`), by player id.
    pub last_played: HashMap<String, String>,
}

/// Reasons of games that ended outside the rules: `mk_rate` counts them only when long.
const ABNORMAL: [&str; 2] = ["ABNORMAL", "CHUDAN"];

fn ended_at(row: &GameRow) -> Option<Timestamp> {
    let dt = DateTime::strptime("%Y/%m/%d %H:%M:%S", &row.end_time).ok()?;
    dt.to_zoned(jiff::tz::TimeZone::UTC)
        .ok()
        .map(|z| z.timestamp())
}

/// Rates every finished game of `rows` as of `now`.
pub fn rated(rows: &[GameRow], now: Timestamp, method: &Method) -> Rated {
    let mut games = Vec::new();
    let mut last_played = HashMap::new();
    for row in rows {
        let Some(end) = ended_at(row) else { continue };
        let outcome = match row.winner.as_str() {
            "+" => Outcome::BlackWin,
            "-" => Outcome::WhiteWin,
            _ => Outcome::Draw,
        };
        let day = end.strftime("%Y-%m-%d").to_string();
        for id in [&row.black_id, &row.white_id] {
            last_played.insert(id.clone(), day.clone());
        }
        games.push(RatedGame {
            black: row.black_id.clone(),
            white: row.white_id.clone(),
            outcome,
            age_days: (now.as_second() - end.as_second()).max(0) as f64 / 86_400.0,
            abnormal: ABNORMAL.contains(&row.reason.as_str()),
            plies: row.plies,
        });
    }
    Rated {
        ratings: rate(&games, method),
        last_played,
    }
}

/// [`rated`] as of now.
pub fn rated_now(rows: &[GameRow], method: &Method) -> Rated {
    rated(rows, Timestamp::now(), method)
}

impl Rated {
    /// The rows the store keeps of these ratings: `(player id, rating, group, wins, losses)`,
    /// unrated players with rating 0 in group 999 as `mk_rate` lists them.
    pub fn rows(&self) -> Vec<(String, i64, i64, f64, f64)> {
        let mut rows = Vec::new();
        for (g, players) in self.ratings.groups.iter().enumerate() {
            for p in players {
                rows.push((p.id.clone(), p.rate, g as i64, p.wins, p.losses));
            }
        }
        for p in &self.ratings.unrated {
            rows.push((p.id.clone(), 0, 999, p.wins, p.losses));
        }
        rows
    }

    /// The rating of a player id, if rated.
    pub fn rate_of(&self, id: &str) -> Option<i64> {
        self.ratings.get(id).map(|(_, p)| p.rate)
    }

    /// floodgate's record header lines for a game between two player ids, when either is
    /// rated: `rating:<black id>:<white id>`, then `black_rate:<id>:<rate>` and
    /// `white_rate:<id>:<rate>` for each rated one (shogi-server writes a rate only when it
    /// is not zero, that is, rated).
    pub fn rate_lines(&self, black: &str, white: &str) -> Vec<String> {
        let (b, w) = (self.rate_of(black), self.rate_of(white));
        if b.is_none() && w.is_none() {
            return Vec::new();
        }
        let mut lines = vec![format!("rating:{black}:{white}")];
        if let Some(r) = b {
            lines.push(format!("black_rate:{black}:{r}"));
        }
        if let Some(r) = w {
            lines.push(format!("white_rate:{white}:{r}"));
        }
        lines
    }

    /// `%%RATING`'s answer in shogi-server's format: `##[RATING] <name> \t <rate> @<day>`, by
    /// rating, highest first, then `##[RATING] +OK`.
    pub fn rating_lines(&self) -> Vec<String> {
        let mut players: Vec<_> = self.ratings.groups.iter().flatten().collect();
        players.sort_by(|a, b| b.rate.cmp(&a.rate).then(a.id.cmp(&b.id)));
        let mut out: Vec<String> = players
            .iter()
            .map(|p| {
                let day = self
                    .last_played
                    .get(&p.id)
                    .map(String::as_str)
                    .unwrap_or("");
                format!("##[RATING] {} \t {:4} @{day}", name_of(&p.id), p.rate)
            })
            .collect();
        out.push("##[RATING] +OK".to_owned());
        out
    }
}

/// Wins, draws and losses of each player id against each other, from finished games.
pub fn crosstable(rows: &[GameRow]) -> BTreeMap<String, BTreeMap<String, [u32; 3]>> {
    let mut table: BTreeMap<String, BTreeMap<String, [u32; 3]>> = BTreeMap::new();
    for row in rows.iter().filter(|r| !r.end_time.is_empty()) {
        let (b, w) = match row.winner.as_str() {
            "+" => (0, 2),
            "-" => (2, 0),
            _ => (1, 1),
        };
        table
            .entry(row.black_id.clone())
            .or_default()
            .entry(row.white_id.clone())
            .or_default()[b] += 1;
        table
            .entry(row.white_id.clone())
            .or_default()
            .entry(row.black_id.clone())
            .or_default()[w] += 1;
    }
    table
}

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// Player id.
    pub id: String,
    /// Login name (the id without its trip digest).
    pub name: String,
    /// Rating, `None` while unrated.
    pub rate: Option<i64>,
    /// Rating group (0 = the largest), `None` while unrated.
    pub group: Option<usize>,
    /// Games won (every finished game, unweighted).
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// Every player of `rows`: the rated ones by rating (highest first), then the unrated ones by
/// score.
pub fn standings(rows: &[GameRow], rated: &Rated) -> Vec<Standing> {
    let mut tally: BTreeMap<&str, [u32; 3]> = BTreeMap::new();
    for row in rows.iter().filter(|r| !r.end_time.is_empty()) {
        let (b, w) = match row.winner.as_str() {
            "+" => (0, 2),
            "-" => (2, 0),
            _ => (1, 1),
        };
        tally.entry(&row.black_id).or_default()[b] += 1;
        tally.entry(&row.white_id).or_default()[w] += 1;
    }
    let mut out: Vec<Standing> = tally
        .into_iter()
        .map(|(id, [wins, draws, losses])| {
            let found = rated.ratings.get(id);
            Standing {
                id: id.to_owned(),
                name: name_of(id).to_owned(),
                rate: found.map(|(_, p)| p.rate),
                group: found.map(|(g, _)| g),
                wins,
                draws,
                losses,
            }
        })
        .collect();
    let score = |s: &Standing| 2 * s.wins + s.draws;
    out.sort_by(|a, b| {
        (a.rate.is_none(), a.group)
            .cmp(&(b.rate.is_none(), b.group))
            .then(b.rate.cmp(&a.rate))
            .then(score(b).cmp(&score(a)))
            .then(a.id.cmp(&b.id))
    });
    out
}
