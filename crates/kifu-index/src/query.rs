//! The archive's questions: what was played from a position ([`explore`]) and which games
//! reached it ([`find`]), with the same filters for both.

use serde::Serialize;

use kifu_shogi::{Color, Position};

use crate::archive::{Archive, ArchiveError};
use crate::entry::Entry;
use crate::games::{GameMeta, GameResult, GameSummary, parse_day};
use crate::key::{hex, move_of_code, position_key};

/// Which games a question looks at. Every condition given must hold.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// A player's name contains this (either side; case-insensitive).
    pub player: Option<String>,
    /// Both players' ratings are at least this (a game without ratings fails).
    pub min_rating: Option<f32>,
    /// The game started on or after this day (days since 1970-01-01).
    pub from_day: Option<i32>,
    /// The game started on or before this day.
    pub to_day: Option<i32>,
    /// The event contains this (case-insensitive).
    pub event: Option<String>,
    /// The game's result.
    pub result: Option<GameResult>,
}

impl Filter {
    /// Reads a `YYYY-MM-DD` bound.
    pub fn day(text: &str) -> Result<i32, String> {
        parse_day(text).ok_or_else(|| format!("`{text}` is no date (YYYY-MM-DD)"))
    }

    /// True when the filter lets every game through.
    pub fn is_empty(&self) -> bool {
        self.player.is_none()
            && self.min_rating.is_none()
            && self.from_day.is_none()
            && self.to_day.is_none()
            && self.event.is_none()
            && self.result.is_none()
    }

    /// [`Filter::passes`] for a game whose summary is at hand.
    fn passes_summary_of(
        &self,
        archive: &Archive,
        game: u32,
        summary: &GameSummary,
    ) -> Result<bool, ArchiveError> {
        if !self.passes_summary(summary) {
            return Ok(false);
        }
        if self.needs_row() {
            return Ok(self.passes_row(&archive.game(game)?));
        }
        Ok(true)
    }

    fn needs_row(&self) -> bool {
        self.player.is_some() || self.event.is_some()
    }

    fn passes_summary(&self, s: &GameSummary) -> bool {
        if let Some(min) = self.min_rating
            && !(s.black_rating.is_some_and(|r| r >= min)
                && s.white_rating.is_some_and(|r| r >= min))
        {
            return false;
        }
        if (self.from_day.is_some() || self.to_day.is_some())
            && !s.day.is_some_and(|d| {
                self.from_day.is_none_or(|f| d >= f) && self.to_day.is_none_or(|t| d <= t)
            })
        {
            return false;
        }
        self.result.is_none_or(|r| r == s.result)
    }

    fn passes_row(&self, meta: &GameMeta) -> bool {
        let contains = |hay: &Option<String>, needle: &str| {
            hay.as_deref()
                .is_some_and(|h| h.to_lowercase().contains(&needle.to_lowercase()))
        };
        self.player
            .as_deref()
            .is_none_or(|p| contains(&meta.black, p) || contains(&meta.white, p))
            && self
                .event
                .as_deref()
                .is_none_or(|e| contains(&meta.event, e))
    }

    /// Whether game `game` passes; reads its row only when a condition needs it.
    pub fn passes(&self, archive: &Archive, game: u32) -> Result<bool, ArchiveError> {
        self.passes_summary_of(archive, game, &archive.summary(game))
    }
}

/// Reads a position as the questions take it: `startpos`, an SFEN (the move number may be
/// left out), or a USI `position` command's words (`startpos moves 7g7f 3c3d`,
/// `sfen … moves …`).
pub fn parse_position(text: &str) -> Result<Position, String> {
    let text = text.trim();
    let words: Vec<&str> = text.split_whitespace().collect();
    let command = matches!(words.first(), Some(&"startpos" | &"sfen" | &"position"));
    if command {
        return kifu_shogi::usi::parse_position_command(text)
            .map(|c| c.end())
            .map_err(|e| e.to_string());
    }
    let sfen = if words.len() == 3 {
        format!("{text} 1")
    } else {
        text.to_owned()
    };
    Position::from_sfen(&sfen).map_err(|e| format!("`{text}` is no position: {e}"))
}

/// A game as a question lists it.
#[derive(Clone, Debug, Serialize)]
pub struct GameRef {
    /// The game's number in the archive.
    pub game: u32,
    pub file: String,
    /// Counted from 1.
    pub record: u32,
    /// The ply at which the game reached the position (moves played before it).
    pub ply: u16,
    /// The move the game played from it (USI), if it did not end there.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    pub black_rating: Option<f64>,
    pub white_rating: Option<f64>,
    pub date: Option<String>,
    pub event: Option<String>,
    pub result: GameResult,
    pub plies: u32,
    pub game_key: String,
}

