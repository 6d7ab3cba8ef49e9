//! One side's clock in a match game, sans-IO: what `go` tells the engine, how long it may
//! think, what a move costs.
//!
//! The rules are those of shogi clocks as USI and the CSA server describe them: main time
//! first, then byoyomi a move (unused byoyomi is not kept); with a Fischer increment the
//! increment is credited with each move; the stop-watch rule charges each move in whole
//! minutes, rounded down. A move may take its side's remaining main time plus its byoyomi
//! and increment (shogitest's deadline) plus the match's margin for pipes and scheduling;
//! longer is a loss on time.

use kifu_csa::usi::{GoTimes, PerMove, SearchLimit};
use kifu_shogi::Color;

use crate::spec::{Limit, TimeControl};

/// A side's clock (or none, for node, depth and move-time limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    /// The time control.
    pub control: Option<TimeControl>,
    /// Main time left, in ms.
    pub remaining_ms: u64,
    /// The fixed time a move (`movetime=`), when that is the limit.
    pub movetime_ms: Option<u64>,
}

/// A move that took longer than its side could spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLoss {
    /// What the move took, in ms.
    pub used_ms: u64,
    /// What it could take (margin excluded), in ms.
    pub allowed_ms: u64,
}

impl SideClock {
    /// A full clock for `limit`.
    pub fn new(limit: &Limit) -> SideClock {
        SideClock {
            control: limit.clock,
            remaining_ms: limit.clock.map_or(0, |c| c.main_ms),
            movetime_ms: limit.movetime_ms,
        }
    }

    /// The most a move may take before the margin, `None` when no clock runs (a node or
    /// depth limit: only the match's hang timeout bounds those).
    pub fn allowed_ms(&self) -> Option<u64> {
        if let Some(c) = self.control {
            return Some(self.remaining_ms + c.byoyomi_ms + c.increment_ms);
        }
        self.movetime_ms
    }

    /// Charges a move that took `used_ms`; a loss on time when it took longer than
    /// [`SideClock::allowed_ms`] plus `margin_ms`.
    pub fn charge(&mut self, used_ms: u64, margin_ms: u64) -> Result<(), TimeLoss> {
        if let Some(allowed) = self.allowed_ms()
            && used_ms > allowed + margin_ms
        {
            return Err(TimeLoss {
                used_ms,
                allowed_ms: allowed,
            });
        }
        if let Some(c) = self.control {
            let charged = if c.stopwatch {
                used_ms / 60_000 * 60_000
            } else {
                used_ms
            };
            // Increment first: a Fischer move is paid from the time it brings.
            self.remaining_ms = (self.remaining_ms + c.increment_ms).saturating_sub(charged);
        }
        Ok(())
    }
}

/// What `go` says to the side to move: its limit, with both clocks' times when it plays on a
/// clock (the opponent's from the opponent's own clock, which may differ).
pub fn search_limit(limit: &Limit, clocks: [&SideClock; 2], turn: Color) -> SearchLimit {
    let me = clocks[turn as usize];
    if let Some(c) = me.control {
        let (black, white) = (clocks[Color::Black as usize], clocks[Color::White as usize]);
        let per_move = if c.increment_ms > 0 {
            PerMove::Increment {
                black: black.control.map_or(0, |c| c.increment_ms),
                white: white.control.map_or(0, |c| c.increment_ms),
            }
        } else {
            PerMove::Byoyomi(c.byoyomi_ms)
        };
        return SearchLimit::Clock(GoTimes {
            btime: black.remaining_ms,
            wtime: white.remaining_ms,
            per_move,
        });
    }
    if let Some(n) = limit.nodes {
        return SearchLimit::Nodes(n);
    }
    if let Some(d) = limit.depth {
        return SearchLimit::Depth(d);
    }
    SearchLimit::Clock(GoTimes {
        btime: 0,
        wtime: 0,
        per_move: PerMove::Byoyomi(limit.movetime_ms.unwrap_or(0)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(tc: &str) -> SideClock {
        SideClock::new(&Limit {
            clock: Some(TimeControl::parse(tc).unwrap()),
            ..Limit::default()
        })
    }

    #[test]
    fn byoyomi_is_spent_after_the_main_time_and_not_kept() {
        let mut c = clock("1+1");
        assert_eq!(c.allowed_ms(), Some(2000));
        c.charge(700, 0).unwrap();
        assert_eq!(c.remaining_ms, 300);
        c.charge(1200, 0).unwrap();
        assert_eq!(c.remaining_ms, 0);
        assert_eq!(
            c.charge(1100, 50),
            Err(TimeLoss {
                used_ms: 1100,
                allowed_ms: 1000
            })
        );
        assert!(c.charge(1040, 50).is_ok(), "within the margin");
    }

    #[test]
    fn fischer_and_stopwatch() {
        let mut f = clock("10+0+2");
        f.charge(5000, 0).unwrap();
        assert_eq!(f.remaining_ms, 7000);
        let mut sw = clock("600+30sw");
        sw.charge(59_999, 0).unwrap();
        assert_eq!(sw.remaining_ms, 600_000, "under a minute is free");
        sw.charge(130_000, 0).unwrap();
        assert_eq!(sw.remaining_ms, 480_000);
    }

    #[test]
    fn go_commands() {
        let nodes = Limit {
            nodes: Some(200),
            ..Limit::default()
        };
        let free = SideClock::new(&nodes);
        assert_eq!(
            search_limit(&nodes, [&free, &free], Color::Black).to_string(),
            "nodes 200"
        );
        assert_eq!(free.allowed_ms(), None);
        let a = clock("60+0+1");
        let b = clock("30+0+2");
        let limit = Limit {
            clock: a.control,
            ..Limit::default()
        };
        assert_eq!(
            search_limit(&limit, [&a, &b], Color::Black).to_string(),
            "btime 60000 wtime 30000 binc 1000 winc 2000"
        );
        let mt = Limit {
            movetime_ms: Some(100),
            ..Limit::default()
        };
        let c = SideClock::new(&mt);
        assert_eq!(
            search_limit(&mt, [&c, &c], Color::White).to_string(),
            "btime 0 wtime 0 byoyomi 100"
        );
        assert_eq!(c.allowed_ms(), Some(100));
    }
}
