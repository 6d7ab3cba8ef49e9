//! Turning what a record writes into moves of the rules engine: the written profession,
//! `片`, `或` drop colours, 皇's squares and abbreviated stick counts.

use super::written::{Abbrev, Count, MoveNote, StickNote, TamNote};
use crate::moves::{PureMove, candidates, is_candidate};
use crate::piece::Piece;
use crate::piece::Side;
use crate::play::needed_throws;
use crate::position::Position;
use crate::profession::{Color, Profession};
use crate::rules::Rules;
use crate::square::Square;
use crate::sticks::{Throw, Throws, WATER_NEEDS};

/// A written move, resolved: the engine move, its throws and what the record left open.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Resolved {
    /// The engine move.
    pub mv: PureMove,
    /// The throws, with written counts matched to the move's needs.
    pub throws: Throws,
    /// The profession of the moving piece (`None` for 皇).
    pub prof: Option<Profession>,
    /// 皇's intermediate square was written (or implied) rather than guessed.
    pub tam_first_known: bool,
}

/// Why a written move is no move of the position. The wording is the one the CKKA replay
/// reports (after `ply N: `).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// A drop of a profession the side does not hold.
    #[error("{side} has no {prof} in hand to drop")]
    NoneInHand {
        /// The side to move.
        side: Side,
        /// The written profession.
        prof: Profession,
    },
    /// `或` for the colour of a drop, and the side holds both colours.
    #[error("cannot tell the colour of 或{prof}: {side} holds both 黒{prof} and 赤{prof}")]
    AmbiguousDropColour {
        /// The side to move.
        side: Side,
        /// The written profession.
        prof: Profession,
    },
    /// A drop of a colour and profession the side does not hold.
    #[error("{side} has no {color}{prof} in hand to drop")]
    NotInHand {
        /// The side to move.
        side: Side,
        /// The written colour.
        color: Color,
        /// The written profession.
        prof: Profession,
    },
    /// A drop on an occupied square.
    #[error("cannot drop on {0}: the square is occupied")]
    Occupied(Square),
    /// A 皇 move from a square 皇 is not on.
    #[error("皇 is not on {0}")]
    TamNotOn(Square),
    /// A 皇 move no candidate matches.
    #[error(
        "皇 cannot move from {0} as written (it takes two King steps into empty squares, stepping at most once)"
    )]
    TamCannotMove(Square),
    /// A move from an empty square.
    #[error("no piece on {0}")]
    NoPiece(Square),
    /// A piece move written from 皇's square.
    #[error("the piece on {0} is 皇; write `{0}皇…`")]
    IsTam(Square),
    /// A move of the opponent's piece.
    #[error("{color}{prof} on {src} belongs to the opponent; it is {side}'s turn")]
    Opponents {
        /// The piece's colour.
        color: Color,
        /// The piece's profession.
        prof: Profession,
        /// Its square.
        src: Square,
        /// The side to move.
        side: Side,
    },
    /// The written profession is not the piece's.
    #[error("the piece on {src} is {color}{prof}, not {written}")]
    OtherPiece {
        /// The square.
        src: Square,
        /// The piece's colour.
        color: Color,
        /// The piece's profession.
        prof: Profession,
        /// The profession as written (`片` for the wildcard).
        written: char,
    },
    /// The piece cannot reach the destination (through the written step).
    #[error("{color}{prof} on {src} cannot move to {dst}{}", via(.step))]
    CannotReach {
        /// The piece's colour.
        color: Color,
        /// The piece's profession.
        prof: Profession,
        /// Its square.
        src: Square,
        /// The written destination.
        dst: Square,
        /// The written step square, if any.
        step: Option<Square>,
    },
    /// Abbreviated stick counts that do not fit the move.
    #[error(transparent)]
    Sticks(#[from] SticksError),
}

