//! The games table: what the archive knows of each game beside its positions.
//!
//! Two files hold it. `games.jsonl` has one JSON object per game ([`GameMeta`]: players,
//! ratings, date, event, time control, handicap, result, ending, plies, source file and record
//! number, canonical key), read only for the games a question shows. `games.fixed` has
//! [`GameSummary::SIZE`] bytes per game — result, ending, plies, ratings, date — which the
//! explorer reads for every game that reached a position (all of them, for the start): a
//! fixed-size row found by the game's number, with nothing to parse.

use serde::{Deserialize, Serialize};

use kifu_export::meta::EndingClass;

/// How a game ended for the side to move, from that side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameResult {
    /// The first player (先手, Black) won.
    BlackWin,
    /// The second player (後手, White) won.
    WhiteWin,
    /// A draw (千日手, 持将棋 …).
    Draw,
    /// The record states no result (an unfinished or interrupted game).
    Unknown,
}

impl GameResult {
    fn code(self) -> u8 {
        match self {
            GameResult::Unknown => 0,
            GameResult::BlackWin => 1,
            GameResult::WhiteWin => 2,
            GameResult::Draw => 3,
        }
    }

    fn of_code(code: u8) -> GameResult {
        match code {
            1 => GameResult::BlackWin,
            2 => GameResult::WhiteWin,
            3 => GameResult::Draw,
            _ => GameResult::Unknown,
        }
    }

    /// The name users type and JSON writes (`black-win`).
    pub fn name(self) -> &'static str {
        match self {
            GameResult::BlackWin => "black-win",
            GameResult::WhiteWin => "white-win",
            GameResult::Draw => "draw",
            GameResult::Unknown => "unknown",
        }
    }

    /// The result by its name.
    pub fn by_name(name: &str) -> Option<GameResult> {
        [
            GameResult::BlackWin,
            GameResult::WhiteWin,
            GameResult::Draw,
            GameResult::Unknown,
        ]
        .into_iter()
        .find(|r| r.name() == name)
    }
}

/// One game of the archive, as `games.jsonl` holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameMeta {
    /// The game's number in the archive, from 0 (the order games were added).
    pub game: u32,
    /// The source file as it was named when indexed.
    pub file: String,
    /// The record's number in its file, counted from 1 (as `--record` counts).
    pub record: u32,
    /// The format the file was read as.
    pub format: String,
    /// The first player (先手).
    pub black: Option<String>,
    /// The second player (後手).
    pub white: Option<String>,
    /// The first player's rating (floodgate's `'black_rate:`).
    pub black_rating: Option<f64>,
    /// The second player's rating.
    pub white_rating: Option<f64>,
    /// The start time as written.
    pub date: Option<String>,
    /// The start date read from it, `YYYY-MM-DD`, when it could be read.
    pub day: Option<String>,
    /// The event (`$EVENT`, 棋戦).
    pub event: Option<String>,
    /// The time control as written.
    pub time_control: Option<String>,
    /// The named start (平手, 香落ち …); `None` for a custom position.
    pub handicap: Option<String>,
    /// The start position when it is not the even game's, as SFEN.
    pub start: Option<String>,
    /// The result.
    pub result: GameResult,
    /// The ending's class (`resign`, `checkmate`, … `none`).
    pub ending: String,
    /// Moves of the main line that were indexed.
    pub plies: u32,
    /// The canonical game key, 16 hex digits.
    pub game_key: String,
}

/// The fixed-size part of a game's row, for the explorer's tallies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameSummary {
    pub result: GameResult,
    pub plies: u32,
    pub black_rating: Option<f32>,
    pub white_rating: Option<f32>,
    /// Days since 1970-01-01 of the game's start date.
    pub day: Option<i32>,
}

impl GameSummary {
    /// Bytes per game in `games.fixed`: result (1), unused (1), plies (2), the two ratings
    /// (f32 each, NaN for none), the day (i32, `i32::MIN` for none), little-endian.
    pub const SIZE: usize = 16;

    pub fn to_bytes(&self) -> [u8; GameSummary::SIZE] {
        let mut b = [0u8; GameSummary::SIZE];
        b[0] = self.result.code();
        b[2..4].copy_from_slice(&(self.plies.min(u32::from(u16::MAX)) as u16).to_le_bytes());
        b[4..8].copy_from_slice(&self.black_rating.unwrap_or(f32::NAN).to_le_bytes());
        b[8..12].copy_from_slice(&self.white_rating.unwrap_or(f32::NAN).to_le_bytes());
        b[12..16].copy_from_slice(&self.day.unwrap_or(i32::MIN).to_le_bytes());
        b
    }

    pub fn from_bytes(b: &[u8]) -> GameSummary {
        let f = |at: usize| {
            let v = f32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
            (!v.is_nan()).then_some(v)
        };
        let day = i32::from_le_bytes([b[12], b[13], b[14], b[15]]);
        GameSummary {
            result: GameResult::of_code(b[0]),
            plies: u32::from(u16::from_le_bytes([b[2], b[3]])),
            black_rating: f(4),
            white_rating: f(8),
            day: (day != i32::MIN).then_some(day),
        }
    }

    /// The mean of the two ratings, or the one there is.
    pub fn mean_rating(&self) -> Option<f32> {
        match (self.black_rating, self.white_rating) {
            (Some(b), Some(w)) => Some((b + w) / 2.0),
            (one, other) => one.or(other),
        }
    }
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's `days_from_civil` algorithm).
pub fn days_from_civil(year: i32, month: u32, day: u32) -> i32 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = month as i32;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i32 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Reads `YYYY-MM-DD` (or with `/`) into days since 1970-01-01.
pub fn parse_day(text: &str) -> Option<i32> {
    let mut parts = text.trim().split(['-', '/']);
    let year: i32 = parts.next()?.parse().ok()?;
    let month: u32 = parts.next()?.parse().ok()?;
    let day: u32 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    Some(days_from_civil(year, month, day))
}

/// The ending class by its name, as [`GameMeta::ending`] holds it.
pub fn ending_name(class: EndingClass) -> String {
    class.name().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_count_from_the_epoch() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(parse_day("2024/02/29"), Some(days_from_civil(2024, 2, 29)));
        assert_eq!(parse_day("2024-13-01"), None);
    }

    #[test]
    fn a_summary_round_trips() {
        let s = GameSummary {
            result: GameResult::Draw,
            plies: 123,
            black_rating: Some(2500.5),
            white_rating: None,
            day: Some(-5),
        };
        assert_eq!(GameSummary::from_bytes(&s.to_bytes()), s);
    }
}