impl GameRef {
    fn of(meta: GameMeta, ply: u16, code: u16) -> GameRef {
        GameRef {
            game: meta.game,
            file: meta.file,
            record: meta.record,
            ply,
            mv: move_of_code(code).map(|m| m.usi()),
            black: meta.black,
            white: meta.white,
            black_rating: meta.black_rating,
            white_rating: meta.white_rating,
            date: meta.date,
            event: meta.event,
            result: meta.result,
            plies: meta.plies,
            game_key: meta.game_key,
        }
    }
}

/// Wins, draws and losses for the side to move at the position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Results {
    pub win: u64,
    pub draw: u64,
    pub loss: u64,
    /// Games without a stated result.
    pub unknown: u64,
}

impl Results {
    fn add(&mut self, result: GameResult, to_move: Color) {
        match (result, to_move) {
            (GameResult::BlackWin, Color::Black) | (GameResult::WhiteWin, Color::White) => {
                self.win += 1
            }
            (GameResult::BlackWin, _) | (GameResult::WhiteWin, _) => self.loss += 1,
            (GameResult::Draw, _) => self.draw += 1,
            (GameResult::Unknown, _) => self.unknown += 1,
        }
    }
}

/// One move played from the position.
#[derive(Clone, Debug, Serialize)]
pub struct MoveStats {
    /// The move, USI.
    #[serde(rename = "move")]
    pub mv: String,
    /// Games that played it here.
    pub games: u64,
    /// How those games ended, for the side that played it.
    pub results: Results,
    /// The mean of both players' ratings over those games that have them.
    pub average_rating: Option<f64>,
    /// The latest start date of those games (`YYYY-MM-DD`).
    pub last_played: Option<String>,
}

/// What [`explore`] found.
#[derive(Clone, Debug, Serialize)]
pub struct Exploration {
    pub position: String,
    pub key: String,
    pub side_to_move: &'static str,
    /// Games that reached the position (each once, however often it recurred).
    pub games: u64,
    pub results: Results,
    /// Games whose main line ended at the position.
    pub ended_here: u64,
    /// By how many games played them, most first.
    pub moves: Vec<MoveStats>,
    /// The games with the highest mean rating.
    pub top_games: Vec<GameRef>,
    /// The games with the latest start dates.
    pub latest_games: Vec<GameRef>,
}

/// The first `top` items in an order, of a stream of any length, in linear time: items are
/// gathered until twice `top` are held, then cut back to the best `top`; after the first cut,
/// an item not better than the worst kept is turned away with one comparison.
struct Best<T, F> {
    top: usize,
    order: F,
    held: Vec<T>,
    /// The worst item kept at the last cut.
    bar: Option<T>,
}

impl<T: Copy, F: Fn(&T, &T) -> std::cmp::Ordering> Best<T, F> {
    fn new(top: usize, order: F) -> Best<T, F> {
        Best {
            top,
            order,
            held: Vec::new(),
            bar: None,
        }
    }

    fn offer(&mut self, item: T) {
        if self.top == 0
            || self
                .bar
                .is_some_and(|bar| (self.order)(&item, &bar) != std::cmp::Ordering::Less)
        {
            return;
        }
        self.held.push(item);
        if self.held.len() >= 2 * self.top {
            self.held.select_nth_unstable_by(self.top - 1, &self.order);
            self.held.truncate(self.top);
            // select_nth_unstable leaves the `top`-th best at its place, the better before it.
            self.bar = Some(self.held[self.top - 1]);
        }
    }

    /// The best `top`, best first.
    fn into_sorted(mut self) -> Vec<T> {
        self.held.sort_by(&self.order);
        self.held.truncate(self.top);
        self.held
    }
}

/// The entries of a position grouped by game, in game order, keeping games that pass.
fn games_at<'a>(
    archive: &'a Archive,
    position: &Position,
    filter: &'a Filter,
) -> impl Iterator<Item = Result<(u32, Vec<Entry>), ArchiveError>> + 'a {
    let mut entries = archive.entries(position_key(position)).peekable();
    std::iter::from_fn(move || {
        loop {
            let first = entries.next()?;
            let mut group = vec![first];
            while let Some(e) = entries.next_if(|e| e.game == first.game) {
                group.push(e);
            }
            match filter.passes(archive, first.game) {
                Ok(true) => return Some(Ok((first.game, group))),
                Ok(false) => continue,
                Err(e) => return Some(Err(e)),
            }
        }
    })
}

