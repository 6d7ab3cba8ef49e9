//! League ratings by the method of shogi-server's `mk_rate` (the program that rates floodgate's
//! players): maximum-likelihood Bradley–Terry ratings on the Elo scale, with old games weighing
//! less.
//!
//! - **Model**: `P(i beats j) = 1 / (1 + 10^(−(R_i − R_j)/400))` ([`expected_score`]); the
//!   ratings are those under which every player's expected (weighted) wins equal their actual
//!   wins, `Σ_j w_ij = Σ_j (w_ij + w_ji) · P(i beats j)`, which maximises the likelihood.
//! - **Weights**: a game `d` days old counts `exp(−0.693 · (d − 7)/60)` when `d ≥ 7`, else 1 (a
//!   half-life of 60 days after 7 days of full weight); games older than 730 days are dropped; a
//!   draw counts half a win and half a loss to each side; a game that ended abnormally (a
//!   disconnection) counts only when it lasted more than 30 plies; players whose id carries
//!   `@NORATE` are not rated. These are `mk_rate`'s defaults (`--half-life 60`,
//!   `--half-life-ignore 7`, `--ignore 730`, `--abnormal-threshold 30`), kept in [`Method`].
//! - **Who is rated**: repeatedly, until nothing changes, players with fewer than one weighted
//!   win, one weighted loss or 15 weighted games are set aside (a player who never lost has no
//!   finite maximum-likelihood rating). The rest fall into connected groups of players linked by
//!   games; each group is rated on its own (ratings of unconnected groups cannot be compared),
//!   largest first, and shifted so that its mean is 1000.
//! - **Solving**: Newton's method on the log-likelihood with one rating held (the likelihood
//!   does not change when every rating moves together), halving the step while the residual
//!   grows, until the step is below 10⁻³ of the ratings' size or after 500 iterations — the
//!   stopping rule `mk_rate` uses.
//!
//! The arithmetic is written from the model above; no code of shogi-server's is used.

use std::collections::BTreeMap;

use crate::elo::expected_score;

/// How one game ended, from Black's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    BlackWin,
    WhiteWin,
    Draw,
}

/// One finished game as the rating sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    /// Black's player id (shogi-server's `name+trip-hash`, or whatever identifies a player).
    pub black: String,
    pub white: String,
    pub outcome: Outcome,
    /// Days between the game's end and the day the ratings are computed for.
    pub age_days: f64,
    /// Ended by disconnection or a server stop rather than by the rules.
    pub abnormal: bool,
    /// Moves played.
    pub plies: u32,
}

/// The parameters of the method; [`Method::default`] is `mk_rate`'s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Method {
    /// Days after which a game's weight has halved (counted from `full_weight_days`).
    pub half_life_days: f64,
    /// Days during which a game keeps its full weight.
    pub full_weight_days: f64,
    /// Games older than this are not counted.
    pub ignore_after_days: f64,
    /// Draws are left out instead of counting half a win to each side.
    pub skip_draws: bool,
    /// An abnormal game counts only with more plies than this; 0 never counts one.
    pub abnormal_threshold: u32,
    /// Weighted games a player needs to be rated.
    pub min_games: f64,
    /// Weighted wins, and weighted losses, a player needs to be rated.
    pub min_wins_and_losses: f64,
    /// The mean rating of every group.
    pub mean: f64,
}

impl Default for Method {
    fn default() -> Method {
        Method {
            half_life_days: 60.0,
            full_weight_days: 7.0,
            ignore_after_days: 730.0,
            skip_draws: false,
            abnormal_threshold: 30,
            min_games: 15.0,
            min_wins_and_losses: 1.0,
            mean: 1000.0,
        }
    }
}

impl Method {
    /// The weight of a game `age_days` old: `exp(−ln 2 · (d − full)/half_life)` past the
    /// full-weight days (`mk_rate` writes ln 2 as 0.693), 1 before, 0 past the ignore limit.
    pub fn weight(&self, age_days: f64) -> f64 {
        if age_days > self.ignore_after_days {
            0.0
        } else if age_days < self.full_weight_days {
            1.0
        } else {
            (-0.693 * (age_days - self.full_weight_days) / self.half_life_days).exp()
        }
    }

