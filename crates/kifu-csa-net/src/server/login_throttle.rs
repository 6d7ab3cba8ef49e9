//! Refused logins, counted per address, so that whoever sends them pays for them.
//!
//! A login is refused only for what its own line says or does (not a `LOGIN` line, a bad
//! name, a name off the closed list, a trip-less name already in a game, too many players
//! from its address): no secret is ever judged (see [`crate::server::identity`]), so there
//! is nothing to guess and no name to lock. What is left to slow down is an address that
//! keeps sending refused logins: each address has an allowance of refusals answered at
//! once (a token bucket: one comes back per [`Limits::address_refill`]); beyond it each
//! refusal is answered only after a delay that doubles with every further refusal, up to a
//! minute. The delay is a timer in the refused connection's own task, which meanwhile
//! holds its place under its address's cap on connections not logged in — so a flood from
//! one address is held to that cap divided by a growing delay.
//!
//! A login that is not refused never asks the throttle: other players behind the same
//! address, and every name, are unaffected by anyone's refusals.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The longest a refused login is kept waiting for its answer.
pub const LONGEST_DELAY: Duration = Duration::from_secs(60);

/// The allowances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Refusals answered at once from one address …
    pub per_address: u32,
    /// … and the time it takes to get one back.
    pub address_refill: Duration,
    /// The delay of the first refusal beyond the allowance; each further one doubles it
    /// (at most [`LONGEST_DELAY`]).
    pub refusal_delay: Duration,
}

impl Default for Limits {
    /// A player who mistypes a few times is never slowed; an address that goes on waits a
    /// second for its next refusal, two for the one after, and so on up to a minute, and
    /// gets one refusal back every 2 s it stays quiet.
    fn default() -> Limits {
        Limits {
            per_address: 30,
            address_refill: Duration::from_secs(2),
            refusal_delay: Duration::from_secs(1),
        }
    }
}

#[derive(Clone, Copy)]
struct Tally {
    /// Refusals counted, less those that came back (fractional while they come back).
    spent: f64,
    at: Instant,
}

/// Entries kept before forgotten ones (nothing spent any more) are swept out.
const SWEEP_AT: usize = 50_000;

/// The counts, shared by every connection.
pub struct Throttle {
    limits: Limits,
    addresses: Mutex<HashMap<IpAddr, Tally>>,
}

impl Throttle {
    /// Every address with its whole allowance.
    pub fn new(limits: Limits) -> Throttle {
        Throttle {
            limits,
            addresses: Mutex::new(HashMap::new()),
        }
    }

    fn level(&self, t: Tally, now: Instant) -> f64 {
        let back = now.duration_since(t.at).as_secs_f64()
            / self.limits.address_refill.as_secs_f64().max(1e-9);
        (t.spent - back).max(0.0)
    }

    /// Counts one refusal for `ip` and returns how long its answer waits.
    pub fn refused(&self, ip: IpAddr) -> Duration {
        self.refused_at(ip, Instant::now())
    }

    fn refused_at(&self, ip: IpAddr, now: Instant) -> Duration {
        let mut map = self.addresses.lock().unwrap();
        if map.len() >= SWEEP_AT {
            map.retain(|_, t| self.level(*t, now) > 0.0);
        }
        let before = map.get(&ip).map_or(0.0, |t| self.level(*t, now));
        let spent = before + 1.0;
        map.insert(ip, Tally { spent, at: now });
        let beyond = spent - f64::from(self.limits.per_address);
        if beyond <= 0.0 {
            return Duration::ZERO;
        }
        // 1, 2, 4 … times the first delay; the exponent is capped so it cannot overflow.
        let doublings = (beyond.ceil() as i32 - 1).clamp(0, 30);
        self.limits
            .refusal_delay
            .saturating_mul(1u32 << doublings)
            .min(LONGEST_DELAY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_free_then_wait_longer_and_longer_then_come_back() {
        let t = Throttle::new(Limits {
            per_address: 3,
            address_refill: Duration::from_secs(10),
            refusal_delay: Duration::from_secs(1),
        });
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let t0 = Instant::now();
        for _ in 0..3 {
            assert_eq!(t.refused_at(a, t0), Duration::ZERO);
        }
        let delays: Vec<u64> = (0..8).map(|_| t.refused_at(a, t0).as_secs()).collect();
        assert_eq!(delays, [1, 2, 4, 8, 16, 32, 60, 60]);
        // Another address is untouched.
        assert_eq!(t.refused_at(b, t0), Duration::ZERO);
        // Quiet for long enough, the address has its allowance again.
        let later = t0 + Duration::from_secs(10 * 20);
        assert_eq!(t.refused_at(a, later), Duration::ZERO);
    }
}
