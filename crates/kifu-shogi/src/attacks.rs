//! Attack tables, computed at compile time, and slider attacks by ray scanning.
//!
//! A slider's attack along one direction is the direction's ray from the square,
//! cut after the first occupied square. Bits are ordered file-major, so along a
//! direction the index either always grows or always shrinks: the first blocker
//! is the lowest or the highest set bit, found with one `trailing_zeros` or
//! `leading_zeros` on a `u128`.
//!
//! Whether one given piece attacks one given square (a move's reach, the check a move gives,
//! a pin) needs no attack set: a 6.5 KB table says where the two squares lie from each other
//! (on a line, one step or more apart; a knight's jump; neither) and a small one which kinds
//! of each colour attack from there; only a slider two or more squares away adds a ray scan.
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

use crate::{Bitboard, Color, PieceKind, Square};

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

/// Where one square lies from another, as `RELATION` records it: on a ray in direction `d`
/// (an index of `DIRS`) two or more steps away is `d`, one step away is `ADJACENT + d`; a
/// knight's jump away is `KNIGHT_UP` (toward rank 1) or `KNIGHT_DOWN` (toward rank 9);
/// anything else, the square itself included, is `UNRELATED`.
const ADJACENT: u8 = 8;
/// Two ranks toward rank 1 and one file aside: where a White knight attacks from.
const KNIGHT_UP: u8 = 16;
/// Two ranks toward rank 9 and one file aside: where a Black knight attacks from.
const KNIGHT_DOWN: u8 = 17;
const UNRELATED: u8 = 18;
/// Rows of `KIND_MASK` are indexed by a relation read as a byte: 256 entries (1 KB for both
/// colours) let the compiler drop the bounds check, and the entries past `UNRELATED` are 0.
const RELATIONS: usize = 256;

const fn relation_table() -> [[u8; 81]; 81] {
    let mut t = [[UNRELATED; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let file = (a / 9 + 1) as i32;
        let rank = (a % 9 + 1) as i32;
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRS[d];
            let mut steps = 1;
            while bit(file + steps * df, rank + steps * dr) != 0 {
                let b = ((file + steps * df - 1) * 9 + (rank + steps * dr - 1)) as usize;
                t[a][b] = if steps == 1 {
                    ADJACENT + d as u8
                } else {
                    d as u8
                };
                steps += 1;
            }
            d += 1;
        }
        let mut side = -1;
        while side <= 1 {
            if bit(file + side, rank - 2) != 0 {
                t[a][((file + side - 1) * 9 + (rank - 3)) as usize] = KNIGHT_UP;
            }
            if bit(file + side, rank + 2) != 0 {
                t[a][((file + side - 1) * 9 + (rank + 1)) as usize] = KNIGHT_DOWN;
            }
            side += 2;
        }
        a += 1;
    }
    t
}

/// `RELATION[a][b]`: where `b` lies seen from `a` (6.5 KB, where the 81 × 81 bitboards of
/// `line` take 105 KB and miss the cache).
static RELATION: [[u8; 81]; 81] = relation_table();

/// The index of the `DIRS` entry `(df, dr)`, or 8 if it is none.
const fn dir_index(df: i32, dr: i32) -> usize {
    let mut d = 0;
    while d < 8 {
        if DIRS[d].0 == df && DIRS[d].1 == dr {
            return d;
        }
        d += 1;
    }
    8
}

/// For each colour and relation, the piece kinds (bit = `PieceKind::index`) of that colour
/// that attack a square from a square in that relation to it: the step pieces from one step
/// away, the sliders from any distance along their lines (with nothing between, which
/// [`attacks_square`] checks), the knight from its jump.
const fn kind_mask_table() -> [[u16; RELATIONS]; 2] {
    const PAWN: usize = PieceKind::Pawn as usize;
    const LANCE: usize = PieceKind::Lance as usize;
    const KNIGHT: usize = PieceKind::Knight as usize;
    const SILVER: usize = PieceKind::Silver as usize;
    const GOLD: usize = PieceKind::Gold as usize;
    const BISHOP: usize = PieceKind::Bishop as usize;
    const ROOK: usize = PieceKind::Rook as usize;
    const KING: usize = PieceKind::King as usize;
    const PRO_PAWN: usize = PieceKind::ProPawn as usize;
    const PRO_LANCE: usize = PieceKind::ProLance as usize;
    const PRO_KNIGHT: usize = PieceKind::ProKnight as usize;
    const PRO_SILVER: usize = PieceKind::ProSilver as usize;
    const HORSE: usize = PieceKind::Horse as usize;
    const DRAGON: usize = PieceKind::Dragon as usize;
    let mut t = [[0u16; RELATIONS]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 15 {
            let steps: &[(i32, i32)] = match k {
                PAWN => PAWN_STEPS,
                SILVER => SILVER_STEPS,
                GOLD | PRO_PAWN | PRO_LANCE | PRO_KNIGHT | PRO_SILVER => GOLD_STEPS,
                KING | HORSE | DRAGON => KING_STEPS,
                _ => &[],
            };
            let mut i = 0;
            while i < steps.len() {
                let (df, dr) = steps[i];
                let dr = if c == 0 { dr } else { -dr };
                // The piece steps by (df, dr) onto the target, so it stands at −(df, dr).
                let d = dir_index(-df, -dr);
                t[c][ADJACENT as usize + d] |= 1 << k;
                i += 1;
            }
            // Slide directions, as a bit set of `DIRS` indices.
            let slides: u32 = match k {
                LANCE if c == 0 => 1 << NORTH,
                LANCE => 1 << SOUTH,
                BISHOP | HORSE => 1 << 1 | 1 << 3 | 1 << 5 | 1 << 7,
                ROOK | DRAGON => 1 << 0 | 1 << 2 | 1 << 4 | 1 << 6,
                _ => 0,
            };
            let mut s = 0;
            while s < 8 {
                if slides >> s & 1 != 0 {
                    // Sliding in direction s onto the target, it stands in the opposite one.
                    let d = (s + 4) % 8;
                    t[c][d] |= 1 << k;
                    t[c][ADJACENT as usize + d] |= 1 << k;
                }
                s += 1;
            }
            k += 1;
        }
        t[c][if c == 0 { KNIGHT_DOWN } else { KNIGHT_UP } as usize] |= 1 << KNIGHT;
        c += 1;
    }
    t
}

