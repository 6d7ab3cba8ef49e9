//! Moves without their stick results, and the candidates a side may try.

use crate::movement::{can_end_on, reach};
use crate::piece::{Piece, Side};
use crate::position::Position;
use crate::profession::{Color, Profession};
use crate::rules::{FutileMove, Rules};
use crate::square::Square;
use std::fmt;

/// A move as a player chooses it before any throw. For a ranged second leg `dst` is the
/// planned destination; the throw decides whether it is reached.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PureMove {
    /// A piece moves (finite or ranged) without stepping.
    Plain {
        /// Where the piece starts.
        src: Square,
        /// Where it ends.
        dst: Square,
    },
    /// Steps on `step`, then a finite second leg.
    StepFinite {
        /// Where the piece starts.
        src: Square,
        /// The occupied square stepped on.
        step: Square,
        /// Where it ends.
        dst: Square,
    },
    /// Steps on `step`, then a ranged second leg: needs a bridge throw.
    StepRanged {
        /// Where the piece starts.
        src: Square,
        /// The occupied square stepped on.
        step: Square,
        /// Where it ends.
        dst: Square,
    },
    /// A piece from hand.
    Drop {
        /// The piece's colour.
        color: Color,
        /// The piece's profession.
        prof: Profession,
        /// Where it is dropped.
        dst: Square,
    },
    /// 皇: two King steps to empty squares.
    TamNoStep {
        /// Where 皇 starts.
        src: Square,
        /// The square after the first King step.
        first: Square,
        /// Where 皇 ends.
        second: Square,
    },
    /// 皇 steps on an occupied neighbour, then goes to `first` and `second`.
    TamStepFormer {
        /// Where 皇 starts.
        src: Square,
        /// The occupied neighbour stepped on.
        step: Square,
        /// The square after the first stage.
        first: Square,
        /// Where 皇 ends.
        second: Square,
    },
    /// 皇 goes to `first`, steps on an occupied neighbour of it, then goes to `second`.
    TamStepLatter {
        /// Where 皇 starts.
        src: Square,
        /// The square after the first King step.
        first: Square,
        /// The occupied neighbour of `first` stepped on.
        step: Square,
        /// Where 皇 ends.
        second: Square,
    },
}

impl PureMove {
    /// The square the move starts from (`None` for a drop).
    pub fn src(self) -> Option<Square> {
        match self {
            PureMove::Plain { src, .. }
            | PureMove::StepFinite { src, .. }
            | PureMove::StepRanged { src, .. }
            | PureMove::TamNoStep { src, .. }
            | PureMove::TamStepFormer { src, .. }
            | PureMove::TamStepLatter { src, .. } => Some(src),
            PureMove::Drop { .. } => None,
        }
    }

    /// Where the moving piece ends if every throw succeeds.
    pub fn dst(self) -> Square {
        match self {
            PureMove::Plain { dst, .. }
            | PureMove::StepFinite { dst, .. }
            | PureMove::StepRanged { dst, .. }
            | PureMove::Drop { dst, .. } => dst,
            PureMove::TamNoStep { second, .. }
            | PureMove::TamStepFormer { second, .. }
            | PureMove::TamStepLatter { second, .. } => second,
        }
    }

    /// The square stepped on, for moves that step on a piece.
    pub fn step(self) -> Option<Square> {
        match self {
            PureMove::StepFinite { step, .. }
            | PureMove::StepRanged { step, .. }
            | PureMove::TamStepFormer { step, .. }
            | PureMove::TamStepLatter { step, .. } => Some(step),
            _ => None,
        }
    }

    /// Whether 皇 moves.
    pub fn is_tam(self) -> bool {
        matches!(
            self,
            PureMove::TamNoStep { .. }
                | PureMove::TamStepFormer { .. }
                | PureMove::TamStepLatter { .. }
        )
    }
}

