//! What stands between a connection and a login: the password-hashing lane, the failed-login
//! throttle and its tarpit, and the secrets already verified in this server's lifetime.

use std::collections::HashMap;
use std::hash::BuildHasher as _;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::server::flood_log::FloodLog;
use crate::server::login_throttle::{Limits, Throttle};

/// The longest a refused login is kept waiting for its answer.
const LONGEST_TARPIT: Duration = Duration::from_secs(60);

pub(crate) struct LoginGate {
    /// Password hashing has a lane of its own (a result never waits behind a login), at
    /// most half the cores at once, so a password flood cannot starve the relay.
    pub checks: Semaphore,
    /// One hash check in flight per address: the lane serves addresses in turn, so a
    /// flood from one place queues behind itself, not in front of everyone else.
    address_gates: Mutex<HashMap<IpAddr, Arc<Semaphore>>>,
    /// Failed logins per name and per address.
    pub throttle: Throttle,
    /// Secrets that passed the Argon2 check in this server's lifetime, as keyed 64-bit
    /// tags: a returning player is let in without hashing again, even while its name is
    /// under a password flood.
    pub verified: Mutex<HashMap<String, u64>>,
    tag_key: std::hash::RandomState,
    limits: Limits,
    /// Connections waiting in the tarpit.
    tarpitted: AtomicUsize,
    /// Logins refused while a name's allowance is spent, and while an address's is.
    pub name_floods: Arc<FloodLog>,
    pub address_floods: Arc<FloodLog>,
}

/// How long a refusal waits when `waiting` connections (this one included) wait: the
/// least delay, or longer so that the server answers at most `per_second` of them a second
/// (with `waiting` in the tarpit each waiting `waiting / per_second`, that many leave per
/// second).
fn tarpit_delay(least: Duration, per_second: u32, waiting: usize) -> Duration {
    let share = Duration::from_secs_f64(waiting as f64 / f64::from(per_second.max(1)));
    share.max(least).min(LONGEST_TARPIT)
}

/// Leaves the tarpit's count however the wait ends (a task dropped at shutdown too).
struct InTarpit<'a>(&'a AtomicUsize);

impl Drop for InTarpit<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl LoginGate {
    pub fn new(limits: Limits) -> LoginGate {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        LoginGate {
            checks: Semaphore::new((cores / 2).max(1)),
            address_gates: Mutex::new(HashMap::new()),
            throttle: Throttle::new(limits),
            verified: Mutex::new(HashMap::new()),
            tag_key: std::hash::RandomState::new(),
            limits,
            tarpitted: AtomicUsize::new(0),
            name_floods: FloodLog::new("logins refused: too many failed logins for a name"),
            address_floods: FloodLog::new("logins refused: too many failed logins from an address"),
        }
    }

    /// Holds a login refused because an allowance is spent before it is answered (see
    /// [`Limits::refusal_delay`]); returns how long it waited. The wait is a timer in the
    /// connection's own task — no task, buffer or socket more than the connection already
    /// holds — and the connection keeps its place under its address's cap meanwhile.
    pub async fn tarpit(&self) -> Duration {
        let waiting = self.tarpitted.fetch_add(1, Ordering::Relaxed) + 1;
        let _in = InTarpit(&self.tarpitted);
        let delay = tarpit_delay(
            self.limits.refusal_delay,
            self.limits.refusals_per_second,
            waiting,
        );
        tokio::time::sleep(delay).await;
        delay
    }

    /// A keyed tag of a name's secret (never stored, never logged; the key is random per
    /// server run).
    pub fn secret_tag(&self, name: &str, secret: Option<&str>) -> Option<u64> {
        secret.map(|s| self.tag_key.hash_one((name, s)))
    }

    /// The gate an address's hash checks pass one at a time.
    pub fn address_gate(&self, ip: IpAddr) -> Arc<Semaphore> {
        let mut gates = self.address_gates.lock().unwrap();
        if gates.len() > 10_000 {
            gates.retain(|_, g| Arc::strong_count(g) > 1);
        }
        gates
            .entry(ip)
            .or_insert_with(|| Arc::new(Semaphore::new(1)))
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tarpit_holds_the_server_to_its_rate_of_refusals() {
        let second = Duration::from_secs(1);
        // A few refusals wait the least delay …
        assert_eq!(tarpit_delay(second, 200, 1), second);
        assert_eq!(tarpit_delay(second, 200, 200), second);
        // … a crowd waits its turn: 500 waiting at 200 a second leave within 2.5 s each.
        assert_eq!(tarpit_delay(second, 200, 500), Duration::from_millis(2500));
        // Never longer than a minute.
        assert_eq!(tarpit_delay(second, 200, 1_000_000), LONGEST_TARPIT);
        assert_eq!(tarpit_delay(Duration::ZERO, 0, 3), Duration::from_secs(3));
    }
}
