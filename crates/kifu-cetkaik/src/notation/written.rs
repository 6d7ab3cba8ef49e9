//! A move as a CKKA notation writes it, before it is resolved against a position (see
//! [`crate::notation::resolve`]): the squares, the profession or `片`, the stick results as
//! written.

use crate::profession::{Color, Profession};
use crate::square::Square;
use crate::sticks::Throws;

/// A stick count as a non-⓪ notation writes it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Count {
    Known(u8),
    /// `或`: unknown.
    Unknown,
    /// A bare `無` in ①, `mun1` in ②: failed, count unknown.
    Failed,
}

/// Stick results as an abbreviated notation writes them; resolved against the position.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Abbrev {
    pub counts: Vec<Count>,
    /// `此無` was written.
    pub void: bool,
    /// A trailing square: where the piece stayed after failing.
    pub stayed: Option<Square>,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum StickNote {
    /// ⓪: exactly these throws (`無撃裁` = none).
    Explicit(Throws),
    Abbreviated(Abbrev),
}

/// The squares of a 皇 move as written.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TamNote {
    /// `src皇second`, `src皇[或]second`, `src皇[first]second`; `first` is `None` when unknown.
    NoStep {
        first: Option<Square>,
        second: Square,
    },
    /// `src皇AB`: A stepped on (⓪), or in older records possibly the first stop.
    TwoSquares { a: Square, second: Square },
    /// `src皇step[first]second`
    StepFormer {
        step: Square,
        first: Option<Square>,
        second: Square,
    },
    /// `src皇[first]step second`
    StepLatter {
        first: Option<Square>,
        step: Square,
        second: Square,
    },
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum MoveNote {
    /// A piece on the board; `prof` is `None` for the wildcard `片`.
    Piece {
        src: Square,
        prof: Option<Profession>,
        step: Option<Square>,
        dst: Square,
        sticks: StickNote,
    },
    /// From hand; `color` is `None` for `或` (and the 2018 records' `無`).
    Drop {
        color: Option<Color>,
        prof: Profession,
        dst: Square,
    },
    Tam {
        src: Square,
        note: TamNote,
    },
}
