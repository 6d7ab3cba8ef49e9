//! Game names (`floodgate-300-10F`) and what a CSA-mode password asks for.

use kifu_csa::server_protocol::{TimeRule, TimeUnit};
use kifu_shogi::{Color, Handicap};

/// A game name `<id>-<total>-<byoyomi>[F]` and the clock it means: shogi-server's grammar,
/// with the id in `[0-9A-Za-z_@.-]` and the whole name up to 64 bytes.
///
/// ```
/// use kifu_csa_net::game_name::GameName;
/// use kifu_shogi::Handicap;
///
/// let g = GameName::parse("floodgate-300-10F").unwrap();
/// assert_eq!((g.total, g.last, g.fischer, g.stopwatch), (300, 10, true, false));
/// assert_eq!((g.time_rule().byoyomi, g.time_rule().increment), (0, 10));
///
/// let g = GameName::parse("hcbishop_test-600-060").unwrap();
/// assert_eq!(g.handicap, Some(Handicap::Bishop));
/// assert!(g.stopwatch);
///
/// assert!(GameName::parse("floodgate-300").is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameName {
    /// The whole name as given (`floodgate-300-10F`).
    pub name: String,
    /// Each side's total time, in seconds.
    pub total: u64,
    /// Byoyomi, or the Fischer increment when `fischer`.
    pub last: u64,
    /// `…F`: the last number is a Fischer increment.
    pub fischer: bool,
    /// A leading zero in the last number (`-060`): stop-watch mode.
    pub stopwatch: bool,
    /// shogi-server's handicap prefixes (`hcbishop_…`): 上手 (White) moves first.
    pub handicap: Option<Handicap>,
}

/// shogi-server's handicap prefixes, longest first so `hcrooklance_` is not read as `hcrook`.
const HANDICAPS: [(&str, Handicap); 9] = [
    ("hcrooklance_", Handicap::RookLance),
    ("hcbishop_", Handicap::Bishop),
    ("hclance_", Handicap::Lance),
    ("hcrook_", Handicap::Rook),
    ("hc10p_", Handicap::TenPieces),
    ("hc2p_", Handicap::TwoPieces),
    ("hc4p_", Handicap::FourPieces),
    ("hc6p_", Handicap::SixPieces),
    ("hc8p_", Handicap::EightPieces),
];

impl GameName {
    /// Parses a game name; `None` when it has no `-<total>-<byoyomi>` tail or holds
    /// characters outside `[0-9A-Za-z_@.-]`.
    pub fn parse(name: &str) -> Option<GameName> {
        if name.is_empty()
            || name.len() > 64
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_-@.".contains(&b))
        {
            return None;
        }
        let mut parts = name.rsplitn(3, '-');
        let last_text = parts.next()?;
        let total_text = parts.next()?;
        let id = parts.next()?;
        if id.is_empty() {
            return None;
        }
        let (digits, fischer) = match last_text.strip_suffix('F') {
            Some(d) => (d, true),
            None => (last_text, false),
        };
        let number = |t: &str| -> Option<u64> {
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse().ok())
                .flatten()
        };
        let total = number(total_text)?;
        let last = number(digits)?;
        let stopwatch = !fischer && digits.len() > 1 && digits.starts_with('0');
        let handicap = HANDICAPS
            .iter()
            .find(|(prefix, _)| name.starts_with(prefix))
            .map(|(_, h)| *h);
        Some(GameName {
            name: name.to_owned(),
            total,
            last,
            fischer,
            stopwatch,
            handicap,
        })
    }

    /// The clock settings announced in the summary.
    ///
    /// A stop-watch game (`-1500-060`) has no byoyomi: its last number is the unit each
    /// charge is rounded down to, and the game is lost once a charge reaches the time left
    /// (shogi-server's `StopWatchClock`). shogi-server announces it as `Time_Unit:1min`,
    /// `Total_Time:1500`, `Byoyomi:60`, which a client can only misread: minutes over numbers
    /// in seconds, and 60 s a move once the main time is spent that the server never gives.
    /// It is announced here as what it is to a client that knows no stop-watch mode —
    /// `1sec`, the total, `Byoyomi:0` — a sudden-death clock whose every charge is at most the
    /// one announced, so a client trusting it never runs out of time; a client that knows
    /// the mode reads the unit from the game name, as it must with shogi-server.
    pub fn time_rule(&self) -> TimeRule {
        TimeRule {
            byoyomi: if self.stopwatch {
                0
            } else {
                self.clock_rule().byoyomi
            },
            ..self.clock_rule()
        }
    }

    /// The rule the server's [`Clock`](kifu_csa::server_protocol::Clock) judges by, with
    /// `stopwatch`: as [`GameName::time_rule`] but for a stop-watch game the rounding unit in
    /// `byoyomi`, where the clock's stop-watch arithmetic takes it.
    pub fn clock_rule(&self) -> TimeRule {
        TimeRule {
            unit: TimeUnit::SECOND,
            total: Some(self.total),
            byoyomi: if self.fischer { 0 } else { self.last },
            increment: if self.fischer { self.last } else { 0 },
            ..TimeRule::default()
        }
    }
}

