//! The statistics against numbers computed elsewhere: the worked examples of our reference notes
//! (an independent Python re-implementation of fishtest's algorithm), the test vectors of
//! fastchess (`app/tests/sprt_test.cpp`) and ShogiHome (`src/tests/renderer/game/sprt.spec.ts`),
//! and a second, closed-form implementation of the estimates written here from the definitions.

use kifu_stats::elo::{Estimate, expected_score};
use kifu_stats::{Pentanomial, Sprt, SprtModel, Trinomial, normal_cdf};

fn close(got: f64, want: f64, tolerance: f64, what: &str) {
    assert!(
        (got - want).abs() <= tolerance,
        "{what}: got {got}, want {want} ± {tolerance}"
    );
}

fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
    Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap()
}

#[test]
fn pentanomial_worked_example() {
    let d = Pentanomial::new([5, 20, 40, 25, 10]).distribution();
    let e = Estimate::of(&d).unwrap();
    close(e.score, 0.5375, 1e-12, "score");
    close(e.variance, 0.06421875, 1e-12, "variance per pair");
    close(e.elo, 26.107, 5e-4, "Elo");
    close(e.elo_margin, 34.826, 5e-4, "Elo ±");
    close(e.los, 0.93054, 5e-6, "LOS");
    close(e.nelo, 36.355, 5e-4, "nElo");
    close(e.nelo_margin, 48.151, 5e-4, "nElo ±");
    close(
        sprt(0.0, 5.0, SprtModel::Normalized).llr(&d),
        0.27831,
        5e-6,
        "normalised LLR",
    );
    close(
        sprt(0.0, 5.0, SprtModel::Logistic).llr(&d),
        0.37496,
        5e-6,
        "logistic LLR",
    );
}

#[test]
fn trinomial_worked_example() {
    let d = Trinomial::new(70, 90, 40).distribution();
    let e = Estimate::of(&d).unwrap();
    close(e.score, 0.575, 1e-12, "score");
    close(e.elo, 52.512, 5e-4, "Elo");
    close(e.elo_margin, 35.913, 5e-4, "Elo ±");
    close(e.los, 0.99825, 5e-6, "LOS");
    close(e.nelo, 71.755, 5e-4, "nElo");
    close(e.nelo_margin, 48.151, 5e-4, "nElo ±");
    close(
        sprt(0.0, 5.0, SprtModel::Normalized).llr(&d),
        0.56160,
        5e-6,
        "normalised LLR",
    );
    close(
        sprt(0.0, 5.0, SprtModel::Logistic).llr(&d),
        0.74847,
        5e-6,
        "logistic LLR",
    );
}

#[test]
fn a_score_never_seen_counts_a_thousandth_as_fishtest_and_fastchess_do() {
    let d = Pentanomial::new([0, 3, 10, 5, 2]).distribution();
    close(
        sprt(0.0, 5.0, SprtModel::Normalized).llr(&d),
        0.14646,
        5e-6,
        "LLR",
    );
}

#[test]
fn fastchess_vectors() {
    // Stats(ll, ld, wl, dd, wd, ww): DD and WL are one class.
    let p = Pentanomial::new([365, 16618, 36029 + 200, 16974, 390]).distribution();
    close(
        sprt(0.0, 2.0, SprtModel::Normalized).llr(&p),
        2.25,
        0.005,
        "penta normalised",
    );
    let p = Pentanomial::new([871, 26175, 55003 + 980, 26678, 821]).distribution();
    close(
        sprt(0.0, 2.0, SprtModel::Logistic).llr(&p),
        -4.98,
        0.005,
        "penta logistic",
    );
    let t = Trinomial::new(36433, 68692, 36027).distribution();
    close(
        sprt(0.0, 2.0, SprtModel::Normalized).llr(&t),
        0.92,
        0.005,
        "tri normalised",
    );
    let t = Trinomial::new(21404, 40708, 21184).distribution();
    close(
        sprt(0.5, 2.5, SprtModel::Logistic).llr(&t),
        -1.57,
        0.005,
        "tri logistic",
    );
}

#[test]
fn shogihome_vectors() {
    let p = Pentanomial::new([291, 10353, 21899, 10175, 306]).distribution();
    close(
        sprt(0.0, 2.0, SprtModel::Normalized).llr(&p),
        -3.08,
        0.005,
        "large",
    );
    let p = Pentanomial::new([0, 0, 0, 0, 3]).distribution();
    close(
        sprt(-1.75, 0.25, SprtModel::Normalized).llr(&p),
        0.02,
        0.005,
        "all wins",
    );
}

