//! How much time a USI engine is told in `go btime … wtime … byoyomi|binc … winc …`, for
//! both protocols kifu plays.
//!
//! In the CSA 1998 line protocol each program keeps both clocks ([`line_go_times`]).
//!
//! On a CSA server (CSA server protocol 1.2.1, the `Time` fields of `Game_Summary`) the
//! client books the server's `,T` charges with the server's own arithmetic
//! ([`Clock::commit`]) and tells the engine its time with a safety margin
//! ([`server_go_times`]). Every field of the summary's time blocks counts, each side with
//! its own block (`Time+`/`Time-`):
//! - `Time_Unit` scales every number (and every `,T`) to milliseconds;
//! - `Byoyomi` is the per-move time once the main time is spent, `Increment` a Fischer
//!   increment — shogi-server adds it *before* charging a move, so the engine is told
//!   `btime = remaining` and `binc = increment`, never `remaining + increment` together with
//!   `binc`, which would count the increment twice;
//! - `Delay` (1.2.1) is free time at the start of each move that is not charged and does
//!   not carry over: in a byoyomi clock it is told as part of `byoyomi` (the USI notion of
//!   per-move time that does not accumulate), in a Fischer clock as part of `btime`;
//! - `Least_Time_Per_Move` and `Time_Roundup` change what a move is charged, and so the
//!   real deadline, which [`Clock::deadline_ms`] computes; the told times never add up to
//!   more than that deadline less the margin.
//!
//! The margin (network latency, the engine's reaction) comes off the per-move part first
//! (byoyomi or increment), then off the main time.
//!
//! ```
//! use kifu_csa::server_protocol::{Clock, TimeRule};
//! use kifu_csa::usi::time::{TimePolicy, server_go_times};
//! use kifu_shogi::Color;
//!
//! let rule = TimeRule { total: Some(600), byoyomi: 10, ..TimeRule::default() };
//! let clock = Clock::new(rule.clone(), rule, false);
//! let told = server_go_times(&clock, Color::Black, TimePolicy::margin(2500)).unwrap();
//! assert_eq!(told.to_string(), "btime 600000 wtime 600000 byoyomi 7500");
//! ```

use kifu_record::TimeControl;
use kifu_shogi::Color;

use super::command::{GoTimes, PerMove};
use crate::clock::Clocks;
use crate::server_protocol::Clock;

/// How much of the clock the engine is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePolicy {
    /// Kept in hand on every move.
    pub margin_ms: u64,
    /// Never tell the engine more than this many ms of main time, nor of per-move time: it
    /// then plays faster than the clock requires (quick test leagues, a slow machine).
    pub cap_ms: Option<u64>,
}

impl TimePolicy {
    /// Keep `margin_ms` in hand, with no cap.
    pub fn margin(margin_ms: u64) -> TimePolicy {
        TimePolicy {
            margin_ms,
            cap_ms: None,
        }
    }
}

/// What the engine of `me` is told when `me` is to move on `clock`; `None` when `me`'s
/// clock is unlimited. The same times serve `go ponder` while the opponent thinks: the
/// mover's own clock does not change until it moves.
pub fn server_go_times(clock: &Clock, me: Color, policy: TimePolicy) -> Option<GoTimes> {
    let rule = clock.rule(me);
    let deadline = clock.deadline_ms(me)?;
    let budget = deadline.saturating_sub(policy.margin_ms);
    let unit = rule.unit.millis();
    let main_of = |c: Color| {
        u64::try_from(clock.remaining(c))
            .unwrap_or(0)
            .saturating_mul(clock.rule(c).unit.millis())
    };
    let cap = policy.cap_ms.unwrap_or(u64::MAX);
    let delay = rule.delay.saturating_mul(unit);
    let fischer = rule.increment > 0;
    let (mut main, mut per) = if fischer {
        (
            main_of(me).saturating_add(delay),
            rule.increment.saturating_mul(unit),
        )
    } else {
        (
            main_of(me),
            rule.byoyomi.saturating_add(rule.delay).saturating_mul(unit),
        )
    };
    let from_per = policy.margin_ms.min(per);
    per -= from_per;
    main = main.saturating_sub(policy.margin_ms - from_per);
    if fischer {
        // The engine may spend all of btime now (the increment comes after, in its view).
        main = main.min(budget);
    } else {
        // It may spend btime and then the byoyomi.
        per = per.min(budget);
        main = main.min(budget - per);
    }
    main = main.min(cap);
    per = per.min(cap);
    let other = main_of(me.flip());
    let (btime, wtime) = match me {
        Color::Black => (main, other),
        Color::White => (other, main),
    };
    let per_move = if fischer {
        let other_inc = clock
            .rule(me.flip())
            .increment
            .saturating_mul(clock.rule(me.flip()).unit.millis());
        match me {
            Color::Black => PerMove::Increment {
                black: per,
                white: other_inc,
            },
            Color::White => PerMove::Increment {
                black: other_inc,
                white: per,
            },
        }
    } else {
        PerMove::Byoyomi(per)
    };
    Some(GoTimes {
        btime,
        wtime,
        per_move,
    })
}

