//! How long the engine searches each position: a node count, a depth or a fixed time.

use std::fmt;
use std::time::Duration;

use kifu_csa::usi::{GoTimes, PerMove, SearchLimit};

/// The search budget of every position of an analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// `go nodes N`: the same answer on any machine, whatever else runs (the default
    /// for reproducible analyses and for the cache).
    Nodes(u64),
    /// `go depth N`.
    Depth(u32),
    /// A fixed time a position, in milliseconds. Sent as `go btime 0 wtime 0 byoyomi MS`:
    /// the USI description has no `movetime`, and YaneuraOu-family engines do not read it,
    /// while every engine reads byoyomi.
    Movetime(u64),
}

impl Budget {
    /// What `go` says.
    pub fn limit(self) -> SearchLimit {
        match self {
            Budget::Nodes(n) => SearchLimit::Nodes(n),
            Budget::Depth(d) => SearchLimit::Depth(d),
            Budget::Movetime(ms) => SearchLimit::Clock(GoTimes {
                btime: 0,
                wtime: 0,
                per_move: PerMove::Byoyomi(ms),
            }),
        }
    }

    /// How long a search may take before the engine is taken to hang, unless the caller
    /// says: a fixed time plus ten seconds, else two minutes (a node or depth budget has no
    /// time of its own, and a slow machine shared with other work must not be mistaken for
    /// a hung engine).
    pub fn default_timeout(self) -> Duration {
        match self {
            Budget::Movetime(ms) => Duration::from_millis(ms) + Duration::from_secs(10),
            Budget::Nodes(_) | Budget::Depth(_) => Duration::from_secs(120),
        }
    }
}

/// `nodes=20000`, `depth=12`, `movetime=500`: the budget in the cache's key and the reports.
impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Nodes(n) => write!(f, "nodes={n}"),
            Budget::Depth(d) => write!(f, "depth={d}"),
            Budget::Movetime(ms) => write!(f, "movetime={ms}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_budget_is_a_go_command_and_a_key() {
        assert_eq!(Budget::Nodes(20000).limit().to_string(), "nodes 20000");
        assert_eq!(Budget::Depth(8).limit().to_string(), "depth 8");
        assert_eq!(
            Budget::Movetime(300).limit().to_string(),
            "btime 0 wtime 0 byoyomi 300"
        );
        assert_eq!(Budget::Movetime(300).to_string(), "movetime=300");
        assert!(Budget::Movetime(300).default_timeout() > Duration::from_millis(300));
    }
}
