//! The server's clock, with shogi-server's arithmetic (as floodgate clients see it; CSA server protocol 1.2.1, Time fields): whole units
//! charged (truncated unless `Time_Roundup`), the increment added before the charge, and a
//! move losing on time when `remaining − t + byoyomi + increment ≤ 0`.

use kifu_csa::server_protocol::TimeRule;
use kifu_shogi::Color;

/// Both sides' clocks for one game. All numbers are in the rule's time units.
///
/// ```
/// use kifu_csa_net::clock::Clock;
/// use kifu_csa_net::game_name::GameName;
/// use kifu_shogi::Color;
///
/// // 60 s each, then 10 s a move.
/// let g = GameName::parse("test-60-10").unwrap();
/// let mut clock = Clock::new(g.time_rule(), g.time_rule(), g.stopwatch);
/// // Whole seconds are charged, the rest dropped.
/// assert_eq!(clock.charge(Color::Black, 9_900), 9);
/// clock.commit(Color::Black, 50);
/// assert_eq!(clock.remaining(Color::Black), 10);
/// // 10 s left and 10 s of byoyomi: a move of 20 s loses on time, one of 19 s does not.
/// assert!(!clock.is_time_up(Color::Black, 19));
/// assert!(clock.is_time_up(Color::Black, 20));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    rules: [TimeRule; 2],
    stopwatch: bool,
    remaining: [i64; 2],
}

fn units(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX / 4)
}

impl Clock {
    /// A clock for a game under `black`'s and `white`'s time rules, every side's total
    /// time still whole; `stopwatch` counts shogi-server's stop-watch way (a leading zero
    /// in the game name's last number).
    pub fn new(black: TimeRule, white: TimeRule, stopwatch: bool) -> Clock {
        let remaining = [
            units(black.total.unwrap_or(0)),
            units(white.total.unwrap_or(0)),
        ];
        Clock {
            rules: [black, white],
            stopwatch,
            remaining,
        }
    }

    /// The time rule `color` plays under.
    pub fn rule(&self, color: Color) -> &TimeRule {
        &self.rules[color.index()]
    }

    /// Main time left, in units.
    pub fn remaining(&self, color: Color) -> i64 {
        self.remaining[color.index()]
    }

    /// The units charged for a move that took `elapsed_ms`.
    pub fn charge(&self, color: Color, elapsed_ms: u64) -> u64 {
        let rule = self.rule(color);
        let unit = rule.unit.millis();
        let elapsed_ms = elapsed_ms.saturating_sub(rule.delay.saturating_mul(unit));
        let mut t = if rule.roundup {
            elapsed_ms.div_ceil(unit)
        } else {
            elapsed_ms / unit
        };
        if self.stopwatch && rule.byoyomi > 0 {
            t -= t % rule.byoyomi;
        }
        t.max(rule.least)
    }

    /// Whether a move charged `t` units loses on time.
    pub fn is_time_up(&self, color: Color, t: u64) -> bool {
        let rule = self.rule(color);
        if rule.is_unlimited() {
            return false;
        }
        let remaining = self.remaining(color);
        let t = units(t);
        if self.stopwatch {
            remaining <= t
        } else {
            remaining
                .saturating_sub(t)
                .saturating_add(units(rule.byoyomi))
                .saturating_add(units(rule.increment))
                <= 0
        }
    }

    /// Books a move charged `t` units.
    pub fn commit(&mut self, color: Color, t: u64) {
        let rule = &self.rules[color.index()];
        let r = &mut self.remaining[color.index()];
        *r = if self.stopwatch {
            r.saturating_sub(units(t)).max(0)
        } else {
            r.saturating_add(units(rule.increment))
                .saturating_sub(units(t))
                .max(0)
        };
    }

