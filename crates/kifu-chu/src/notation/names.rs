//! Piece names of the CSL notation (the CSL move-notation post) and lishogi's notations: Western abbreviations with
//! their alternates, Japanese short and full names, and the names that also say what a promoted
//! piece was before (tokin, 小角, 金飛車/GC).

use crate::piece::{Kind, Piece};

/// A piece designation: what it moves as, and optionally what it was before promoting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PieceName {
    pub kind: Kind,
    /// Only a piece promoted from this kind (e.g. `GC`: a rook that was a gold).
    pub promoted_from: Option<Kind>,
    /// Only an unpromoted piece (lishogi's Western codes without `+`).
    pub unpromoted_only: bool,
}

impl PieceName {
    pub const fn of(kind: Kind) -> PieceName {
        PieceName {
            kind,
            promoted_from: None,
            unpromoted_only: false,
        }
    }

    const fn promoted(kind: Kind, from: Kind) -> PieceName {
        PieceName {
            kind,
            promoted_from: Some(from),
            unpromoted_only: false,
        }
    }

    pub fn matches(self, p: Piece) -> bool {
        p.kind == self.kind
            && match self.promoted_from {
                Some(from) => p.promoted && p.kind.unpromoted() == Some(from),
                None => !(self.unpromoted_only && p.promoted),
            }
    }
}

/// CSL Western abbreviations, standard first for each kind (the writer uses the first).
pub(crate) const WESTERN: &[(&str, PieceName)] = {
    use Kind::*;
    &[
        ("P", PieceName::of(Pawn)),
        ("GB", PieceName::of(GoBetween)),
        ("M", PieceName::of(GoBetween)),
        ("C", PieceName::of(Copper)),
        ("Br", PieceName::of(Copper)),
        ("Bz", PieceName::of(Copper)),
        ("BG", PieceName::of(Copper)),
        ("S", PieceName::of(Silver)),
        ("G", PieceName::of(Gold)),
        ("tokin", PieceName::promoted(Gold, Pawn)),
        ("FL", PieceName::of(Leopard)),
        ("BT", PieceName::of(Tiger)),
        ("T", PieceName::of(Tiger)),
        ("DE", PieceName::of(Elephant)),
        ("L", PieceName::of(Lance)),
        ("RC", PieceName::of(ReverseChariot)),
        ("SM", PieceName::of(SideMover)),
        ("HM", PieceName::of(SideMover)),
        ("VM", PieceName::of(VerticalMover)),
        ("V", PieceName::of(VerticalMover)),
        ("B", PieceName::of(Bishop)),
        ("A", PieceName::of(Bishop)),
        ("R", PieceName::of(Rook)),
        ("GC", PieceName::promoted(Rook, Gold)),
        ("DH", PieceName::of(Horse)),
        ("H", PieceName::of(Horse)),
        ("DK", PieceName::of(Dragon)),
        ("D", PieceName::of(Dragon)),
        ("Ph", PieceName::of(Phoenix)),
        ("Px", PieceName::of(Phoenix)),
        ("Kr", PieceName::of(Kirin)),
        ("Kn", PieceName::of(Kirin)),
        ("Ki", PieceName::of(Kirin)),
        ("U", PieceName::of(Kirin)),
        ("FK", PieceName::of(FreeKing)),
        ("Q", PieceName::of(FreeKing)),
        ("Ln", PieceName::of(Lion)),
        ("K", PieceName::of(King)),
        ("FB", PieceName::of(FreeBoar)),
        ("FO", PieceName::of(FlyingOx)),
        ("O", PieceName::of(FlyingOx)),
        ("W", PieceName::of(Whale)),
        ("WH", PieceName::of(WhiteHorse)),
        ("HF", PieceName::of(HornedFalcon)),
        ("F", PieceName::of(HornedFalcon)),
        ("SE", PieceName::of(SoaringEagle)),
        ("FS", PieceName::of(FlyingStag)),
        ("CP", PieceName::of(Prince)),
    ]
};

/// Kinds whose full English name has two words, so the second word's initial may follow the
/// abbreviation without penalty ("SG", silver general).
pub(crate) fn second_word_initial(kind: Kind) -> Option<char> {
    match kind {
        Kind::Silver | Kind::Gold | Kind::Copper | Kind::King => Some('g'),
        _ => None,
    }
}

