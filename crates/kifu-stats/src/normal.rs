//! The standard normal distribution: what the interval and the LOS are read from.

/// Φ(x), the probability that a standard normal variable is at most `x`
/// (`Φ(x) = erfc(−x/√2)/2`).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// Φ⁻¹(p) for 0 < p < 1: the `z` of a two-sided interval is `normal_quantile(1 − (1 − c)/2)`.
///
/// Found by bisection on [`normal_cdf`], which is exact to the last bits and fast enough for the
/// handful of calls a report makes.
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() || p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let (mut lo, mut hi) = (-40.0_f64, 40.0_f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if normal_cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quantile_of_a_95_percent_interval() {
        // The z every engine-testing tool uses (fastchess, fishtest): 1.959963984540054.
        assert!((normal_quantile(0.975) - 1.959963984540054).abs() < 1e-12);
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-15);
        assert!((normal_cdf(1.0) - 0.841344746068543).abs() < 1e-12);
    }
}
