//! Legal move generation.
//!
//! Moves are generated legal from the start rather than filtered afterwards:
//! pins restrict a piece to the line through its king, a single check restricts
//! every non-king move to capturing the checker or interposing, and king moves
//! are tested with the king lifted off the board so that it cannot hide behind
//! itself from a slider. The only rule that needs a look one ply ahead is
//! 打ち歩詰め, and only for the one pawn drop that gives check.

use std::ops::Deref;

use crate::attacks;
use crate::{Bitboard, Color, Move, Piece, PieceKind, Position, Square};

/// Enough for any position: the most legal moves known is 593.
pub const MAX_MOVES: usize = 600;

/// Room past `MAX_MOVES` so that a row of drops can be stored with one block write.
const SLACK: usize = 8;

/// A fixed-capacity list of moves, so generating moves never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES + SLACK],
    len: usize,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES + SLACK],
            len: 0,
        }
    }

    /// Empties the list, keeping its storage.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    fn push(&mut self, mv: Move) {
        // Never full for a real position; a full list drops moves rather than panicking.
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    /// Drops of the first `count` kinds in `row` (`count` ≤ 7) to one square, in one block write.
    #[inline(always)]
    fn push_drops(&mut self, row: &[u16; SLACK], count: usize, to: Square) {
        let len = self.len;
        if len < MAX_MOVES {
            let dst = &mut self.moves[len..len + SLACK];
            let to = to.index() as u16;
            for (d, &base) in dst.iter_mut().zip(row) {
                *d = Move::from_bits(base | to);
            }
            self.len = (len + count).min(MAX_MOVES);
        }
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Position {
    /// All legal moves.
    ///
    /// ```
    /// use kifu_shogi::{IllegalMove, Move, Position};
    ///
    /// // White's king on 5a is walled in by its own lances and pawns, and Black's gold on 5c
    /// // guards 5b: a pawn dropped there would mate, which 打ち歩詰め forbids.
    /// let pos = Position::from_sfen("3lkl3/3p1p3/4G4/9/9/9/9/9/4K4 b P 1").unwrap();
    /// let mate: Move = "P*5b".parse().unwrap();
    /// let moves = pos.legal_moves();
    /// assert!(!moves.contains(&mate));
    /// assert!(moves.contains(&"P*5d".parse().unwrap()));
    /// assert!(matches!(pos.check_move(mate), Err(IllegalMove::PawnDropMate { .. })));
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal_moves(&mut list);
        list
    }

    /// All legal moves, appended to `list` (which is cleared first).
    pub fn generate_legal_moves(&self, list: &mut MoveList) {
        list.clear();
        let us = self.turn();
        let own = self.color_pieces(us);
        let occupied = self.occupied();
        let Some(king) = self.king_square(us) else {
            // A side without a king (the attacker of a tsume problem) has no king to keep safe.
            self.generate_piece_moves(list, !own, Bitboard::EMPTY, None);
            self.generate_drops(list, !occupied);
            return;
        };
        let checkers = self.checkers();
        if !checkers.has_several() {
            let (target, drop_target) = match checkers.first() {
                Some(checker) => {
                    let between = attacks::between(king, checker);
                    (between | checkers, between)
                }
                None => (!own, !occupied),
            };
            let pinned = self.pinned(us, king, occupied);
            self.generate_piece_moves(list, target, pinned, Some(king));
            self.generate_drops(list, drop_target);
        }
        self.generate_king_moves(list, king, own, occupied);
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_moves(&self) -> bool {
        let mut list = MoveList::new();
        self.generate_legal_moves(&mut list);
        !list.is_empty()
    }

    /// In check with no legal move: the side to move is mated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    #[inline(always)]
    fn generate_piece_moves(
        &self,
        list: &mut MoveList,
        target: Bitboard,
        pinned: Bitboard,
        king: Option<Square>,
    ) {
        use PieceKind::*;
        let us = self.turn();
        let occ = self.occupied();
        let zone = attacks::far_ranks(us, 3);
        let last = attacks::far_ranks(us, 1);
        let last_two = attacks::far_ranks(us, 2);
        let none = Bitboard::EMPTY;
        // One loop per kind, so each uses its own attack function without a match per piece.
        let mut moves =
            |from_set: Bitboard, dead: Bitboard, attack: &dyn Fn(Square) -> Bitboard| {
                push_moves(
                    list,
                    from_set,
                    target,
                    pinned,
                    king,
                    Some((zone, dead)),
                    attack,
                )
            };
        moves(self.pieces(us, Pawn), last, &|s| attacks::pawn(us, s));
        moves(self.pieces(us, Lance), last, &|s| {
            attacks::lance(us, s, occ)
        });
        moves(self.pieces(us, Knight), last_two, &|s| {
            attacks::knight(us, s)
        });
        moves(self.pieces(us, Silver), none, &|s| attacks::silver(us, s));
        moves(self.pieces(us, Bishop), none, &|s| attacks::bishop(s, occ));
        moves(self.pieces(us, Rook), none, &|s| attacks::rook(s, occ));
        let own = self.color_pieces(us);
        push_moves(
            list,
            self.gold_movers() & own,
            target,
            pinned,
            king,
            None,
            &|s| attacks::gold(us, s),
        );
        push_moves(
            list,
            self.pieces(us, Horse),
            target,
            pinned,
            king,
            None,
            &|s| attacks::bishop(s, occ) | attacks::king(s),
        );
        push_moves(
            list,
            self.pieces(us, Dragon),
            target,
            pinned,
            king,
            None,
            &|s| attacks::rook(s, occ) | attacks::king(s),
        );
    }

    #[inline(always)]
    fn generate_king_moves(
        &self,
        list: &mut MoveList,
        king: Square,
        own: Bitboard,
        occupied: Bitboard,
    ) {
        let them = self.turn().flip();
        let lifted = occupied ^ Bitboard::from_square(king);
        for to in attacks::king(king) & !own {
            if !self.is_attacked(to, them, lifted) {
                list.push(Move::normal(king, to, false));
            }
        }
    }

    #[inline(always)]
    fn generate_drops(&self, list: &mut MoveList, target: Bitboard) {
        let us = self.turn();
        let hand = self.hand(us);
        let held = hand.kinds_mask();
        if held == 0 || target.is_empty() {
            return;
        }
        if held & 1 != 0 {
            let pawn_target = target & !attacks::far_ranks(us, 1) & !self.pawn_files(us);
            let mate_square = self
                .king_square(us.flip())
                .and_then(|k| attacks::pawn(us.flip(), k).first());
            for to in pawn_target {
                if Some(to) == mate_square && self.is_pawn_drop_mate(to) {
                    continue;
                }
                list.push(Move::drop(PieceKind::Pawn, to));
            }
        }
        // Kinds other than the pawn, as rows of encoded drops, split by where they may go.
        let mut anywhere = ([0u16; SLACK], 0);
        let mut not_last_two = ([0u16; SLACK], 0);
        let mut not_last_rank = ([0u16; SLACK], 0);
        for kind in [
            PieceKind::Lance,
            PieceKind::Knight,
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
        ] {
            if held & (1 << kind.index()) == 0 {
                continue;
            }
            let bits = Move::drop(kind, Square::from_index_unchecked(0)).bits();
            let add = |row: &mut ([u16; SLACK], usize)| {
                row.0[row.1] = bits;
                row.1 += 1;
            };
            add(&mut anywhere);
            if kind != PieceKind::Knight {
                add(&mut not_last_two);
                if kind != PieceKind::Lance {
                    add(&mut not_last_rank);
                }
            }
        }
        if anywhere.1 == 0 {
            return;
        }
        let last = attacks::far_ranks(us, 1);
        let last_two = attacks::far_ranks(us, 2);
        for to in target & !last_two {
            list.push_drops(&anywhere.0, anywhere.1, to);
        }
        if not_last_two.1 > 0 {
            for to in target & last_two & !last {
                list.push_drops(&not_last_two.0, not_last_two.1, to);
            }
        }
        if not_last_rank.1 > 0 {
            for to in target & last {
                list.push_drops(&not_last_rank.0, not_last_rank.1, to);
            }
        }
    }

    /// Files holding an unpromoted pawn of `color`, as a bitboard of whole files.
    #[inline]
    pub(crate) fn pawn_files(&self, color: Color) -> Bitboard {
        let pawns = self.pieces(color, PieceKind::Pawn).0;
        let mut files = 0u128;
        for f in 0..9 {
            let column = 0x1FFu128 << (f * 9);
            if pawns & column != 0 {
                files |= column;
            }
        }
        Bitboard(files)
    }

    /// Would dropping a pawn of the side to move on `to` (which checks the enemy king) mate?
    pub(crate) fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.turn();
        let them = us.flip();
        let Some(king) = self.king_square(them) else {
            return false;
        };
        let occupied = self.occupied() | Bitboard::from_square(to);
        // Can a piece other than the king take the pawn?
        let takers = self.attackers_to(to, them, occupied) & !Bitboard::from_square(king);
        if takers.is_nonempty() {
            let pinned = self.pinned(them, king, occupied);
            for t in takers {
                if !pinned.contains(t) || attacks::line(king, t).contains(to) {
                    return false;
                }
            }
        }
        // Can the king step to safety (taking the pawn included)?
        let lifted = occupied ^ Bitboard::from_square(king);
        for escape in attacks::king(king) & !self.color_pieces(them) {
            if !self.is_attacked(escape, us, lifted) {
                return false;
            }
        }
        true
    }

    /// Whether the piece on `from` could legally move to `to` as far as its
    /// movement goes (ignoring king safety and promotion).
    pub(crate) fn reaches(&self, piece: Piece, from: Square, to: Square) -> bool {
        attacks::attacks_square(piece.kind, piece.color, from, to, self.occupied())
    }
}

