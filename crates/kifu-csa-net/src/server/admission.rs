//! Who may open a connection and stay: a cap on connections in all, a separate and lower
//! cap on those not logged in yet (in all and per address), and a per-address cap on
//! players logged in.
//!
//! Connections not logged in can never take more than their own share, so the rest of the
//! server is always room for players who have logged in. And when that share is full, a
//! newcomer is not turned away while some address holds more of it than the newcomer's
//! would: the oldest connection of the address holding most is let go instead (told why),
//! so a flood of idle sockets from a few addresses cannot keep a returning player out —
//! it only evicts itself.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

/// The caps (see [`crate::server::Config`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Caps {
    pub total: usize,
    pub pending: usize,
    pub pending_per_address: usize,
    pub players_per_address: usize,
}

/// A connection not logged in yet, in its address's queue, oldest first.
struct Pending {
    id: u64,
    evicted: Arc<Eviction>,
}

#[derive(Default)]
struct Counts {
    total: usize,
    pending_total: usize,
    pending: HashMap<IpAddr, VecDeque<Pending>>,
    logged_in: HashMap<IpAddr, usize>,
    next_id: u64,
}

impl Counts {
    fn remove_pending(&mut self, ip: IpAddr, id: u64) {
        if let Some(q) = self.pending.get_mut(&ip) {
            q.retain(|p| p.id != id);
            if q.is_empty() {
                self.pending.remove(&ip);
            }
        }
    }
}

/// The counts, shared by the accept loop and every connection.
pub(crate) struct Admission {
    caps: Caps,
    counts: Mutex<Counts>,
}

/// Why a connection was refused, or let go before it logged in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    Full,
    PendingFull,
    PendingFromAddress,
    PlayersFromAddress,
}

impl Refused {
    /// Every reason, in the order of their discriminants (one flood log each).
    pub const ALL: [Refused; 4] = [
        Refused::Full,
        Refused::PendingFull,
        Refused::PendingFromAddress,
        Refused::PlayersFromAddress,
    ];

    /// What the log's summary of a flood of them says.
    pub fn log_line(self) -> &'static str {
        match self {
            Refused::Full => "connections refused: the server is full",
            Refused::PendingFull => "connections refused: too many not logged in",
            Refused::PendingFromAddress => {
                "connections refused: too many not logged in from one address"
            }
            Refused::PlayersFromAddress => "connections refused: too many players from one address",
        }
    }

    pub fn reason(self) -> &'static str {
        match self {
            Refused::Full => "the server is full",
            Refused::PendingFull => "too many connections are not logged in; try again",
            Refused::PendingFromAddress => "too many connections not logged in from this address",
            Refused::PlayersFromAddress => "too many players logged in from this address",
        }
    }
}

/// Set when a connection not logged in is let go to make room for another.
#[derive(Default)]
pub(crate) struct Eviction {
    done: AtomicBool,
    wake: Notify,
}

impl Admission {
    pub fn new(caps: Caps) -> Arc<Admission> {
        Arc::new(Admission {
            caps,
            counts: Mutex::new(Counts::default()),
        })
    }

    pub fn admit(self: &Arc<Admission>, ip: IpAddr) -> Result<Ticket, Refused> {
        let mut c = self.counts.lock().unwrap();
        let mine = c.pending.get(&ip).map_or(0, VecDeque::len);
        if mine >= self.caps.pending_per_address {
            return Err(Refused::PendingFromAddress);
        }
        let full = c.total >= self.caps.total;
        if full || c.pending_total >= self.caps.pending {
            // Room is made only at the expense of an address that would still hold more
            // than the newcomer's, so floods evict each other, never a lone player.
            let heaviest = c
                .pending
                .iter()
                .filter(|(other, q)| **other != ip && q.len() > mine + 1)
                .max_by_key(|(_, q)| q.len())
                .map(|(other, _)| *other);
            let Some(victim) = heaviest else {
                return Err(if full {
                    Refused::Full
                } else {
                    Refused::PendingFull
                });
            };
            let q = c.pending.get_mut(&victim).expect("the heaviest address");
            let old = q.pop_front().expect("a queue holds a connection");
            if q.is_empty() {
                c.pending.remove(&victim);
            }
            c.pending_total -= 1;
            c.total -= 1;
            old.evicted.done.store(true, Ordering::Release);
            old.evicted.wake.notify_one();
        }
        let id = c.next_id;
        c.next_id += 1;
        let evicted = Arc::new(Eviction::default());
        c.pending.entry(ip).or_default().push_back(Pending {
            id,
            evicted: evicted.clone(),
        });
        c.pending_total += 1;
        c.total += 1;
        Ok(Ticket {
            admission: self.clone(),
            ip,
            id,
            evicted,
            authenticated: false,
        })
    }
}

