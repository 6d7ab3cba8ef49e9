use std::fmt;

use crate::PieceKind;

/// The pieces one side holds in hand (持ち駒), counted per kind. Its
/// [`Display`](fmt::Display) is the hand line of a KIF diagram.
///
/// ```
/// use kifu_shogi::{Color, Hand, PieceKind, Position};
///
/// let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b R3Pb 1").unwrap();
/// let hand: &Hand = pos.hand(Color::Black);
/// assert_eq!(hand.count(PieceKind::Pawn), 3);
/// assert_eq!(hand.len(), 4);
/// assert_eq!(hand.to_string(), "飛　歩三");
/// assert_eq!(pos.hand(Color::White).to_string(), "角");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand([u8; 7]);

/// How many of each kind exist in a full set, for both sides together.
pub(crate) const FULL_SET: [u8; 8] = [18, 4, 4, 4, 4, 2, 2, 2];

impl Hand {
    /// Nothing in hand.
    pub const EMPTY: Hand = Hand([0; 7]);

    /// Count of one kind; promoted or king kinds are never held and count 0.
    #[inline]
    pub fn count(&self, kind: PieceKind) -> u8 {
        if kind.is_hand_kind() {
            self.0[kind.index()]
        } else {
            0
        }
    }

    /// Sets a count; `kind` must be a hand kind (caller validates).
    pub fn set(&mut self, kind: PieceKind, count: u8) {
        debug_assert!(kind.is_hand_kind());
        self.0[kind.index()] = count;
    }

    #[inline]
    pub(crate) fn add(&mut self, kind: PieceKind) -> u8 {
        let c = &mut self.0[kind.index()];
        *c += 1;
        *c
    }

    #[inline]
    pub(crate) fn remove(&mut self, kind: PieceKind) -> u8 {
        let c = &mut self.0[kind.index()];
        *c -= 1;
        *c
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }

    /// Total pieces held.
    pub fn len(&self) -> u32 {
        self.0.iter().map(|&c| u32::from(c)).sum()
    }

    /// Kinds held with their counts, in hand order 歩 香 桂 銀 金 角 飛.
    pub fn iter(&self) -> impl Iterator<Item = (PieceKind, u8)> + '_ {
        PieceKind::HAND
            .into_iter()
            .map(|k| (k, self.0[k.index()]))
            .filter(|&(_, c)| c > 0)
    }

    /// Bit `k` is set when kind index `k` is held.
    #[inline]
    pub(crate) fn kinds_mask(&self) -> u8 {
        let mut m = 0;
        for (i, &c) in self.0.iter().enumerate() {
            if c > 0 {
                m |= 1 << i;
            }
        }
        m
    }
}

impl fmt::Display for Hand {
    /// Japanese hand text as in KIF: `飛　角　歩三` or `なし`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("なし");
        }
        let mut first = true;
        for kind in PieceKind::HAND.into_iter().rev() {
            let n = self.count(kind);
            if n == 0 {
                continue;
            }
            if !first {
                f.write_str("　")?;
            }
            first = false;
            f.write_str(kind.kanji())?;
            if n > 1 {
                f.write_str(&kanji_number(n))?;
            }
        }
        Ok(())
    }
}

/// 1–18 in the kanji numerals diagrams use for hand counts (十八).
pub fn kanji_number(n: u8) -> String {
    const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0 => "〇".to_string(),
        1..=9 => DIGITS[n as usize].to_string(),
        10 => "十".to_string(),
        11..=19 => format!("十{}", DIGITS[(n - 10) as usize]),
        _ => n.to_string(),
    }
}