/// lishogi's Western codes of unpromoted kinds (`+` before them means promoted from that kind).
pub(crate) const LISHOGI_WESTERN: &[(&str, Kind)] = {
    use Kind::*;
    &[
        ("P", Pawn),
        ("GB", GoBetween),
        ("C", Copper),
        ("S", Silver),
        ("G", Gold),
        ("FL", Leopard),
        ("BT", Tiger),
        ("DE", Elephant),
        ("K", King),
        ("L", Lance),
        ("RC", ReverseChariot),
        ("SM", SideMover),
        ("VM", VerticalMover),
        ("B", Bishop),
        ("R", Rook),
        ("H", Horse),
        ("D", Dragon),
        ("Ph", Phoenix),
        ("Kr", Kirin),
        ("FK", FreeKing),
        ("Ln", Lion),
    ]
};

/// Japanese names, longest first within shared prefixes is handled by the matcher; the first
/// entry of a kind is its standard short name.
pub(crate) const JAPANESE: &[(&str, PieceName)] = {
    use Kind::*;
    &[
        ("歩", PieceName::of(Pawn)),
        ("歩兵", PieceName::of(Pawn)),
        ("仲", PieceName::of(GoBetween)),
        ("仲人", PieceName::of(GoBetween)),
        ("銅", PieceName::of(Copper)),
        ("銅将", PieceName::of(Copper)),
        ("銀", PieceName::of(Silver)),
        ("銀将", PieceName::of(Silver)),
        ("金", PieceName::of(Gold)),
        ("金将", PieceName::of(Gold)),
        ("と", PieceName::promoted(Gold, Pawn)),
        ("豹", PieceName::of(Leopard)),
        ("猛豹", PieceName::of(Leopard)),
        ("虎", PieceName::of(Tiger)),
        ("盲虎", PieceName::of(Tiger)),
        ("象", PieceName::of(Elephant)),
        ("醉象", PieceName::of(Elephant)),
        ("酔象", PieceName::of(Elephant)),
        ("玉", PieceName::of(King)),
        ("玉将", PieceName::of(King)),
        ("王", PieceName::of(King)),
        ("王将", PieceName::of(King)),
        ("香", PieceName::of(Lance)),
        ("香車", PieceName::of(Lance)),
        ("反", PieceName::of(ReverseChariot)),
        ("反車", PieceName::of(ReverseChariot)),
        ("横", PieceName::of(SideMover)),
        ("横行", PieceName::of(SideMover)),
        ("竪", PieceName::of(VerticalMover)),
        ("竪行", PieceName::of(VerticalMover)),
        ("角", PieceName::of(Bishop)),
        ("角行", PieceName::of(Bishop)),
        ("小角", PieceName::promoted(Bishop, Leopard)),
        ("飛", PieceName::of(Rook)),
        ("飛車", PieceName::of(Rook)),
        ("金飛車", PieceName::promoted(Rook, Gold)),
        ("馬", PieceName::of(Horse)),
        ("龍馬", PieceName::of(Horse)),
        ("竜馬", PieceName::of(Horse)),
        ("龍", PieceName::of(Dragon)),
        ("龍王", PieceName::of(Dragon)),
        ("竜", PieceName::of(Dragon)),
        ("竜王", PieceName::of(Dragon)),
        ("鳳", PieceName::of(Phoenix)),
        ("鳳凰", PieceName::of(Phoenix)),
        ("麒", PieceName::of(Kirin)),
        ("麒麟", PieceName::of(Kirin)),
        ("奔", PieceName::of(FreeKing)),
        ("奔王", PieceName::of(FreeKing)),
        ("獅", PieceName::of(Lion)),
        ("獅子", PieceName::of(Lion)),
        ("師", PieceName::of(Lion)),
        ("猪", PieceName::of(FreeBoar)),
        ("奔猪", PieceName::of(FreeBoar)),
        ("牛", PieceName::of(FlyingOx)),
        ("飛牛", PieceName::of(FlyingOx)),
        ("鯨", PieceName::of(Whale)),
        ("鯨鯢", PieceName::of(Whale)),
        ("駒", PieceName::of(WhiteHorse)),
        ("白", PieceName::of(WhiteHorse)),
        ("白駒", PieceName::of(WhiteHorse)),
        ("鷹", PieceName::of(HornedFalcon)),
        ("角鷹", PieceName::of(HornedFalcon)),
        ("鷲", PieceName::of(SoaringEagle)),
        ("飛鷲", PieceName::of(SoaringEagle)),
        ("鹿", PieceName::of(FlyingStag)),
        ("飛鹿", PieceName::of(FlyingStag)),
        ("太", PieceName::of(Prince)),
        ("太子", PieceName::of(Prince)),
    ]
};

