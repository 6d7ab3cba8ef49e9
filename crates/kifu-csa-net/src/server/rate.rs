//! A token bucket: what the server allows a sender (a chatter, the whole chat, a kind of
//! log line) in a burst and then at a steady rate.

use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub(crate) struct Bucket {
    burst: f64,
    every: Duration,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// `burst` at once, then one per `every`.
    pub fn new(burst: u32, every: Duration) -> Bucket {
        Bucket {
            burst: f64::from(burst),
            every,
            tokens: f64::from(burst),
            at: Instant::now(),
        }
    }

    /// Takes one token if there is one.
    pub fn take(&mut self) -> bool {
        self.take_at(Instant::now())
    }

    fn take_at(&mut self, now: Instant) -> bool {
        let back = now.saturating_duration_since(self.at).as_secs_f64()
            / self.every.as_secs_f64().max(1e-9);
        self.tokens = (self.tokens + back).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_per_period() {
        let mut b = Bucket::new(2, Duration::from_secs(1));
        let t0 = b.at;
        assert!(b.take_at(t0) && b.take_at(t0));
        assert!(!b.take_at(t0));
        assert!(!b.take_at(t0 + Duration::from_millis(500)));
        assert!(b.take_at(t0 + Duration::from_millis(1000)));
        assert!(b.take_at(t0 + Duration::from_secs(100)));
        assert!(b.take_at(t0 + Duration::from_secs(100)));
        assert!(!b.take_at(t0 + Duration::from_secs(100)));
    }
}
