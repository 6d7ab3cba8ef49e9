//! Colours and professions, with their names in kanji, pekzep and cerke_noter letters.

use std::fmt;

/// Piece colour; independent of the side that owns the piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// 黒 huok2
    Black,
    /// 赤 kok1
    Red,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::Red];

    /// 0 for black, 1 for red.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour as CKKA writes it: `黒` or `赤`.
    pub fn kanji(self) -> char {
        match self {
            Color::Black => '黒',
            Color::Red => '赤',
        }
    }

    /// The colour `黒` or `赤` names.
    pub fn from_kanji(c: char) -> Option<Color> {
        match c {
            '黒' => Some(Color::Black),
            '赤' => Some(Color::Red),
            _ => None,
        }
    }

    /// The colour's pekzep reading (notation ②).
    pub fn pekzep(self) -> &'static str {
        match self {
            Color::Black => "huok2",
            Color::Red => "kok1",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kanji())
    }
}

/// A text that is not a colour (`黒` or `赤`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a colour (expected 黒 or 赤)")]
pub struct UnknownColor(pub String);

impl std::str::FromStr for Color {
    type Err = UnknownColor;

    fn from_str(s: &str) -> Result<Color, UnknownColor> {
        let mut chars = s.chars();
        match (chars.next().and_then(Color::from_kanji), chars.next()) {
            (Some(color), None) => Ok(color),
            _ => Err(UnknownColor(s.to_owned())),
        }
    }
}

/// A text that is not a profession (its kanji, `兵`, or its pekzep name, `kauk2`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a profession (its kanji such as 兵, or its pekzep name such as kauk2)")]
pub struct UnknownProfession(pub String);

impl std::str::FromStr for Profession {
    type Err = UnknownProfession;

    fn from_str(s: &str) -> Result<Profession, UnknownProfession> {
        let mut chars = s.chars();
        let by_kanji = match (chars.next().and_then(Profession::from_kanji), chars.next()) {
            (Some(prof), None) => Some(prof),
            _ => None,
        };
        by_kanji
            .or_else(|| Profession::from_pekzep(s))
            .ok_or_else(|| UnknownProfession(s.to_owned()))
    }
}

/// The ten professions of the non-皇 pieces. [`Display`](fmt::Display) writes the kanji;
/// [`FromStr`](std::str::FromStr) also reads the pekzep name.
///
/// ```
/// use kifu_cetkaik::Profession;
///
/// let p: Profession = "kauk2".parse().unwrap();
/// assert_eq!(p, Profession::Pawn);
/// assert_eq!((p.kanji(), p.mrf_letter(), p.count_per_color()), ('兵', 'P', 8));
/// assert_eq!("弓".parse::<Profession>().unwrap().to_string(), "弓");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Profession {
    /// 船 nuak1, Vessel
    Vessel,
    /// 兵 kauk2, Pawn
    Pawn,
    /// 弓 gua2, Archer
    Archer,
    /// 車 kaun1, Chariot
    Chariot,
    /// 虎 dau2, Tiger
    Tiger,
    /// 馬 maun1, Horse
    Horse,
    /// 筆 kua2, Officer
    Officer,
    /// 巫 tuk2, Shaman
    Shaman,
    /// 将 uai1, General
    General,
    /// 王 io, King
    King,
}

const TABLE: [(Profession, char, &str, char); 10] = [
    (Profession::Vessel, '船', "nuak1", 'V'),
    (Profession::Pawn, '兵', "kauk2", 'P'),
    (Profession::Archer, '弓', "gua2", 'A'),
    (Profession::Chariot, '車', "kaun1", 'C'),
    (Profession::Tiger, '虎', "dau2", 'T'),
    (Profession::Horse, '馬', "maun1", 'H'),
    (Profession::Officer, '筆', "kua2", 'O'),
    (Profession::Shaman, '巫', "tuk2", 'S'),
    (Profession::General, '将', "uai1", 'G'),
    (Profession::King, '王', "io", 'K'),
];

impl Profession {
    /// Every profession, in the order of [`Profession::index`].
    pub const ALL: [Profession; 10] = [
        Profession::Vessel,
        Profession::Pawn,
        Profession::Archer,
        Profession::Chariot,
        Profession::Tiger,
        Profession::Horse,
        Profession::Officer,
        Profession::Shaman,
        Profession::General,
        Profession::King,
    ];

    /// The profession's index (0 to 9).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The profession as notation ⓪ writes it (`船`, `兵`, `弓` …).
    pub fn kanji(self) -> char {
        TABLE[self.index()].1
    }

    /// The profession's pekzep reading (notation ②).
    pub fn pekzep(self) -> &'static str {
        TABLE[self.index()].2
    }

    /// The upper-case letter of cerke_noter's machine-readable format.
    pub fn mrf_letter(self) -> char {
        TABLE[self.index()].3
    }

    /// The profession a kanji names.
    pub fn from_kanji(c: char) -> Option<Profession> {
        TABLE.iter().find(|t| t.1 == c).map(|t| t.0)
    }

    /// The profession a pekzep reading names.
    pub fn from_pekzep(s: &str) -> Option<Profession> {
        TABLE.iter().find(|t| t.2 == s).map(|t| t.0)
    }

    /// The profession a notation ③ (cerke_noter) letter names.
    pub fn from_mrf_letter(c: char) -> Option<Profession> {
        TABLE.iter().find(|t| t.3 == c).map(|t| t.0)
    }

    /// How many pieces of this profession each colour has.
    pub fn count_per_color(self) -> u8 {
        match self {
            Profession::Pawn => 8,
            Profession::Vessel | Profession::King => 1,
            _ => 2,
        }
    }
}

impl fmt::Display for Profession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kanji())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Profession::ALL {
            assert_eq!(Profession::from_kanji(p.kanji()), Some(p));
            assert_eq!(Profession::from_pekzep(p.pekzep()), Some(p));
            assert_eq!(Profession::from_mrf_letter(p.mrf_letter()), Some(p));
        }
        assert_eq!(Profession::from_kanji('皇'), None);
        assert_eq!(
            Profession::ALL
                .iter()
                .map(|p| p.count_per_color() as u32)
                .sum::<u32>(),
            24
        );
    }
}
