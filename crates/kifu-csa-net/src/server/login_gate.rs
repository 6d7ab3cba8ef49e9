//! What stands between a connection and a login: the key that makes player ids of names
//! and trips, and the throttle that delays the answers to an address's refused logins.

use std::fmt::Arguments;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::server::flood_log::FloodLog;
use crate::server::identity::TripKey;
use crate::server::login_throttle::{Limits, Throttle};
use crate::server::rate::Bucket;

/// Login lines the log takes in a burst, then one per this long; beyond, a summary line
/// every ten seconds: free logins cannot fill the operator's disk with log lines.
const LOGIN_LINES_BURST: u32 = 200;
const LOGIN_LINES_EVERY: Duration = Duration::from_millis(20);

pub(crate) struct LoginGate {
    /// Makes a player's id of its name and trip.
    pub trip_key: TripKey,
    /// Refused logins per address.
    throttle: Throttle,
    /// Refusals answered late, logged one in full and then summed up.
    pub delayed: Arc<FloodLog>,
    /// What the log may still take of login lines …
    login_lines: Mutex<Bucket>,
    /// … and the summary of those it did not.
    logins_unlogged: Arc<FloodLog>,
}

impl LoginGate {
    pub fn new(limits: Limits, trip_key: TripKey) -> LoginGate {
        LoginGate {
            trip_key,
            throttle: Throttle::new(limits),
            delayed: FloodLog::new("logins refused late: too many refusals from one address"),
            login_lines: Mutex::new(Bucket::new(LOGIN_LINES_BURST, LOGIN_LINES_EVERY)),
            logins_unlogged: FloodLog::new("logins not logged one by one: too many a second"),
        }
    }

    /// Logs an accepted login, unless logins come faster than the log's allowance: then
    /// they are counted in a summary line.
    pub fn log_login(&self, from: IpAddr, line: Arguments<'_>) {
        let allowed = self.login_lines.lock().unwrap().take();
        if allowed || self.logins_unlogged.note(from) {
            tracing::info!("{line}");
        }
    }

    /// Counts a refused login from `ip`: how long its answer waits (zero within the
    /// address's allowance).
    pub fn refused(&self, ip: IpAddr) -> Duration {
        self.throttle.refused(ip)
    }
}
