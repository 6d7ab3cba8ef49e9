//! What stands between a connection and a login: the password-hashing lane, the failed-login
//! throttle, and the secrets already verified in this server's lifetime.

use std::collections::HashMap;
use std::hash::BuildHasher as _;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::Semaphore;

use crate::server::login_throttle::{Limits, Throttle};

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
        }
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
