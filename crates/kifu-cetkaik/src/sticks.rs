//! Stick throws (裁 ciurl): five two-sided sticks, the result is the number of dark faces.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// One throw as a record knows it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Throw {
    /// The count of dark faces, 0–5.
    Count(u8),
    /// Count unknown (`或`); the move went on.
    UnknownSuccess,
    /// Count unknown (`或此無`); the move failed.
    UnknownFailure,
}

/// The throws of one move: the bridge throw of a ranged second leg, then the water throw.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Throws {
    /// The bridge throw of a ranged second leg (`橋N`).
    pub bridge: Option<Throw>,
    /// The water throw of a move into water (`水N`).
    pub water: Option<Throw>,
    /// 此無 after the bridge throw: the move is void (a failed count, or the player gave up
    /// although the count would have reached).
    pub bridge_void: bool,
}

/// Water entry succeeds with at least three dark faces.
pub const WATER_NEEDS: u8 = 3;

/// Throws five sticks with `rng`: each shows its dark face with probability 1/2, so the count
/// follows the binomial distribution B(5, ½).
pub fn throw_sticks(rng: &mut impl Rng) -> u8 {
    // One random byte, one stick per low bit: fair and independent, one draw per throw.
    (rng.random::<u8>() & 0b1_1111).count_ones() as u8
}

/// A seeded generator for simulations and tests (replays take throws from records): the same
/// seed gives the same throws with the same `rand` release (Cargo.lock pins it).
///
/// ```
/// use kifu_cetkaik::StickRng;
///
/// let (mut a, mut b) = (StickRng::new(7), StickRng::new(7));
/// let throws: Vec<u8> = (0..20).map(|_| a.throw()).collect();
/// assert!(throws.iter().all(|&n| n <= 5));
/// assert_eq!(throws, (0..20).map(|_| b.throw()).collect::<Vec<u8>>());
/// ```
#[derive(Clone, Debug)]
pub struct StickRng(StdRng);

impl StickRng {
    /// Throws seeded with `seed`.
    pub fn new(seed: u64) -> StickRng {
        StickRng(StdRng::seed_from_u64(seed))
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }

    /// Throws five sticks (see [`throw_sticks`]).
    pub fn throw(&mut self) -> u8 {
        throw_sticks(&mut self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throws_follow_the_binomial_distribution() {
        let mut rng = StickRng::new(42);
        let mut hist = [0u32; 6];
        let n = 64_000;
        for _ in 0..n {
            hist[rng.throw() as usize] += 1;
        }
        // Expected 1 5 10 10 5 1 out of 32.
        for (k, w) in [1u32, 5, 10, 10, 5, 1].into_iter().enumerate() {
            let expected = n * w / 32;
            let got = hist[k];
            assert!(
                got.abs_diff(expected) < expected / 5 + 60,
                "{k}: {got} vs {expected}"
            );
        }
    }

    #[test]
    fn seeded_rng_is_reproducible() {
        let a: Vec<u8> = (0..20)
            .scan(StickRng::new(7), |r, _| Some(r.throw()))
            .collect();
        let b: Vec<u8> = (0..20)
            .scan(StickRng::new(7), |r, _| Some(r.throw()))
            .collect();
        assert_eq!(a, b);
    }
}
