//! Sides, piece kinds and how each kind moves.
//!
//! A [`Kind`] is what a piece moves as now; [`Piece::promoted`] records whether it got there by
//! promotion, because a promoted piece never promotes again (a dragon king from a rook stays a
//! dragon king) and SFEN writes it as `+` and the letter of its original kind.

use std::fmt;

/// The side: Black (sente, moves first, upper case in SFEN) or White (gote).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Black (sente), who moves first.
    Black,
    /// White (gote).
    White,
}

impl Color {
    /// The other colour.
    pub fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    pub(crate) fn bit(self) -> u8 {
        match self {
            Color::Black => 0,
            Color::White => COLOR_BIT,
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.opposite()
    }
}

/// What a piece moves as. The first 21 are the starting kinds; the last 8 exist only promoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// Pawn (歩兵).
    Pawn,
    /// Go-between (仲人).
    GoBetween,
    /// Copper general (銅将).
    Copper,
    /// Silver general (銀将).
    Silver,
    /// Gold general (金将).
    Gold,
    /// Ferocious leopard (猛豹).
    Leopard,
    /// Blind tiger (盲虎).
    Tiger,
    /// Drunk elephant (酔象).
    Elephant,
    /// King (玉将).
    King,
    /// Lance (香車).
    Lance,
    /// Reverse chariot (反車).
    ReverseChariot,
    /// Side mover (横行).
    SideMover,
    /// Vertical mover (竪行).
    VerticalMover,
    /// Bishop (角行).
    Bishop,
    /// Rook (飛車).
    Rook,
    /// Dragon horse (龍馬).
    Horse,
    /// Dragon king (龍王).
    Dragon,
    /// Phoenix (鳳凰).
    Phoenix,
    /// Kirin (麒麟).
    Kirin,
    /// Free king (奔王).
    FreeKing,
    /// Lion (獅子).
    Lion,
    /// Free boar (奔猪), a promoted side mover.
    FreeBoar,
    /// Flying ox (飛牛), a promoted vertical mover.
    FlyingOx,
    /// Whale (鯨鯢), a promoted reverse chariot.
    Whale,
    /// White horse (白駒), a promoted lance.
    WhiteHorse,
    /// Flying stag (飛鹿), a promoted blind tiger.
    FlyingStag,
    /// Crown prince (太子), a promoted drunk elephant.
    Prince,
    /// Horned falcon (角鷹), a promoted dragon horse.
    HornedFalcon,
    /// Soaring eagle (飛鷲), a promoted dragon king.
    SoaringEagle,
}

impl Kind {
    /// Every kind, in declaration order.
    pub const ALL: [Kind; 29] = [
        Kind::Pawn,
        Kind::GoBetween,
        Kind::Copper,
        Kind::Silver,
        Kind::Gold,
        Kind::Leopard,
        Kind::Tiger,
        Kind::Elephant,
        Kind::King,
        Kind::Lance,
        Kind::ReverseChariot,
        Kind::SideMover,
        Kind::VerticalMover,
        Kind::Bishop,
        Kind::Rook,
        Kind::Horse,
        Kind::Dragon,
        Kind::Phoenix,
        Kind::Kirin,
        Kind::FreeKing,
        Kind::Lion,
        Kind::FreeBoar,
        Kind::FlyingOx,
        Kind::Whale,
        Kind::WhiteHorse,
        Kind::FlyingStag,
        Kind::Prince,
        Kind::HornedFalcon,
        Kind::SoaringEagle,
    ];

    pub(crate) fn from_u8(v: u8) -> Kind {
        Kind::ALL[v as usize]
    }

    /// The kind this one becomes on promotion, for kinds that can promote at all.
    pub fn promoted(self) -> Option<Kind> {
        use Kind::*;
        Some(match self {
            Pawn => Gold,
            GoBetween => Elephant,
            Copper => SideMover,
            Silver => VerticalMover,
            Gold => Rook,
            Leopard => Bishop,
            Tiger => FlyingStag,
            Elephant => Prince,
            Lance => WhiteHorse,
            ReverseChariot => Whale,
            SideMover => FreeBoar,
            VerticalMover => FlyingOx,
            Bishop => Horse,
            Rook => Dragon,
            Horse => HornedFalcon,
            Dragon => SoaringEagle,
            Phoenix => FreeKing,
            Kirin => Lion,
            King | FreeKing | Lion | FreeBoar | FlyingOx | Whale | WhiteHorse | FlyingStag
            | Prince | HornedFalcon | SoaringEagle => return None,
        })
    }

