//! Sides and pieces on the board.

use crate::profession::{Color, Profession};
use std::fmt;

/// A player, named by where their pieces start. The IA side holds the black King and
/// moves up (toward row A); the A side holds the red King and moves down.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Side {
    /// The IA side (black King).
    IASide,
    /// The A side (red King).
    ASide,
}

impl Side {
    /// Both sides, IA first.
    pub const BOTH: [Side; 2] = [Side::IASide, Side::ASide];

    /// 0 for the IA side, 1 for the A side (the index of per-side arrays).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::IASide => Side::ASide,
            Side::ASide => Side::IASide,
        }
    }

    /// Row step of "forward" for this side.
    pub fn forward(self) -> i8 {
        match self {
            Side::IASide => -1,
            Side::ASide => 1,
        }
    }

    /// The colour of this side's King, by which records name players.
    pub fn king_color(self) -> Color {
        match self {
            Side::IASide => Color::Black,
            Side::ASide => Color::Red,
        }
    }

    /// The side whose King has `color`.
    pub fn of_king_color(color: Color) -> Side {
        match color {
            Color::Black => Side::IASide,
            Color::Red => Side::ASide,
        }
    }
}

/// A text that names neither side.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a side (expected `ia`, `a`, or the King's colour 黒 / 赤)")]
pub struct UnknownSide(pub String);

impl std::str::FromStr for Side {
    type Err = UnknownSide;

    /// `ia` / `a` (as kifu's JSON form writes them) or the colour of the side's King.
    fn from_str(s: &str) -> Result<Side, UnknownSide> {
        match s {
            "ia" | "IA" | "黒" => Ok(Side::IASide),
            "a" | "A" | "赤" => Ok(Side::ASide),
            _ => Err(UnknownSide(s.to_owned())),
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::IASide => "IA side (黒)",
            Side::ASide => "A side (赤)",
        })
    }
}

/// What can stand on a square: 皇 (owned by nobody) or a piece of a side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// 皇, which belongs to neither side.
    Tam,
    /// A piece of one side.
    Owned {
        /// Its colour.
        color: Color,
        /// Its profession.
        prof: Profession,
        /// Its owner.
        side: Side,
    },
}

impl Piece {
    /// The piece's owner (`None` for 皇, which belongs to nobody).
    pub fn side(self) -> Option<Side> {
        match self {
            Piece::Tam => None,
            Piece::Owned { side, .. } => Some(side),
        }
    }

    /// The piece's profession (`None` for 皇).
    pub fn prof(self) -> Option<Profession> {
        match self {
            Piece::Tam => None,
            Piece::Owned { prof, .. } => Some(prof),
        }
    }
}
