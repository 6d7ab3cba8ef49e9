//! The 16-bit moves of training files: cshogi's `move16` (Apery's move layout, in `hcpe` and
//! `hcpe3`) and YaneuraOu's `Move16` (in `psv`).
//!
//! Both put the destination square in bits 0–6 and the origin in bits 7–13, squares indexed
//! `(file − 1) · 9 + (rank − 1)`. They differ in drops and promotion:
//!
//! | | promotion | drop of 歩 香 桂 銀 金 角 飛 |
//! |---|---|---|
//! | cshogi `move16` | bit 14 | origin 81 + 0 1 2 3 6 4 5 |
//! | YaneuraOu `Move16` | bit 15 | bit 14 set, origin 1 2 3 4 7 5 6 |

use kifu_shogi::{Move, PieceKind, Square};

/// Apery's piece-type order after 歩 香 桂 銀 is 角 飛 金; kifu's hand order is 金 角 飛.
/// By kifu hand-kind index: Apery's type number (歩 = 1).
const APERY_TYPE: [u16; 7] = [1, 2, 3, 4, 7, 5, 6];

fn hand_kind_of_apery_type(number: u16) -> Option<PieceKind> {
    let slot = APERY_TYPE.iter().position(|&n| n == number)?;
    Some(PieceKind::HAND[slot])
}

fn hand_slot(kind: PieceKind) -> usize {
    PieceKind::HAND
        .iter()
        .position(|&k| k == kind)
        .expect("a dropped piece is a hand kind")
}

/// cshogi's `move16` of a move (the low 16 bits of its move, `cshogi.move16`).
///
/// ```
/// use kifu_export::move16::{cshogi_move16, from_cshogi_move16};
/// use kifu_shogi::usi::parse_move;
///
/// let mv = parse_move("G*5e").unwrap();
/// assert_eq!(cshogi_move16(mv), 0x2ba8);
/// assert_eq!(from_cshogi_move16(0x2ba8), Some(mv));
/// ```
pub fn cshogi_move16(mv: Move) -> u16 {
    let to = mv.to().index() as u16;
    match (mv.from(), mv.drop_kind()) {
        (Some(from), _) => to | (from.index() as u16) << 7 | u16::from(mv.is_promotion()) << 14,
        (None, Some(kind)) => to | (80 + APERY_TYPE[hand_slot(kind)]) << 7,
        (None, None) => 0,
    }
}

/// The move a cshogi `move16` stands for; `None` if the bits are no move.
pub fn from_cshogi_move16(bits: u16) -> Option<Move> {
    let to = Square::from_index(usize::from(bits & 0x7f))?;
    let from = (bits >> 7) & 0x7f;
    if bits >> 15 != 0 {
        return None;
    }
    if from >= 81 {
        if bits & (1 << 14) != 0 {
            return None;
        }
        return Some(Move::drop(hand_kind_of_apery_type(from - 80)?, to));
    }
    let from = Square::from_index(usize::from(from))?;
    Some(Move::normal(from, to, bits & (1 << 14) != 0))
}

/// YaneuraOu's `Move16` of a move, as `PackedSfenValue::move` holds it.
///
/// ```
/// use kifu_export::move16::{yaneuraou_move16, from_yaneuraou_move16};
/// use kifu_shogi::usi::parse_move;
///
/// let mv = parse_move("8h2b+").unwrap();
/// assert_eq!(from_yaneuraou_move16(yaneuraou_move16(mv)), Some(mv));
/// ```
pub fn yaneuraou_move16(mv: Move) -> u16 {
    let to = mv.to().index() as u16;
    match (mv.from(), mv.drop_kind()) {
        (Some(from), _) => to | (from.index() as u16) << 7 | u16::from(mv.is_promotion()) << 15,
        (None, Some(kind)) => to | APERY_TYPE[hand_slot(kind)] << 7 | 1 << 14,
        (None, None) => 0,
    }
}

/// The move a YaneuraOu `Move16` stands for; `None` if the bits are no move.
pub fn from_yaneuraou_move16(bits: u16) -> Option<Move> {
    let to = Square::from_index(usize::from(bits & 0x7f))?;
    let from = (bits >> 7) & 0x7f;
    let promote = bits & (1 << 15) != 0;
    if bits & (1 << 14) != 0 {
        if promote {
            return None;
        }
        return Some(Move::drop(hand_kind_of_apery_type(from)?, to));
    }
    let from = Square::from_index(usize::from(from))?;
    Some(Move::normal(from, to, promote))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_shogi::usi::parse_move;

    #[test]
    fn cshogi_values() {
        // Values cshogi 1.1.0 gives for these moves (`cshogi.move16`).
        for (usi, bits) in [
            ("P*5e", 0x28a8),
            ("L*5e", 0x2928),
            ("N*5e", 0x29a8),
            ("S*5e", 0x2a28),
            ("B*5e", 0x2aa8),
            ("R*5e", 0x2b28),
            ("5i4h", 0x1622),
            ("5c5b+", 0x5325),
            ("5c5b", 0x1325),
        ] {
            let mv = parse_move(usi).unwrap();
            assert_eq!(cshogi_move16(mv), bits, "{usi}");
            assert_eq!(from_cshogi_move16(bits), Some(mv), "{usi}");
            assert_eq!(from_yaneuraou_move16(yaneuraou_move16(mv)), Some(mv));
        }
    }

    #[test]
    fn nonsense_bits_are_no_move() {
        assert_eq!(from_cshogi_move16(0x7f), None);
        assert_eq!(from_cshogi_move16(0x7f << 7), None);
        assert_eq!(from_yaneuraou_move16(0x7f), None);
    }
}
