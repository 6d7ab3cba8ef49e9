//! Hands (役 dat2): judged on a side's captured pieces, never on the board.

use crate::position::Hop1zuo1;
use crate::profession::{Color, Profession};
use std::fmt;

/// The ten positive hands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum HandKind {
    /// 無抗行処 The Unbeatable
    Unbeatable,
    /// 筆兵無傾 The Social Order
    SocialOrder,
    /// 地心 The Culture
    Culture,
    /// 馬弓兵 The Cavalry
    Cavalry,
    /// 行行 The Attack
    Attack,
    /// 王 The King
    King,
    /// 獣 The Animals
    Animals,
    /// 戦集 The Army
    Army,
    /// 助友 The Comrades
    Comrades,
    /// 闇戦之集 The Deadly Army
    DeadlyArmy,
}

const KINDS: [(HandKind, &str, &str, i32); 10] = [
    (HandKind::Unbeatable, "無抗行処", "mun1 mak1 mok1 hue", 50),
    (
        HandKind::SocialOrder,
        "筆兵無傾",
        "kua2 kauk2 mun1 aum2",
        10,
    ),
    (HandKind::Culture, "地心", "huep2 hia1", 7),
    (HandKind::Cavalry, "馬弓兵", "maun1 gua2 kauk2", 5),
    (HandKind::Attack, "行行", "mok1 mok1", 5),
    (HandKind::King, "王", "io", 5),
    (HandKind::Animals, "獣", "saup1", 3),
    (HandKind::Army, "戦集", "kaik dat2", 3),
    (HandKind::Comrades, "助友", "uaip2 hi1", 3),
    (HandKind::DeadlyArmy, "闇戦之集", "huet kaik a dat2", 3),
];

/// A hand as it is named: a kind, and whether all its pieces share a colour (同色).
///
/// ```
/// use kifu_cetkaik::{Hand, HandKind};
///
/// let hand = Hand::parse("同色獣").unwrap();
/// assert_eq!(hand, Hand { kind: HandKind::Animals, same_color: true });
/// assert_eq!(hand.points(5), 5); // 獣 is worth 3, 同色 adds 2
/// assert_eq!(hand.to_string(), "同色獣");
/// assert_eq!(Hand::parse_pekzep("io"), Some(Hand::plain(HandKind::King)));
/// assert_eq!(Hand::parse("同色王"), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Hand {
    /// Which hand.
    pub kind: HandKind,
    /// All its pieces share a colour (同色), which scores more.
    pub same_color: bool,
}

impl Hand {
    /// The hand without 同色.
    pub const fn plain(kind: HandKind) -> Hand {
        Hand {
            kind,
            same_color: false,
        }
    }

    fn bit(self) -> u32 {
        1 << (self.kind as u32 * 2 + self.same_color as u32)
    }

    /// Points: the base value, +2 for 同色; 王 is worth `king_points` (always one colour).
    pub fn points(self, king_points: i32) -> i32 {
        if self.kind == HandKind::King {
            return king_points;
        }
        KINDS[self.kind as usize].3 + if self.same_color { 2 } else { 0 }
    }

    /// Reads `獣`, `同色獣`, …; `同色王` is not a hand name.
    pub fn parse(s: &str) -> Option<Hand> {
        let (same_color, rest) = match s.strip_prefix("同色") {
            Some(r) => (true, r),
            None => (false, s),
        };
        let kind = KINDS.iter().find(|k| k.1 == rest)?.0;
        if same_color && kind == HandKind::King {
            return None;
        }
        Some(Hand { kind, same_color })
    }

    /// Reads the pekzep name (`saup1`, `io`); 同色 is not attested in pekzep and not read.
    pub fn parse_pekzep(s: &str) -> Option<Hand> {
        KINDS.iter().find(|k| k.2 == s).map(|k| Hand::plain(k.0))
    }

    /// The hand's pekzep reading (notation ②).
    pub fn pekzep(self) -> &'static str {
        KINDS[self.kind as usize].2
    }

    /// Longest hand name at the start of `s`, with its byte length.
    pub fn parse_prefix(s: &str) -> Option<(Hand, usize)> {
        let (same_color, off) = if s.starts_with("同色") {
            (true, "同色".len())
        } else {
            (false, 0)
        };
        let rest = &s[off..];
        let k = KINDS
            .iter()
            .filter(|k| rest.starts_with(k.1))
            .max_by_key(|k| k.1.len())?;
        if same_color && k.0 == HandKind::King {
            return None;
        }
        Some((
            Hand {
                kind: k.0,
                same_color,
            },
            off + k.1.len(),
        ))
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.same_color {
            f.write_str("同色")?;
        }
        f.write_str(KINDS[self.kind as usize].1)
    }
}

/// A set of hand names, as a bit mask.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct HandSet(u32);

impl HandSet {
    /// Adds `h`.
    pub fn insert(&mut self, h: Hand) {
        self.0 |= h.bit();
    }

    /// Whether `h` is in the set.
    pub fn contains(self, h: Hand) -> bool {
        self.0 & h.bit() != 0
    }

    /// Whether the set has no hand.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Names in this set and not in `before`: what a move created.
    pub fn minus(self, before: HandSet) -> HandSet {
        HandSet(self.0 & !before.0)
    }

    /// The hands of the set.
    pub fn iter(self) -> impl Iterator<Item = Hand> {
        KINDS.iter().flat_map(move |k| {
            [false, true]
                .into_iter()
                .map(move |same_color| Hand {
                    kind: k.0,
                    same_color,
                })
                .filter(move |h| self.contains(*h))
        })
    }