    fn counts(&self, game: &RatedGame) -> bool {
        if game.black == game.white
            || game.black.contains("@NORATE")
            || game.white.contains("@NORATE")
        {
            return false;
        }
        if game.abnormal && (self.abnormal_threshold == 0 || game.plies <= self.abnormal_threshold)
        {
            return false;
        }
        !(self.skip_draws && game.outcome == Outcome::Draw)
    }
}

/// One rated player.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    pub id: String,
    /// The rating, rounded as `mk_rate` writes it.
    pub rate: i64,
    /// Weighted wins (a draw counting half).
    pub wins: f64,
    /// Weighted losses.
    pub losses: f64,
}

/// The outcome of a rating run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ratings {
    /// Rating groups, largest first; players in one group by rating, highest first.
    pub groups: Vec<Vec<Rated>>,
    /// Players with games but too few to be rated (`mk_rate`'s group 999, rate 0), by id.
    pub unrated: Vec<Rated>,
}

impl Ratings {
    /// The rated player `id`, and the number of their group (0 = the largest).
    pub fn get(&self, id: &str) -> Option<(usize, &Rated)> {
        self.groups
            .iter()
            .enumerate()
            .find_map(|(g, players)| players.iter().find(|p| p.id == id).map(|p| (g, p)))
    }
}

