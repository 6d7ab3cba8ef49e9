//! The SPRT's error rates, measured by simulating matches: equal engines must be found
//! stronger about `alpha` of the time (a little less: the LLR overshoots the bound, which only
//! makes Wald's bounds conservative), and an engine as strong as H1 says accepted about
//! `1 − beta` of the time.

use kifu_stats::elo::expected_score;
use kifu_stats::{Pentanomial, Sprt, SprtModel, Verdict};

/// Pair classes of two engines `elo` apart with a draw rate of one game in three: each game
/// scores independently, so a pair's class is the sum of two games.
fn pair_probabilities(elo: f64) -> [f64; 5] {
    let s = expected_score(elo);
    let draw = 1.0 / 3.0;
    let win = s - draw / 2.0;
    let loss = 1.0 - win - draw;
    let g = [loss, draw, win];
    let mut p = [0.0; 5];
    for (i, a) in g.iter().enumerate() {
        for (j, b) in g.iter().enumerate() {
            p[i + j] += a * b;
        }
    }
    p
}

/// Runs `runs` tests to their verdict (or `cap` pairs) and gives the share that accepted H1.
fn h1_rate(sprt: &Sprt, true_elo: f64, runs: u32, seed: u64) -> f64 {
    let p = pair_probabilities(true_elo);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut accepted = 0;
    for _ in 0..runs {
        let mut counts = Pentanomial::default();
        for _ in 0..20_000 {
            let mut x = rng.f64();
            let class = p
                .iter()
                .position(|&q| {
                    x -= q;
                    x < 0.0
                })
                .unwrap_or(4);
            counts.0[class] += 1;
            match sprt.verdict(sprt.llr(&counts.distribution())) {
                Verdict::Continue => {}
                Verdict::AcceptH1 => {
                    accepted += 1;
                    break;
                }
                Verdict::AcceptH0 => break,
            }
        }
    }
    f64::from(accepted) / f64::from(runs)
}

#[test]
fn equal_engines_are_found_stronger_about_alpha_of_the_time() {
    let sprt = Sprt::new(0.0, 40.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
    let rate = h1_rate(&sprt, 0.0, 2000, 1);
    eprintln!("logistic 0/40, equal engines: H1 accepted in {rate} of 2000 runs");
    // 2000 runs: one standard deviation of the rate is about 0.005.
    assert!((0.02..=0.065).contains(&rate), "false positives {rate}");
    let power = h1_rate(&sprt, 40.0, 600, 2);
    eprintln!("logistic 0/40, 40 Elo apart: H1 accepted in {power} of 600 runs");
    assert!(power >= 0.92, "power {power}");
}

#[test]
fn the_normalised_test_keeps_its_rates_too() {
    let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
    let rate = h1_rate(&sprt, 0.0, 800, 3);
    eprintln!("normalised 0/50, equal engines: H1 accepted in {rate} of 800 runs");
    assert!((0.015..=0.075).contains(&rate), "false positives {rate}");
}