#[test]
fn wald_bounds() {
    let (lo, hi) = sprt(0.0, 5.0, SprtModel::Normalized).bounds();
    close(lo, (0.05f64 / 0.95).ln(), 1e-15, "lower");
    close(hi, (0.95f64 / 0.05).ln(), 1e-15, "upper");
    close(hi, 2.944_438_979_166_44, 1e-12, "upper, printed");
    let (lo, hi) = Sprt::new(0.0, 5.0, 0.05, 0.1, SprtModel::Logistic)
        .unwrap()
        .bounds();
    close(lo, -2.251291798606495, 1e-12, "lower, β = 0.1");
    close(hi, 2.890371757896165, 1e-12, "upper, β = 0.1");
}

/// The estimates again, straight from the definitions on win/draw/loss counts and on pair
/// counts, with fishtest's per-game units for pairs (games = 2N, per-game variance = 2σ²_pair),
/// which must give the same interval.
#[test]
fn a_second_implementation_agrees_on_random_counts() {
    let mut rng = fastrand::Rng::with_seed(30);
    for _ in 0..200 {
        let counts: [u64; 5] = std::array::from_fn(|_| rng.u64(0..60));
        if counts.iter().sum::<u64>() < 2 || counts[0] + counts[1] + counts[3] + counts[4] == 0 {
            continue;
        }
        let e = Estimate::of(&Pentanomial::new(counts).distribution()).unwrap();
        let pairs = counts.iter().sum::<u64>() as f64;
        let score = (0..5)
            .map(|i| counts[i] as f64 * i as f64 / 4.0)
            .sum::<f64>()
            / pairs;
        let per_game_var = 2.0
            * (0..5)
                .map(|i| counts[i] as f64 * (i as f64 / 4.0 - score).powi(2))
                .sum::<f64>()
            / pairs;
        let se = (per_game_var / (2.0 * pairs)).sqrt();
        let elo = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
        let z = 1.959963984540054;
        close(e.score, score, 1e-12, "score");
        if score > 0.01 && score < 0.99 && score + z * se < 1.0 && score - z * se > 0.0 {
            close(e.elo, elo(score), 1e-9, "Elo");
            close(
                e.elo_margin,
                (elo(score + z * se) - elo(score - z * se)) / 2.0,
                1e-6,
                "Elo ±",
            );
        }
        close(e.los, normal_cdf((score - 0.5) / se), 1e-9, "LOS");
        // The logistic LLR again, its constrained maxima found by Newton's method on the
        // Lagrange multiplier instead of the library's bisection.
        let d = Pentanomial::new(counts).distribution();
        let t = sprt(-2.0, 2.0, SprtModel::Logistic);
        close(
            t.llr(&d),
            newton_logistic_llr(counts, -2.0, 2.0),
            1e-7,
            "LLR, Newton",
        );
        // fishtest's closed-form approximation (`LLR_alt2`) is close to the exact value when
        // the data are close to the hypotheses.
        if (e.score - 0.5).abs() < 0.03 && counts.iter().all(|&c| c > 0) {
            let (s0, s1) = (expected_score(-2.0), expected_score(2.0));
            let approx = e.units * (s1 - s0) * (2.0 * e.score - s0 - s1) / (2.0 * e.variance);
            close(
                t.llr(&d),
                approx,
                0.01 + 0.02 * approx.abs(),
                "LLR against LLR_alt2",
            );
        }
    }
}

/// The logistic GSPRT's LLR on pair counts, zero counts taken as 1e-3: for each hypothesis the
/// distribution `p_i = p̂_i/(1 + θ(a_i − s))` with θ from Newton's method on
/// `Σ p̂_i (a_i − s)/(1 + θ(a_i − s)) = 0`, started at θ = 0 and kept inside its interval.
fn newton_logistic_llr(counts: [u64; 5], elo0: f64, elo1: f64) -> f64 {
    let n: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let total: f64 = n.iter().sum();
    let p: Vec<f64> = n.iter().map(|c| c / total).collect();
    let a = [0.0, 0.25, 0.5, 0.75, 1.0];
    let mle = |s: f64| -> Vec<f64> {
        let phi: Vec<f64> = a.iter().map(|x| x - s).collect();
        let (lo, hi) = (-1.0 / phi[4], -1.0 / phi[0]);
        let mut theta = 0.0f64;
        for _ in 0..200 {
            let f: f64 = (0..5).map(|i| p[i] * phi[i] / (1.0 + theta * phi[i])).sum();
            let df: f64 = (0..5)
                .map(|i| -p[i] * phi[i] * phi[i] / (1.0 + theta * phi[i]).powi(2))
                .sum();
            let mut next = theta - f / df;
            if next <= lo || next >= hi {
                next = if next <= lo {
                    (theta + lo) / 2.0
                } else {
                    (theta + hi) / 2.0
                };
            }
            if (next - theta).abs() < 1e-15 {
                break;
            }
            theta = next;
        }
        (0..5).map(|i| p[i] / (1.0 + theta * phi[i])).collect()
    };
    let (p0, p1) = (mle(expected_score(elo0)), mle(expected_score(elo1)));
    total * (0..5).map(|i| p[i] * (p1[i] / p0[i]).ln()).sum::<f64>()
}
