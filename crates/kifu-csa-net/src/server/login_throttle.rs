//! Failed logins, counted per name and per address, so a password flood is refused before
//! it costs an Argon2 hash each.
//!
//! Each name and each address has an allowance of failures (a token bucket): a failed
//! login takes one, and they come back at a steady rate. While either allowance is spent,
//! a login is refused without hashing — unless its secret is one the server already
//! verified for that name in this run (the caller checks that first), so the real player
//! still gets in while its name is under attack.
//!
//! Such a refusal is not answered at once: the connection waits in a tarpit first (see
//! [`Limits::refusal_delay`]), so a guesser who holds many connections gets a few hundred
//! answers a second at most, however fast it reconnects, and cannot buy the server's time
//! at will.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The allowances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Failures under one name before it is throttled …
    pub per_name: u32,
    /// … and the time it takes to get one back.
    pub name_refill: Duration,
    /// Failures from one address before it is throttled …
    pub per_address: u32,
    /// … and the time it takes to get one back.
    pub address_refill: Duration,
    /// How long a login refused because an allowance is spent waits for its answer, at
    /// least …
    pub refusal_delay: Duration,
    /// … and longer while more connections wait, so that the whole server answers no more
    /// than this many such logins a second: the delay is the number waiting over this
    /// rate (at most a minute). Meanwhile each waiting connection still counts against its
    /// address's cap on connections not logged in, so a flood from one place is held to
    /// that cap and cannot reconnect faster than its answers come.
    pub refusals_per_second: u32,
}

impl Default for Limits {
    /// A player who mistypes a few times is never slowed; a guesser gets one try per 10 s
    /// per name and one per 2 s per address, and waits at least a second for each refusal
    /// beyond, the server answering at most 200 of those a second.
    fn default() -> Limits {
        Limits {
            per_name: 10,
            name_refill: Duration::from_secs(10),
            per_address: 30,
            address_refill: Duration::from_secs(2),
            refusal_delay: Duration::from_secs(1),
            refusals_per_second: 200,
        }
    }
}

/// Why a login was not even checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Throttled {
    /// The name's allowance is spent; one failure comes back in `retry_in`.
    Name {
        /// Until the next failure is allowed.
        retry_in: Duration,
    },
    /// The address's allowance is spent; one failure comes back in `retry_in`.
    Address {
        /// Until the next failure is allowed.
        retry_in: Duration,
    },
}

impl Throttled {
    /// The same refusal, `waited` later (the wait it tells shrinks accordingly).
    #[must_use]
    pub fn after(self, waited: Duration) -> Throttled {
        match self {
            Throttled::Name { retry_in } => Throttled::Name {
                retry_in: retry_in.saturating_sub(waited),
            },
            Throttled::Address { retry_in } => Throttled::Address {
                retry_in: retry_in.saturating_sub(waited),
            },
        }
    }

    /// For the client and the log.
    pub fn reason(self) -> String {
        let (what, d) = match self {
            Throttled::Name { retry_in } => ("for this name", retry_in),
            Throttled::Address { retry_in } => ("from this address", retry_in),
        };
        format!(
            "too many failed logins {what}; try again in {} s",
            d.as_secs().max(1)
        )
    }
}

#[derive(Clone, Copy)]
struct Bucket {
    /// Failures still allowed (fractional while refilling).
    left: f64,
    at: Instant,
}

struct Buckets<K> {
    capacity: u32,
    refill: Duration,
    map: HashMap<K, Bucket>,
}

/// Entries kept before full (forgotten) ones are swept out.
const SWEEP_AT: usize = 50_000;

impl<K: Hash + Eq> Buckets<K> {
    fn new(capacity: u32, refill: Duration) -> Buckets<K> {
        Buckets {
            capacity,
            refill,
            map: HashMap::new(),
        }
    }

    fn level(&self, b: Bucket, now: Instant) -> f64 {
        let back = now.duration_since(b.at).as_secs_f64() / self.refill.as_secs_f64().max(1e-9);
        (b.left + back).min(f64::from(self.capacity))
    }

