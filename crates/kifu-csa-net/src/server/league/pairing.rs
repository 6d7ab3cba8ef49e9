//! Who plays whom in a league round, and with which colours.
//!
//! **Least difference** follows floodgate's default pairing (shogi-server `pairing.rb`,
//! `LeastDiff`, after Kaneko's 2012 note): the cost of a pairing is the sum over its pairs of
//! the rating difference, plus 400 when two players meet their last opponent again (4,400 when
//! one of them is unrated), 800 when both are humans (names ending `_human`), and 800 (400)
//! when their player ids share the first 7 (4) characters — the same author's engines. An
//! unrated player counts as their last decisive opponent's rating ± 200 (won/lost), else 2150.
//! shogi-server tries every pairing up to 7 players and random ones beyond; here every pairing
//! is tried up to 12 players (10,395 pairings), and beyond that the best of 300 random ones is
//! improved by swapping partners between pairs until no swap helps.
//!
//! **Odd numbers**: shogi-server drops a random player; here the player who came to the round
//! last sits out (first come, first served), and is told so.
//!
//! **Colours**: shogi-server draws them at random; here the player who has had White more often
//! in the league gets Black, and between equals the one who was White when the two last met.

use rand::Rng;
use rand::seq::SliceRandom;

/// A player waiting for a round, in the order they came.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Player id (name + trip hash).
    pub id: String,
    /// Login name.
    pub name: String,
    /// Their rating, `None` while unrated.
    pub rate: Option<f64>,
    /// Their last decisive league game.
    pub last: Option<LastGame>,
    /// Games as Black minus games as White in this league.
    pub colour_balance: i64,
}

/// A player's last decisive game: who against, whether they won, the opponent's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct LastGame {
    /// The opponent's player id.
    pub opponent: String,
    /// Whether the player won it.
    pub won: bool,
    /// The opponent's rating, `None` while unrated.
    pub opponent_rate: Option<f64>,
}

/// One pair of a round, as indices into the candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    /// Who plays Black.
    pub black: usize,
    /// Who plays White.
    pub white: usize,
}

/// A round's pairs and who sits it out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Round {
    /// The games to start.
    pub pairs: Vec<Pair>,
    /// Who waits for the next round.
    pub sitting_out: Vec<usize>,
}

/// The rating an unrated player is paired by.
fn estimated_rate(c: &Candidate) -> f64 {
    match (c.rate, &c.last) {
        (Some(r), _) => r,
        (
            None,
            Some(LastGame {
                won,
                opponent_rate: Some(r),
                ..
            }),
        ) => r + if *won { 200.0 } else { -200.0 },
        _ => 2150.0,
    }
}

/// What pairing `a` with `b` costs.
pub fn cost(a: &Candidate, b: &Candidate) -> f64 {
    let mut cost = (estimated_rate(a) - estimated_rate(b)).abs();
    let met_last = a.last.as_ref().is_some_and(|l| l.opponent == b.id)
        || b.last.as_ref().is_some_and(|l| l.opponent == a.id);
    if met_last {
        cost += 400.0;
        if a.rate.is_none() || b.rate.is_none() {
            cost += 4000.0;
        }
    }
    if a.name.ends_with("_human") && b.name.ends_with("_human") {
        cost += 800.0;
    }
    let shared =
        a.id.chars()
            .zip(b.id.chars())
            .take_while(|(x, y)| x == y)
            .count();
    if shared >= 7 {
        cost += 800.0;
    } else if shared >= 4 {
        cost += 400.0;
    }
    cost
}

/// Pairs `players` with the least total cost.
pub fn least_difference(players: &[Candidate], rng: &mut impl Rng) -> Round {
    let (playing, sitting_out) = even(players.len());
    let costs: Vec<Vec<f64>> = playing
        .iter()
        .map(|&a| {
            playing
                .iter()
                .map(|&b| cost(&players[a], &players[b]))
                .collect()
        })
        .collect();
    let order = if playing.len() <= 12 {
        exhaustive(&costs)
    } else {
        searched(&costs, rng)
    };
    let pairs = order
        .chunks(2)
        .map(|p| colours(players, playing[p[0]], playing[p[1]], None))
        .collect();
    Round { pairs, sitting_out }
}

/// floodgate's `random_pairing`.
pub fn random(players: &[Candidate], rng: &mut impl Rng) -> Round {
    let (mut playing, sitting_out) = even(players.len());
    playing.shuffle(rng);
    let pairs = playing
        .chunks(2)
        .map(|p| colours(players, p[0], p[1], None))
        .collect();
    Round { pairs, sitting_out }
}

