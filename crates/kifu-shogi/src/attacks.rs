//! Attack tables, computed at compile time, and slider attacks by ray scanning.
//!
//! A slider's attack along one direction is the direction's ray from the square,
//! cut after the first occupied square. Bits are ordered file-major, so along a
//! direction the index either always grows or always shrinks: the first blocker
//! is the lowest or the highest set bit, found with one `trailing_zeros` or
//! `leading_zeros` on a `u128`.
//!
//! The squares are those a piece attacks, moving or capturing, as the pieces move under
//! the Japan Shogi Association's rules; "forward" depends on the piece's colour. A
//! position's own view is [`Position::attacks_from`](crate::Position::attacks_from).
//!
//! ```
//! use kifu_shogi::{Bitboard, Color, Square, attacks};
//!
//! let sq = Square::new(5, 5).unwrap();
//! assert_eq!(attacks::king(sq).count(), 8);
//! assert_eq!(attacks::rook(sq, Bitboard::EMPTY).count(), 16);
//! assert_eq!(attacks::knight(Color::White, sq).map(|s| s.to_string()).collect::<Vec<_>>(), ["4g", "6g"]);
//!
//! // A lance stops at the first piece in its way, which it may capture.
//! let blocker = Bitboard::from_square(Square::new(5, 3).unwrap());
//! assert_eq!(attacks::lance(Color::Black, sq, blocker).count(), 2);
//! ```

use crate::{Bitboard, Color, Square};

const fn bit(file: i32, rank: i32) -> u128 {
    if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
        1u128 << ((file - 1) * 9 + (rank - 1))
    } else {
        0
    }
}

/// Step patterns written from Black's side: `(file delta, rank delta)`, rank −1 is forward.
const PAWN_STEPS: &[(i32, i32)] = &[(0, -1)];
const KNIGHT_STEPS: &[(i32, i32)] = &[(-1, -2), (1, -2)];
const SILVER_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_STEPS: &[(i32, i32)] = &[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

const fn step_table(steps: &[(i32, i32)]) -> [[u128; 81]; 2] {
    let mut t = [[0u128; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            let file = (sq / 9 + 1) as i32;
            let rank = (sq % 9 + 1) as i32;
            let mut i = 0;
            let mut bits = 0u128;
            while i < steps.len() {
                let (df, dr) = steps[i];
                let dr = if c == 0 { dr } else { -dr };
                bits |= bit(file + df, rank + dr);
                i += 1;
            }
            t[c][sq] = bits;
            sq += 1;
        }
        c += 1;
    }
    t
}

static PAWN: [[u128; 81]; 2] = step_table(PAWN_STEPS);
static KNIGHT: [[u128; 81]; 2] = step_table(KNIGHT_STEPS);
static SILVER: [[u128; 81]; 2] = step_table(SILVER_STEPS);
static GOLD: [[u128; 81]; 2] = step_table(GOLD_STEPS);
static KING: [[u128; 81]; 2] = step_table(KING_STEPS);

/// Directions as `(file delta, rank delta)`; the first four grow the index.
const DIRS: [(i32, i32); 8] = [
    (0, 1),   // south (toward rank 9): +1
    (1, -1),  // +8
    (1, 0),   // +9
    (1, 1),   // +10
    (0, -1),  // north: −1
    (-1, 1),  // −8
    (-1, 0),  // −9
    (-1, -1), // −10
];
const SOUTH: usize = 0;
const NORTH: usize = 4;
const ROOK_DIRS: [usize; 4] = [0, 2, 4, 6];
const BISHOP_DIRS: [usize; 4] = [1, 3, 5, 7];

const fn ray_table() -> [[u128; 82]; 8] {
    // Index 81 is an always-empty ray, so a scan may look up "past the blocker" freely.
    let mut t = [[0u128; 82]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            let (df, dr) = DIRS[d];
            let mut file = (sq / 9 + 1) as i32 + df;
            let mut rank = (sq % 9 + 1) as i32 + dr;
            let mut bits = 0u128;
            while bit(file, rank) != 0 {
                bits |= bit(file, rank);
                file += df;
                rank += dr;
            }
            t[d][sq] = bits;
            sq += 1;
        }
        d += 1;
    }
    t
}

static RAYS: [[u128; 82]; 8] = ray_table();

#[inline(always)]
fn ray_attack(dir: usize, sq: usize, occupied: u128) -> u128 {
    let ray = RAYS[dir][sq];
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    let blocker = if dir < 4 {
        blockers.trailing_zeros()
    } else {
        127 - blockers.leading_zeros()
    };
    ray ^ RAYS[dir][blocker as usize]
}

