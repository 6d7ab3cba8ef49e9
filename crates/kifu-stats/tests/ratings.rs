//! `mk_rate`-style ratings checked against an independent computation: Hunter's MM algorithm for
//! the Bradley–Terry model ("MM algorithms for generalized Bradley–Terry models", Annals of
//! Statistics 32, 2004), which reaches the same maximum-likelihood ratings by a different route
//! (a fixed-point iteration on strengths γ = 10^(R/400), no derivatives), and closed forms.

use kifu_stats::ratings::{Method, Outcome, RatedGame, rate};

fn game(black: &str, white: &str, outcome: Outcome, age_days: f64) -> RatedGame {
    RatedGame {
        black: black.into(),
        white: white.into(),
        outcome,
        age_days,
        abnormal: false,
        plies: 100,
    }
}

/// Hunter's MM iteration: γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j), normalised each round; ratings
/// `400·log10 γ`, shifted to mean `mean`.
fn mm_ratings(ids: &[&str], games: &[RatedGame], method: &Method) -> Vec<f64> {
    let n = ids.len();
    let at = |id: &str| ids.iter().position(|x| *x == id).unwrap();
    let mut w = vec![vec![0.0; n]; n];
    for g in games {
        let k = method.weight(g.age_days);
        let (b, wh) = (at(&g.black), at(&g.white));
        match g.outcome {
            Outcome::BlackWin => w[b][wh] += k,
            Outcome::WhiteWin => w[wh][b] += k,
            Outcome::Draw => {
                w[b][wh] += k / 2.0;
                w[wh][b] += k / 2.0;
            }
        }
    }
    let mut gamma = vec![1.0; n];
    for _ in 0..100_000 {
        let mut next = vec![0.0; n];
        for i in 0..n {
            let wins: f64 = w[i].iter().sum();
            let denom: f64 = (0..n)
                .filter(|&j| j != i)
                .map(|j| (w[i][j] + w[j][i]) / (gamma[i] + gamma[j]))
                .sum();
            next[i] = wins / denom;
        }
        let geo = next.iter().map(|g: &f64| g.ln()).sum::<f64>() / n as f64;
        for g in &mut next {
            *g /= geo.exp();
        }
        gamma = next;
    }
    let r: Vec<f64> = gamma.iter().map(|g| 400.0 * g.log10()).collect();
    let mean = r.iter().sum::<f64>() / n as f64;
    r.iter().map(|x| x - mean + method.mean).collect()
}

/// A fixed league of six players with decisive games, draws and ages from a day to a year.
fn league() -> Vec<RatedGame> {
    let ids = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"];
    let mut games = Vec::new();
    // A deterministic schedule: every pair plays repeatedly; the lower index wins more often.
    let mut seed = 12345u64;
    for round in 0..40 {
        for a in 0..ids.len() {
            for b in a + 1..ids.len() {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let roll = (seed >> 33) % 100;
                let edge = 50 + 8 * (b - a) as u64;
                let outcome = if roll < edge - 10 {
                    Outcome::BlackWin
                } else if roll < edge {
                    Outcome::Draw
                } else {
                    Outcome::WhiteWin
                };
                let (black, white, outcome) = if round % 2 == 0 {
                    (ids[a], ids[b], outcome)
                } else {
                    let flipped = match outcome {
                        Outcome::BlackWin => Outcome::WhiteWin,
                        Outcome::WhiteWin => Outcome::BlackWin,
                        Outcome::Draw => Outcome::Draw,
                    };
                    (ids[b], ids[a], flipped)
                };
                games.push(game(black, white, outcome, (round * 9 + a + b) as f64));
            }
        }
    }
    games
}

#[test]
fn agrees_with_an_independent_maximum_likelihood_computation() {
    let games = league();
    let method = Method::default();
    let ratings = rate(&games, &method);
    assert_eq!(ratings.groups.len(), 1);
    assert!(ratings.unrated.is_empty());
    let ids = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"];
    let expected = mm_ratings(&ids, &games, &method);
    for (id, want) in ids.iter().zip(&expected) {
        let (_, got) = ratings.get(id).unwrap();
        assert!(
            (got.rate as f64 - want).abs() <= 1.0,
            "{id}: {} against MM's {want:.2}",
            got.rate
        );
    }
    // Highest first within a group.
    assert!(ratings.groups[0].windows(2).all(|w| w[0].rate >= w[1].rate));
    let mean = ratings.groups[0].iter().map(|p| p.rate as f64).sum::<f64>() / 6.0;
    assert!((mean - 1000.0).abs() <= 1.0);
}