/// Round `round` (counted from 0) of a round robin over the fixed list `roster` (login
/// names), by the circle method: everyone meets everyone once in `n − 1` rounds (`n` rounded up
/// to even), then again. Pairs of which one player is not waiting do not play.
pub fn round_robin(players: &[Candidate], roster: &[String], round: usize) -> Round {
    let mut seats: Vec<Option<&String>> = roster.iter().map(Some).collect();
    if seats.len() % 2 == 1 {
        seats.push(None);
    }
    let n = seats.len();
    let r = round % (n - 1);
    // Seat 0 stays; the others turn by one place a round.
    let at = |k: usize| {
        if k == 0 {
            seats[0]
        } else {
            seats[1 + (k - 1 + r) % (n - 1)]
        }
    };
    let index =
        |name: Option<&String>| name.and_then(|name| players.iter().position(|p| &p.name == name));
    let mut round_pairs = Vec::new();
    let mut paired = vec![false; players.len()];
    for k in 0..n / 2 {
        if let (Some(a), Some(b)) = (index(at(k)), index(at(n - 1 - k))) {
            // Alternate who is named first from round to round, so colours swap when the
            // balances are equal.
            let first_black = if r.is_multiple_of(2) {
                Some(a)
            } else {
                Some(b)
            };
            round_pairs.push(colours(players, a, b, first_black));
            paired[a] = true;
            paired[b] = true;
        }
    }
    Round {
        pairs: round_pairs,
        sitting_out: (0..players.len()).filter(|&i| !paired[i]).collect(),
    }
}

/// Everyone but, when the number is odd, the last to come.
fn even(n: usize) -> (Vec<usize>, Vec<usize>) {
    if n % 2 == 1 {
        ((0..n - 1).collect(), vec![n - 1])
    } else {
        ((0..n).collect(), Vec::new())
    }
}

/// Black is whoever has had White more often; between equals `tie` (or the first given).
fn colours(players: &[Candidate], a: usize, b: usize, tie: Option<usize>) -> Pair {
    let black = match players[a].colour_balance.cmp(&players[b].colour_balance) {
        std::cmp::Ordering::Less => a,
        std::cmp::Ordering::Greater => b,
        std::cmp::Ordering::Equal => tie.unwrap_or(a),
    };
    Pair {
        black,
        white: if black == a { b } else { a },
    }
}

fn total(costs: &[Vec<f64>], order: &[usize]) -> f64 {
    order.chunks(2).map(|p| costs[p[0]][p[1]]).sum()
}

/// The cheapest perfect matching, by trying them all (the first unpaired player with each
/// possible partner, recursively).
fn exhaustive(costs: &[Vec<f64>]) -> Vec<usize> {
    fn go(
        costs: &[Vec<f64>],
        left: &mut Vec<usize>,
        so_far: f64,
        current: &mut Vec<usize>,
        best: &mut (f64, Vec<usize>),
    ) {
        if so_far >= best.0 {
            return;
        }
        if left.is_empty() {
            *best = (so_far, current.clone());
            return;
        }
        let a = left.remove(0);
        for k in 0..left.len() {
            let b = left.remove(k);
            current.extend([a, b]);
            go(costs, left, so_far + costs[a][b], current, best);
            current.truncate(current.len() - 2);
            left.insert(k, b);
        }
        left.insert(0, a);
    }
    let mut left: Vec<usize> = (0..costs.len()).collect();
    let mut best = (f64::INFINITY, Vec::new());
    go(costs, &mut left, 0.0, &mut Vec::new(), &mut best);
    best.1
}

