use std::fmt;
use std::str::FromStr;

use crate::Color;

/// A kind of piece, promoted kinds included.
///
/// The unpromoted kinds that can be held in hand come first, in the
/// conventional hand order 歩 香 桂 銀 金 角 飛; a promoted kind is its base + 8.
/// Its [`Display`](fmt::Display) is the name KIF move text uses.
///
/// ```
/// use kifu_shogi::PieceKind;
///
/// assert_eq!(PieceKind::Silver.promote(), Some(PieceKind::ProSilver));
/// assert_eq!(PieceKind::Dragon.unpromote(), PieceKind::Rook);
/// assert_eq!(PieceKind::Gold.promote(), None);
/// assert_eq!((PieceKind::Horse.csa(), PieceKind::Horse.to_string()), ("UM", "馬".to_string()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// 歩 (fu), SFEN `P`, CSA `FU`.
    Pawn = 0,
    /// 香 (kyō), SFEN `L`, CSA `KY`.
    Lance = 1,
    /// 桂 (kei), SFEN `N`, CSA `KE`.
    Knight = 2,
    /// 銀 (gin), SFEN `S`, CSA `GI`.
    Silver = 3,
    /// 金 (kin), SFEN `G`, CSA `KI`; it does not promote.
    Gold = 4,
    /// 角 (kaku), SFEN `B`, CSA `KA`.
    Bishop = 5,
    /// 飛 (hisha), SFEN `R`, CSA `HI`.
    Rook = 6,
    /// 玉 / 王 (gyoku / ō), SFEN `K`, CSA `OU`; it does not promote and is never held.
    King = 7,
    /// と (tokin), the promoted pawn: SFEN `+P`, CSA `TO`; moves like a gold.
    ProPawn = 8,
    /// 成香 (杏 on diagrams), the promoted lance: SFEN `+L`, CSA `NY`; moves like a gold.
    ProLance = 9,
    /// 成桂 (圭 on diagrams), the promoted knight: SFEN `+N`, CSA `NK`; moves like a gold.
    ProKnight = 10,
    /// 成銀 (全 on diagrams), the promoted silver: SFEN `+S`, CSA `NG`; moves like a gold.
    ProSilver = 11,
    /// 馬 (uma), the promoted bishop: SFEN `+B`, CSA `UM`; adds the king's steps.
    Horse = 13,
    /// 龍 (ryū, also written 竜), the promoted rook: SFEN `+R`, CSA `RY`; adds the king's
    /// steps.
    Dragon = 14,
}

/// Number of slots a table indexed by [`PieceKind::index`] needs.
pub const KIND_SLOTS: usize = 15;