/// Why abbreviated stick counts do not fit a move (see [`abbreviated_throws`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SticksError {
    /// A water throw of 3 or more, on a move marked as failed.
    #[error("a water throw of {0} succeeds, yet the move is marked as failed")]
    WaterSucceeds(u8),
    /// A count on a move that throws no sticks.
    #[error("this move needs no stick throw, but a count is written")]
    NoThrowNeeded,
    /// More counts than the move's throws.
    #[error("more stick counts are written than this move needs")]
    TooManyCounts,
    /// A failure mark on a move that throws no sticks.
    #[error("this move needs no stick throw, so it cannot fail")]
    CannotFail,
    /// A failed move said to stay elsewhere than where it started.
    #[error("a failed move stays on {}, not {stayed}", .src.map(|s| s.to_string()).unwrap_or_default())]
    StaysElsewhere {
        /// Where the move starts (`None` for a drop).
        src: Option<Square>,
        /// Where the record says the piece stayed.
        stayed: Square,
    },
}

/// ` via KE` for a written step square.
fn via(step: &Option<Square>) -> String {
    step.map(|s| format!(" via {s}")).unwrap_or_default()
}

/// Resolves a written move against the position: the engine move it stands for, its throws,
/// and whether 皇's intermediate square was written.
pub fn resolve(pos: &Position, note: &MoveNote, rules: &Rules) -> Result<Resolved, ResolveError> {
    let side = pos.turn();
    match *note {
        MoveNote::Drop { color, prof, dst } => {
            let hand = pos.hop1zuo1(side);
            let color = match color {
                Some(c) => c,
                None => {
                    let held: Vec<Color> = Color::ALL
                        .into_iter()
                        .filter(|&c| hand.count(c, prof) > 0)
                        .collect();
                    match held[..] {
                        [c] => c,
                        [] => return Err(ResolveError::NoneInHand { side, prof }),
                        _ => return Err(ResolveError::AmbiguousDropColour { side, prof }),
                    }
                }
            };
            if hand.count(color, prof) == 0 {
                return Err(ResolveError::NotInHand { side, color, prof });
            }
            if pos.get(dst).is_some() {
                return Err(ResolveError::Occupied(dst));
            }
            Ok(Resolved {
                mv: PureMove::Drop { color, prof, dst },
                throws: Throws::default(),
                prof: Some(prof),
                tam_first_known: true,
            })
        }
        MoveNote::Tam { src, note } => {
            if pos.get(src) != Some(Piece::Tam) {
                return Err(ResolveError::TamNotOn(src));
            }
            let tam: Vec<PureMove> = candidates(pos, side, rules)
                .into_iter()
                .filter(|m| m.is_tam())
                .collect();
            let (mv, known) =
                resolve_tam(&tam, src, note).ok_or(ResolveError::TamCannotMove(src))?;
            Ok(Resolved {
                mv,
                throws: Throws::default(),
                prof: None,
                tam_first_known: known,
            })
        }
        MoveNote::Piece {
            src,
            prof,
            step,
            dst,
            ref sticks,
        } => {
            let actual = match pos.get(src) {
                None => return Err(ResolveError::NoPiece(src)),
                Some(Piece::Tam) => return Err(ResolveError::IsTam(src)),
                Some(Piece::Owned {
                    side: s,
                    color,
                    prof: p,
                }) => {
                    if s != side {
                        return Err(ResolveError::Opponents {
                            color,
                            prof: p,
                            src,
                            side,
                        });
                    }
                    if let Some(written) = prof.filter(|&q| q != p) {
                        return Err(ResolveError::OtherPiece {
                            src,
                            color,
                            prof: p,
                            written: written.kanji(),
                        });
                    }
                    (color, p)
                }
            };
            let wants_bridge = matches!(sticks, StickNote::Explicit(t) if t.bridge.is_some());
            let legal = |m: &PureMove| is_candidate(pos, side, *m, rules);
            let mv = match step {
                None => Some(PureMove::Plain { src, dst }).filter(legal),
                Some(step) => {
                    let finite = PureMove::StepFinite { src, step, dst };
                    let ranged = PureMove::StepRanged { src, step, dst };
                    let (a, b) = if wants_bridge {
                        (ranged, finite)
                    } else {
                        (finite, ranged)
                    };
                    [a, b].into_iter().find(legal)
                }
            };
            let Some(mv) = mv else {
                return Err(ResolveError::CannotReach {
                    color: actual.0,
                    prof: actual.1,
                    src,
                    dst,
                    step,
                });
            };
            let throws = match sticks {
                StickNote::Explicit(t) => *t,
                StickNote::Abbreviated(a) => abbreviated_throws(pos, mv, a)?,
            };
            Ok(Resolved {
                mv,
                throws,
                prof: Some(actual.1),
                tam_first_known: true,
            })
        }
    }
}