/// Rates the players of `games` by `method`.
pub fn rate(games: &[RatedGame], method: &Method) -> Ratings {
    // Weighted wins of one player over another, by index.
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    let mut wins: BTreeMap<(usize, usize), f64> = BTreeMap::new();
    for game in games.iter().filter(|g| method.counts(g)) {
        let w = method.weight(game.age_days);
        if w <= 0.0 {
            continue;
        }
        let next = index.len();
        let b = *index.entry(game.black.as_str()).or_insert(next);
        let next = index.len();
        let wh = *index.entry(game.white.as_str()).or_insert(next);
        match game.outcome {
            Outcome::BlackWin => *wins.entry((b, wh)).or_default() += w,
            Outcome::WhiteWin => *wins.entry((wh, b)).or_default() += w,
            Outcome::Draw => {
                *wins.entry((b, wh)).or_default() += w / 2.0;
                *wins.entry((wh, b)).or_default() += w / 2.0;
            }
        }
    }
    let mut ids = vec![""; index.len()];
    for (&id, &i) in &index {
        ids[i] = id;
    }
    let n = ids.len();
    let mut matrix = vec![vec![0.0; n]; n];
    for (&(i, j), &w) in &wins {
        matrix[i][j] += w;
    }

    // Set aside, until stable, whoever lacks the wins, losses or games to be rated.
    let mut kept = vec![true; n];
    loop {
        let mut changed = false;
        for i in 0..n {
            if !kept[i] {
                continue;
            }
            let (w, l) = totals(&matrix, &kept, i);
            if w < method.min_wins_and_losses
                || l < method.min_wins_and_losses
                || w + l < method.min_games
            {
                kept[i] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    let mut ratings = Ratings::default();
    for i in (0..n).filter(|&i| !kept[i]) {
        let all = vec![true; n];
        let (wins, losses) = totals(&matrix, &all, i);
        ratings.unrated.push(Rated {
            id: ids[i].to_owned(),
            rate: 0,
            wins,
            losses,
        });
    }
    ratings.unrated.sort_by(|a, b| a.id.cmp(&b.id));

    let mut groups = components(&matrix, &kept);
    groups.sort_by(|a, b| b.len().cmp(&a.len()).then(ids[a[0]].cmp(ids[b[0]])));
    for members in groups {
        let solved = solve(&matrix, &members);
        let mean = solved.iter().sum::<f64>() / solved.len() as f64;
        let mut players: Vec<Rated> = members
            .iter()
            .zip(&solved)
            .map(|(&i, &r)| {
                let (wins, losses) = totals(&matrix, &kept, i);
                Rated {
                    id: ids[i].to_owned(),
                    rate: (r - mean + method.mean).round() as i64,
                    wins,
                    losses,
                }
            })
            .collect();
        players.sort_by(|a, b| b.rate.cmp(&a.rate).then(a.id.cmp(&b.id)));
        ratings.groups.push(players);
    }
    ratings
}

/// Weighted wins and losses of `i` against the players still kept.
fn totals(matrix: &[Vec<f64>], kept: &[bool], i: usize) -> (f64, f64) {
    let mut w = 0.0;
    let mut l = 0.0;
    for j in (0..matrix.len()).filter(|&j| kept[j] && j != i) {
        w += matrix[i][j];
        l += matrix[j][i];
    }
    (w, l)
}

/// The kept players, split into groups linked by games, each sorted by index.
fn components(matrix: &[Vec<f64>], kept: &[bool]) -> Vec<Vec<usize>> {
    let n = matrix.len();
    let mut seen = vec![false; n];
    let mut groups = Vec::new();
    for start in (0..n).filter(|&i| kept[i]) {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut group = vec![start];
        let mut next = 0;
        while next < group.len() {
            let i = group[next];
            next += 1;
            for j in 0..n {
                if kept[j] && !seen[j] && matrix[i][j] + matrix[j][i] > 0.0 {
                    seen[j] = true;
                    group.push(j);
                }
            }
        }
        group.sort_unstable();
        groups.push(group);
    }
    groups
}

/// `ln 10 / 400`: the derivative of the logistic's argument per Elo point.
const K: f64 = std::f64::consts::LN_10 / 400.0;

/// Maximum-likelihood ratings of one connected group (mean 0, in the order of `members`).
fn solve(matrix: &[Vec<f64>], members: &[usize]) -> Vec<f64> {
    let m = members.len();
    let mut r = vec![0.0; m];
    if m < 2 {
        return r;
    }
    let games =
        |a: usize, b: usize| matrix[members[a]][members[b]] + matrix[members[b]][members[a]];
    // Expected wins minus actual wins, per player: zero at the solution.
    let residual = |r: &[f64]| -> Vec<f64> {
        (0..m)
            .map(|a| {
                (0..m)
                    .filter(|&b| b != a)
                    .map(|b| {
                        games(a, b) * expected_score(r[a] - r[b]) - matrix[members[a]][members[b]]
                    })
                    .sum()
            })
            .collect()
    };
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();

    let mut res = residual(&r);
    for _ in 0..500 {
        // The Jacobian of the residual, with the last rating held at its value (its row and
        // column dropped): the residuals sum to zero, so one equation is redundant.
        let k = m - 1;
        let mut jac = vec![vec![0.0; k]; k];
        for a in 0..k {
            for b in 0..m {
                if b == a {
                    continue;
                }
                let p = expected_score(r[a] - r[b]);
                let d = games(a, b) * K * p * (1.0 - p);
                jac[a][a] += d;
                if b < k {
                    jac[a][b] -= d;
                }
            }
        }
        let rhs: Vec<f64> = res[..k].iter().map(|x| -x).collect();
        let Some(step) = gauss(jac, rhs) else { break };
        // Halve the step while it makes the residual worse, down to 10⁻⁴ of it.
        let before = norm(&res);
        let mut scale = 1.0;
        let (next, next_res) = loop {
            let mut next = r.clone();
            for a in 0..k {
                next[a] += scale * step[a];
            }
            let next_res = residual(&next);
            if norm(&next_res) <= before || scale < 1e-4 {
                break (next, next_res);
            }
            scale /= 2.0;
        };
        let moved = norm(&step) * scale;
        r = next;
        res = next_res;
        if moved <= 1e-3 * norm(&r).max(1.0) {
            break;
        }
    }
    let mean = r.iter().sum::<f64>() / m as f64;
    r.iter().map(|x| x - mean).collect()
}

/// Solves `a · x = b` by Gaussian elimination with partial pivoting; `None` when singular.
fn gauss(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col].clone();
        for row in col + 1..n {
            let f = a[row][col] / pivot_row[col];
            if f != 0.0 {
                for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}
