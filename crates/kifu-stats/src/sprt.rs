//! The generalised sequential probability ratio test (GSPRT) on game results.
//!
//! After every unit (game or pair) the log-likelihood ratio of H1 (the Elo difference is
//! `elo1`) against H0 (it is `elo0`) is compared with Wald's bounds: at or below
//! `ln(β/(1−α))` H0 is accepted, at or above `ln((1−β)/α)` H1 is; in between the test goes on.
//!
//! The likelihoods are those of the generalised SPRT as fishtest (`LLRcalc.py`) and fastchess
//! (`sprt.cpp`) compute it on the multinomial of observed scores (M. van den Bergh, "A
//! practical introduction to the GSPRT" and "Normalized Elo"): `LLR = N · Σ p̂_i ln(p1_i/p0_i)`
//! where `p̂` are the observed frequencies and `p0`, `p1` the maximum-likelihood distributions
//! on the same scores that satisfy H0 and H1:
//!
//! - **logistic** Elo constrains the mean score to `s = 1/(1 + 10^(−elo/400))`; the maximum is
//!   `p_i = p̂_i/(1 + θ(a_i − s))` with θ the root of `Σ p̂_i (a_i − s)/(1 + θ(a_i − s)) = 0`;
//! - **normalised** Elo constrains the t-value `(μ − ½)/σ` to `nElo / (800/ln 10)` (×√2 for a
//!   pair); the maximum is found by fishtest's fixed-point iteration from the uniform
//!   distribution, each step solving the same kind of one-dimensional equation.
//!
//! A score never observed would have no logarithm: its count is taken as 10⁻³ (fishtest's
//! `results_to_pdf`, fastchess).

use std::fmt;
use std::str::FromStr;

use crate::counts::{Distribution, mean_and_variance};
use crate::elo::{NELO_PER_T, expected_score};

/// The count a never-observed score is given (fishtest, fastchess).
const ZERO_COUNT: f64 = 1e-3;

/// Which Elo the hypotheses are stated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// Logistic Elo (the expected score).
    Logistic,
    /// Normalised Elo (the expected score over its standard deviation); fastchess's default.
    Normalized,
}

impl fmt::Display for SprtModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtModel::Logistic => "logistic",
            SprtModel::Normalized => "normalized",
        })
    }
}

/// The test's decision so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Neither bound crossed.
    Continue,
    /// The lower bound crossed: the difference is `elo0` (or less).
    AcceptH0,
    /// The upper bound crossed: the difference is `elo1` (or more).
    AcceptH1,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Continue => "continue",
            Verdict::AcceptH0 => "H0",
            Verdict::AcceptH1 => "H1",
        })
    }
}

/// Parameters that make no test.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// `elo0` is not below `elo1`.
    Hypotheses {
        /// H0's difference.
        elo0: f64,
        /// H1's difference.
        elo1: f64,
    },
    /// An error rate outside (0, 1), or `alpha + beta` not below 1.
    Rates {
        /// The false-positive rate.
        alpha: f64,
        /// The false-negative rate.
        beta: f64,
    },
    /// A `key=value` list that does not say it.
    Syntax(String),
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::Hypotheses { elo0, elo1 } => {
                write!(f, "elo0 ({elo0}) must be below elo1 ({elo1})")
            }
            SprtError::Rates { alpha, beta } => write!(
                f,
                "alpha ({alpha}) and beta ({beta}) must each be in (0, 1) with alpha + beta < 1"
            ),
            SprtError::Syntax(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SprtError {}

/// An SPRT: two hypotheses on the Elo difference, the error rates and the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The difference H0 states.
    pub elo0: f64,
    /// The difference H1 states.
    pub elo1: f64,
    /// The probability of accepting H1 when H0 holds (false positive).
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds (false negative).
    pub beta: f64,
    /// The Elo the hypotheses are stated in.
    pub model: SprtModel,
}

impl Sprt {
    /// A test of `elo0` against `elo1`; refused when they are not in order or the rates make
    /// no test.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: SprtModel,
    ) -> Result<Sprt, SprtError> {
        // NaN compares as nothing, and is refused with the rest.
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(SprtError::Hypotheses { elo0, elo1 });
        }
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            return Err(SprtError::Rates { alpha, beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// Wald's bounds `(ln(β/(1−α)), ln((1−β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// What the test says at this log-likelihood ratio.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::AcceptH1
        } else if llr <= lower {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        }
    }

    /// The log-likelihood ratio of H1 against H0 given `results` (0 when nothing was counted).
    pub fn llr(&self, results: &Distribution) -> f64 {
        if results.total() <= 0.0 {
            return 0.0;
        }
        let counts = results.regularized(ZERO_COUNT);
        let n = counts.total();
        let observed = counts.frequencies();
        let (p0, p1) = match self.model {
            SprtModel::Logistic => (
                mle_with_mean(&observed, expected_score(self.elo0)),
                mle_with_mean(&observed, expected_score(self.elo1)),
            ),
            SprtModel::Normalized => {
                let per_unit = if results.pairs {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                };
                let t = |nelo: f64| nelo / NELO_PER_T * per_unit;
                (
                    mle_with_t_value(&observed, t(self.elo0)),
                    mle_with_t_value(&observed, t(self.elo1)),
                )
            }
        };
        let per_unit: f64 = observed
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(&(_, p), (&q0, &q1))| p * (q1 / q0).ln())
            .sum();
        n * per_unit
    }
}

/// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=logistic|normalized]` (fastchess's
/// `-sprt` keys; the model defaults to normalised, as there).
impl FromStr for Sprt {
    type Err = SprtError;

    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        let mut model = SprtModel::Normalized;
        for part in text.split([',', ' ']).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| SprtError::Syntax(format!("`{part}` is not key=value")))?;
            let number = || {
                value
                    .parse::<f64>()
                    .map_err(|_| SprtError::Syntax(format!("{key}: `{value}` is not a number")))
            };
            match key {
                "elo0" => elo0 = Some(number()?),
                "elo1" => elo1 = Some(number()?),
                "alpha" => alpha = number()?,
                "beta" => beta = number()?,
                "model" => {
                    model = match value {
                        "logistic" => SprtModel::Logistic,
                        "normalized" | "normalised" => SprtModel::Normalized,
                        _ => {
                            return Err(SprtError::Syntax(format!(
                                "model: `{value}` is neither logistic nor normalized"
                            )));
                        }
                    }
                }
                _ => {
                    return Err(SprtError::Syntax(format!(
                        "unknown key `{key}` (elo0, elo1, alpha, beta, model)"
                    )));
                }
            }
        }
        let missing = |k: &str| SprtError::Syntax(format!("{k} is missing"));
        Sprt::new(
            elo0.ok_or_else(|| missing("elo0"))?,
            elo1.ok_or_else(|| missing("elo1"))?,
            alpha,
            beta,
            model,
        )
    }
}

/// The distribution on the scores of `observed` closest to it in likelihood whose mean is `s`.
fn mle_with_mean(observed: &[(f64, f64)], s: f64) -> Vec<f64> {
    let phi: Vec<f64> = observed.iter().map(|&(a, _)| a - s).collect();
    reweight(observed, &phi)
}

/// The distribution on the scores of `observed` closest to it in likelihood whose t-value
/// `(μ − ½)/σ` is `t`: fishtest's `MLE_t_value` iteration (each step the maximum under the
/// constraint linearised at the current μ, σ), from the uniform distribution until no
/// probability moves by more than 1e-12.
fn mle_with_t_value(observed: &[(f64, f64)], t: f64) -> Vec<f64> {
    let mut p = vec![1.0 / observed.len() as f64; observed.len()];
    for _ in 0..100 {
        let current: Vec<(f64, f64)> = observed
            .iter()
            .zip(&p)
            .map(|(&(a, _), &q)| (a, q))
            .collect();
        let (mu, var) = mean_and_variance(&current);
        let sigma = var.sqrt();
        let phi: Vec<f64> = observed
            .iter()
            .map(|&(a, _)| a - 0.5 - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0)
            .collect();
        let next = reweight(observed, &phi);
        let moved = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if moved < 1e-12 {
            break;
        }
    }
    p
}

/// `p_i = p̂_i / (1 + θ φ_i)` with θ the root of `Σ p̂_i φ_i/(1 + θ φ_i) = 0` (the Lagrange
/// condition of maximising `Σ p̂_i ln p_i` under `Σ p_i φ_i = 0`). The left side falls
/// strictly from +∞ to −∞ between `−1/max φ` and `−1/min φ`, so bisection finds the root to
/// the last bit; when all φ have one sign no distribution on these scores meets the
/// constraint and the observed one is kept.
fn reweight(observed: &[(f64, f64)], phi: &[f64]) -> Vec<f64> {
    let max = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = phi.iter().copied().fold(f64::INFINITY, f64::min);
    if !(max > 0.0 && min < 0.0) {
        return observed.iter().map(|&(_, p)| p).collect();
    }
    let f = |theta: f64| -> f64 {
        observed
            .iter()
            .zip(phi)
            .map(|(&(_, p), &x)| p * x / (1.0 + theta * x))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    for _ in 0..300 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    observed
        .iter()
        .zip(phi)
        .map(|(&(_, p), &x)| p / (1.0 + theta * x))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_parse_and_bad_tests_are_refused() {
        let s: Sprt = "elo0=0,elo1=100,alpha=0.05,beta=0.05".parse().unwrap();
        assert_eq!(
            (s.elo0, s.elo1, s.model),
            (0.0, 100.0, SprtModel::Normalized)
        );
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944438979).abs() < 1e-8 && (hi - 2.944438979).abs() < 1e-8);
        assert!("elo0=5,elo1=0".parse::<Sprt>().is_err());
        assert!("elo0=0,elo1=5,alpha=0.6,beta=0.5".parse::<Sprt>().is_err());
        assert!("elo0=0,elo1=5,model=bayes".parse::<Sprt>().is_err());
        assert!("elo1=5".parse::<Sprt>().is_err());
        let l: Sprt = "elo0=0 elo1=5 model=logistic".parse().unwrap();
        assert_eq!(l.model, SprtModel::Logistic);
    }
}
