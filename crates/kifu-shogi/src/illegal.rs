//! Why a move is illegal: the answer `legality` gives and `Position::play` passes on, kept
//! apart from both so that the position does not depend on the checking code for its error.

use crate::{Color, PieceKind, Square};

/// Why a move cannot be played, in the words a diagnostic should use.
///
/// Each variant is one rule of the game as the Japan Shogi Association (日本将棋連盟) states
/// the rules and the fouls (反則): the pieces' moves, promotion, drops, 二歩, 打ち歩詰め and
/// leaving one's king in check. [`Position::check_move`](crate::Position::check_move)
/// returns the first rule a move breaks, [`Position::play`](crate::Position::play) passes it on,
/// and its [`Display`](std::fmt::Display) is the sentence a diagnostic prints.
///
/// ```
/// use kifu_shogi::{Color, IllegalMove, Move, PieceKind, Position, Square};
///
/// // Black has a pawn on file 5 and one in hand: dropping it on that file is 二歩.
/// let pos = Position::from_sfen("4k4/9/9/9/9/9/4P4/9/4K4 b P 1").unwrap();
/// let drop = Move::drop(PieceKind::Pawn, "5c".parse().unwrap());
/// let err = pos.check_move(drop).unwrap_err();
/// assert_eq!(err, IllegalMove::DoublePawn { color: Color::Black, file: 5 });
/// assert_eq!(err.to_string(), "二歩 — a pawn of 先手 already stands on file 5");
///
/// // A pawn cannot step two squares.
/// let pos = Position::startpos();
/// let from: Square = "7g".parse().unwrap();
/// let to: Square = "7e".parse().unwrap();
/// assert_eq!(
///     pos.check_move(Move::normal(from, to, false)),
///     Err(IllegalMove::CannotReach { kind: PieceKind::Pawn, from, to })
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The move starts from an empty square (or is neither a board move nor a drop).
    #[error("there is no piece on {square}")]
    NoPiece {
        /// The empty origin.
        square: Square,
    },
    /// The piece on the origin belongs to the side not to move.
    #[error("the piece on {square} belongs to {owner}, but it is {mover}'s turn")]
    NotOwnPiece {
        /// The origin.
        square: Square,
        /// The side the piece belongs to.
        owner: Color,
        /// The side to move.
        mover: Color,
    },
    /// The piece does not move that way, or another piece stands in its path.
    #[error("{kind} on {from} cannot move to {to}")]
    CannotReach {
        /// The kind on the origin.
        kind: PieceKind,
        /// The origin.
        from: Square,
        /// The destination it cannot reach.
        to: Square,
    },
    /// The destination holds a piece of the mover's own: only enemy pieces can be captured.
    #[error("{to} is occupied by {color}'s own piece")]
    OwnPieceOnTarget {
        /// The destination.
        to: Square,
        /// The side to move, which owns the piece there.
        color: Color,
    },
    /// A promotion of a kind that has no promoted form: gold, king or an already promoted
    /// piece.
    #[error("{kind} cannot promote")]
    CannotPromote {
        /// The kind that was to promote.
        kind: PieceKind,
    },
    /// A promotion by a move that neither starts nor ends in the mover's promotion zone (the
    /// three far ranks).
    #[error("neither {from} nor {to} is in the promotion zone, so {kind} cannot promote")]
    OutsidePromotionZone {
        /// The kind that was to promote.
        kind: PieceKind,
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
    },
    /// An unpromoted move that would leave a pawn or lance on the last rank, or a knight on
    /// the last two, where it could never move again (行き所のない駒): promotion is forced.
    #[error("{kind} must promote on {to}: it could never move again")]
    MustPromote {
        /// The kind that must promote.
        kind: PieceKind,
        /// The destination.
        to: Square,
    },
    /// A drop of a kind the mover does not hold.
    #[error("{color} has no {kind} in hand")]
    NotInHand {
        /// The dropped kind.
        kind: PieceKind,
        /// The side to move.
        color: Color,
    },
    /// A drop on a square that is not empty.
    #[error("cannot drop on {to}: the square is occupied")]
    DropOnOccupied {
        /// The destination.
        to: Square,
    },
    /// A drop where the piece could never move (a pawn or lance on the last rank, a knight
    /// on the last two).
    #[error("{kind} dropped on {to} could never move")]
    DeadDrop {
        /// The dropped kind.
        kind: PieceKind,
        /// The destination.
        to: Square,
    },
    /// 二歩: a pawn dropped on a file where the mover already has an unpromoted pawn.
    #[error("二歩 — a pawn of {color} already stands on file {file}")]
    DoublePawn {
        /// The side to move.
        color: Color,
        /// The file, 1–9.
        file: u8,
    },
    /// 打ち歩詰め: a pawn drop that checkmates (mating with a pawn moved on the board is
    /// allowed).
    #[error("打ち歩詰め — the pawn dropped on {to} checkmates")]
    PawnDropMate {
        /// Where the pawn was dropped.
        to: Square,
    },
    /// A move that leaves the mover's king attacked: it ignores a check, or moves a pinned
    /// piece off its line.
    #[error("{color}'s king would be left in check")]
    LeavesKingInCheck {
        /// The side to move.
        color: Color,
    },
    /// A king move to a square the opponent attacks.
    #[error("{color}'s king would move into check on {to}")]
    KingIntoCheck {
        /// The side to move.
        color: Color,
        /// The attacked destination.
        to: Square,
    },
}