    /// The original kind of a promoted piece that now moves as `self`.
    pub fn unpromoted(self) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.promoted() == Some(self))
    }

    /// Whether the kind exists only as a promoted piece.
    pub fn is_promoted_only(self) -> bool {
        (self as u8) >= Kind::FreeBoar as u8
    }

    /// Lion and promoted kirin: full lion power.
    pub fn is_lion(self) -> bool {
        self == Kind::Lion
    }

    /// Pieces that may make two-step moves (lion, horned falcon, soaring eagle).
    pub fn has_lion_power(self) -> bool {
        matches!(self, Kind::Lion | Kind::HornedFalcon | Kind::SoaringEagle)
    }

    /// Whether the kind is royal (king, or prince: the crown prince counts as a second king).
    pub fn is_royal(self) -> bool {
        matches!(self, Kind::King | Kind::Prince)
    }

    /// lishogi's SFEN letter (lower case) of an unpromoted kind.
    pub fn sfen_letter(self) -> Option<char> {
        use Kind::*;
        Some(match self {
            Pawn => 'p',
            GoBetween => 'i',
            Copper => 'c',
            Silver => 's',
            Gold => 'g',
            Leopard => 'f',
            Tiger => 't',
            Elephant => 'e',
            King => 'k',
            Lance => 'l',
            ReverseChariot => 'a',
            SideMover => 'm',
            VerticalMover => 'v',
            Bishop => 'b',
            Rook => 'r',
            Horse => 'h',
            Dragon => 'd',
            Phoenix => 'x',
            Kirin => 'o',
            FreeKing => 'q',
            Lion => 'n',
            _ => return None,
        })
    }

    /// The kind a lishogi SFEN letter names.
    pub fn from_sfen_letter(c: char) -> Option<Kind> {
        Kind::ALL[..21]
            .iter()
            .copied()
            .find(|k| k.sfen_letter() == Some(c.to_ascii_lowercase()))
    }

    /// English name, for messages.
    pub fn name(self) -> &'static str {
        use Kind::*;
        match self {
            Pawn => "pawn",
            GoBetween => "go-between",
            Copper => "copper",
            Silver => "silver",
            Gold => "gold",
            Leopard => "ferocious leopard",
            Tiger => "blind tiger",
            Elephant => "drunk elephant",
            King => "king",
            Lance => "lance",
            ReverseChariot => "reverse chariot",
            SideMover => "side mover",
            VerticalMover => "vertical mover",
            Bishop => "bishop",
            Rook => "rook",
            Horse => "dragon horse",
            Dragon => "dragon king",
            Phoenix => "phoenix",
            Kirin => "kirin",
            FreeKing => "free king",
            Lion => "lion",
            FreeBoar => "free boar",
            FlyingOx => "flying ox",
            Whale => "whale",
            WhiteHorse => "white horse",
            FlyingStag => "flying stag",
            Prince => "crown prince",
            HornedFalcon => "horned falcon",
            SoaringEagle => "soaring eagle",
        }
    }

    pub(crate) fn movement(self) -> &'static Movement {
        &MOVEMENT[self as usize]
    }
}

/// A piece on the board. Its [`Display`](fmt::Display) is the lishogi SFEN token.
///
/// ```
/// use kifu_chu::{Color, Kind, Piece, Position};
///
/// let lion = Position::startpos().piece_at("7j".parse().unwrap()).unwrap();
/// assert_eq!(lion, Piece::new(Color::Black, Kind::Lion, false));
/// assert_eq!(lion.to_string(), "N");
/// assert_eq!(Kind::Phoenix.promoted(), Some(Kind::FreeKing));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The owner.
    pub color: Color,
    /// What the piece moves as.
    pub kind: Kind,
    /// Reached its kind by promotion (and so cannot promote again).
    pub promoted: bool,
}

pub(crate) const OCCUPIED_BIT: u8 = 0x80;
pub(crate) const COLOR_BIT: u8 = 0x40;
pub(crate) const PROMOTED_BIT: u8 = 0x20;
pub(crate) const KIND_MASK: u8 = 0x1f;
/// Mailbox cell value of the wall around the board.
pub(crate) const WALL: u8 = 0x01;
pub(crate) const EMPTY: u8 = 0;

impl Piece {
    /// A piece of `color` moving as `kind`, `promoted` if it reached that kind by promotion.
    pub fn new(color: Color, kind: Kind, promoted: bool) -> Piece {
        Piece {
            color,
            kind,
            promoted: promoted || kind.is_promoted_only(),
        }
    }