static KIND_MASK: [[u16; RELATIONS]; 2] = kind_mask_table();

/// Whether a piece of `kind` and `color` on `from` attacks `target` when the board's
/// occupancy is `occupied` (`from` counts as occupied): one look-up in a 6.5 KB table of
/// relations and one in a table of the kinds that attack from each, and for a slider two
/// or more squares away one ray scan. `position::attacks_of(..).contains(target)` gives the
/// same answer at the cost of the piece's whole attack set.
#[inline]
pub(crate) fn attacks_square(
    kind: PieceKind,
    color: Color,
    from: Square,
    target: Square,
    occupied: Bitboard,
) -> bool {
    let rel = RELATION[target.index()][from.index()];
    if KIND_MASK[color.index()][rel as usize] >> kind.index() & 1 == 0 {
        return false;
    }
    // Only a slider attacks from two or more squares away along a ray (the relations below
    // ADJACENT): the first occupied square from the target toward it must be the slider.
    rel >= ADJACENT
        || first_occupied(target, rel as usize, occupied | Bitboard::from_square(from))
            == Some(from)
}

/// The direction (an index into the ray tables, 0–7) in which `to` lies from `from` when the
/// two are on one rank, file or diagonal; `None` otherwise.
#[inline(always)]
pub(crate) fn direction(from: Square, to: Square) -> Option<usize> {
    let rel = RELATION[from.index()][to.index()];
    if rel < KNIGHT_UP {
        Some(usize::from(rel % ADJACENT))
    } else {
        None
    }
}

/// Whether a piece of `kind` and `color` on `from` would attack `target` if nothing stood
/// between them: [`attacks_square`] without the ray scan, for a caller that found `from` as
/// the first occupied square from `target`.
#[inline]
pub(crate) fn attacks_if_clear(
    kind: PieceKind,
    color: Color,
    from: Square,
    target: Square,
) -> bool {
    let rel = RELATION[target.index()][from.index()];
    KIND_MASK[color.index()][rel as usize] >> kind.index() & 1 != 0
}

/// The squares from `sq` outward in direction `dir` (see [`direction`]), `sq` excluded.
#[inline]
pub(crate) fn ray(sq: Square, dir: usize) -> Bitboard {
    Bitboard(RAYS[dir][sq.index()])
}

/// The square of `squares` (all on one ray in direction `dir`) nearest the ray's start.
#[inline]
pub(crate) fn nearest(dir: usize, squares: Bitboard) -> Option<Square> {
    let bits = squares.0;
    if bits == 0 {
        None
    } else if dir < 4 {
        Some(Square::from_index_unchecked(bits.trailing_zeros()))
    } else {
        Some(Square::from_index_unchecked(127 - bits.leading_zeros()))
    }
}

/// The first occupied square from `sq` in direction `dir` (see [`direction`]), if any.
#[inline]
pub(crate) fn first_occupied(sq: Square, dir: usize, occupied: Bitboard) -> Option<Square> {
    nearest(dir, ray(sq, dir) & occupied)
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

    /// The relation tables answer exactly what the attack sets say, for every kind, colour,
    /// pair of squares and a spread of occupancies.
    #[test]
    fn attacks_square_agrees_with_attack_sets() {
        use crate::PieceKind;
        use crate::position::attacks_of;
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut occupancies = vec![0u128, Bitboard::FULL.0];
        for _ in 0..12 {
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let dense = u128::from(next()) << 64 | u128::from(next());
            let sparse = dense & (u128::from(next()) << 64 | u128::from(next()));
            occupancies.push(dense & Bitboard::FULL.0);
            occupancies.push(sparse & Bitboard::FULL.0);
        }
        for kind in PieceKind::ALL {
            for color in [Color::Black, Color::White] {
                for from in Square::all() {
                    for target in Square::all() {
                        for &occ in &occupancies {
                            let occupied = Bitboard(occ) | Bitboard::from_square(from);
                            assert_eq!(
                                attacks_square(kind, color, from, target, occupied),
                                attacks_of(kind, color, from, occupied).contains(target),
                                "{color:?} {kind:?} {from} → {target}"
                            );
                        }
                    }
                }
            }
        }
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
