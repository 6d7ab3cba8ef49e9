//! Why a move is illegal: the answer `legality` gives and `Position::play` passes on, kept
//! apart from both so that the position does not depend on the checking code for its error.

use crate::{Color, PieceKind, Square};

/// Why a move cannot be played, in the words a diagnostic should use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("there is no piece on {square}")]
    NoPiece { square: Square },
    #[error("the piece on {square} belongs to {owner}, but it is {mover}'s turn")]
    NotOwnPiece {
        square: Square,
        owner: Color,
        mover: Color,
    },
    #[error("{kind} on {from} cannot move to {to}")]
    CannotReach {
        kind: PieceKind,
        from: Square,
        to: Square,
    },
    #[error("{to} is occupied by {color}'s own piece")]
    OwnPieceOnTarget { to: Square, color: Color },
    #[error("{kind} cannot promote")]
    CannotPromote { kind: PieceKind },
    #[error("neither {from} nor {to} is in the promotion zone, so {kind} cannot promote")]
    OutsidePromotionZone {
        kind: PieceKind,
        from: Square,
        to: Square,
    },
    #[error("{kind} must promote on {to}: it could never move again")]
    MustPromote { kind: PieceKind, to: Square },
    #[error("{color} has no {kind} in hand")]
    NotInHand { kind: PieceKind, color: Color },
    #[error("cannot drop on {to}: the square is occupied")]
    DropOnOccupied { to: Square },
    #[error("{kind} dropped on {to} could never move")]
    DeadDrop { kind: PieceKind, to: Square },
    #[error("二歩 — a pawn of {color} already stands on file {file}")]
    DoublePawn { color: Color, file: u8 },
    #[error("打ち歩詰め — the pawn dropped on {to} checkmates")]
    PawnDropMate { to: Square },
    #[error("{color}'s king would be left in check")]
    LeavesKingInCheck { color: Color },
    #[error("{color}'s king would move into check on {to}")]
    KingIntoCheck { color: Color, to: Square },
}