fn resolve_tam(
    list: &[PureMove],
    src: crate::square::Square,
    note: TamNote,
) -> Option<(PureMove, bool)> {
    let find = |f: &dyn Fn(&PureMove) -> bool| list.iter().copied().find(|m| f(m));
    match note {
        TamNote::NoStep { first, second } => find(&|m| {
            matches!(*m, PureMove::TamNoStep { src: s, first: f, second: d } if s == src && d == second && first.is_none_or(|x| x == f))
        })
        .map(|m| (m, first.is_some())),
        TamNote::TwoSquares { a, second } => find(&|m| {
            matches!(*m, PureMove::TamStepFormer { step, second: d, .. } | PureMove::TamStepLatter { step, second: d, .. } if step == a && d == second)
        })
        .map(|m| (m, false))
        .or_else(|| {
            find(&|m| matches!(*m, PureMove::TamNoStep { first, second: d, .. } if first == a && d == second))
                .map(|m| (m, true))
        }),
        TamNote::StepFormer { step, first, second } => find(&|m| {
            matches!(*m, PureMove::TamStepFormer { step: s, first: f, second: d, .. } if s == step && d == second && first.is_none_or(|x| x == f))
        })
        .map(|m| (m, first.is_some())),
        TamNote::StepLatter { first, step, second } => find(&|m| {
            matches!(*m, PureMove::TamStepLatter { step: s, first: f, second: d, .. } if s == step && d == second && first.is_none_or(|x| x == f))
        })
        .map(|m| (m, first.is_some())),
    }
}

/// Matches written counts to the throws the move needs: the bridge throw first (for a
/// ranged second leg), then the water throw (if the destination is water and was reached).
pub fn abbreviated_throws(pos: &Position, mv: PureMove, a: &Abbrev) -> Result<Throws, SticksError> {
    let (bridge_needed, water_needed) = needed_throws(pos, mv);
    let mut counts = a.counts.iter().copied();
    let failed_mark = a.void || a.stayed.is_some();
    let mut t = Throws::default();
    let mut reached = true;
    if bridge_needed {
        let dist = mv.step().map_or(0, |s| s.distance(mv.dst()));
        let c = counts.next();
        // 此無 belongs to the bridge unless a second count follows for the water.
        let void_here = failed_mark && !(water_needed && a.counts.len() >= 2);
        let throw = match (c, void_here) {
            (None | Some(Count::Unknown), false) => Throw::UnknownSuccess,
            (None | Some(Count::Unknown), true) | (Some(Count::Failed), _) => Throw::UnknownFailure,
            (Some(Count::Known(n)), _) => Throw::Count(n),
        };
        let ok = match throw {
            Throw::Count(n) => n >= dist && !void_here,
            Throw::UnknownSuccess => true,
            Throw::UnknownFailure => false,
        };
        t.bridge = Some(throw);
        t.bridge_void = !ok;
        reached = ok;
    }
    if water_needed && reached {
        let c = counts.next();
        let throw = match (c, failed_mark) {
            (None | Some(Count::Unknown), false) => Throw::UnknownSuccess,
            (None | Some(Count::Unknown), true) | (Some(Count::Failed), _) => Throw::UnknownFailure,
            (Some(Count::Known(n)), void) => {
                if void && n >= WATER_NEEDS {
                    return Err(SticksError::WaterSucceeds(n));
                }
                Throw::Count(n)
            }
        };
        t.water = Some(throw);
    }
    if counts.next().is_some() {
        return Err(match (bridge_needed, water_needed) {
            (false, false) => SticksError::NoThrowNeeded,
            _ => SticksError::TooManyCounts,
        });
    }
    if !bridge_needed && !water_needed && failed_mark {
        return Err(SticksError::CannotFail);
    }
    if let Some(stay) = a.stayed
        && Some(stay) != mv.src()
    {
        return Err(SticksError::StaysElsewhere {
            src: mv.src(),
            stayed: stay,
        });
    }
    Ok(t)
}