/// A connection's place in the counts, given back when it is dropped.
pub(crate) struct Ticket {
    admission: Arc<Admission>,
    ip: IpAddr,
    id: u64,
    evicted: Arc<Eviction>,
    authenticated: bool,
}

impl Ticket {
    /// The connection logged in: it no longer counts as pending but as a player of its
    /// address, if the address has room for one more.
    pub fn authenticated(&mut self) -> Result<(), Refused> {
        if self.authenticated {
            return Ok(());
        }
        let mut c = self.admission.counts.lock().unwrap();
        if self.evicted.done.load(Ordering::Acquire) {
            return Err(Refused::PendingFull);
        }
        let players = c.logged_in.get(&self.ip).copied().unwrap_or(0);
        if players >= self.admission.caps.players_per_address {
            return Err(Refused::PlayersFromAddress);
        }
        *c.logged_in.entry(self.ip).or_default() += 1;
        c.remove_pending(self.ip, self.id);
        c.pending_total -= 1;
        self.authenticated = true;
        Ok(())
    }

    /// Resolves once this connection, not logged in, is let go to make room.
    pub async fn evicted(&self) {
        loop {
            if self.evicted.done.load(Ordering::Acquire) {
                return;
            }
            self.evicted.wake.notified().await;
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut c = self.admission.counts.lock().unwrap();
        if self.authenticated {
            c.total -= 1;
            if let Some(n) = c.logged_in.get_mut(&self.ip) {
                *n -= 1;
                if *n == 0 {
                    c.logged_in.remove(&self.ip);
                }
            }
        } else if !self.evicted.done.load(Ordering::Acquire) {
            // An evicted connection's place was given back when it was evicted.
            c.total -= 1;
            c.pending_total -= 1;
            c.remove_pending(self.ip, self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(total: usize, pending: usize, per_address: usize, players: usize) -> Caps {
        Caps {
            total,
            pending,
            pending_per_address: per_address,
            players_per_address: players,
        }
    }

    #[test]
    fn caps_per_address_and_in_total() {
        let a = Admission::new(caps(3, 3, 2, 1));
        let one: IpAddr = "10.0.0.1".parse().unwrap();
        let two: IpAddr = "10.0.0.2".parse().unwrap();
        let mut t1 = a.admit(one).unwrap();
        let mut t2 = a.admit(one).unwrap();
        assert_eq!(a.admit(one).err(), Some(Refused::PendingFromAddress));
        assert_eq!(t1.authenticated(), Ok(()));
        // One player per address here: the second login from it is refused.
        assert_eq!(t2.authenticated(), Err(Refused::PlayersFromAddress));
        let t3 = a.admit(one).unwrap();
        // Full: `one` holds two not logged in, more than the newcomer's one would be, so
        // its oldest goes.
        let t4 = a.admit(two).unwrap();
        assert!(t2.evicted.done.load(Ordering::Acquire));
        // Now no address holds more than a newcomer's would: refused.
        let three: IpAddr = "10.0.0.3".parse().unwrap();
        assert_eq!(a.admit(three).err(), Some(Refused::Full));
        drop((t2, t3, t4));
        assert!(a.admit(three).is_ok());
    }

    #[test]
    fn a_newcomer_evicts_the_oldest_of_the_address_holding_most() {
        let a = Admission::new(caps(100, 4, 4, 10));
        let flood: IpAddr = "10.0.0.9".parse().unwrap();
        let player: IpAddr = "10.0.0.1".parse().unwrap();
        let tickets: Vec<Ticket> = (0..4).map(|_| a.admit(flood).unwrap()).collect();
        // The flood cannot evict itself to come back in.
        assert_eq!(a.admit(flood).err(), Some(Refused::PendingFromAddress));
        let mut mine = a.admit(player).unwrap();
        assert!(tickets[0].evicted.done.load(Ordering::Acquire));
        assert!(!tickets[1].evicted.done.load(Ordering::Acquire));
        assert_eq!(mine.authenticated(), Ok(()));
        drop(tickets);
        let c = a.counts.lock().unwrap();
        assert_eq!((c.total, c.pending_total, c.pending.len()), (1, 0, 0));
    }
}