impl fmt::Display for PureMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PureMove::Plain { src, dst } => write!(f, "{src}-{dst}"),
            PureMove::StepFinite { src, step, dst } => write!(f, "{src}-{step}-{dst}"),
            PureMove::StepRanged { src, step, dst } => write!(f, "{src}-{step}~{dst}"),
            PureMove::Drop { color, prof, dst } => write!(f, "{color}{prof}{dst}"),
            PureMove::TamNoStep { src, first, second } => write!(f, "{src}皇[{first}]{second}"),
            PureMove::TamStepFormer {
                src,
                step,
                first,
                second,
            } => {
                write!(f, "{src}皇{step}[{first}]{second}")
            }
            PureMove::TamStepLatter {
                src,
                first,
                step,
                second,
            } => {
                write!(f, "{src}皇[{first}]{step}{second}")
            }
        }
    }
}

/// Every move `side` may try in `pos`, including drops and 皇 moves. Duplicates are possible
/// (a target reachable both ways) and harmless.
pub fn candidates(pos: &Position, side: Side, rules: &Rules) -> Vec<PureMove> {
    let mut out = Vec::new();
    for (src, _, prof) in pos.pieces_of(side) {
        piece_candidates(pos, side, src, prof, rules, &mut out);
    }
    if let Some(t) = pos.tam()
        && !(pos.tam_moved_last && rules.tam_moved_again == FutileMove::Forbidden)
    {
        tam_candidates(pos, t, rules, &mut out);
    }
    drop_candidates(pos, side, &mut out);
    out
}

pub(crate) fn drop_candidates(pos: &Position, side: Side, out: &mut Vec<PureMove>) {
    let hand = pos.hop1zuo1(side);
    for color in Color::ALL {
        for prof in Profession::ALL {
            if hand.count(color, prof) > 0 {
                for dst in Square::all().filter(|&s| pos.get(s).is_none()) {
                    out.push(PureMove::Drop { color, prof, dst });
                }
            }
        }
    }
}

/// Moves of the piece of `side` standing on `src`.
pub fn piece_candidates(
    pos: &Position,
    side: Side,
    src: Square,
    prof: Profession,
    rules: &Rules,
    out: &mut Vec<PureMove>,
) {
    let first = reach(
        pos,
        None,
        src,
        prof,
        side,
        pos.is_tam_hue(src, rules),
        rules.chariot_ranged_diagonal,
    );
    for target in first.finite.union(first.ranged).iter() {
        match pos.get(target) {
            None => out.push(PureMove::Plain { src, dst: target }),
            Some(occupant) => {
                if occupant.side().is_some_and(|s| s != side)
                    && can_end_on(pos, None, target, side, rules)
                {
                    out.push(PureMove::Plain { src, dst: target });
                }
                // Any occupant may be stepped on; on 皇 that is 撃皇, penalised by the rules.
                second_legs(pos, side, src, target, prof, rules, out);
            }
        }
    }
}

fn second_legs(
    pos: &Position,
    side: Side,
    src: Square,
    step: Square,
    prof: Profession,
    rules: &Rules,
    out: &mut Vec<PureMove>,
) {
    let second = reach(
        pos,
        Some(src),
        step,
        prof,
        side,
        pos.is_tam_hue(step, rules),
        rules.chariot_ranged_diagonal,
    );
    for dst in second.finite.iter() {
        if can_end_on(pos, Some(src), dst, side, rules) {
            out.push(PureMove::StepFinite { src, step, dst });
        }
    }
    for dst in second.ranged.iter() {
        if can_end_on(pos, Some(src), dst, side, rules) {
            out.push(PureMove::StepRanged { src, step, dst });
        }
    }
}

