//! Which game is which: engines, colours and opening of game number `g`, the same on every
//! run of the same match (so that a resumed match plays exactly the games still missing).
//!
//! Games go round by round: in each round every pairing plays one pair, the two games of a
//! pair from the same opening with colours reversed (the first with the pairing's first
//! engine as Black). The opening of round `r` is the `r`-th of the openings in file order, or
//! in an order shuffled by `--seed`, and the list starts over when used up. Since a game's
//! place does not depend on how many games are asked for, a finished match can be extended
//! with a larger `--games` on the same output directory.

/// How the engines meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Two engines.
    Match,
    /// The first engine against each of the others.
    Gauntlet,
    /// Everyone against everyone.
    RoundRobin,
}

impl Mode {
    /// The name the command line and the summary use.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Match => "match",
            Mode::Gauntlet => "gauntlet",
            Mode::RoundRobin => "round-robin",
        }
    }
}

/// One game's place in the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// The game's number, from 0.
    pub game: u64,
    /// The pairing's index.
    pub pairing: usize,
    /// The pair's index within its pairing.
    pub pair: u64,
    /// The opening's index.
    pub opening: usize,
    /// Black's engine.
    pub black: usize,
    /// White's engine.
    pub white: usize,
}

/// The games of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// `(first, second)` engine indices of each pairing.
    pub pairings: Vec<(usize, usize)>,
    /// Games each pairing plays (even).
    pub games_per_pairing: u64,
    order: Vec<usize>,
}

impl Schedule {
    /// The schedule of `engines` engines meeting as `mode` says, `games` games a pairing
    /// (rounded up to whole pairs), over `openings` openings, shuffled by `seed` if given.
    pub fn new(
        mode: Mode,
        engines: usize,
        games: u64,
        openings: usize,
        seed: Option<u64>,
    ) -> Schedule {
        let pairings = match mode {
            Mode::Match => vec![(0, 1)],
            Mode::Gauntlet => (1..engines).map(|i| (0, i)).collect(),
            Mode::RoundRobin => (0..engines)
                .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
                .collect(),
        };
        let mut order: Vec<usize> = (0..openings.max(1)).collect();
        if let Some(seed) = seed {
            fastrand::Rng::with_seed(seed).shuffle(&mut order);
        }
        Schedule {
            pairings,
            games_per_pairing: games.div_ceil(2) * 2,
            order,
        }
    }

    /// Games in the whole match.
    pub fn len(&self) -> u64 {
        self.games_per_pairing * self.pairings.len() as u64
    }

    /// Whether the match has no game.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Game `g`'s place.
    pub fn game(&self, g: u64) -> Scheduled {
        let per_round = 2 * self.pairings.len() as u64;
        let round = g / per_round;
        let pairing = ((g % per_round) / 2) as usize;
        let (a, b) = self.pairings[pairing];
        let (black, white) = if g.is_multiple_of(2) { (a, b) } else { (b, a) };
        Scheduled {
            game: g,
            pairing,
            pair: round,
            opening: self.order[(round % self.order.len() as u64) as usize],
            black,
            white,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_reverse_colours_on_one_opening() {
        let s = Schedule::new(Mode::Match, 2, 5, 3, None);
        assert_eq!(s.len(), 6);
        let g: Vec<Scheduled> = (0..6).map(|g| s.game(g)).collect();
        assert_eq!(
            (g[0].black, g[0].white, g[1].black, g[1].white),
            (0, 1, 1, 0)
        );
        assert_eq!(g[0].opening, g[1].opening);
        assert_eq!([g[0].opening, g[2].opening, g[4].opening], [0, 1, 2]);
        assert_eq!([g[2].pair, g[3].pair], [1, 1]);
    }

    #[test]
    fn modes_and_a_seeded_order() {
        let rr = Schedule::new(Mode::RoundRobin, 4, 2, 1, None);
        assert_eq!(rr.pairings.len(), 6);
        assert_eq!(rr.len(), 12);
        assert_eq!(rr.game(11).pairing, 5);
        let g = Schedule::new(Mode::Gauntlet, 4, 2, 1, None);
        assert_eq!(g.pairings, [(0, 1), (0, 2), (0, 3)]);
        let a = Schedule::new(Mode::Match, 2, 40, 20, Some(7));
        let b = Schedule::new(Mode::Match, 2, 400, 20, Some(7));
        assert_eq!(
            a.game(13),
            b.game(13),
            "a game's place does not depend on --games"
        );
        let unshuffled = Schedule::new(Mode::Match, 2, 40, 20, None);
        assert_ne!(
            (0..20).map(|g| a.game(2 * g).opening).collect::<Vec<_>>(),
            (0..20)
                .map(|g| unshuffled.game(2 * g).opening)
                .collect::<Vec<_>>()
        );
    }
}
