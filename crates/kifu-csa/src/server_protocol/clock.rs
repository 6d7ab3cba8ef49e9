//! The clock of a CSA server game, with shogi-server's arithmetic (as floodgate clients see
//! it; CSA server protocol 1.2.1, the `Time` fields of `Game_Summary`): whole units charged
//! (truncated unless `Time_Roundup`), the increment added before the charge, and a move
//! losing on time when `remaining − t + byoyomi + increment ≤ 0`.
//!
//! The server judges with it and the client bridge follows it to tell its engine how much
//! time there is ([`crate::usi::time`]).
//!
//! ```
//! use kifu_csa::server_protocol::{Clock, TimeRule};
//! use kifu_shogi::Color;
//!
//! // Ten minutes, then ten seconds a move.
//! let rule = TimeRule { total: Some(600), byoyomi: 10, ..TimeRule::default() };
//! let mut clock = Clock::new(rule.clone(), rule, false);
//! assert_eq!(clock.charge(Color::Black, 2_900), 2);
//! clock.commit(Color::Black, 2);
//! assert_eq!(clock.remaining(Color::Black), 598);
//! assert_eq!(clock.deadline_ms(Color::Black), Some(608_000));
//! ```

use super::TimeRule;
use kifu_shogi::Color;

/// Both sides' clocks for one game. All numbers are in the rule's time units.
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
    /// Both clocks at the start of a game: each side's rule (`Time+`/`Time-`, or the one
    /// `Time` block for both) and whether the game is in shogi-server's stop-watch mode
    /// (a charge rounded down to whole byoyomi periods).
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

    /// The time rule of `color`.
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
