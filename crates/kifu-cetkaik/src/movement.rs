//! Where one piece can go in one leg: finite (fixed offsets) and ranged (rays) squares,
//! depending on whether the square it moves from is tam2 hue.

use crate::piece::{Piece, Side};
use crate::position::Position;
use crate::profession::Profession;
use crate::rules::Rules;
use crate::square::{Square, SquareSet};

/// Squares reachable in one leg. An occupied square in either set is a candidate to
/// capture or to step on; the caller decides which.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Reach {
    /// Squares reached by the piece's finite (one- or two-square) moves.
    pub finite: SquareSet,
    /// Squares reached by its ranged moves (any distance along a line).
    pub ranged: SquareSet,
}

const ORTHOGONAL: [(i8, i8); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
const DIAGONAL: [(i8, i8); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// `occupied` tells which squares block; the caller passes the board with the mover
/// already lifted when computing a second leg.
pub fn reach(
    pos: &Position,
    vacated: Option<Square>,
    from: Square,
    prof: Profession,
    side: Side,
    in_tam_hue: bool,
    chariot_ranged_diagonal: bool,
) -> Reach {
    let occupied = |sq: Square| Some(sq) != vacated && pos.get(sq).is_some();
    let fwd = side.forward();
    let mut r = Reach::default();
    let jump = |r: &mut Reach, dr: i8, dc: i8| {
        if let Some(sq) = from.offset(dr, dc) {
            r.finite.insert(sq);
        }
    };
    // A ray from `from`: squares up to the (max_over + 1)-th occupied one, inclusive.
    let ray = |set: &mut SquareSet, dr: i8, dc: i8, max_over: u8, min_len: i8| {
        let mut over = 0;
        for k in 1..9i8 {
            let Some(sq) = from.offset(dr * k, dc * k) else {
                break;
            };
            if k >= min_len {
                set.insert(sq);
            }
            if occupied(sq) && k >= min_len {
                if over == max_over {
                    break;
                }
                over += 1;
            }
        }
    };
    // A two-square jump that needs the square between empty.
    let clear_jump = |r: &mut Reach, dr: i8, dc: i8| {
        if let (Some(mid), Some(to)) = (from.offset(dr / 2, dc / 2), from.offset(dr, dc))
            && !occupied(mid)
        {
            r.finite.insert(to);
        }
    };
    use Profession::*;
    if prof == Chariot && chariot_ranged_diagonal {
        for (dr, dc) in DIAGONAL {
            ray(&mut r.ranged, dr, dc, 0, 1);
        }
        return r;
    }
    if in_tam_hue {
        match prof {
            King | General => {
                for (dr, dc) in ORTHOGONAL.into_iter().chain(DIAGONAL) {
                    jump(&mut r, dr, dc);
                }
            }
            Chariot => {
                for (dr, dc) in DIAGONAL {
                    jump(&mut r, 2 * dr, 2 * dc);
                }
            }
            Pawn => {
                for (dr, dc) in ORTHOGONAL {
                    jump(&mut r, dr, dc);
                }
                clear_jump(&mut r, 2 * fwd, 0);
            }
            Vessel => {
                jump(&mut r, 0, -1);
                jump(&mut r, 0, 1);
                clear_jump(&mut r, 0, -2);
                clear_jump(&mut r, 0, 2);
                ray(&mut r.ranged, -1, 0, 0, 1);
                ray(&mut r.ranged, 1, 0, 0, 1);
            }
            Archer | Tiger => {
                for (dr, dc) in DIAGONAL {
                    ray(&mut r.ranged, dr, dc, 0, 1);
                }
            }
            Horse => {
                // Length 2–8; the adjacent diagonal square neither is a target nor blocks.
                for (dr, dc) in DIAGONAL {
                    ray(&mut r.ranged, dr, dc, 0, 2);
                }
            }
            Officer => {
                for (dr, dc) in ORTHOGONAL {
                    ray(&mut r.ranged, dr, dc, 0, 1);
                }
            }
            Shaman => {
                for (dr, dc) in ORTHOGONAL.into_iter().chain(DIAGONAL) {
                    ray(&mut r.ranged, dr, dc, 1, 1);
                }
            }
        }
    } else {
        match prof {
            King => {
                for (dr, dc) in ORTHOGONAL.into_iter().chain(DIAGONAL) {
                    jump(&mut r, dr, dc);
                }
            }
            General => {
                for (dr, dc) in ORTHOGONAL.into_iter().chain(DIAGONAL) {
                    if (dr, dc) != (-fwd, 0) {
                        jump(&mut r, dr, dc);
                    }
                }
            }
            Pawn => jump(&mut r, fwd, 0),
            Chariot => {
                for (dr, dc) in ORTHOGONAL {
                    jump(&mut r, 2 * dr, 2 * dc);
                }
            }
            Tiger => {
                for (dr, dc) in DIAGONAL {
                    jump(&mut r, dr, dc);
                }
            }
            Horse => {
                for (dr, dc) in DIAGONAL {
                    jump(&mut r, 2 * dr, 2 * dc);
                }
            }
            Vessel => ray(&mut r.ranged, fwd, 0, 0, 1),
            Archer => {
                for (dr, dc) in ORTHOGONAL {
                    ray(&mut r.ranged, dr, dc, 0, 1);
                }
            }
            Officer => {
                jump(&mut r, 0, -1);
                jump(&mut r, 0, 1);
                ray(&mut r.ranged, -1, 0, 0, 1);
                ray(&mut r.ranged, 1, 0, 0, 1);
            }
            Shaman => {
                jump(&mut r, -1, 0);
                jump(&mut r, 1, 0);
                ray(&mut r.ranged, 0, -1, 0, 1);
                ray(&mut r.ranged, 0, 1, 0, 1);
            }
        }
    }
    r
}

/// Whether a piece of `mover` may end its move on `sq` (with `vacated` lifted): the square
/// is empty, or holds an opponent's piece not guarded by one of that opponent's Generals
/// standing in tam2 hue next to it.
pub fn can_end_on(
    pos: &Position,
    vacated: Option<Square>,
    sq: Square,
    mover: Side,
    rules: &Rules,
) -> bool {
    if Some(sq) == vacated {
        return true;
    }
    match pos.get(sq) {
        None => true,
        Some(Piece::Tam) => false,
        Some(Piece::Owned { side, .. }) if side == mover => false,
        Some(Piece::Owned { side, .. }) => !is_protected(pos, vacated, sq, side, rules),
    }
}

fn is_protected(
    pos: &Position,
    vacated: Option<Square>,
    sq: Square,
    owner: Side,
    rules: &Rules,
) -> bool {
    sq.neighbours().any(|n| {
        Some(n) != vacated
            && matches!(pos.get(n), Some(Piece::Owned { prof: Profession::General, side, .. }) if side == owner)
            && pos.is_tam_hue(n, rules)
    })
}

/// A stick throw is needed to end on `dst`: it is water, the move started outside water,
/// and the piece is not a Vessel.
pub fn needs_water_throw(src: Square, dst: Square, prof: Profession) -> bool {
    dst.is_water() && !src.is_water() && prof != Profession::Vessel
}