const fn line_tables() -> ([[u128; 81]; 81], [[u128; 81]; 81]) {
    let mut between = [[0u128; 81]; 81];
    let mut line = [[0u128; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let ray = RAYS[d][a];
            let opposite = RAYS[(d + 4) % 8][a];
            let mut b = 0;
            while b < 81 {
                if ray >> b & 1 != 0 {
                    // Squares strictly between a and b: a's ray minus b's ray minus b.
                    between[a][b] = ray & !RAYS[d][b] & !(1u128 << b);
                    line[a][b] = ray | opposite | (1u128 << a);
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[u128; 81]; 81], [[u128; 81]; 81]) = line_tables();

const fn pseudo_table(dirs: [usize; 4]) -> [u128; 81] {
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut i = 0;
        while i < 4 {
            t[sq] |= RAYS[dirs[i]][sq];
            i += 1;
        }
        sq += 1;
    }
    t
}

static ROOK_PSEUDO: [u128; 81] = pseudo_table(ROOK_DIRS);
static BISHOP_PSEUDO: [u128; 81] = pseudo_table(BISHOP_DIRS);

const fn rank_masks() -> [u128; 10] {
    let mut t = [0u128; 10];
    let mut rank = 1;
    while rank <= 9 {
        let mut file = 1;
        while file <= 9 {
            t[rank as usize] |= bit(file, rank);
            file += 1;
        }
        rank += 1;
    }
    t
}

static RANKS: [u128; 10] = rank_masks();

/// The square a pawn of `color` on `sq` attacks: one step forward.
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// The squares a knight of `color` on `sq` attacks: two forward and one to either side,
/// jumping over anything between.
#[inline]
pub fn knight(color: Color, sq: Square) -> Bitboard {
    Bitboard(KNIGHT[color.index()][sq.index()])
}

/// The squares a silver of `color` on `sq` attacks: the three forward and the two
/// backward diagonals.
#[inline]
pub fn silver(color: Color, sq: Square) -> Bitboard {
    Bitboard(SILVER[color.index()][sq.index()])
}

/// Gold, and every promoted minor piece.
#[inline]
pub fn gold(color: Color, sq: Square) -> Bitboard {
    Bitboard(GOLD[color.index()][sq.index()])
}

/// The eight squares around `sq`: the king's steps, which the horse and the dragon add to
/// their slides.
#[inline]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[0][sq.index()])
}

/// The squares a lance of `color` on `sq` attacks: straight forward up to and including
/// the first occupied square.
#[inline]
pub fn lance(color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    let dir = match color {
        Color::Black => NORTH,
        Color::White => SOUTH,
    };
    Bitboard(ray_attack(dir, sq.index(), occupied.0))
}

/// A lance's reach on an empty board.
#[inline]
pub fn lance_pseudo(color: Color, sq: Square) -> Bitboard {
    let dir = match color {
        Color::Black => NORTH,
        Color::White => SOUTH,
    };
    Bitboard(RAYS[dir][sq.index()])
}

/// The squares a bishop on `sq` attacks along the four diagonals, each up to and including
/// the first occupied square (a horse adds [`king`]).
#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    let s = sq.index();
    let o = occupied.0;
    Bitboard(ray_attack(1, s, o) | ray_attack(3, s, o) | ray_attack(5, s, o) | ray_attack(7, s, o))
}

/// The squares a rook on `sq` attacks along its file and rank, each up to and including
/// the first occupied square (a dragon adds [`king`]).
#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    let s = sq.index();
    let o = occupied.0;
    Bitboard(ray_attack(0, s, o) | ray_attack(2, s, o) | ray_attack(4, s, o) | ray_attack(6, s, o))
}

/// A bishop's reach on an empty board.
#[inline]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    Bitboard(BISHOP_PSEUDO[sq.index()])
}

/// A rook's reach on an empty board.
#[inline]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    Bitboard(ROOK_PSEUDO[sq.index()])
}

/// Squares strictly between two squares on one line; empty if not aligned.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// The whole line (edge to edge) through two aligned squares; empty if not aligned.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}

/// All squares of one rank (1–9).
#[inline]
pub fn rank(rank: u8) -> Bitboard {
    Bitboard(RANKS[rank as usize])
}

const fn far_rank_table() -> [[u128; 10]; 2] {
    let ranks = rank_masks();
    let mut t = [[0u128; 10]; 2];
    let mut count = 1;
    while count <= 9 {
        t[0][count] = t[0][count - 1] | ranks[count];
        t[1][count] = t[1][count - 1] | ranks[10 - count];
        count += 1;
    }
    t
}

static FAR_RANKS: [[u128; 10]; 2] = far_rank_table();

/// `color`'s farthest `count` ranks (0–9): `far_ranks(c, 3)` is its promotion zone.
#[inline]
pub fn far_ranks(color: Color, count: u8) -> Bitboard {
    Bitboard(FAR_RANKS[color.index()][count as usize])
}

/// All squares of one file (1–9).
#[inline]
pub fn file(file: u8) -> Bitboard {
    Bitboard(0x1FFu128 << ((file as u32 - 1) * 9))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn rook_stops_at_blockers() {
        let occ = Bitboard::from_square(sq("5c")) | Bitboard::from_square(sq("2e"));
        let a = rook(sq("5e"), occ);
        assert!(a.contains(sq("5c")) && !a.contains(sq("5b")));
        assert!(a.contains(sq("2e")) && !a.contains(sq("1e")));
        assert!(a.contains(sq("9e")) && a.contains(sq("5i")));
        assert_eq!(a.count(), 2 + 3 + 4 + 4);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("1a"), sq("4d")).count(), 2);
        assert_eq!(between(sq("1a"), sq("2c")).count(), 0);
        assert_eq!(line(sq("1a"), sq("4d")).count(), 9);
        assert!(line(sq("5e"), sq("5a")).contains(sq("5i")));
    }

    #[test]
    fn white_steps_mirror_black() {
        for s in Square::all() {
            assert_eq!(
                gold(Color::White, s).count(),
                gold(Color::Black, s.flip()).count()
            );
            assert_eq!(
                knight(Color::White, s).count(),
                knight(Color::Black, s.flip()).count()
            );
        }
        assert!(pawn(Color::Black, sq("7g")).contains(sq("7f")));
        assert!(pawn(Color::White, sq("3c")).contains(sq("3d")));
    }
}