    /// Whether this piece may still promote.
    pub fn can_promote(self) -> bool {
        !self.promoted && self.kind.promoted().is_some()
    }

    pub(crate) fn code(self) -> u8 {
        OCCUPIED_BIT
            | self.color.bit()
            | if self.promoted { PROMOTED_BIT } else { 0 }
            | self.kind as u8
    }

    pub(crate) fn from_code(code: u8) -> Option<Piece> {
        if code & OCCUPIED_BIT == 0 {
            return None;
        }
        Some(Piece {
            color: if code & COLOR_BIT != 0 {
                Color::White
            } else {
                Color::Black
            },
            kind: Kind::from_u8(code & KIND_MASK),
            promoted: code & PROMOTED_BIT != 0,
        })
    }

    /// The SFEN token: `P`, `+p`, …
    pub fn sfen(self) -> String {
        let (base, plus) = if self.promoted {
            (self.kind.unpromoted().unwrap_or(self.kind), "+")
        } else {
            (self.kind, "")
        };
        let letter = base.sfen_letter().unwrap_or('?');
        let letter = match self.color {
            Color::Black => letter.to_ascii_uppercase(),
            Color::White => letter,
        };
        format!("{plus}{letter}")
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sfen())
    }
}

impl Color {
    /// `black` or `white`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names neither side.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a side (expected black/sente/b or white/gote/w)")]
pub struct UnknownColor(pub String);

impl std::str::FromStr for Color {
    type Err = UnknownColor;

    /// `black`, `sente`, `b`, `white`, `gote`, `w`, in any case.
    fn from_str(s: &str) -> Result<Color, UnknownColor> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "sente" | "b" => Ok(Color::Black),
            "white" | "gote" | "w" => Ok(Color::White),
            _ => Err(UnknownColor(s.to_owned())),
        }
    }
}

impl fmt::Display for Kind {
    /// The English name (`drunk elephant`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no piece kind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a chu piece kind (expected an English name such as `lion` or an SFEN letter)"
)]
/// A name that is no [`Kind`] (the name as given).
pub struct UnknownKind(pub String);

impl std::str::FromStr for Kind {
    type Err = UnknownKind;

    /// The English name in any case (`Drunk Elephant`), or the SFEN letter of an unpromoted
    /// kind (`e`).
    fn from_str(s: &str) -> Result<Kind, UnknownKind> {
        let mut letters = s.chars();
        if let (Some(c), None) = (letters.next(), letters.next())
            && let Some(kind) = Kind::from_sfen_letter(c)
        {
            return Ok(kind);
        }
        Kind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownKind(s.to_owned()))
    }
}

/// A text that is not one SFEN piece (`P`, `+n`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an SFEN piece (a letter, upper case for Black, `+` for promoted)")]
pub struct UnknownPiece(pub String);

impl std::str::FromStr for Piece {
    type Err = UnknownPiece;

    /// The SFEN token, as [`Piece::sfen`] writes it.
    fn from_str(s: &str) -> Result<Piece, UnknownPiece> {
        let unknown = || UnknownPiece(s.to_owned());
        let (promoted, rest) = match s.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let mut letters = rest.chars();
        let (Some(letter), None) = (letters.next(), letters.next()) else {
            return Err(unknown());
        };
        let base = Kind::from_sfen_letter(letter).ok_or_else(unknown)?;
        let color = if letter.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let kind = if promoted {
            base.promoted().ok_or_else(unknown)?
        } else {
            base
        };
        Ok(Piece::new(color, kind, promoted))
    }
}

/// Direction indices, seen from Black: forward is toward rank `a`.
pub(crate) const N: u8 = 0;
pub(crate) const NE: u8 = 1;
pub(crate) const E: u8 = 2;
pub(crate) const SE: u8 = 3;
pub(crate) const S: u8 = 4;
pub(crate) const SW: u8 = 5;
pub(crate) const W: u8 = 6;
pub(crate) const NW: u8 = 7;

/// Mailbox offsets of the 8 directions for Black; White's are negated.
pub(crate) const DIR_OFFSETS: [i16; 8] = [-16, -15, 1, 17, 16, 15, -1, -17];

const fn bits(dirs: &[u8]) -> u8 {
    let mut m = 0;
    let mut i = 0;
    while i < dirs.len() {
        m |= 1 << dirs[i];
        i += 1;
    }
    m
}