    /// `Err(wait)` while no failure is left.
    fn check<Q>(&self, key: &Q, now: Instant) -> Result<(), Duration>
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let Some(b) = self.map.get(key) else {
            return Ok(());
        };
        let level = self.level(*b, now);
        if level >= 1.0 {
            return Ok(());
        }
        Err(self.refill.mul_f64(1.0 - level))
    }

    fn spend<Q>(&mut self, key: &Q, now: Instant)
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        let full = Bucket {
            left: f64::from(self.capacity),
            at: now,
        };
        let b = self.map.get(key).copied().unwrap_or(full);
        let left = (self.level(b, now) - 1.0).max(0.0);
        if self.map.len() >= SWEEP_AT {
            let cap = f64::from(self.capacity);
            let entries: Vec<(K, Bucket)> = self.map.drain().collect();
            self.map = entries
                .into_iter()
                .filter(|(_, b)| {
                    let back = now.duration_since(b.at).as_secs_f64()
                        / self.refill.as_secs_f64().max(1e-9);
                    b.left + back < cap
                })
                .collect();
        }
        match self.map.get_mut(key) {
            Some(b) => *b = Bucket { left, at: now },
            None => {
                self.map.insert(key.to_owned(), Bucket { left, at: now });
            }
        }
    }
}

/// The counts, shared by every connection.
pub struct Throttle {
    names: Mutex<Buckets<String>>,
    addresses: Mutex<Buckets<IpAddr>>,
}

impl Throttle {
    /// Every name and address with its whole allowance.
    pub fn new(limits: Limits) -> Throttle {
        Throttle {
            names: Mutex::new(Buckets::new(limits.per_name, limits.name_refill)),
            addresses: Mutex::new(Buckets::new(limits.per_address, limits.address_refill)),
        }
    }

    /// May a login for `name` from `ip` be checked now? (The caller asks again when the
    /// check's turn comes: a burst of guesses queued behind each other is refused as soon
    /// as the first ones have failed.)
    pub fn check(&self, ip: IpAddr, name: &str) -> Result<(), Throttled> {
        self.check_at(ip, name, Instant::now())
    }

    fn check_at(&self, ip: IpAddr, name: &str, now: Instant) -> Result<(), Throttled> {
        self.addresses
            .lock()
            .unwrap()
            .check(&ip, now)
            .map_err(|retry_in| Throttled::Address { retry_in })?;
        self.names
            .lock()
            .unwrap()
            .check(name, now)
            .map_err(|retry_in| Throttled::Name { retry_in })
    }

    /// Has `ip` any failure left? (For logins refused before a name could be judged.)
    pub fn check_address(&self, ip: IpAddr) -> Result<(), Throttled> {
        self.addresses
            .lock()
            .unwrap()
            .check(&ip, Instant::now())
            .map_err(|retry_in| Throttled::Address { retry_in })
    }

    /// A login for `name` from `ip` failed.
    pub fn failed(&self, ip: IpAddr, name: &str) {
        self.failed_at(ip, name, Instant::now());
    }

    fn failed_at(&self, ip: IpAddr, name: &str, now: Instant) {
        self.addresses.lock().unwrap().spend(&ip, now);
        self.names.lock().unwrap().spend(name, now);
    }

    /// A login from `ip` was refused before any name could be judged (not a `LOGIN` line,
    /// a bad name, no game named): it takes from the address's allowance only, so garbage
    /// cannot buy the server's time faster than guesses can.
    pub fn failed_from(&self, ip: IpAddr) {
        self.addresses.lock().unwrap().spend(&ip, Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_allowed_then_throttled_then_come_back() {
        let t = Throttle::new(Limits {
            per_name: 3,
            name_refill: Duration::from_secs(10),
            per_address: 5,
            address_refill: Duration::from_secs(1),
            ..Limits::default()
        });
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let t0 = Instant::now();
        for _ in 0..3 {
            assert_eq!(t.check_at(a, "alice", t0), Ok(()));
            t.failed_at(a, "alice", t0);
        }
        // The name is spent, from any address; other names are not.
        assert!(matches!(
            t.check_at(b, "alice", t0),
            Err(Throttled::Name { .. })
        ));
        assert_eq!(t.check_at(a, "bob", t0), Ok(()));
        t.failed_at(a, "bob", t0);
        t.failed_at(a, "carol", t0);
        // The address is spent for every name.
        let Err(Throttled::Address { retry_in }) = t.check_at(a, "dave", t0) else {
            panic!()
        };
        assert_eq!(retry_in, Duration::from_secs(1));
        assert_eq!(t.check_at(b, "dave", t0), Ok(()));
        // One failure comes back per refill time.
        let later = t0 + Duration::from_secs(10);
        assert_eq!(t.check_at(a, "alice", later), Ok(()));
        assert!(
            Throttled::Name {
                retry_in: Duration::from_millis(10)
            }
            .reason()
            .contains("try again in 1 s")
        );
    }
}