fn day_text(day: i32) -> String {
    // Inverse of days_from_civil (Howard Hinnant's civil_from_days).
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i32::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The moves played from `position`, with counts, results and ratings, and the top and latest
/// `top` games that reached it.
pub fn explore(
    archive: &Archive,
    position: &Position,
    filter: &Filter,
    top: usize,
) -> Result<Exploration, ArchiveError> {
    struct Tally {
        games: u64,
        results: Results,
        rating_sum: f64,
        rated: u64,
        last_day: Option<i32>,
    }
    let to_move = position.turn();
    // The tallies of the moves seen, found by move code through `slots` (a code is 15 bits):
    // no search per game.
    let mut tallies: Vec<(u16, Tally)> = Vec::new();
    let mut slots = vec![u32::MAX; 1 << 15];
    let mut games = 0u64;
    let mut results = Results::default();
    let mut ended_here = 0u64;
    // The `top` best of the games seen by mean rating and by day, kept as they come: the
    // start position is reached by every game.
    let mut by_rating = Best::new(top, |a: &(f32, u32, u16, u16), b: &(f32, u32, u16, u16)| {
        b.0.total_cmp(&a.0).then(a.1.cmp(&b.1))
    });
    let mut by_day = Best::new(top, |a: &(i32, u32, u16, u16), b: &(i32, u32, u16, u16)| {
        b.0.cmp(&a.0).then(a.1.cmp(&b.1))
    });
    let filtering = !filter.is_empty();
    // This loop runs once per game that reached the position — a million times for the
    // start of a million-game archive — so it allocates nothing per game: a game's moves
    // from the position go into one reused buffer.
    let mut codes: Vec<u16> = Vec::new();
    let key = position_key(position);
    for run in archive.entry_runs(key) {
        let mut rest = run
            .chunks_exact(Entry::SIZE)
            .map(Entry::from_bytes)
            .peekable();
        while let Some(first) = rest.next() {
            let game = first.game;
            codes.clear();
            codes.push(first.move_code);
            while let Some(e) = rest.next_if(|e| e.game == game) {
                codes.push(e.move_code);
            }
            let summary = archive.summary(game);
            if filtering && !filter.passes_summary_of(archive, game, &summary)? {
                continue;
            }
            games += 1;
            results.add(summary.result, to_move);
            let rating = summary.mean_rating();
            if let Some(r) = rating {
                by_rating.offer((r, game, first.ply, first.move_code));
            }
            if let Some(d) = summary.day {
                by_day.offer((d, game, first.ply, first.move_code));
            }
            // A game counts once for each distinct move it played here.
            if codes.len() > 1 {
                codes.sort_unstable();
                codes.dedup();
            }
            for &code in &codes {
                if code == 0 {
                    ended_here += 1;
                    continue;
                }
                let slot = &mut slots[usize::from(code) & 0x7fff];
                if *slot == u32::MAX {
                    *slot = tallies.len() as u32;
                    tallies.push((
                        code,
                        Tally {
                            games: 0,
                            results: Results::default(),
                            rating_sum: 0.0,
                            rated: 0,
                            last_day: None,
                        },
                    ));
                }
                let t = &mut tallies[*slot as usize].1;
                t.games += 1;
                t.results.add(summary.result, to_move);
                if let Some(r) = rating {
                    t.rating_sum += f64::from(r);
                    t.rated += 1;
                }
                t.last_day = t.last_day.max(summary.day);
            }
        }
    }
    let moves = tallies;
    let by_rating = by_rating.into_sorted();
    let by_day = by_day.into_sorted();
    let mut moves: Vec<MoveStats> = moves
        .into_iter()
        .map(|(code, t)| MoveStats {
            mv: move_of_code(code).map_or_else(|| format!("?{code}"), |m| m.usi()),
            games: t.games,
            results: t.results,
            average_rating: (t.rated > 0).then(|| t.rating_sum / t.rated as f64),
            last_played: t.last_day.map(day_text),
        })
        .collect();
    moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.mv.cmp(&b.mv)));
    let refs = |list: Vec<(u32, u16, u16)>| -> Result<Vec<GameRef>, ArchiveError> {
        list.into_iter()
            .map(|(g, ply, code)| Ok(GameRef::of(archive.game(g)?, ply, code)))
            .collect()
    };
    Ok(Exploration {
        position: position.to_sfen(),
        key: hex(position_key(position)),
        side_to_move: if to_move == Color::Black {
            "black"
        } else {
            "white"
        },
        games,
        results,
        ended_here,
        moves,
        top_games: refs(
            by_rating
                .into_iter()
                .take(top)
                .map(|(_, g, p, m)| (g, p, m))
                .collect(),
        )?,
        latest_games: refs(
            by_day
                .into_iter()
                .take(top)
                .map(|(_, g, p, m)| (g, p, m))
                .collect(),
        )?,
    })
}