const ALL: u8 = 0xff;
const ORTH: u8 = bits(&[N, E, S, W]);
const DIAG: u8 = bits(&[NE, SE, SW, NW]);

/// Special movement beyond steps, slides and jumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Power {
    None,
    /// Full lion power within the 5×5 square.
    Lion,
    /// Lion power along the directions of the mask (horned falcon: forward; eagle: forward diagonals).
    Partial(u8),
}

/// Movement of a kind as bit masks over the 8 directions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Movement {
    pub steps: u8,
    pub slides: u8,
    /// Jumps to the second square in a direction, ignoring the first.
    pub jumps: u8,
    pub power: Power,
}

const fn mv(steps: u8, slides: u8, jumps: u8, power: Power) -> Movement {
    Movement {
        steps,
        slides,
        jumps,
        power,
    }
}

static MOVEMENT: [Movement; 29] = [
    mv(bits(&[N]), 0, 0, Power::None),                       // pawn
    mv(bits(&[N, S]), 0, 0, Power::None),                    // go-between
    mv(bits(&[N, NE, NW, S]), 0, 0, Power::None),            // copper
    mv(bits(&[N, NE, NW, SE, SW]), 0, 0, Power::None),       // silver
    mv(bits(&[N, NE, NW, E, W, S]), 0, 0, Power::None),      // gold
    mv(bits(&[N, NE, NW, S, SE, SW]), 0, 0, Power::None),    // leopard
    mv(ALL & !bits(&[N]), 0, 0, Power::None),                // blind tiger
    mv(ALL & !bits(&[S]), 0, 0, Power::None),                // drunk elephant
    mv(ALL, 0, 0, Power::None),                              // king
    mv(0, bits(&[N]), 0, Power::None),                       // lance
    mv(0, bits(&[N, S]), 0, Power::None),                    // reverse chariot
    mv(bits(&[N, S]), bits(&[E, W]), 0, Power::None),        // side mover
    mv(bits(&[E, W]), bits(&[N, S]), 0, Power::None),        // vertical mover
    mv(0, DIAG, 0, Power::None),                             // bishop
    mv(0, ORTH, 0, Power::None),                             // rook
    mv(ORTH, DIAG, 0, Power::None),                          // dragon horse
    mv(DIAG, ORTH, 0, Power::None),                          // dragon king
    mv(ORTH, 0, DIAG, Power::None),                          // phoenix
    mv(DIAG, 0, ORTH, Power::None),                          // kirin
    mv(0, ALL, 0, Power::None),                              // free king
    mv(0, 0, 0, Power::Lion),                                // lion
    mv(0, bits(&[E, W]) | DIAG, 0, Power::None),             // free boar
    mv(0, bits(&[N, S]) | DIAG, 0, Power::None),             // flying ox
    mv(0, bits(&[N, S, SE, SW]), 0, Power::None),            // whale
    mv(0, bits(&[N, S, NE, NW]), 0, Power::None),            // white horse
    mv(ALL & !bits(&[N, S]), bits(&[N, S]), 0, Power::None), // flying stag
    mv(ALL, 0, 0, Power::None),                              // crown prince
    mv(0, ALL & !bits(&[N]), 0, Power::Partial(bits(&[N]))), // horned falcon
    mv(
        0,
        ALL & !bits(&[NE, NW]),
        0,
        Power::Partial(bits(&[NE, NW])),
    ), // soaring eagle
];

/// The code is a piece that moves as a lion (lion or promoted kirin).
#[inline]
pub(crate) fn is_lion_code(code: u8) -> bool {
    code & OCCUPIED_BIT != 0 && code & KIND_MASK == Kind::Lion as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_map_is_injective_and_reversible() {
        for k in Kind::ALL {
            if let Some(p) = k.promoted() {
                assert_eq!(p.unpromoted(), Some(k), "{k:?}");
            }
        }
        assert_eq!(Kind::Lion.promoted(), None);
        assert_eq!(Kind::Kirin.promoted(), Some(Kind::Lion));
    }

    #[test]
    fn codes_round_trip() {
        for k in Kind::ALL {
            for c in [Color::Black, Color::White] {
                for p in [false, true] {
                    let piece = Piece::new(c, k, p);
                    assert_eq!(Piece::from_code(piece.code()), Some(piece));
                }
            }
        }
        assert_eq!(Piece::new(Color::White, Kind::Gold, true).sfen(), "+p");
        assert_eq!(Piece::new(Color::Black, Kind::Lion, false).sfen(), "N");
    }
}