impl PieceKind {
    /// Every kind, in index order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The kinds that can be held in hand, in hand order.
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];

    /// The kind's number: hand kinds 0–6, king 7, a promoted kind its base + 8 (so 12,
    /// which would be a promoted gold, is unused).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub(crate) const fn from_index(i: usize) -> Option<PieceKind> {
        Some(match i {
            0 => PieceKind::Pawn,
            1 => PieceKind::Lance,
            2 => PieceKind::Knight,
            3 => PieceKind::Silver,
            4 => PieceKind::Gold,
            5 => PieceKind::Bishop,
            6 => PieceKind::Rook,
            7 => PieceKind::King,
            8 => PieceKind::ProPawn,
            9 => PieceKind::ProLance,
            10 => PieceKind::ProKnight,
            11 => PieceKind::ProSilver,
            13 => PieceKind::Horse,
            14 => PieceKind::Dragon,
            _ => return None,
        })
    }

    /// Whether the kind has a promoted form: pawn, lance, knight, silver, bishop, rook.
    #[inline]
    pub const fn is_promotable(self) -> bool {
        matches!(
            self,
            PieceKind::Pawn
                | PieceKind::Lance
                | PieceKind::Knight
                | PieceKind::Silver
                | PieceKind::Bishop
                | PieceKind::Rook
        )
    }

    /// Whether the kind is a promoted one (と 成香 成桂 成銀 馬 龍).
    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 8
    }

    /// The promoted kind, or `None` for gold, king and promoted kinds.
    #[inline]
    pub const fn promote(self) -> Option<PieceKind> {
        Some(match self {
            PieceKind::Pawn => PieceKind::ProPawn,
            PieceKind::Lance => PieceKind::ProLance,
            PieceKind::Knight => PieceKind::ProKnight,
            PieceKind::Silver => PieceKind::ProSilver,
            PieceKind::Bishop => PieceKind::Horse,
            PieceKind::Rook => PieceKind::Dragon,
            _ => return None,
        })
    }

    /// The kind a captured piece becomes in hand.
    #[inline]
    pub const fn unpromote(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        }
    }

    /// Whether a piece of this kind can be held in hand and dropped: the unpromoted kinds
    /// but the king.
    #[inline]
    pub const fn is_hand_kind(self) -> bool {
        (self as u8) < 7
    }

    /// SFEN/USI letter of Black's piece (`P`, `+P` is written with a prefix).
    pub const fn sfen_letter(self) -> char {
        match self.unpromote() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Gold => 'G',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            _ => 'K',
        }
    }

    /// Unpromoted kind from an SFEN letter (either case).
    pub const fn from_sfen_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'P' => PieceKind::Pawn,
            'L' => PieceKind::Lance,
            'N' => PieceKind::Knight,
            'S' => PieceKind::Silver,
            'G' => PieceKind::Gold,
            'B' => PieceKind::Bishop,
            'R' => PieceKind::Rook,
            'K' => PieceKind::King,
            _ => return None,
        })
    }

    /// The two-letter CSA code (`FU`, `TO`, `UM`, …).
    pub const fn csa(self) -> &'static str {
        match self {
            PieceKind::Pawn => "FU",
            PieceKind::Lance => "KY",
            PieceKind::Knight => "KE",
            PieceKind::Silver => "GI",
            PieceKind::Gold => "KI",
            PieceKind::Bishop => "KA",
            PieceKind::Rook => "HI",
            PieceKind::King => "OU",
            PieceKind::ProPawn => "TO",
            PieceKind::ProLance => "NY",
            PieceKind::ProKnight => "NK",
            PieceKind::ProSilver => "NG",
            PieceKind::Horse => "UM",
            PieceKind::Dragon => "RY",
        }
    }

    /// The kind a two-letter CSA code names (`FU` … `RY`, upper case), as in the CSA standard
    /// file format.
    pub fn from_csa(code: &str) -> Option<PieceKind> {
        let &[a, b] = code.as_bytes() else {
            return None;
        };
        PieceKind::from_csa_bytes(a, b)
    }

    /// [`PieceKind::from_csa`] on the two bytes of a code. Record readers look up every
    /// move's piece code: one table lookup by a hash of the two bytes (the fourteen codes
    /// fall in fourteen of its 32 slots) rather than a chain of comparisons.
    #[inline]
    pub(crate) fn from_csa_bytes(a: u8, b: u8) -> Option<PieceKind> {
        let (code, kind) = CSA_CODES[csa_code_slot(a, b)];
        (code == [a, b]).then_some(kind)
    }

    /// The one-character Japanese name used in KIF moves and diagrams
    /// (成香 etc. are two characters: see [`PieceKind::kif_name`]).
    pub const fn kanji(self) -> &'static str {
        match self {
            PieceKind::Pawn => "歩",
            PieceKind::Lance => "香",
            PieceKind::Knight => "桂",
            PieceKind::Silver => "銀",
            PieceKind::Gold => "金",
            PieceKind::Bishop => "角",
            PieceKind::Rook => "飛",
            PieceKind::King => "玉",
            PieceKind::ProPawn => "と",
            PieceKind::ProLance => "杏",
            PieceKind::ProKnight => "圭",
            PieceKind::ProSilver => "全",
            PieceKind::Horse => "馬",
            PieceKind::Dragon => "龍",
        }
    }

    /// The name KIF move text uses (`成香`, `成桂`, `成銀` for promoted minors).
    pub const fn kif_name(self) -> &'static str {
        match self {
            PieceKind::ProLance => "成香",
            PieceKind::ProKnight => "成桂",
            PieceKind::ProSilver => "成銀",
            k => k.kanji(),
        }
    }

    /// Points for the jishogi declaration: 5 for rook and bishop (promoted or not), else 1.
    pub const fn declaration_points(self) -> u32 {
        match self.unpromote() {
            PieceKind::Bishop | PieceKind::Rook => 5,
            PieceKind::King => 0,
            _ => 1,
        }
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kif_name())
    }
}

/// A piece of one side. Its [`Display`](fmt::Display) is the SFEN letter: upper case for
/// Black, lower case for White, `+` before a promoted kind.
///
/// ```
/// use kifu_shogi::{Color, Piece, PieceKind};
///
/// let tokin = Piece::new(Color::White, PieceKind::ProPawn);
/// assert_eq!(tokin.to_string(), "+p");
/// assert_eq!("+p".parse::<Piece>().unwrap(), tokin);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The side it belongs to.
    pub color: Color,
    /// What it is.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// SFEN form: `P`, `+p`, `K`, …
    pub fn sfen(self) -> String {
        let mut s = String::with_capacity(2);
        if self.kind.is_promoted() {
            s.push('+');
        }
        let letter = self.kind.sfen_letter();
        s.push(match self.color {
            Color::Black => letter,
            Color::White => letter.to_ascii_lowercase(),
        });
        s
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sfen())
    }
}

