//! Who may open a connection and stay: a global cap on connections, a per-address cap on
//! those not logged in yet, and a per-address cap on players logged in, so neither a flood
//! of connections nor a crowd of squatters from one place can crowd out other players.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

#[derive(Default)]
struct Counts {
    total: usize,
    unauthenticated: HashMap<IpAddr, usize>,
    logged_in: HashMap<IpAddr, usize>,
}

/// The counts, shared by the accept loop and every connection.
pub(crate) struct Admission {
    max_total: usize,
    max_unauthenticated: usize,
    max_logged_in: usize,
    counts: Mutex<Counts>,
}

/// Why a connection was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    Full,
    PendingFromAddress,
    PlayersFromAddress,
}

impl Refused {
    pub fn reason(self) -> &'static str {
        match self {
            Refused::Full => "the server is full",
            Refused::PendingFromAddress => "too many connections not logged in from this address",
            Refused::PlayersFromAddress => "too many players logged in from this address",
        }
    }
}

impl Admission {
    pub fn new(
        max_total: usize,
        max_unauthenticated: usize,
        max_logged_in: usize,
    ) -> Arc<Admission> {
        Arc::new(Admission {
            max_total,
            max_unauthenticated,
            max_logged_in,
            counts: Mutex::new(Counts::default()),
        })
    }

    pub fn admit(self: &Arc<Admission>, ip: IpAddr) -> Result<Ticket, Refused> {
        let mut c = self.counts.lock().unwrap();
        if c.total >= self.max_total {
            return Err(Refused::Full);
        }
        let pending = c.unauthenticated.entry(ip).or_default();
        if *pending >= self.max_unauthenticated {
            return Err(Refused::PendingFromAddress);
        }
        *pending += 1;
        c.total += 1;
        Ok(Ticket {
            admission: self.clone(),
            ip,
            authenticated: false,
        })
    }
}

/// A connection's place in the counts, given back when it is dropped.
pub(crate) struct Ticket {
    admission: Arc<Admission>,
    ip: IpAddr,
    authenticated: bool,
}

impl Ticket {
    fn release_pending(&self, c: &mut Counts) {
        if let Some(n) = c.unauthenticated.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                c.unauthenticated.remove(&self.ip);
            }
        }
    }

    /// The connection logged in: it no longer counts as pending but as a player of its
    /// address, if the address has room for one more.
    pub fn authenticated(&mut self) -> Result<(), Refused> {
        if self.authenticated {
            return Ok(());
        }
        let mut c = self.admission.counts.lock().unwrap();
        let players = c.logged_in.entry(self.ip).or_default();
        if *players >= self.admission.max_logged_in {
            if *players == 0 {
                c.logged_in.remove(&self.ip);
            }
            return Err(Refused::PlayersFromAddress);
        }
        *players += 1;
        self.authenticated = true;
        self.release_pending(&mut c);
        Ok(())
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut c = self.admission.counts.lock().unwrap();
        c.total -= 1;
        if !self.authenticated {
            self.release_pending(&mut c);
        } else if let Some(n) = c.logged_in.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                c.logged_in.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_per_address_and_in_total() {
        let a = Admission::new(3, 2, 1);
        let one: IpAddr = "10.0.0.1".parse().unwrap();
        let two: IpAddr = "10.0.0.2".parse().unwrap();
        let mut t1 = a.admit(one).unwrap();
        let mut t2 = a.admit(one).unwrap();
        assert_eq!(a.admit(one).err(), Some(Refused::PendingFromAddress));
        assert_eq!(t1.authenticated(), Ok(()));
        // One player per address here: the second login from it is refused.
        assert_eq!(t2.authenticated(), Err(Refused::PlayersFromAddress));
        let t3 = a.admit(one).unwrap();
        assert_eq!(a.admit(two).err(), Some(Refused::Full));
        drop(t3);
        assert!(a.admit(two).is_ok());
    }
}
