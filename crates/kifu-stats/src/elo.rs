//! What a distribution of results says about the strength difference.
//!
//! The formulas are the ones fishtest (`stat_util.py`, `get_elo`) and fastchess
//! (`elo_wdl.cpp`, `elo_pentanomial.cpp`) report, with the normal approximation to the
//! sampling distribution of the mean score:
//!
//! - score `s = Σ p̂_i a_i`, variance per unit `σ² = Σ p̂_i (a_i − s)²`, standard error
//!   `se = √(σ²/N)` (N games, or N pairs for a pentanomial);
//! - **logistic Elo** `E(s) = −400 · log10(1/s − 1)` with the 95 % interval
//!   `±(E(s + z·se) − E(s − z·se))/2`, `z = Φ⁻¹(0.975)`;
//! - **LOS**, the likelihood of superiority, `Φ((s − ½)/se)`;
//! - **normalised Elo** `nElo = (s − ½)/σ · 800/ln 10` per game (per pair, σ is `√2·σ_pair`,
//!   since a pair is two games), whose interval `z·se/σ · 800/ln 10` depends only on N.

use crate::counts::{Distribution, mean_and_variance};
use crate::normal::{normal_cdf, normal_quantile};

/// `800 / ln 10`: one unit of t-value (score difference over standard deviation) in normalised
/// Elo, the scale fishtest's normalised Elo is defined on.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// How far a score may come to 0 or 1 before the logistic Elo (infinite there) is taken; the
/// clamp shogitest applies.
const SCORE_CLAMP: f64 = 1e-6;

/// The logistic Elo difference of an expected score: `−400 · log10(1/s − 1)`.
pub fn logistic_elo(score: f64) -> f64 {
    let s = score.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of a logistic Elo difference: `1 / (1 + 10^(−elo/400))`.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The estimates of one distribution of results.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Units counted: games, or pairs for a pentanomial.
    pub units: f64,
    /// Mean score per game, 0 … 1.
    pub score: f64,
    /// Variance of the score per unit.
    pub variance: f64,
    /// Logistic Elo.
    pub elo: f64,
    /// Half the width of its 95 % interval.
    pub elo_margin: f64,
    /// Likelihood of superiority, 0 … 1.
    pub los: f64,
    /// Normalised Elo (NaN when every unit scored the same: σ = 0).
    pub nelo: f64,
    /// Half the width of its 95 % interval.
    pub nelo_margin: f64,
}

impl Estimate {
    /// The estimates of `results`, `None` when nothing was counted.
    pub fn of(results: &Distribution) -> Option<Estimate> {
        Estimate::with_confidence(results, 0.95)
    }

    /// The estimates with intervals of another confidence (0 … 1).
    pub fn with_confidence(results: &Distribution, confidence: f64) -> Option<Estimate> {
        let units = results.total();
        if units <= 0.0 {
            return None;
        }
        let (score, variance) = mean_and_variance(&results.frequencies());
        let se = (variance / units).sqrt();
        let z = normal_quantile(1.0 - (1.0 - confidence) / 2.0);
        let elo = logistic_elo(score);
        let elo_margin = (logistic_elo(score + z * se) - logistic_elo(score - z * se)) / 2.0;
        let los = if se > 0.0 {
            normal_cdf((score - 0.5) / se)
        } else if score > 0.5 {
            1.0
        } else if score < 0.5 {
            0.0
        } else {
            0.5
        };
        // A pair is two games: its deviation per game is √2 times the pair's (fishtest
        // `LLR_normalized`, "sigma_pg").
        let per_game_sd = if results.pairs {
            (2.0 * variance).sqrt()
        } else {
            variance.sqrt()
        };
        let (nelo, nelo_margin) = if per_game_sd > 0.0 {
            (
                (score - 0.5) / per_game_sd * NELO_PER_T,
                z * se / per_game_sd * NELO_PER_T,
            )
        } else {
            // No spread at all (every unit scored the same): no t-value to speak of.
            (f64::NAN, f64::NAN)
        };
        Some(Estimate {
            units,
            score,
            variance,
            elo,
            elo_margin,
            los,
            nelo,
            nelo_margin,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-400.0, -35.5, 0.0, 10.0, 191.0] {
            assert!((logistic_elo(expected_score(elo)) - elo).abs() < 1e-9);
        }
        assert_eq!(logistic_elo(0.5), 0.0);
        assert!(logistic_elo(1.0).is_finite(), "a clean sweep is clamped");
    }
}