    /// The hands' points, the hand 王 counting `king_points`.
    pub fn points(self, king_points: i32) -> i32 {
        self.iter().map(|h| h.points(king_points)).sum()
    }
}

type Counts = [[u8; 10]; 2];

fn counts_of(hop: &Hop1zuo1) -> Counts {
    let mut c = [[0; 10]; 2];
    for color in Color::ALL {
        for prof in Profession::ALL {
            c[color.index()][prof.index()] = hop.count(color, prof);
        }
    }
    c
}

/// The hands `hop` holds. A held 王 also stands in for one missing piece of its own colour.
pub fn hands_of(hop: &Hop1zuo1) -> HandSet {
    let mut set = hands_of_counts(&counts_of(hop));
    // 同色 replaces the plain hand.
    for k in KINDS {
        let colored = Hand {
            kind: k.0,
            same_color: true,
        };
        if set.contains(colored) {
            set.0 &= !Hand::plain(k.0).bit();
        }
    }
    set
}

fn hands_of_counts(c: &Counts) -> HandSet {
    use Profession::*;
    let mut set = HandSet::default();
    let total = |p: Profession| c[0][p.index()] + c[1][p.index()];
    let mut check = |kind: HandKind, need: &[(Profession, u8)]| {
        if Color::ALL
            .iter()
            .any(|col| need.iter().all(|&(p, n)| c[col.index()][p.index()] >= n))
        {
            set.insert(Hand {
                kind,
                same_color: true,
            });
        } else if need.iter().all(|&(p, n)| total(p) >= n) {
            set.insert(Hand::plain(kind));
        }
    };
    check(HandKind::DeadlyArmy, &[(Pawn, 5)]);
    check(HandKind::Comrades, &[(Chariot, 1), (Pawn, 2)]);
    check(HandKind::Army, &[(General, 1), (Pawn, 2)]);
    check(HandKind::Animals, &[(Tiger, 1), (Horse, 1)]);
    check(HandKind::Attack, &[(Vessel, 1), (Chariot, 1), (Horse, 1)]);
    check(HandKind::Cavalry, &[(Pawn, 1), (Archer, 1), (Horse, 1)]);
    check(
        HandKind::Culture,
        &[(Officer, 1), (Shaman, 1), (General, 1)],
    );
    check(
        HandKind::SocialOrder,
        &[
            (Pawn, 1),
            (Archer, 1),
            (General, 1),
            (Officer, 1),
            (Shaman, 1),
        ],
    );
    let all: Vec<(Profession, u8)> = Profession::ALL.iter().map(|&p| (p, 1)).collect();
    check(HandKind::Unbeatable, &all);
    if total(King) > 0 {
        set.insert(Hand::plain(HandKind::King));
    }
    for color in Color::ALL {
        if c[color.index()][King.index()] > 0 {
            for p in Profession::ALL.into_iter().filter(|&p| p != King) {
                let mut w = *c;
                w[color.index()][King.index()] -= 1;
                w[color.index()][p.index()] += 1;
                set.0 |= hands_of_counts(&w).0;
            }
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hop(pieces: &str) -> Hop1zuo1 {
        let mut h = Hop1zuo1::default();
        let cs: Vec<char> = pieces.chars().collect();
        for pair in cs.chunks(2) {
            h.add(
                Color::from_kanji(pair[0]).unwrap(),
                Profession::from_kanji(pair[1]).unwrap(),
            );
        }
        h
    }

    fn names(pieces: &str) -> std::collections::BTreeSet<String> {
        hands_of(&hop(pieces))
            .iter()
            .map(|h| h.to_string())
            .collect()
    }

    fn set(names: &[&str]) -> std::collections::BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn simple_hands() {
        assert_eq!(names("赤虎黒馬"), set(&["獣"]));
        assert_eq!(names("赤虎赤馬"), set(&["同色獣"]));
        assert_eq!(names("赤虎赤馬黒虎黒馬"), set(&["同色獣"]));
        assert!(names("赤弓").is_empty());
        assert_eq!(names("黒兵黒兵赤兵黒兵赤兵"), set(&["闇戦之集"]));
    }

    #[test]
    fn the_king_is_a_wildcard_of_its_own_colour() {
        // 赤王 stands in for 赤馬: 赤虎 + 赤(馬) = 同色獣.
        assert_eq!(names("赤王赤虎"), set(&["同色獣", "王"]));
        // 黒王 + 赤虎: 黒(馬) + 赤虎 = 獣.
        assert_eq!(names("黒王赤虎"), set(&["王", "獣"]));
        // case4: 赤王 黒弓 赤兵 → 馬弓兵 with 王.
        assert_eq!(names("赤王黒弓赤兵"), set(&["王", "馬弓兵"]));
        assert_eq!(hands_of(&hop("赤王黒弓赤兵")).points(5), 10);
    }

    #[test]
    fn hand_names_parse() {
        assert_eq!(Hand::parse("同色馬弓兵").unwrap().to_string(), "同色馬弓兵");
        assert_eq!(Hand::parse("同色王"), None);
        assert_eq!(
            Hand::parse_prefix("王加獣而手八"),
            Some((Hand::plain(HandKind::King), 3))
        );
        assert_eq!(
            Hand::parse_prefix("闇戦之集"),
            Some((Hand::plain(HandKind::DeadlyArmy), 12))
        );
    }
}
