//! The position key and the canonical game key: two 64-bit numbers every output of kifu
//! (the archive, the Parquet tables, Python) computes the same way.
//!
//! **Position key.** The Zobrist hash kifu's rules engine keeps as it plays
//! ([`kifu_shogi::Position::hash`]): the XOR of one 64-bit number per piece on a square
//! (`[colour][kind][square]`), one per hand count (`[colour][hand kind][count]`, count 0
//! adding nothing) and one when White (後手) is to move. The numbers are a splitmix64 stream
//! seeded with `0x6B696675` ("kifu"), drawn in that order: Black's then White's board
//! (kinds in `PieceKind` index order 0–14, squares `(file − 1) · 9 + (rank − 1)`), each
//! colour's hands right after its board (pawn, lance, knight, silver, gold, bishop, rook;
//! counts 1–18), then the side-to-move number. The move number is not part of it, so a
//! position reached by another move order has the same key. `docs/position-key.md` gives the
//! full definition and the collision odds.
//!
//! **Canonical game key.** The start's position key folded with the key of the position after
//! each main-line move, by [`fold`]. Two different moves from one position never lead to the
//! same position (the origin square, the promotion or the hand differs), so the positions
//! stand for the moves; two records of the same game in any format have the same key, and the
//! key after `n` moves is the key of the game's first `n` moves, so a truncated copy's key is
//! one of the longer game's prefix keys. Only position keys go in, so any output that has the
//! position keys (the Parquet tables too) computes the game key the same way.

use kifu_shogi::{Move, Position};

/// The position key of `position`: board, hands and side to move.
///
/// ```
/// use kifu_index::key::position_key;
/// use kifu_shogi::Position;
///
/// let mut by_one = Position::startpos();
/// for usi in ["7g7f", "3c3d", "2g2f"] {
///     by_one.play(by_one.parse_usi_move(usi).unwrap()).unwrap();
/// }
/// let mut by_another = Position::startpos();
/// for usi in ["2g2f", "3c3d", "7g7f"] {
///     by_another.play(by_another.parse_usi_move(usi).unwrap()).unwrap();
/// }
/// assert_eq!(position_key(&by_one), position_key(&by_another));
/// assert_ne!(position_key(&by_one), position_key(&Position::startpos()));
/// ```
pub fn position_key(position: &Position) -> u64 {
    position.hash()
}

/// The 16-bit code of a move stored in the archive: cshogi's `move16` (the destination in
/// bits 0–6, the origin — or 81 + the dropped piece — in bits 7–13, promotion in bit 14).
/// No move has the code 0, which the archive uses for "the game ended here".
pub fn move_code(mv: Move) -> u16 {
    kifu_export::move16::cshogi_move16(mv)
}

/// The move a code stands for, if any.
pub fn move_of_code(code: u16) -> Option<Move> {
    if code == 0 {
        return None;
    }
    kifu_export::move16::from_cshogi_move16(code)
}

pub use kifu_record::game::{fold_game_key as fold, game_key};

/// A key as the archive's JSON and the Parquet tables write it: 16 lowercase hex digits.
pub fn hex(key: u64) -> String {
    format!("{key:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_positions_key_is_fixed() {
        // Changing the key changes every archive and table ever written: this pins it.
        assert_eq!(hex(position_key(&Position::startpos())), START_KEY);
    }

    const START_KEY: &str = "231903b732d737bf";

    /// The key computed from `docs/position-key.md`'s words alone, for a board given as
    /// `(colour, kind, square)` and hands as `(colour, kind, count)`.
    fn key_by_the_documentation(
        board: &[(usize, usize, usize)],
        hands: &[(usize, usize, usize)],
        white_to_move: bool,
    ) -> u64 {
        let mut state: u64 = 0x6B69_6675;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut board_numbers = [[[0u64; 81]; 15]; 2];
        let mut hand_numbers = [[[0u64; 19]; 7]; 2];
        for colour in 0..2 {
            for kind in board_numbers[colour].iter_mut() {
                for square in kind.iter_mut() {
                    *square = next();
                }
            }
            for kind in hand_numbers[colour].iter_mut() {
                for count in kind.iter_mut().skip(1) {
                    *count = next();
                }
            }
        }
        let white = next();
        let mut key = 0;
        for &(c, k, s) in board {
            key ^= board_numbers[c][k][s];
        }
        for &(c, k, n) in hands {
            key ^= hand_numbers[c][k][n];
        }
        if white_to_move {
            key ^= white;
        }
        key
    }

    #[test]
    fn the_key_is_what_the_documentation_says() {
        use kifu_shogi::{Color, PieceKind, Square};
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
        ] {
            let position = Position::from_sfen(sfen).unwrap();
            let mut board = Vec::new();
            for index in 0..81 {
                let square = Square::from_index(index).unwrap();
                if let Some(piece) = position.piece_at(square) {
                    board.push((
                        usize::from(piece.color == Color::White),
                        piece.kind.index(),
                        index,
                    ));
                }
            }
            let mut hands = Vec::new();
            for (c, colour) in Color::ALL.into_iter().enumerate() {
                for kind in PieceKind::HAND {
                    let n = usize::from(position.hand(colour).count(kind));
                    if n > 0 {
                        hands.push((c, kind.index(), n));
                    }
                }
            }
            let white = position.turn() == Color::White;
            assert_eq!(
                position_key(&position),
                key_by_the_documentation(&board, &hands, white),
                "{sfen}"
            );
        }
    }

    #[test]
    fn the_same_positions_in_another_order_give_another_game_key() {
        let a = game_key(&[1, 10, 20]);
        let b = game_key(&[1, 20, 10]);
        assert_ne!(a, b);
        assert_eq!(a, fold(fold(1, 10), 20));
    }

    #[test]
    fn move_codes_round_trip() {
        for usi in ["7g7f", "8h2b+", "G*5e", "P*1a"] {
            let mv: Move = usi.parse().unwrap();
            assert_eq!(move_of_code(move_code(mv)), Some(mv));
        }
        assert_eq!(move_of_code(0), None);
    }
}
