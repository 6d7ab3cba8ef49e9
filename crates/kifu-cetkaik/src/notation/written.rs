//! A move as a CKKA notation writes it, before it is resolved against a position (see
//! [`crate::notation::resolve`]): the squares, the profession or `片`, the stick results as
//! written.

use crate::profession::{Color, Profession};
use crate::square::Square;
use crate::sticks::Throws;

/// A stick count as a non-⓪ notation writes it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Count {
    /// A count written (0 to 5).
    Known(u8),
    /// `或`: unknown.
    Unknown,
    /// A bare `無` in ①, `mun1` in ②: failed, count unknown.
    Failed,
}

/// Stick results as an abbreviated notation writes them; resolved against the position.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Abbrev {
    /// The stick counts written, in order.
    pub counts: Vec<Count>,
    /// `此無` was written.
    pub void: bool,
    /// A trailing square: where the piece stayed after failing.
    pub stayed: Option<Square>,
}

/// Stick results as a notation writes them.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum StickNote {
    /// ⓪: exactly these throws (`無撃裁` = none).
    Explicit(Throws),
    /// ① ② ③: the counts written, matched to the move's throws when it is resolved.
    Abbreviated(Abbrev),
}

/// The squares of a 皇 move as written.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TamNote {
    /// `src皇second`, `src皇[或]second`, `src皇[first]second`; `first` is `None` when unknown.
    NoStep {
        /// The first stop (`None` when unknown).
        first: Option<Square>,
        /// Where 皇 ends.
        second: Square,
    },
    /// `src皇AB`: A stepped on (⓪), or in older records possibly the first stop.
    TwoSquares {
        /// The first square written.
        a: Square,
        /// Where 皇 ends.
        second: Square,
    },
    /// `src皇step[first]second`
    StepFormer {
        /// The square stepped on.
        step: Square,
        /// The first stop (`None` for `[或]`).
        first: Option<Square>,
        /// Where 皇 ends.
        second: Square,
    },
    /// `src皇[first]step second`
    StepLatter {
        /// The first stop (`None` for `[或]`).
        first: Option<Square>,
        /// The square stepped on.
        step: Square,
        /// Where 皇 ends.
        second: Square,
    },
}

/// A move as written, before it is resolved against a position.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum MoveNote {
    /// A piece on the board; `prof` is `None` for the wildcard `片`.
    Piece {
        /// Where the piece starts.
        src: Square,
        /// Its profession (`None` for `片`).
        prof: Option<Profession>,
        /// The square stepped on, if written.
        step: Option<Square>,
        /// Where it ends.
        dst: Square,
        /// The stick results as written.
        sticks: StickNote,
    },
    /// From hand; `color` is `None` for `或` (and the 2018 records' `無`).
    Drop {
        /// The colour (`None` for `或`).
        color: Option<Color>,
        /// The profession.
        prof: Profession,
        /// Where it is dropped.
        dst: Square,
    },
    /// A 皇 move.
    Tam {
        /// Where 皇 starts.
        src: Square,
        /// Its squares as written.
        note: TamNote,
    },
}