/// The login syntax, told to a client whose `LOGIN` line does not follow it (and in
/// `kifu csa-server --help`).
pub const LOGIN_SYNTAX: &str = "LOGIN <name> <game>[-B|-W][,<password>] or LOGIN <name> <password> x1, \
     where <game> is <id>-<total seconds>-<byoyomi seconds>[F] (F: a Fischer increment), \
     e.g. LOGIN alice floodgate-300-10F,secret";

/// The longest trip (`<game>,<trip>`) or x1 password taken.
pub const MAX_PASSWORD: usize = 64;

/// Why a CSA-mode password does not ask for a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoginSyntaxError {
    /// The field (before any `,`) is not a game name.
    #[error("`{0}` is not a game name like floodgate-300-10F")]
    BadGameName(String),
    /// `<game>,` with nothing after the comma.
    #[error("the password after `{0},` is empty")]
    EmptyPassword(String),
    /// The trip is longer than [`MAX_PASSWORD`].
    #[error("the password after the game name is over {MAX_PASSWORD} bytes")]
    PasswordTooLong,
}

/// What a CSA-mode `LOGIN` password asks for.
///
/// ```
/// use kifu_csa_net::game_name::Request;
/// use kifu_shogi::Color;
///
/// let r = Request::from_password("floodgate-300-10F-B,my-trip").unwrap();
/// assert_eq!(r.game.name, "floodgate-300-10F");
/// assert_eq!((r.game.total, r.game.last, r.game.fischer), (300, 10, true));
/// assert_eq!(r.color, Some(Color::Black));
/// assert_eq!(r.trip.as_deref(), Some("my-trip"));
/// // A password alone names no game: refused, not seated at a default game.
/// assert!(Request::from_password("hunter2").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The game asked for.
    pub game: GameName,
    /// The side asked for (`-B`/`-W`), if any.
    pub color: Option<Color>,
    /// `<gamename>,<trip>`: a rated entry; the trip itself is never stored or logged.
    pub trip: Option<String>,
}

