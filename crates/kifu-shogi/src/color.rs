use std::fmt;
use std::ops::Not;
use std::str::FromStr;

/// The two sides. Black (先手, 下手 in handicap games) moves first in an even game.
///
/// ```
/// use kifu_shogi::Color;
///
/// assert_eq!(!Color::Black, Color::White);
/// assert_eq!(Color::White.sfen_char(), 'w');
/// assert_eq!(Color::Black.to_string(), "先手");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// 先手 (sente; 下手 in a handicap game): SFEN `b`, CSA `+`, the side whose pieces start
    /// on ranks 7–9.
    Black = 0,
    /// 後手 (gote; 上手, the handicap giver, in a handicap game): SFEN `w`, CSA `-`.
    White = 1,
}

impl Color {
    /// Both sides, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// 0 for Black, 1 for White: an index into per-side tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side (also `!color`).
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The Japanese name used in even games: 先手 / 後手.
    pub const fn japanese(self) -> &'static str {
        match self {
            Color::Black => "先手",
            Color::White => "後手",
        }
    }

    /// `b` / `w`, as in SFEN.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    /// `+` / `-`, as in CSA.
    pub const fn csa_sign(self) -> char {
        match self {
            Color::Black => '+',
            Color::White => '-',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.japanese())
    }
}

/// Text that names neither side.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a side (先手, 後手, or SFEN's b, w)")]
pub struct ParseColorError(pub String);

/// Reads what [`Display`](fmt::Display) writes (`先手`, `後手`) and SFEN's `b` / `w`.
///
/// ```
/// use kifu_shogi::Color;
///
/// assert_eq!("後手".parse::<Color>().unwrap(), Color::White);
/// assert_eq!("b".parse::<Color>().unwrap().to_string(), "先手");
/// assert!("x".parse::<Color>().is_err());
/// ```
impl FromStr for Color {
    type Err = ParseColorError;

    fn from_str(text: &str) -> Result<Color, ParseColorError> {
        match text {
            "先手" | "b" => Ok(Color::Black),
            "後手" | "w" => Ok(Color::White),
            _ => Err(ParseColorError(text.to_owned())),
        }
    }
}
