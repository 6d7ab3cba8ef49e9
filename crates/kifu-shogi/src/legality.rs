//! Checking one move with the reason it is illegal, without generating every move.

use crate::attacks;
use crate::position::must_promote;
use crate::{Bitboard, IllegalMove, Move, PieceKind, Position, Square};

impl Position {
    /// `Ok` exactly when `mv` is among [`Position::legal_moves`]; otherwise the rule it breaks.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        let us = self.turn();
        let them = us.flip();
        let to = mv.to();
        let king = self.king_square(us);
        let checkers = self.checkers();
        if let Some(kind) = mv.drop_kind() {
            if self.hand(us).count(kind) == 0 {
                return Err(IllegalMove::NotInHand { kind, color: us });
            }
            if self.piece_at(to).is_some() {
                return Err(IllegalMove::DropOnOccupied { to });
            }
            if must_promote(kind, us, to) {
                return Err(IllegalMove::DeadDrop { kind, to });
            }
            if kind == PieceKind::Pawn
                && (self.pieces(us, PieceKind::Pawn) & attacks::file(to.file())).is_nonempty()
            {
                return Err(IllegalMove::DoublePawn {
                    color: us,
                    file: to.file(),
                });
            }
            if let Some(king) = king
                && !answers_check(king, checkers, to)
            {
                return Err(IllegalMove::LeavesKingInCheck { color: us });
            }
            if kind == PieceKind::Pawn
                && self
                    .king_square(them)
                    .is_some_and(|k| attacks::pawn(us, to).contains(k))
                && self.is_pawn_drop_mate(to)
            {
                return Err(IllegalMove::PawnDropMate { to });
            }
            return Ok(());
        }
        let Some(from) = mv.from() else {
            return Err(IllegalMove::NoPiece { square: to });
        };
        let Some(piece) = self.piece_at(from) else {
            return Err(IllegalMove::NoPiece { square: from });
        };
        if piece.color != us {
            return Err(IllegalMove::NotOwnPiece {
                square: from,
                owner: piece.color,
                mover: us,
            });
        }
        if self.piece_at(to).is_some_and(|p| p.color == us) {
            return Err(IllegalMove::OwnPieceOnTarget { to, color: us });
        }
        if !self.reaches(piece, from, to) {
            return Err(IllegalMove::CannotReach {
                kind: piece.kind,
                from,
                to,
            });
        }
        if mv.is_promotion() {
            if !piece.kind.is_promotable() {
                return Err(IllegalMove::CannotPromote { kind: piece.kind });
            }
            if !from.in_promotion_zone(us) && !to.in_promotion_zone(us) {
                return Err(IllegalMove::OutsidePromotionZone {
                    kind: piece.kind,
                    from,
                    to,
                });
            }
        } else if must_promote(piece.kind, us, to) {
            return Err(IllegalMove::MustPromote {
                kind: piece.kind,
                to,
            });
        }
        if piece.kind == PieceKind::King {
            let lifted = self.occupied() ^ Bitboard::from_square(from);
            if self.is_attacked(to, them, lifted) {
                return Err(IllegalMove::KingIntoCheck { color: us, to });
            }
        } else if let Some(king) = king {
            if !answers_check(king, checkers, to) {
                return Err(IllegalMove::LeavesKingInCheck { color: us });
            }
            // Only a piece on a line from its king can be pinned, and a move along that line
            // keeps the king covered: the pin is looked for only when neither holds.
            if let Some(dir) = attacks::direction(king, from)
                && attacks::direction(king, to).is_none_or(|d| d % 4 != dir % 4)
                && self.is_pinned_along(us, king, dir, from)
            {
                return Err(IllegalMove::LeavesKingInCheck { color: us });
            }
        }
        Ok(())
    }

    /// Whether `mv` is legal here.
    #[inline]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }
}

/// A non-king move to `to` keeps the king safe from the current checkers.
#[inline(always)]
fn answers_check(king: Square, checkers: Bitboard, to: Square) -> bool {
    if checkers.is_empty() {
        return true;
    }
    match checkers.first() {
        None => true,
        Some(_) if checkers.has_several() => false,
        Some(c) => (attacks::between(king, c) | checkers).contains(to),
    }
}