/// Pushes the moves of every piece in `from_set`. `promotion` is `(zone, dead)` for
/// kinds that promote: promotion is offered when the move starts or ends in the
/// zone, and declining it is not allowed on `dead` squares.
#[inline(always)]
fn push_moves(
    list: &mut MoveList,
    from_set: Bitboard,
    target: Bitboard,
    pinned: Bitboard,
    king: Option<Square>,
    promotion: Option<(Bitboard, Bitboard)>,
    attack: &dyn Fn(Square) -> Bitboard,
) {
    for from in from_set {
        let mut dests = attack(from) & target;
        if let Some(king) = king
            && pinned.is_nonempty()
            && pinned.contains(from)
        {
            dests &= attacks::line(king, from);
        }
        match promotion {
            None => {
                for to in dests {
                    list.push(Move::normal(from, to, false));
                }
            }
            Some((zone, dead)) => {
                let promoting = if zone.contains(from) {
                    dests
                } else {
                    dests & zone
                };
                for to in promoting {
                    list.push(Move::normal(from, to, true));
                }
                for to in dests & !dead {
                    list.push(Move::normal(from, to, false));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{IllegalMove, Position, usi::parse_move};

    fn legal(sfen: &str, mv: &str) -> Result<(), IllegalMove> {
        let pos = Position::from_sfen(sfen).unwrap();
        let m = parse_move(mv).unwrap();
        let listed = pos.legal_moves().contains(&m);
        let checked = pos.check_move(m);
        assert_eq!(listed, checked.is_ok(), "{sfen} {mv}");
        checked
    }

    #[test]
    fn pawn_drop_mate_is_illegal() {
        // King 1a; gold 1c guards 1b; lance on file 2 covers 2a and 2b.
        let mate = "8k/9/8G/9/9/9/9/9/4K2L1 b P 1";
        assert!(matches!(
            legal(mate, "P*1b"),
            Err(IllegalMove::PawnDropMate { .. })
        ));
        // Without the lance the king escapes to 2a: the drop is a plain check.
        assert_eq!(legal("8k/9/8G/9/9/9/9/9/4K4 b P 1", "P*1b"), Ok(()));
        // A defender that can take the pawn makes it legal …
        assert_eq!(legal("7sk/9/8G/9/9/9/9/9/4K2L1 b P 1", "P*1b"), Ok(()));
        // A pawn drop that does not check is never 打ち歩詰め.
        assert_eq!(legal(mate, "P*3c"), Ok(()));
    }

    #[test]
    fn pinned_defender_cannot_take_the_dropped_pawn() {
        // White silver 2a would take 1b, but Black's rook on 9a pins it to the king on 1a.
        let sfen = "R6sk/9/8G/9/9/9/9/9/4K2L1 b P 1";
        let pos = Position::from_sfen(sfen).unwrap();
        // 2a holds the silver; 2b is covered by the gold and the lance.
        assert!(matches!(
            pos.check_move(parse_move("P*1b").unwrap()),
            Err(IllegalMove::PawnDropMate { .. })
        ));
    }

    #[test]
    fn nifu_and_dead_drops() {
        let sfen = "4k4/9/9/9/9/9/4P4/9/4K4 b PLN 1";
        assert!(matches!(
            legal(sfen, "P*5c"),
            Err(IllegalMove::DoublePawn { file: 5, .. })
        ));
        assert!(matches!(
            legal(sfen, "P*4a"),
            Err(IllegalMove::DeadDrop { .. })
        ));
        assert!(matches!(
            legal(sfen, "L*4a"),
            Err(IllegalMove::DeadDrop { .. })
        ));
        assert!(matches!(
            legal(sfen, "N*4b"),
            Err(IllegalMove::DeadDrop { .. })
        ));
        assert_eq!(legal(sfen, "N*4c"), Ok(()));
        assert_eq!(legal(sfen, "L*4b"), Ok(()));
    }

    #[test]
    fn forced_and_optional_promotion() {
        let sfen = "4k4/9/9/P8/9/9/9/9/4K4 b - 1";
        assert_eq!(legal(sfen, "9d9c+"), Ok(()));
        assert_eq!(legal(sfen, "9d9c"), Ok(()));
        let sfen = "4k4/P8/9/9/9/9/9/9/4K4 b - 1";
        assert!(matches!(
            legal(sfen, "9b9a"),
            Err(IllegalMove::MustPromote { .. })
        ));
        assert_eq!(legal(sfen, "9b9a+"), Ok(()));
        assert!(matches!(
            legal("4k4/9/9/9/9/9/9/P8/4K4 b - 1", "9h9g+"),
            Err(IllegalMove::OutsidePromotionZone { .. })
        ));
        // Moving out of the zone may promote.
        assert_eq!(legal("4k4/9/S8/9/9/9/9/9/4K4 b - 1", "9c8d+"), Ok(()));
    }

    #[test]
    fn checks_pins_and_double_check() {
        // The rook on 5a checks the king on 5i; the gold on 4h can interpose on 5h.
        let sfen = "4r4/9/9/9/9/9/9/5G3/4K4 b - 1";
        assert_eq!(legal(sfen, "4h5h"), Ok(()));
        assert!(matches!(
            legal(sfen, "4h4g"),
            Err(IllegalMove::LeavesKingInCheck { .. })
        ));
        assert!(matches!(
            legal(sfen, "5i5h"),
            Err(IllegalMove::KingIntoCheck { .. })
        ));
        // Pinned gold on 5h may only move along the file.
        let sfen = "4r4/9/9/9/9/9/9/4G4/4K4 b - 1";
        assert!(matches!(
            legal(sfen, "5h4h"),
            Err(IllegalMove::LeavesKingInCheck { .. })
        ));
        assert_eq!(legal(sfen, "5h5g"), Ok(()));
        // Double check by rook and bishop: only the king may move.
        let pos = Position::from_sfen("4r4/9/9/9/b8/9/9/5G3/4K4 b G 1").unwrap();
        assert_eq!(pos.checkers().count(), 2);
        assert!(
            pos.legal_moves()
                .iter()
                .all(|m| m.from() == pos.king_square(pos.turn()))
        );
    }

    #[test]
    fn checkmate_and_no_legal_moves() {
        let mated = Position::from_sfen("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1").unwrap();
        assert!(mated.is_checkmate());
        assert!(Position::startpos().has_legal_moves());
    }
}