fn tam_candidates(pos: &Position, src: Square, rules: &Rules, out: &mut Vec<PureMove>) {
    let empty = |sq: Square| sq == src || pos.get(sq).is_none();
    for n in src.neighbours() {
        if empty(n) {
            let first = n;
            for m in first.neighbours() {
                if empty(m) {
                    out.push(PureMove::TamNoStep {
                        src,
                        first,
                        second: m,
                    });
                } else {
                    for second in m.neighbours().filter(|&s| empty(s)) {
                        out.push(PureMove::TamStepLatter {
                            src,
                            first,
                            step: m,
                            second,
                        });
                    }
                }
            }
        } else {
            let step = n;
            for first in step.neighbours().filter(|&s| empty(s)) {
                for second in first.neighbours().filter(|&s| empty(s)) {
                    out.push(PureMove::TamStepFormer {
                        src,
                        step,
                        first,
                        second,
                    });
                }
            }
        }
    }
    if rules.tam_returns == FutileMove::Forbidden {
        out.retain(|m| !(m.is_tam() && m.dst() == src));
    }
}

/// Whether `mv` is among the candidates of `side`, checked directly: no candidate list is
/// built, nothing is allocated.
pub fn is_candidate(pos: &Position, side: Side, mv: PureMove, rules: &Rules) -> bool {
    let empty = |sq: Square, src: Square| sq == src || pos.get(sq).is_none();
    match mv {
        PureMove::Drop { color, prof, dst } => {
            pos.hop1zuo1(side).count(color, prof) > 0 && pos.get(dst).is_none()
        }
        PureMove::TamNoStep { src, .. }
        | PureMove::TamStepFormer { src, .. }
        | PureMove::TamStepLatter { src, .. } => {
            if pos.get(src) != Some(Piece::Tam)
                || (pos.tam_moved_last && rules.tam_moved_again == FutileMove::Forbidden)
                || (rules.tam_returns == FutileMove::Forbidden && mv.dst() == src)
            {
                return false;
            }
            match mv {
                PureMove::TamNoStep { first, second, .. } => {
                    src.is_adjacent(first)
                        && pos.get(first).is_none()
                        && first.is_adjacent(second)
                        && empty(second, src)
                }
                PureMove::TamStepFormer {
                    step,
                    first,
                    second,
                    ..
                } => {
                    src.is_adjacent(step)
                        && pos.get(step).is_some()
                        && step.is_adjacent(first)
                        && empty(first, src)
                        && first.is_adjacent(second)
                        && empty(second, src)
                }
                PureMove::TamStepLatter {
                    first,
                    step,
                    second,
                    ..
                } => {
                    src.is_adjacent(first)
                        && pos.get(first).is_none()
                        && first.is_adjacent(step)
                        && step != src
                        && pos.get(step).is_some()
                        && step.is_adjacent(second)
                        && empty(second, src)
                }
                _ => false,
            }
        }
        PureMove::Plain { src, dst }
        | PureMove::StepFinite { src, dst, .. }
        | PureMove::StepRanged { src, dst, .. } => {
            let Some(Piece::Owned { prof, side: s, .. }) = pos.get(src) else {
                return false;
            };
            if s != side {
                return false;
            }
            let first = reach(
                pos,
                None,
                src,
                prof,
                side,
                pos.is_tam_hue(src, rules),
                rules.chariot_ranged_diagonal,
            );
            match mv {
                PureMove::Plain { .. } => {
                    first.finite.union(first.ranged).contains(dst)
                        && match pos.get(dst) {
                            None => true,
                            Some(o) => {
                                o.side().is_some_and(|x| x != side)
                                    && can_end_on(pos, None, dst, side, rules)
                            }
                        }
                }
                PureMove::StepFinite { step, .. } | PureMove::StepRanged { step, .. } => {
                    if !first.finite.union(first.ranged).contains(step) || pos.get(step).is_none() {
                        return false;
                    }
                    let second = reach(
                        pos,
                        Some(src),
                        step,
                        prof,
                        side,
                        pos.is_tam_hue(step, rules),
                        rules.chariot_ranged_diagonal,
                    );
                    let set = if matches!(mv, PureMove::StepFinite { .. }) {
                        second.finite
                    } else {
                        second.ranged
                    };
                    set.contains(dst) && can_end_on(pos, Some(src), dst, side, rules)
                }
                _ => false,
            }
        }
    }
}