/// The longest Japanese piece name at the start of `s`, with its length in bytes. A leading
/// `成` followed by an unpromoted kind's name means that piece promoted (lishogi's 成香 …).
pub(crate) fn japanese_prefix(s: &str) -> Option<(PieceName, usize)> {
    if let Some(rest) = s.strip_prefix('成') {
        let best = JAPANESE
            .iter()
            .filter(|(n, p)| {
                rest.starts_with(n) && p.promoted_from.is_none() && p.kind.promoted().is_some()
            })
            .max_by_key(|(n, _)| n.len());
        if let Some((n, p)) = best {
            let promoted = p.kind.promoted().unwrap();
            return Some((
                PieceName::promoted(promoted, p.kind),
                '成'.len_utf8() + n.len(),
            ));
        }
    }
    JAPANESE
        .iter()
        .filter(|(n, _)| s.starts_with(n))
        .max_by_key(|(n, _)| n.len())
        .map(|(n, p)| (*p, n.len()))
}

/// The standard CSL Western abbreviation of what a piece moves as (`P`, `GB`, `Ln`), as a
/// Western diagram names it (a promoted piece's red ink, not its name, says it was promoted).
///
/// ```
/// use kifu_chu::Kind;
/// assert_eq!(kifu_chu::notation::western_name(Kind::Lion), "Ln");
/// ```
pub fn western_name(kind: Kind) -> &'static str {
    WESTERN
        .iter()
        .find(|(_, p)| p.kind == kind && p.promoted_from.is_none())
        .map(|(n, _)| *n)
        .unwrap_or("?")
}

/// The standard Japanese short name of what a piece moves as.
pub(crate) fn japanese_name(kind: Kind) -> &'static str {
    JAPANESE
        .iter()
        .find(|(_, p)| p.kind == kind && p.promoted_from.is_none())
        .map(|(n, _)| *n)
        .unwrap_or("?")
}

/// lishogi KIF's full name of a piece (`獅子`, `金将`, `小角`, `金飛車`).
pub fn kif_name(p: Piece) -> &'static str {
    use Kind::*;
    match (p.kind, p.promoted.then(|| p.kind.unpromoted()).flatten()) {
        (Bishop, Some(Leopard)) => "小角",
        (Rook, Some(Gold)) => "金飛車",
        (kind, _) => match kind {
            Pawn => "歩兵",
            GoBetween => "仲人",
            Copper => "銅将",
            Silver => "銀将",
            Gold => "金将",
            Leopard => "猛豹",
            Tiger => "盲虎",
            Elephant => "醉象",
            King => "玉将",
            Lance => "香車",
            ReverseChariot => "反車",
            SideMover => "横行",
            VerticalMover => "竪行",
            Bishop => "角行",
            Rook => "飛車",
            Horse => "龍馬",
            Dragon => "龍王",
            Phoenix => "鳳凰",
            Kirin => "麒麟",
            FreeKing => "奔王",
            Lion => "獅子",
            FreeBoar => "奔猪",
            FlyingOx => "飛牛",
            Whale => "鯨鯢",
            WhiteHorse => "白駒",
            FlyingStag => "飛鹿",
            Prince => "太子",
            HornedFalcon => "角鷹",
            SoaringEagle => "飛鷲",
        },
    }
}

/// Japanese rank numerals 1–12.
pub(crate) const KANJI_RANKS: [&str; 12] = [
    "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二",
];

/// The Japanese rank numeral at the start of `s` (十一/十二 before 十), as a 0-based rank.
pub(crate) fn kanji_rank_prefix(s: &str) -> Option<(u8, usize)> {
    for (i, k) in KANJI_RANKS.iter().enumerate().rev() {
        if s.starts_with(k) {
            return Some((i as u8, k.len()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_names() {
        for k in Kind::ALL {
            assert_ne!(western_name(k), "?", "{k:?}");
            assert_ne!(japanese_name(k), "?", "{k:?}");
        }
        assert_eq!(western_name(Kind::Dragon), "DK");
        assert_eq!(japanese_name(Kind::Lion), "獅");
    }

    #[test]
    fn japanese_longest_match() {
        assert_eq!(japanese_prefix("金飛車").unwrap().1, "金飛車".len());
        assert_eq!(japanese_prefix("成香").unwrap().0.kind, Kind::WhiteHorse);
        assert_eq!(kanji_rank_prefix("十一").unwrap(), (10, 6));
        assert_eq!(kanji_rank_prefix("十").unwrap(), (9, 3));
    }
}