    /// The shortest thinking time, in ms, that loses on time for `color` now (`None` when
    /// the clock is unlimited). A timer armed at this instant ends the game without waiting
    /// for the mover to speak.
    pub fn deadline_ms(&self, color: Color) -> Option<u64> {
        let rule = self.rule(color);
        if rule.is_unlimited() {
            return None;
        }
        // Binary search on the monotone predicate: is_time_up(charge(e)).
        let mut lo = 0u64;
        let mut hi = 1u64;
        while !self.is_time_up(color, self.charge(color, hi)) {
            lo = hi;
            hi = hi.saturating_mul(2);
            if hi == u64::MAX {
                return None;
            }
        }
        if self.is_time_up(color, self.charge(color, 0)) {
            return Some(0);
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.is_time_up(color, self.charge(color, mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Some(hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_name::GameName;

    fn clock(name: &str) -> Clock {
        let g = GameName::parse(name).unwrap();
        Clock::new(g.time_rule(), g.time_rule(), g.stopwatch)
    }

    #[test]
    fn byoyomi_only_accepts_9_9_seconds_and_loses_at_10() {
        let c = clock("t-0-10");
        assert_eq!(c.charge(Color::Black, 9_900), 9);
        assert!(!c.is_time_up(Color::Black, 9));
        assert!(c.is_time_up(Color::Black, 10));
        assert_eq!(c.deadline_ms(Color::Black), Some(10_000));
    }

    #[test]
    fn main_time_then_byoyomi_does_not_accumulate() {
        let mut c = clock("t-60-10");
        assert_eq!(c.deadline_ms(Color::Black), Some(70_000));
        c.commit(Color::Black, 50);
        assert_eq!(c.remaining(Color::Black), 10);
        c.commit(Color::Black, 15);
        assert_eq!(c.remaining(Color::Black), 0);
        assert_eq!(c.deadline_ms(Color::Black), Some(10_000));
        c.commit(Color::Black, 9);
        assert_eq!(c.remaining(Color::Black), 0);
        assert_eq!(c.deadline_ms(Color::White), Some(70_000));
    }

    #[test]
    fn fischer_adds_the_increment_before_the_charge() {
        let mut c = clock("floodgate-300-10F");
        assert_eq!(c.deadline_ms(Color::Black), Some(310_000));
        c.commit(Color::Black, 25);
        assert_eq!(c.remaining(Color::Black), 285);
        c.commit(Color::Black, 3);
        assert_eq!(c.remaining(Color::Black), 292);
        // 292 + 10 − t ≤ 0 ⇔ t ≥ 302.
        assert!(!c.is_time_up(Color::Black, 301));
        assert!(c.is_time_up(Color::Black, 302));
    }

    #[test]
    fn stopwatch_rounds_down_to_whole_byoyomi() {
        let mut c = clock("t-600-060");
        assert_eq!(c.charge(Color::Black, 119_999), 60);
        assert_eq!(c.charge(Color::Black, 59_000), 0);
        c.commit(Color::Black, 540);
        assert!(!c.is_time_up(Color::Black, 0));
        assert!(c.is_time_up(Color::Black, 60));
        assert_eq!(c.deadline_ms(Color::Black), Some(60_000));
    }

    #[test]
    fn least_time_and_roundup() {
        let mut rule = GameName::parse("t-10-0").unwrap().time_rule();
        rule.least = 1;
        let c = Clock::new(rule.clone(), rule.clone(), false);
        assert_eq!(c.charge(Color::White, 200), 1);
        rule.least = 0;
        rule.roundup = true;
        let c = Clock::new(rule.clone(), rule, false);
        assert_eq!(c.charge(Color::White, 200), 1);
        assert_eq!(c.charge(Color::White, 0), 0);
        assert_eq!(c.deadline_ms(Color::White), Some(9_001));
    }

    #[test]
    fn unlimited_clock_never_runs_out() {
        let c = clock("t-0-0");
        assert!(!c.is_time_up(Color::Black, 1_000_000));
        assert_eq!(c.deadline_ms(Color::Black), None);
    }

    #[test]
    fn absurd_time_fields_saturate_instead_of_overflowing() {
        let mut rule = GameName::parse("t-10-0").unwrap().time_rule();
        rule.delay = u64::MAX;
        rule.increment = u64::MAX;
        rule.byoyomi = u64::MAX;
        rule.total = Some(u64::MAX);
        let mut c = Clock::new(rule.clone(), rule, false);
        assert_eq!(
            c.charge(Color::Black, 5_000),
            0,
            "the delay swallows any thinking time"
        );
        for _ in 0..3 {
            c.commit(Color::Black, 0);
        }
        assert!(c.remaining(Color::Black) > 0);
        assert!(!c.is_time_up(Color::Black, u64::MAX));
    }
}
