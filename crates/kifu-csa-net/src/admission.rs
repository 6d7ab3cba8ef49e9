//! Who may open a connection: a global cap on connections and a per-address cap on those
//! not logged in yet, so a flood of connections from one place cannot crowd out players.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

#[derive(Default)]
struct Counts {
    total: usize,
    unauthenticated: HashMap<IpAddr, usize>,
}

/// The counts, shared by the accept loop and every connection.
pub(crate) struct Admission {
    max_total: usize,
    max_unauthenticated: usize,
    counts: Mutex<Counts>,
}

/// Why a connection was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    TooMany,
    TooManyFromAddress,
}

impl Refused {
    pub fn reason(self) -> &'static str {
        match self {
            Refused::TooMany => "the server is full",
            Refused::TooManyFromAddress => "too many connections not logged in from this address",
        }
    }
}

impl Admission {
    pub fn new(max_total: usize, max_unauthenticated: usize) -> Arc<Admission> {
        Arc::new(Admission {
            max_total,
            max_unauthenticated,
            counts: Mutex::new(Counts::default()),
        })
    }

    pub fn admit(self: &Arc<Admission>, ip: IpAddr) -> Result<Ticket, Refused> {
        let mut c = self.counts.lock().unwrap();
        if c.total >= self.max_total {
            return Err(Refused::TooMany);
        }
        let pending = c.unauthenticated.entry(ip).or_default();
        if *pending >= self.max_unauthenticated {
            return Err(Refused::TooManyFromAddress);
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

    /// The connection logged in: it no longer counts against its address.
    pub fn authenticated(&mut self) {
        if !self.authenticated {
            self.authenticated = true;
            let mut c = self.admission.counts.lock().unwrap();
            self.release_pending(&mut c);
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut c = self.admission.counts.lock().unwrap();
        c.total -= 1;
        if !self.authenticated {
            self.release_pending(&mut c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_per_address_and_in_total() {
        let a = Admission::new(3, 2);
        let one: IpAddr = "10.0.0.1".parse().unwrap();
        let two: IpAddr = "10.0.0.2".parse().unwrap();
        let mut t1 = a.admit(one).unwrap();
        let _t2 = a.admit(one).unwrap();
        assert_eq!(a.admit(one).err(), Some(Refused::TooManyFromAddress));
        t1.authenticated();
        let t3 = a.admit(one).unwrap();
        assert_eq!(a.admit(two).err(), Some(Refused::TooMany));
        drop(t3);
        assert!(a.admit(two).is_ok());
    }
}