impl Request {
    /// `test-600-10`, `test-600-10-B`, `floodgate-300-10F,trip`. Anything else is refused:
    /// shogi-server would take it as a password for a 25-minute `default-1500-0` game,
    /// which hides a mistyped game name behind a game nobody asked for.
    pub fn from_password(password: &str) -> Result<Request, LoginSyntaxError> {
        let (body, trip) = match password.split_once(',') {
            Some((b, "")) => return Err(LoginSyntaxError::EmptyPassword(b.to_owned())),
            Some((_, t)) if t.len() > MAX_PASSWORD => {
                return Err(LoginSyntaxError::PasswordTooLong);
            }
            Some((b, t)) => (b, Some(t.to_owned())),
            None => (password, None),
        };
        // A game name may itself end in `-b` (`x-1-2-b` is no game name, but `b-1-2` is):
        // the side suffix counts only when what it follows is a game name.
        let (name, color) = match body.rsplit_once('-') {
            Some((b, "B" | "b")) if GameName::parse(b).is_some() => (b, Some(Color::Black)),
            Some((b, "W" | "w")) if GameName::parse(b).is_some() => (b, Some(Color::White)),
            _ => (body, None),
        };
        let game =
            GameName::parse(name).ok_or_else(|| LoginSyntaxError::BadGameName(body.to_owned()))?;
        Ok(Request { game, color, trip })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_clocks() {
        let g = GameName::parse("floodgate-300-10F").unwrap();
        assert_eq!(
            (g.total, g.last, g.fischer, g.stopwatch),
            (300, 10, true, false)
        );
        let t = g.time_rule();
        assert_eq!((t.total, t.byoyomi, t.increment), (Some(300), 0, 10));
        let g = GameName::parse("test-600-10").unwrap();
        assert_eq!(g.time_rule().byoyomi, 10);
        let g = GameName::parse("wcsc-1500-060").unwrap();
        assert!(g.stopwatch);
        assert_eq!(g.last, 60);
        // Announced without the byoyomi it does not have; judged with its rounding unit.
        assert_eq!(
            (g.time_rule().total, g.time_rule().byoyomi),
            (Some(1500), 0)
        );
        assert_eq!(g.clock_rule().byoyomi, 60);
        assert!(!GameName::parse("x-0-0").unwrap().stopwatch);
        assert!(GameName::parse("x-1-2-3").is_some());
        for bad in [
            "test", "test-600", "-600-10", "a-b-10", "a-600-x", "a b-1-1", "a-1-F",
        ] {
            assert_eq!(GameName::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn handicap_prefixes() {
        let h = |n: &str| GameName::parse(n).unwrap().handicap;
        assert_eq!(h("hcbishop_test-600-10"), Some(Handicap::Bishop));
        assert_eq!(h("hcrooklance_x-60-0"), Some(Handicap::RookLance));
        assert_eq!(h("hcrook_x-60-0"), Some(Handicap::Rook));
        assert_eq!(h("hc10p_x-60-0"), Some(Handicap::TenPieces));
        assert_eq!(h("test-600-10"), None);
    }

    #[test]
    fn passwords() {
        let r = Request::from_password("test-600-10-B").unwrap();
        assert_eq!(r.game.name, "test-600-10");
        assert_eq!(r.color, Some(Color::Black));
        let r = Request::from_password("floodgate-300-10F,secret").unwrap();
        assert_eq!(r.game.name, "floodgate-300-10F");
        assert_eq!(r.trip.as_deref(), Some("secret"));
        assert_eq!(r.color, None);
        let r = Request::from_password("test-600-10-w").unwrap();
        assert_eq!(r.color, Some(Color::White));
        let r = Request::from_password("test-600-10-W,pw").unwrap();
        assert_eq!(
            (r.color, r.trip.as_deref()),
            (Some(Color::White), Some("pw"))
        );
        // A name whose id ends in `-b` is still a game name.
        let r = Request::from_password("my-b-600-10").unwrap();
        assert_eq!((r.game.name.as_str(), r.color), ("my-b-600-10", None));
        for bad in [
            "hunter2",
            "test-600",
            "test-600-10-X",
            "a b-1-1",
            "x-1-1-B-W",
        ] {
            assert!(
                matches!(
                    Request::from_password(bad),
                    Err(LoginSyntaxError::BadGameName(_))
                ),
                "{bad}"
            );
        }
        assert_eq!(
            Request::from_password("test-600-10,"),
            Err(LoginSyntaxError::EmptyPassword("test-600-10".into()))
        );
        assert_eq!(
            Request::from_password(&format!("test-600-10,{}", "p".repeat(65))),
            Err(LoginSyntaxError::PasswordTooLong)
        );
    }

    /// The longest names shogi-server allows still take a side and a trip.
    #[test]
    fn long_game_names_carry_a_side_and_a_trip() {
        for len in 60..=64 {
            let id = "g".repeat(len - "-1500-60".len());
            let name = format!("{id}-1500-60");
            assert_eq!(name.len(), len);
            let r = Request::from_password(&format!("{name}-B,{}", "t".repeat(32))).unwrap();
            assert_eq!(r.game.name, name);
            assert_eq!(r.color, Some(Color::Black));
        }
    }
}