/// Text that is not the name of a piece kind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a piece name (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍)")]
pub struct ParsePieceKindError(pub String);

/// Reads the KIF name that [`Display`](fmt::Display) writes.
///
/// ```
/// use kifu_shogi::PieceKind;
///
/// assert_eq!("成銀".parse::<PieceKind>().unwrap(), PieceKind::ProSilver);
/// assert_eq!(PieceKind::Dragon.to_string().parse::<PieceKind>().unwrap(), PieceKind::Dragon);
/// assert!("X".parse::<PieceKind>().is_err());
/// ```
impl FromStr for PieceKind {
    type Err = ParsePieceKindError;

    fn from_str(text: &str) -> Result<PieceKind, ParsePieceKindError> {
        PieceKind::ALL
            .into_iter()
            .find(|kind| kind.kif_name() == text)
            .ok_or_else(|| ParsePieceKindError(text.to_owned()))
    }
}

/// Text that is not a piece in SFEN form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an SFEN piece (like P, +p or K)")]
pub struct ParsePieceError(pub String);

/// Reads the SFEN form that [`Display`](fmt::Display) writes: upper case for 先手.
///
/// ```
/// use kifu_shogi::{Color, Piece, PieceKind};
///
/// let piece: Piece = "+r".parse().unwrap();
/// assert_eq!(piece, Piece::new(Color::White, PieceKind::Dragon));
/// assert_eq!(piece.to_string(), "+r");
/// assert!("+K".parse::<Piece>().is_err());
/// ```
impl FromStr for Piece {
    type Err = ParsePieceError;

    fn from_str(text: &str) -> Result<Piece, ParsePieceError> {
        Piece::ALL_SFEN
            .into_iter()
            .find(|piece| piece.sfen() == text)
            .ok_or_else(|| ParsePieceError(text.to_owned()))
    }
}

impl Piece {
    /// Every piece of both sides, for lookups by name.
    const ALL_SFEN: [Piece; 28] = {
        let mut all = [Piece::new(Color::Black, PieceKind::Pawn); 28];
        let mut i = 0;
        while i < 14 {
            all[i] = Piece::new(Color::Black, PieceKind::ALL[i]);
            all[i + 14] = Piece::new(Color::White, PieceKind::ALL[i]);
            i += 1;
        }
        all
    };
}

/// The slot of a two-byte CSA piece code in [`CSA_CODES`].
#[inline]
const fn csa_code_slot(a: u8, b: u8) -> usize {
    ((a as usize * 7 + b as usize) >> 2) & 31
}

/// Every piece kind at the slot of its CSA code. An empty slot holds a code that hashes to
/// another slot, so no two bytes looked up there can equal it; its kind is never returned.
/// (A kind that is not an `Option` leaves the reader's lookup one compare: with `Option`,
/// every lookup also asked whether its slot was empty.)
static CSA_CODES: [([u8; 2], PieceKind); 32] = {
    let mut table = [([0u8; 2], PieceKind::Pawn); 32];
    let mut filled = [false; 32];
    let mut slot = 0;
    while slot < 32 {
        // `[0, 0]` falls in slot 0 and `[0, 4]` in slot 1: each is foreign to the other.
        let foreign = if slot == 0 { [0, 4] } else { [0, 0] };
        assert!(csa_code_slot(foreign[0], foreign[1]) != slot);
        table[slot].0 = foreign;
        slot += 1;
    }
    let mut i = 0;
    while i < PieceKind::ALL.len() {
        let kind = PieceKind::ALL[i];
        let code = kind.csa().as_bytes();
        let slot = csa_code_slot(code[0], code[1]);
        assert!(!filled[slot], "two CSA codes share a slot");
        filled[slot] = true;
        table[slot] = ([code[0], code[1]], kind);
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_is_an_involution_on_promotable_kinds() {
        for k in PieceKind::ALL {
            assert_eq!(PieceKind::from_index(k.index()), Some(k));
            assert_eq!(PieceKind::from_csa(k.csa()), Some(k));
            if let Some(p) = k.promote() {
                assert!(p.is_promoted());
                assert_eq!(p.unpromote(), k);
                assert_eq!(p.index(), k.index() + 8);
            }
        }
        assert_eq!(PieceKind::Gold.promote(), None);
        assert_eq!(PieceKind::King.promote(), None);
    }

    #[test]
    fn only_the_fourteen_csa_codes_name_a_piece() {
        let codes: Vec<&str> = PieceKind::ALL.iter().map(|k| k.csa()).collect();
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let named = PieceKind::from_csa_bytes(a, b);
                let code = [a, b];
                let listed = codes.iter().position(|c| c.as_bytes() == code);
                assert_eq!(named, listed.map(|i| PieceKind::ALL[i]), "{a} {b}");
            }
        }
    }
}
