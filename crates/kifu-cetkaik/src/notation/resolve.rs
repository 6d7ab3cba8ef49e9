//! Turning what a record writes into moves of the rules engine: the written profession,
//! `片`, `或` drop colours, 皇's squares and abbreviated stick counts.

use super::written::{Abbrev, Count, MoveNote, StickNote, TamNote};
use crate::moves::{PureMove, candidates, is_candidate};
use crate::piece::Piece;
use crate::play::needed_throws;
use crate::position::Position;
use crate::profession::{Color, Profession};
use crate::rules::Rules;
use crate::sticks::{Throw, Throws, WATER_NEEDS};

/// A written move, resolved: the engine move, its throws and what the record left open.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Resolved {
    pub mv: PureMove,
    pub throws: Throws,
    /// The profession of the moving piece (`None` for 皇).
    pub prof: Option<Profession>,
    /// 皇's intermediate square was written (or implied) rather than guessed.
    pub tam_first_known: bool,
}

pub fn resolve(pos: &Position, note: &MoveNote, rules: &Rules) -> Result<Resolved, String> {
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
                        [] => return Err(format!("{side} has no {prof} in hand to drop")),
                        _ => {
                            return Err(format!(
                                "cannot tell the colour of 或{prof}: {side} holds both 黒{prof} and 赤{prof}"
                            ));
                        }
                    }
                }
            };
            if hand.count(color, prof) == 0 {
                return Err(format!("{side} has no {color}{prof} in hand to drop"));
            }
            if pos.get(dst).is_some() {
                return Err(format!("cannot drop on {dst}: the square is occupied"));
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
                return Err(format!("皇 is not on {src}"));
            }
            let tam: Vec<PureMove> = candidates(pos, side, rules)
                .into_iter()
                .filter(|m| m.is_tam())
                .collect();
            let (mv, known) = resolve_tam(&tam, src, note).ok_or_else(|| {
                format!("皇 cannot move from {src} as written (it takes two King steps into empty squares, stepping at most once)")
            })?;
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
                None => return Err(format!("no piece on {src}")),
                Some(Piece::Tam) => {
                    return Err(format!("the piece on {src} is 皇; write `{src}皇…`"));
                }
                Some(Piece::Owned {
                    side: s,
                    color,
                    prof: p,
                }) => {
                    if s != side {
                        return Err(format!(
                            "{color}{p} on {src} belongs to the opponent; it is {side}'s turn"
                        ));
                    }
                    if prof.is_some_and(|q| q != p) {
                        return Err(format!(
                            "the piece on {src} is {color}{p}, not {}",
                            prof.map_or('片', |q| q.kanji())
                        ));
                    }
                    p
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
                let via = step.map(|s| format!(" via {s}")).unwrap_or_default();
                return Err(format!(
                    "{}{actual} on {src} cannot move to {dst}{via}",
                    color_of(pos, src)
                ));
            };
            let throws = match sticks {
                StickNote::Explicit(t) => *t,
                StickNote::Abbreviated(a) => abbreviated_throws(pos, mv, a)?,
            };
            Ok(Resolved {
                mv,
                throws,
                prof: Some(actual),
                tam_first_known: true,
            })
        }
    }
}

fn color_of(pos: &Position, sq: crate::square::Square) -> String {
    match pos.get(sq) {
        Some(Piece::Owned { color, .. }) => color.kanji().to_string(),
        _ => String::new(),
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
pub fn abbreviated_throws(pos: &Position, mv: PureMove, a: &Abbrev) -> Result<Throws, String> {
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
                    return Err(format!(
                        "a water throw of {n} succeeds, yet the move is marked as failed"
                    ));
                }
                Throw::Count(n)
            }
        };
        t.water = Some(throw);
    }
    if counts.next().is_some() {
        return Err(match (bridge_needed, water_needed) {
            (false, false) => "this move needs no stick throw, but a count is written".to_string(),
            _ => "more stick counts are written than this move needs".to_string(),
        });
    }
    if !bridge_needed && !water_needed && failed_mark {
        return Err("this move needs no stick throw, so it cannot fail".to_string());
    }
    if let Some(stay) = a.stayed
        && Some(stay) != mv.src()
    {
        return Err(format!(
            "a failed move stays on {}, not {stay}",
            mv.src().map(|s| s.to_string()).unwrap_or_default()
        ));
    }
    Ok(t)
}
