//! Applying a move with its stick results to a position.

use crate::movement::needs_water_throw;
use crate::moves::{PureMove, is_candidate};
use crate::piece::Piece;
use crate::position::Position;
use crate::profession::{Color, Profession};
use crate::rules::Rules;
use crate::square::Square;
use crate::sticks::{Throw, Throws, WATER_NEEDS};

/// What a played move did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Effect {
    /// The move reached its destination (no failed or abandoned throw).
    pub completed: bool,
    /// The piece taken, which goes to the mover's hand.
    pub captured: Option<(Color, Profession)>,
    /// A piece stepped on 皇 (撃皇), whether or not the move completed.
    pub stepped_on_tam: bool,
    /// 皇 moved right after the opponent moved it (皇再来).
    pub tam_moved_again: bool,
    /// 皇 ended where it started (皇無行).
    pub tam_returned: bool,
}

/// Why a move cannot be played with the throws recorded for it.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IllegalMove {
    /// The move is no candidate move of the position.
    #[error("{0} is not a legal move here")]
    NotACandidate(PureMove),
    /// Names the throw (`bridge`, `water`).
    #[error("this move needs a {0} throw, none recorded")]
    MissingThrow(&'static str),
    /// A throw is recorded that the move does not need (names it).
    #[error("this move needs no {0} throw, but one is recorded")]
    UnexpectedThrow(&'static str),
    /// Five sticks show at most five dark faces.
    #[error("a throw of five sticks cannot show {0}")]
    ImpossibleCount(u8),
    /// A bridge throw said to succeed whose count falls short of the destination.
    #[error(
        "a bridge throw of {count} cannot reach {dst}, {distance} squares from {step}; the move should be marked 此無"
    )]
    BridgeFallsShort {
        /// The count thrown.
        count: u8,
        /// The square the ranged leg starts from.
        step: Square,
        /// The destination.
        dst: Square,
        /// The distance between them.
        distance: u8,
    },
}

/// Which throws a move needs: (bridge, water before knowing the bridge result).
pub fn needed_throws(pos: &Position, mv: PureMove) -> (bool, bool) {
    match mv {
        PureMove::Plain { src, dst } | PureMove::StepFinite { src, dst, .. } => {
            let prof = pos.get(src).and_then(Piece::prof);
            (false, prof.is_some_and(|p| needs_water_throw(src, dst, p)))
        }
        PureMove::StepRanged { src, dst, .. } => {
            let prof = pos.get(src).and_then(Piece::prof);
            (true, prof.is_some_and(|p| needs_water_throw(src, dst, p)))
        }
        _ => (false, false),
    }
}

/// Throws the sticks a move needs, for simulations: the bridge throw first (the move is void
/// when it falls short), then the water throw if the destination is reached.
pub fn draw_throws(pos: &Position, mv: PureMove, rng: &mut crate::sticks::StickRng) -> Throws {
    let (bridge, water) = needed_throws(pos, mv);
    let mut t = Throws::default();
    if bridge {
        let n = rng.throw();
        t.bridge = Some(Throw::Count(n));
        t.bridge_void = mv.step().is_some_and(|s| s.distance(mv.dst()) > n);
    }
    if water && !t.bridge_void {
        t.water = Some(Throw::Count(rng.throw()));
    }
    t
}

fn succeeded(t: Throw, needs: u8) -> Result<bool, IllegalMove> {
    match t {
        Throw::UnknownSuccess => Ok(true),
        Throw::UnknownFailure => Ok(false),
        Throw::Count(n) if n > 5 => Err(IllegalMove::ImpossibleCount(n)),
        Throw::Count(n) => Ok(n >= needs),
    }
}

impl Position {
    /// Plays `mv` for the side to move with the recorded throws; on error nothing changes.
    pub fn play(
        &mut self,
        mv: PureMove,
        throws: Throws,
        rules: &Rules,
    ) -> Result<Effect, IllegalMove> {
        let side = self.turn;
        if !is_candidate(self, side, mv, rules) {
            return Err(IllegalMove::NotACandidate(mv));
        }
        let (bridge_needed, water_needed) = needed_throws(self, mv);
        let mut completed = true;
        match (bridge_needed, throws.bridge) {
            (true, None) => return Err(IllegalMove::MissingThrow("bridge")),
            (false, Some(_)) => return Err(IllegalMove::UnexpectedThrow("bridge")),
            (true, Some(t)) => {
                let (step, dst) = (mv.step().expect("ranged step"), mv.dst());
                let dist = step.distance(dst);
                let reaches = succeeded(t, dist)?;
                match (t, reaches, throws.bridge_void) {
                    (Throw::Count(count), false, false) => {
                        return Err(IllegalMove::BridgeFallsShort {
                            count,
                            step,
                            dst,
                            distance: dist,
                        });
                    }
                    (_, true, false) => {}
                    // A failed count, or giving up after seeing the sticks.
                    _ => completed = false,
                }
            }
            (false, None) => {}
        }
        if completed {
            match (water_needed, throws.water) {
                (true, None) => return Err(IllegalMove::MissingThrow("water")),
                (false, Some(_)) => return Err(IllegalMove::UnexpectedThrow("water")),
                (true, Some(t)) => {
                    if !succeeded(t, WATER_NEEDS)? {
                        completed = false;
                    }
                }
                (false, None) => {}
            }
        } else if throws.water.is_some() {
            return Err(IllegalMove::UnexpectedThrow(
                "water (the bridge throw already failed)",
            ));
        }

        let mut effect = Effect {
            completed,
            stepped_on_tam: mv.step().is_some_and(|s| self.get(s) == Some(Piece::Tam)),
            ..Effect::default()
        };
        match mv {
            PureMove::Drop { color, prof, dst } => {
                self.hop1zuo1_mut(side).remove(color, prof);
                self.put(dst, Some(Piece::Owned { color, prof, side }));
            }
            _ if mv.is_tam() => {
                let src = mv.src().expect("board move");
                effect.tam_moved_again = self.tam_moved_last;
                effect.tam_returned = src == mv.dst();
                effect.stepped_on_tam = false;
                self.put(src, None);
                self.put(mv.dst(), Some(Piece::Tam));
            }
            _ if completed => {
                let src = mv.src().expect("board move");
                let piece = self.get(src);
                if let Some(Piece::Owned { color, prof, .. }) = self.get(mv.dst())
                    && mv.dst() != src
                {
                    effect.captured = Some((color, prof));
                    self.hop1zuo1_mut(side).add(color, prof);
                }
                self.put(src, None);
                self.put(mv.dst(), piece);
            }
            _ => {}
        }
        self.tam_moved_last = mv.is_tam();
        self.turn = side.opponent();
        Ok(effect)
    }
}
