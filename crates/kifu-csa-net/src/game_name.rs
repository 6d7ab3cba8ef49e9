//! Game names (`floodgate-300-10F`) and what a CSA-mode password asks for.

use kifu_csa::server_protocol::{TimeRule, TimeUnit};
use kifu_shogi::{Color, Handicap};

/// A game name `<id>-<total>-<byoyomi>[F]` and the clock it means.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameName {
    pub name: String,
    pub total: u64,
    /// Byoyomi, or the Fischer increment when `fischer`.
    pub last: u64,
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

/// The game a password of shogi-server's form names with no time control of its own.
pub const DEFAULT_GAME: &str = "default-1500-0";

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

    /// The clock settings announced in the summary (stop-watch games are announced in
    /// seconds, not shogi-server's inconsistent `1min`).
    pub fn time_rule(&self) -> TimeRule {
        TimeRule {
            unit: TimeUnit::SECOND,
            total: Some(self.total),
            byoyomi: if self.fischer { 0 } else { self.last },
            increment: if self.fischer { self.last } else { 0 },
            ..TimeRule::default()
        }
    }
}

/// What a CSA-mode `LOGIN` password asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub game: GameName,
    pub color: Option<Color>,
    /// `<gamename>,<trip>`: a rated entry; the trip itself is never stored or logged.
    pub trip: Option<String>,
}

impl Request {
    /// `test-600-10`, `test-600-10-B`, `floodgate-300-10F,trip`; anything else is a plain
    /// password and asks for [`DEFAULT_GAME`].
    pub fn from_password(password: &str) -> Request {
        let (body, trip) = match password.split_once(',') {
            Some((b, t)) => (b, Some(t.to_owned())),
            None => (password, None),
        };
        let (body, color) = match body.rsplit_once('-') {
            Some((b, "B" | "b")) => (b, Some(Color::Black)),
            Some((b, "W" | "w")) => (b, Some(Color::White)),
            _ => (body, None),
        };
        match GameName::parse(body) {
            Some(game) => Request { game, color, trip },
            None => Request {
                game: GameName::parse(DEFAULT_GAME).expect("the default game name parses"),
                color: None,
                trip: None,
            },
        }
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
        let r = Request::from_password("test-600-10-B");
        assert_eq!(r.game.name, "test-600-10");
        assert_eq!(r.color, Some(Color::Black));
        let r = Request::from_password("floodgate-300-10F,secret");
        assert_eq!(r.game.name, "floodgate-300-10F");
        assert_eq!(r.trip.as_deref(), Some("secret"));
        assert_eq!(r.color, None);
        let r = Request::from_password("test-600-10-w");
        assert_eq!(r.color, Some(Color::White));
        let r = Request::from_password("hunter2");
        assert_eq!(r.game.name, DEFAULT_GAME);
    }
}