/// The times of `go` in the CSA 1998 line protocol, where each program keeps both clocks
/// itself ([`crate::clock::clocks`]): both sides' main time left, then the increment when the
/// game has one, else the byoyomi. Without a time control an engine still needs a limit: a
/// second a move.
pub fn line_go_times(control: Option<TimeControl>, clocks: &Clocks) -> GoTimes {
    let Some(tc) = control else {
        return GoTimes {
            btime: 0,
            wtime: 0,
            per_move: PerMove::Byoyomi(1000),
        };
    };
    let left = |c: Color| clocks.remaining_ms[c.index()].unwrap_or(0);
    let per_move = if tc.increment_ms > 0 {
        PerMove::Increment {
            black: tc.increment_ms,
            white: tc.increment_ms,
        }
    } else {
        PerMove::Byoyomi(tc.byoyomi_ms)
    };
    GoTimes {
        btime: left(Color::Black),
        wtime: left(Color::White),
        per_move,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server_protocol::{TimeRule, TimeUnit};

    /// The clock of a floodgate-style game name: `<anything>-<total s>-<byoyomi s>`, an `F`
    /// after the last number for a Fischer increment instead.
    fn clock(name: &str) -> Clock {
        let mut parts = name.rsplit('-');
        let last = parts.next().unwrap();
        let total: u64 = parts.next().unwrap().parse().unwrap();
        let (per, fischer) = match last.strip_suffix('F') {
            Some(n) => (n.parse().unwrap(), true),
            None => (last.parse().unwrap(), false),
        };
        let rule = TimeRule {
            total: Some(total),
            byoyomi: if fischer { 0 } else { per },
            increment: if fischer { per } else { 0 },
            ..TimeRule::default()
        };
        Clock::new(rule.clone(), rule, false)
    }

    /// A rule from `Key:value` lines, as a `BEGIN Time` block gives them.
    fn rule(lines: &[&str]) -> TimeRule {
        let mut r = TimeRule::default();
        for l in lines {
            let (k, v) = l.split_once(':').unwrap();
            assert!(r.apply(k, v), "{l}");
        }
        r
    }

    fn go_command(c: &Clock, me: Color, margin_ms: u64) -> Option<String> {
        server_go_times(c, me, TimePolicy::margin(margin_ms)).map(|t| format!("go {t}"))
    }

    fn go(c: &Clock, me: Color, margin_ms: u64) -> String {
        go_command(c, me, margin_ms).unwrap()
    }

    #[test]
    fn byoyomi_with_margin() {
        let mut c = clock("t-600-10");
        assert_eq!(
            go(&c, Color::Black, 2500),
            "go btime 600000 wtime 600000 byoyomi 7500"
        );
        c.commit(Color::White, 30);
        assert_eq!(
            go(&c, Color::Black, 2500),
            "go btime 600000 wtime 570000 byoyomi 7500"
        );
    }

    #[test]
    fn fischer_never_counts_the_increment_twice() {
        let mut c = clock("floodgate-300-10F");
        c.commit(Color::Black, 25);
        // 300 + 10 − 25 = 285 s left; the increment is passed once, as binc.
        assert_eq!(
            go(&c, Color::Black, 2500),
            "go btime 285000 wtime 300000 binc 7500 winc 10000"
        );
        assert_eq!(
            go(&c, Color::White, 12_000),
            "go btime 285000 wtime 298000 binc 10000 winc 0"
        );
    }

    #[test]
    fn margin_larger_than_byoyomi_eats_main_time_and_unlimited_has_none() {
        let c = clock("t-0-1");
        assert_eq!(go(&c, Color::White, 2500), "go btime 0 wtime 0 byoyomi 0");
        assert_eq!(go_command(&clock("t-0-0"), Color::Black, 2500), None);
    }

    #[test]
    fn time_unit_scales_every_number_and_every_charge() {
        let r = rule(&["Time_Unit:100msec", "Total_Time:6000", "Byoyomi:50"]);
        let mut c = Clock::new(r.clone(), r, false);
        assert_eq!(
            go(&c, Color::Black, 1000),
            "go btime 600000 wtime 600000 byoyomi 4000"
        );
        // `,T125` is 12.5 s in this unit.
        c.commit(Color::Black, 125);
        assert_eq!(
            go(&c, Color::White, 0),
            "go btime 587500 wtime 600000 byoyomi 5000"
        );
        let r = rule(&["Time_Unit:1min", "Total_Time:10", "Byoyomi:1"]);
        let c = Clock::new(r.clone(), r, false);
        assert_eq!(
            go(&c, Color::Black, 2500),
            "go btime 600000 wtime 600000 byoyomi 57500"
        );
    }

    #[test]
    fn total_time_alone_is_sudden_death_and_the_margin_comes_off_it() {
        let r = rule(&["Total_Time:60"]);
        let mut c = Clock::new(r.clone(), r, false);
        assert_eq!(
            go(&c, Color::Black, 2500),
            "go btime 57500 wtime 60000 byoyomi 0"
        );
        c.commit(Color::Black, 59);
        assert_eq!(
            go(&c, Color::Black, 2500),
            "go btime 0 wtime 60000 byoyomi 0"
        );
    }

    #[test]
    fn delay_is_per_move_time_that_does_not_accumulate() {
        // Byoyomi clock: the first 3 s of every move are free, then the main time runs,
        // then the byoyomi; the engine may use remaining + byoyomi + delay.
        let r = rule(&["Total_Time:60", "Byoyomi:5", "Delay:3"]);
        let mut c = Clock::new(r.clone(), r, false);
        assert_eq!(c.deadline_ms(Color::Black), Some(68_000));
        assert_eq!(
            go(&c, Color::Black, 500),
            "go btime 60000 wtime 60000 byoyomi 7500"
        );
        // A 4.5 s move is charged 1 s (4.5 − 3, truncated); an unused delay is lost.
        assert_eq!(c.charge(Color::Black, 4_500), 1);
        c.commit(Color::Black, c.charge(Color::Black, 4_500));
        c.commit(Color::White, c.charge(Color::White, 2_000));
        assert_eq!(
            go(&c, Color::Black, 500),
            "go btime 59000 wtime 60000 byoyomi 7500"
        );
        // Fischer clock: the delay is told as main time usable now, the increment as binc.
        let r = rule(&["Total_Time:300", "Increment:10", "Delay:2"]);
        let c = Clock::new(r.clone(), r, false);
        assert_eq!(
            go(&c, Color::White, 2500),
            "go btime 300000 wtime 302000 binc 10000 winc 7500"
        );
    }

    #[test]
    fn time_roundup_shortens_the_deadline() {
        let truncating = rule(&["Total_Time:10"]);
        let c = Clock::new(truncating.clone(), truncating, false);
        assert_eq!(
            go(&c, Color::Black, 500),
            "go btime 9500 wtime 10000 byoyomi 0"
        );
        // Rounded up, a move of 9.001 s is charged 10 and loses: 9000 ms is all there is.
        let rounding = rule(&["Total_Time:10", "Time_Roundup:YES"]);
        let c = Clock::new(rounding.clone(), rounding, false);
        assert_eq!(
            go(&c, Color::Black, 500),
            "go btime 8501 wtime 10000 byoyomi 0"
        );
    }

    #[test]
    fn least_time_per_move_is_charged_even_to_instant_moves() {
        let r = rule(&["Total_Time:60", "Byoyomi:0", "Least_Time_Per_Move:2"]);
        let mut c = Clock::new(r.clone(), r, false);
        assert_eq!(c.charge(Color::Black, 300), 2);
        c.commit(Color::Black, c.charge(Color::Black, 300));
        assert_eq!(
            go(&c, Color::Black, 500),
            "go btime 57500 wtime 60000 byoyomi 0"
        );
        // With no more main time than the least charge, every move loses: nothing to tell.
        let one_left = Clock::new(
            rule(&["Total_Time:1", "Least_Time_Per_Move:1"]),
            rule(&["Total_Time:1"]),
            false,
        );
        assert_eq!(one_left.deadline_ms(Color::Black), Some(0));
        assert_eq!(
            go(&one_left, Color::Black, 0),
            "go btime 0 wtime 1000 byoyomi 0"
        );
        assert_eq!(
            go(&one_left, Color::White, 0),
            "go btime 1000 wtime 1000 byoyomi 0"
        );
    }

    #[test]
    fn per_side_blocks_give_each_side_its_own_clock_and_form() {
        // Time+: 10 min + 10 s byoyomi; Time-: 5 min + 5 s Fischer, in 100 ms units.
        let black = rule(&["Total_Time:600", "Byoyomi:10"]);
        let white = rule(&["Time_Unit:100msec", "Total_Time:3000", "Increment:50"]);
        let mut c = Clock::new(black, white, false);
        assert_eq!(
            go(&c, Color::Black, 2500),
            "go btime 600000 wtime 300000 byoyomi 7500"
        );
        c.commit(Color::Black, 12);
        // White's own increment is added before its charge: 3000 + 50 − 37 units.
        assert_eq!(
            go(&c, Color::White, 2500),
            "go btime 588000 wtime 300000 binc 0 winc 2500"
        );
        c.commit(Color::White, 37);
        assert_eq!(c.remaining(Color::White), 3013);
        assert_eq!(
            go(&c, Color::Black, 0),
            "go btime 588000 wtime 301300 byoyomi 10000"
        );
    }

    #[test]
    fn a_cap_keeps_the_engine_fast_but_never_beyond_the_clock() {
        let c = clock("t-600-10");
        let capped = TimePolicy {
            margin_ms: 500,
            cap_ms: Some(1000),
        };
        assert_eq!(
            server_go_times(&c, Color::Black, capped)
                .unwrap()
                .to_string(),
            "btime 1000 wtime 600000 byoyomi 1000"
        );
        let c = clock("t-0-1");
        assert_eq!(
            server_go_times(&c, Color::White, capped)
                .unwrap()
                .to_string(),
            "btime 0 wtime 0 byoyomi 500"
        );
        let c = clock("f-60-5F");
        assert_eq!(
            server_go_times(&c, Color::White, capped)
                .unwrap()
                .to_string(),
            "btime 60000 wtime 1000 binc 5000 winc 1000"
        );
    }

    /// Over a grid of every field (units, sizes, stop-watch, margins, time already used):
    /// what the engine is told for this move never reaches the real deadline.
    #[test]
    fn the_told_time_never_loses_on_time() {
        let mut checked = 0;
        for unit in ["100msec", "1sec", "1min"] {
            for total in [None, Some(0), Some(1), Some(60), Some(1 << 40)] {
                for (byoyomi, increment) in [(0, 0), (1, 0), (10, 0), (0, 5)] {
                    for delay in [0, 3] {
                        for least in [0, 2] {
                            for roundup in [false, true] {
                                let rule = TimeRule {
                                    unit: TimeUnit::parse(unit).unwrap(),
                                    total,
                                    byoyomi,
                                    increment,
                                    delay,
                                    least,
                                    roundup,
                                };
                                for stopwatch in [false, true] {
                                    for used in [0, 7] {
                                        let mut c = Clock::new(
                                            rule.clone(),
                                            TimeRule::default(),
                                            stopwatch,
                                        );
                                        c.commit(Color::Black, used);
                                        for margin in [0, 500, 2500] {
                                            checked += told_fits(&c, margin);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// 1 when the told time (btime, plus byoyomi in a byoyomi clock) is checked to be
    /// spendable without losing, 0 for an unlimited clock.
    fn told_fits(c: &Clock, margin: u64) -> usize {
        let Some(t) = server_go_times(c, Color::Black, TimePolicy::margin(margin)) else {
            assert!(c.rule(Color::Black).is_unlimited());
            return 0;
        };
        let spend = match t.per_move {
            PerMove::Byoyomi(ms) => t.btime + ms,
            PerMove::Increment { .. } => t.btime,
        };
        let deadline = c.deadline_ms(Color::Black).unwrap();
        assert!(
            spend + margin <= deadline.max(margin),
            "{t} {deadline} {c:?}"
        );
        if spend < deadline {
            assert!(
                !c.is_time_up(Color::Black, c.charge(Color::Black, spend)),
                "{t} {c:?}"
            );
        }
        1
    }

    #[test]
    fn the_line_protocol_tells_both_clocks_and_the_byoyomi_or_increment() {
        let tc = TimeControl {
            initial_ms: 60_000,
            byoyomi_ms: 10_000,
            increment_ms: 0,
        };
        let clocks = crate::clock::clocks(Some(tc), Color::Black, &[2_000, 1_000, 1_000]);
        assert_eq!(
            line_go_times(Some(tc), &clocks).to_string(),
            "btime 57000 wtime 59000 byoyomi 10000"
        );
        let fischer = TimeControl {
            increment_ms: 2_000,
            ..tc
        };
        let clocks = crate::clock::clocks(Some(fischer), Color::Black, &[1_000]);
        assert_eq!(
            line_go_times(Some(fischer), &clocks).to_string(),
            "btime 61000 wtime 60000 binc 2000 winc 2000"
        );
        assert_eq!(
            line_go_times(None, &Clocks::default()).to_string(),
            "btime 0 wtime 0 byoyomi 1000"
        );
    }
}