#[test]
fn two_players_differ_by_the_logistic_elo_of_their_score() {
    // 12 wins to 4, all fresh: R_a − R_b = 400·log10(12/4).
    let mut games = Vec::new();
    for i in 0..16 {
        let outcome = if i < 12 {
            Outcome::BlackWin
        } else {
            Outcome::WhiteWin
        };
        games.push(game("a", "b", outcome, 0.0));
    }
    let ratings = rate(&games, &Method::default());
    let (_, a) = ratings.get("a").unwrap();
    let (_, b) = ratings.get("b").unwrap();
    let want = 400.0 * 3f64.log10();
    assert!(
        ((a.rate - b.rate) as f64 - want).abs() <= 1.0,
        "{} {}",
        a.rate,
        b.rate
    );
    assert_eq!(a.rate + b.rate, 2000);
    assert_eq!((a.wins, a.losses), (12.0, 4.0));
}

#[test]
fn weights_halve_after_sixty_days_past_the_first_seven() {
    let m = Method::default();
    assert_eq!(m.weight(0.0), 1.0);
    assert_eq!(m.weight(6.9), 1.0);
    assert_eq!(m.weight(7.0), 1.0);
    assert!((m.weight(67.0) - 0.5).abs() < 1e-3);
    assert!((m.weight(127.0) - 0.25).abs() < 1e-3);
    assert_eq!(m.weight(731.0), 0.0);
}

#[test]
fn players_without_a_win_a_loss_or_fifteen_games_are_not_rated() {
    let mut games = league();
    // `unbeaten` only ever wins; `newcomer` has too few games; `norate` asks not to be rated.
    for _ in 0..20 {
        games.push(game("unbeaten", "alpha", Outcome::BlackWin, 1.0));
    }
    for _ in 0..3 {
        games.push(game("newcomer", "bravo", Outcome::BlackWin, 1.0));
        games.push(game("bravo", "newcomer", Outcome::BlackWin, 1.0));
    }
    games.push(game("x@NORATE+abc", "alpha", Outcome::Draw, 1.0));
    let ratings = rate(&games, &Method::default());
    let unrated: Vec<&str> = ratings.unrated.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(unrated, ["newcomer", "unbeaten"]);
    assert!(ratings.get("unbeaten").is_none());
    assert!(ratings.unrated.iter().all(|p| p.rate == 0));
    assert_eq!(ratings.groups[0].len(), 6);
}

#[test]
fn unconnected_players_form_groups_of_their_own() {
    let mut games = league();
    for i in 0..20 {
        let outcome = if i % 4 == 0 {
            Outcome::WhiteWin
        } else {
            Outcome::BlackWin
        };
        games.push(game("p", "q", outcome, 2.0));
    }
    let ratings = rate(&games, &Method::default());
    assert_eq!(ratings.groups.len(), 2);
    assert_eq!(ratings.groups[0].len(), 6);
    let (group, _) = ratings.get("p").unwrap();
    assert_eq!(group, 1);
    let small: i64 = ratings.groups[1].iter().map(|p| p.rate).sum();
    assert_eq!(small, 2000);
}

#[test]
fn abnormal_games_count_only_when_long_enough() {
    let mut short = game("a", "b", Outcome::BlackWin, 0.0);
    short.abnormal = true;
    short.plies = 30;
    let mut long = short.clone();
    long.plies = 31;
    let mut games = vec![short; 10];
    for i in 0..16 {
        games.push(game(
            "a",
            "b",
            if i % 2 == 0 {
                Outcome::BlackWin
            } else {
                Outcome::WhiteWin
            },
            0.0,
        ));
    }
    let even = rate(&games, &Method::default());
    assert_eq!(even.get("a").unwrap().1.rate, 1000);
    games.push(long);
    let tilted = rate(&games, &Method::default());
    assert!(tilted.get("a").unwrap().1.rate > 1000);
}