/// The games that reached `position` by any move order, each with the first ply at which it
/// did, in the order they were added; at most `limit` when given.
pub fn find(
    archive: &Archive,
    position: &Position,
    filter: &Filter,
    limit: Option<usize>,
) -> Result<Vec<GameRef>, ArchiveError> {
    let mut found = Vec::new();
    for group in games_at(archive, position, filter) {
        if limit.is_some_and(|l| found.len() >= l) {
            break;
        }
        let (game, entries) = group?;
        let first = entries[0];
        found.push(GameRef::of(archive.game(game)?, first.ply, first.move_code));
    }
    Ok(found)
}

/// A game of the archive that reached positions of a line of play ([`similar`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Similar {
    pub game: u32,
    /// How many of the positions asked about it reached.
    pub shared: u32,
    /// The highest ply, among those positions, at which it did (the asker's ply).
    pub deepest_ply: u32,
}

/// The archive's games that reached the most of `positions` (keys, each with the asker's ply
/// of it), most first, then the deepest, then by number; at most `limit`. A position more
/// than `common` games reached (the start, the main openings) says nothing of what makes a
/// game like another, and is passed over.
pub fn similar(
    archive: &Archive,
    positions: &[(u64, u32)],
    common: usize,
    limit: usize,
) -> Vec<Similar> {
    let mut tallies: std::collections::HashMap<u32, Similar> = std::collections::HashMap::new();
    let mut keys: Vec<(u64, u32)> = positions.to_vec();
    // Each position once, at its deepest ply.
    keys.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    keys.dedup_by_key(|k| k.0);
    let mut games: Vec<u32> = Vec::new();
    for (key, ply) in keys {
        games.clear();
        // Entries come by game, so a game's entries follow each other.
        for entry in archive.entries(key) {
            if games.last() != Some(&entry.game) {
                games.push(entry.game);
                if games.len() > common {
                    break;
                }
            }
        }
        if games.len() > common {
            continue;
        }
        for &game in &games {
            let t = tallies.entry(game).or_insert(Similar {
                game,
                shared: 0,
                deepest_ply: 0,
            });
            t.shared += 1;
            t.deepest_ply = t.deepest_ply.max(ply);
        }
    }
    let mut out: Vec<Similar> = tallies.into_values().collect();
    out.sort_unstable_by(|a, b| {
        b.shared
            .cmp(&a.shared)
            .then(b.deepest_ply.cmp(&a.deepest_ply))
            .then(a.game.cmp(&b.game))
    });
    out.truncate(limit);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_of_a_stream_are_the_first_of_it_sorted() {
        let order = |a: &(i32, u32), b: &(i32, u32)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
        let items: Vec<(i32, u32)> = (0..1000u32)
            .map(|g| (((g * 7919) % 97) as i32, g))
            .collect();
        for top in [0, 1, 3, 5, 50] {
            let mut best = Best::new(top, order);
            for &item in &items {
                best.offer(item);
            }
            let mut sorted = items.clone();
            sorted.sort_by(order);
            sorted.truncate(top);
            assert_eq!(best.into_sorted(), sorted, "top {top}");
        }
    }

    #[test]
    fn days_turn_back_into_dates() {
        for text in ["1970-01-01", "2000-02-29", "2024-12-31", "1899-03-01"] {
            assert_eq!(day_text(parse_day(text).unwrap()), text);
        }
    }

    #[test]
    fn positions_are_read_in_every_form() {
        let start = Position::startpos();
        assert_eq!(parse_position("startpos").unwrap().hash(), start.hash());
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
        assert_eq!(parse_position(sfen).unwrap().hash(), start.hash());
        let after = parse_position("startpos moves 7g7f 3c3d").unwrap();
        let sfen = parse_position(&after.to_sfen()).unwrap();
        assert_eq!(after.hash(), sfen.hash());
        assert!(parse_position("not a position").is_err());
    }
}