/// The best of 300 random matchings, each improved by swapping partners between two pairs
/// while a swap lowers the cost.
fn searched(costs: &[Vec<f64>], rng: &mut impl Rng) -> Vec<usize> {
    let mut best: Option<(f64, Vec<usize>)> = None;
    for _ in 0..300 {
        let mut order: Vec<usize> = (0..costs.len()).collect();
        order.shuffle(rng);
        loop {
            let mut improved = false;
            for p in (0..order.len()).step_by(2) {
                for q in (p + 2..order.len()).step_by(2) {
                    let now = costs[order[p]][order[p + 1]] + costs[order[q]][order[q + 1]];
                    if costs[order[p]][order[q]] + costs[order[p + 1]][order[q + 1]] < now - 1e-9 {
                        order.swap(p + 1, q);
                        improved = true;
                    } else if costs[order[p]][order[q + 1]] + costs[order[p + 1]][order[q]]
                        < now - 1e-9
                    {
                        order.swap(p + 1, q + 1);
                        improved = true;
                    }
                }
            }
            if !improved {
                break;
            }
        }
        let t = total(costs, &order);
        if best.as_ref().is_none_or(|(b, _)| t < *b) {
            best = Some((t, order));
        }
    }
    best.map(|(_, o)| o).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn player(id: &str, rate: Option<f64>) -> Candidate {
        Candidate {
            id: id.into(),
            name: id.into(),
            rate,
            last: None,
            colour_balance: 0,
        }
    }

    fn pairs_by_name(players: &[Candidate], round: &Round) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = round
            .pairs
            .iter()
            .map(|p| {
                let (a, b) = (&players[p.black].id, &players[p.white].id);
                if a < b {
                    (a.clone(), b.clone())
                } else {
                    (b.clone(), a.clone())
                }
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn close_ratings_are_paired() {
        let players = [
            player("a1", Some(1000.0)),
            player("b2", Some(1500.0)),
            player("c3", Some(1010.0)),
            player("d4", Some(1490.0)),
        ];
        let round = least_difference(&players, &mut StdRng::seed_from_u64(1));
        assert_eq!(
            pairs_by_name(&players, &round),
            [("a1".into(), "c3".into()), ("b2".into(), "d4".into())]
        );
        assert!(round.sitting_out.is_empty());
    }

    #[test]
    fn last_opponents_are_not_met_again_when_another_is_free() {
        let mut players = [
            player("a1", Some(1000.0)),
            player("b2", Some(1100.0)),
            player("c3", Some(1010.0)),
            player("d4", Some(1090.0)),
        ];
        players[0].last = Some(LastGame {
            opponent: "c3".into(),
            won: true,
            opponent_rate: Some(1010.0),
        });
        let round = least_difference(&players, &mut StdRng::seed_from_u64(1));
        // a1–c3 (10) + b2–d4 (10) + 400 for the rematch costs more than either other
        // pairing (180).
        assert!(!pairs_by_name(&players, &round).contains(&("a1".into(), "c3".into())));
    }

    #[test]
    fn the_last_to_come_sits_out_an_odd_round() {
        let players = [player("a1", None), player("b2", None), player("c3", None)];
        let round = least_difference(&players, &mut StdRng::seed_from_u64(1));
        assert_eq!(round.sitting_out, [2]);
        assert_eq!(round.pairs.len(), 1);
    }

    #[test]
    fn unrated_players_count_from_their_last_opponent() {
        let mut p = player("x", None);
        assert_eq!(estimated_rate(&p), 2150.0);
        p.last = Some(LastGame {
            opponent: "y".into(),
            won: false,
            opponent_rate: Some(1800.0),
        });
        assert_eq!(estimated_rate(&p), 1600.0);
    }

    #[test]
    fn same_author_and_humans_cost_more() {
        assert_eq!(
            cost(
                &player("gps500+aaaa", Some(0.0)),
                &player("gps500+bbbb", Some(0.0))
            ),
            800.0
        );
        assert_eq!(
            cost(&player("gpsfish", Some(0.0)), &player("gpsfX", Some(0.0))),
            400.0
        );
        let (mut a, mut b) = (player("p_human", Some(0.0)), player("q_human", Some(0.0)));
        a.id = "p".into();
        b.id = "q".into();
        assert_eq!(cost(&a, &b), 800.0);
    }

    #[test]
    fn large_rounds_find_the_obvious_pairing() {
        // 20 players in ten tight couples far apart: the search must find the couples.
        let players: Vec<Candidate> = (0..20)
            .map(|i| {
                player(
                    &format!("p{i:02}x{}", i * 7919 % 97),
                    Some((i / 2) as f64 * 1000.0 + (i % 2) as f64),
                )
            })
            .collect();
        let round = least_difference(&players, &mut StdRng::seed_from_u64(7));
        for pair in round.pairs {
            assert_eq!(pair.black / 2, pair.white / 2, "{pair:?}");
        }
    }

    #[test]
    fn colours_go_to_who_had_white_more() {
        let mut players = [player("a1", Some(1000.0)), player("b2", Some(1000.0))];
        players[0].colour_balance = 2;
        let round = least_difference(&players, &mut StdRng::seed_from_u64(1));
        assert_eq!(round.pairs, [Pair { black: 1, white: 0 }]);
    }

    #[test]
    fn a_round_robin_meets_everyone_once() {
        let roster: Vec<String> = ["a", "b", "c", "d", "e"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let players: Vec<Candidate> = roster.iter().map(|n| player(n, None)).collect();
        let mut met = std::collections::BTreeSet::new();
        for r in 0..5 {
            let round = round_robin(&players, &roster, r);
            assert_eq!(round.pairs.len(), 2);
            assert_eq!(round.sitting_out.len(), 1);
            for p in round.pairs {
                assert!(
                    met.insert((p.black.min(p.white), p.black.max(p.white))),
                    "round {r}: {p:?} again"
                );
            }
        }
        assert_eq!(met.len(), 10);
        // A player who is not waiting: their partner sits out.
        let round = round_robin(&players[..4], &roster, 0);
        assert_eq!(round.pairs.len() * 2 + round.sitting_out.len(), 4);
    }
}
