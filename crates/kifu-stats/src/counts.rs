//! Results counted as the statistics need them.
//!
//! A single game scores 0, ½ or 1 for the engine under test: a **trinomial**. Games played in
//! pairs from one opening with colours reversed are better counted by pair: the pair's score is
//! the sum of its two games, 0, ½, 1, 1½ or 2 (halved to 0 … 1), a **pentanomial**
//! `[LL, LD, DD+WL, WD, WW]`. A draw pair and a win-loss pair score the same and are one class,
//! as fishtest and fastchess count them; counting by pair removes most of the variance the
//! openings bring (fishtest's "pentanomial statistics", and M. van den Bergh's notes on them).

use std::fmt;

/// One game's result for the engine under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameScore {
    /// It lost.
    Loss,
    /// A draw.
    Draw,
    /// It won.
    Win,
}

impl GameScore {
    /// Half-points: 0, 1 or 2.
    pub fn half_points(self) -> usize {
        match self {
            GameScore::Loss => 0,
            GameScore::Draw => 1,
            GameScore::Win => 2,
        }
    }

    /// The same result seen from the opponent.
    pub fn flip(self) -> GameScore {
        match self {
            GameScore::Loss => GameScore::Win,
            GameScore::Draw => GameScore::Draw,
            GameScore::Win => GameScore::Loss,
        }
    }
}

/// Losses, draws and wins of single games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games won.
    pub wins: u64,
}

impl Trinomial {
    /// Counts from wins, draws and losses (in the order people say them).
    pub fn new(wins: u64, draws: u64, losses: u64) -> Trinomial {
        Trinomial {
            losses,
            draws,
            wins,
        }
    }

    /// Counts one more game.
    pub fn add(&mut self, score: GameScore) {
        match score {
            GameScore::Loss => self.losses += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Win => self.wins += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.losses + self.draws + self.wins
    }

    /// Points scored: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The opponent's view.
    pub fn flip(&self) -> Trinomial {
        Trinomial::new(self.losses, self.draws, self.wins)
    }

    /// Scores 0, ½, 1 with their counts, one unit a game.
    pub fn distribution(&self) -> Distribution {
        Distribution {
            outcomes: vec![
                (0.0, self.losses as f64),
                (0.5, self.draws as f64),
                (1.0, self.wins as f64),
            ],
            pairs: false,
        }
    }
}

impl fmt::Display for Trinomial {
    /// `W-D-L`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.draws, self.losses)
    }
}

/// Game pairs by their score: `[LL, LD, DD+WL, WD, WW]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Counts in the order `[LL, LD, DD+WL, WD, WW]`.
    pub fn new(counts: [u64; 5]) -> Pentanomial {
        Pentanomial(counts)
    }

    /// Counts one pair, given the two games' results for the same engine.
    pub fn add(&mut self, first: GameScore, second: GameScore) {
        self.0[first.half_points() + second.half_points()] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The opponent's view.
    pub fn flip(&self) -> Pentanomial {
        let mut c = self.0;
        c.reverse();
        Pentanomial(c)
    }

    /// Scores 0, ¼, ½, ¾, 1 with their counts, one unit a pair.
    pub fn distribution(&self) -> Distribution {
        Distribution {
            outcomes: self
                .0
                .iter()
                .enumerate()
                .map(|(i, &n)| (i as f64 / 4.0, n as f64))
                .collect(),
            pairs: true,
        }
    }
}

impl fmt::Display for Pentanomial {
    /// `[LL, LD, DD+WL, WD, WW]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.0;
        write!(f, "[{a}, {b}, {c}, {d}, {e}]")
    }
}

/// Observed scores and how often each came, per game or per pair: what every estimate and the
/// SPRT work on.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// `(score in 0..=1, count)`, the scores in increasing order.
    pub outcomes: Vec<(f64, f64)>,
    /// Whether a unit is a pair of games (pentanomial) rather than one game.
    pub pairs: bool,
}

impl Distribution {
    /// Units counted (games or pairs).
    pub fn total(&self) -> f64 {
        self.outcomes.iter().map(|&(_, n)| n).sum()
    }

    /// Relative frequencies `p̂_i = n_i / N` with their scores.
    pub fn frequencies(&self) -> Vec<(f64, f64)> {
        let n = self.total();
        self.outcomes.iter().map(|&(a, c)| (a, c / n)).collect()
    }

    /// The same counts with every zero replaced by `epsilon`, as fishtest's `results_to_pdf`
    /// and fastchess's SPRT do before a likelihood is taken (a zero frequency has no
    /// logarithm); the total includes the replacements.
    pub fn regularized(&self, epsilon: f64) -> Distribution {
        Distribution {
            outcomes: self
                .outcomes
                .iter()
                .map(|&(a, n)| (a, if n > 0.0 { n } else { epsilon }))
                .collect(),
            pairs: self.pairs,
        }
    }
}

/// Mean and variance of scores under probabilities `(score, p)`.
pub(crate) fn mean_and_variance(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mu: f64 = pdf.iter().map(|&(a, p)| a * p).sum();
    let var: f64 = pdf.iter().map(|&(a, p)| p * (a - mu) * (a - mu)).sum();
    (mu, var)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_pair_and_a_win_loss_pair_are_one_class() {
        let mut p = Pentanomial::default();
        p.add(GameScore::Draw, GameScore::Draw);
        p.add(GameScore::Win, GameScore::Loss);
        p.add(GameScore::Loss, GameScore::Draw);
        p.add(GameScore::Win, GameScore::Win);
        assert_eq!(p, Pentanomial::new([0, 1, 2, 0, 1]));
        assert_eq!(p.flip(), Pentanomial::new([1, 0, 2, 1, 0]));
        assert_eq!(p.to_string(), "[0, 1, 2, 0, 1]");
        let mut t = Trinomial::default();
        t.add(GameScore::Win);
        t.add(GameScore::Draw);
        assert_eq!((t.to_string(), t.points()), ("1-1-0".to_owned(), 1.5));
        assert_eq!(t.flip().to_string(), "0-1-1");
    }
}
