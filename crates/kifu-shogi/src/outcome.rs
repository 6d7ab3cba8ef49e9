//! How a game stands by the rules alone: over by mate, by having no move, or by repetition.

use crate::{Color, Position, Repetition};

/// A game result decided by the position itself (resignation, time and
/// declarations are the record's or the protocol's business). The rules are the Japan Shogi
/// Association's: mate wins, and a fourfold repetition (千日手) is a draw unless one side gave
/// check with every move of it, which that side then loses.
///
/// ```
/// use kifu_shogi::{Color, Outcome, Position};
///
/// // A gold on 5b, guarded by the pawn on 5c, mates White's king on 5a.
/// let pos = Position::from_sfen("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1").unwrap();
/// assert!(pos.is_checkmate());
/// assert_eq!(pos.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
///
/// assert_eq!(Position::startpos().outcome(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move is in check and has no legal move.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move without being in check; in shogi it loses.
    NoLegalMoves {
        /// The side not to move.
        winner: Color,
    },
    /// 千日手: the fourth occurrence of the position.
    Repetition,
    /// 連続王手の千日手: the side that kept checking loses.
    PerpetualCheck {
        /// The side that was being checked.
        winner: Color,
    },
}

impl Position {
    /// The rules' verdict on the current position, `None` while play goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.repetition() {
            Repetition::Draw => return Some(Outcome::Repetition),
            Repetition::PerpetualCheck { loser } => {
                return Some(Outcome::PerpetualCheck {
                    winner: loser.flip(),
                });
            }
            Repetition::None => {}
        }
        if self.has_legal_moves() {
            return None;
        }
        let winner = self.turn().flip();
        Some(if self.is_check() {
            Outcome::Checkmate { winner }
        } else {
            Outcome::NoLegalMoves { winner }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts() {
        assert_eq!(Position::startpos().outcome(), None);
        let mated = Position::from_sfen("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1").unwrap();
        assert_eq!(
            mated.outcome(),
            Some(Outcome::Checkmate {
                winner: Color::Black
            })
        );
        // White's lone king on 1a is boxed in by Black's golds without being in check.
        let stuck = Position::from_sfen("8k/6G2/7G1/9/9/9/9/9/4K4 w - 1").unwrap();
        assert!(!stuck.is_check());
        assert_eq!(
            stuck.outcome(),
            Some(Outcome::NoLegalMoves {
                winner: Color::Black
            })
        );
    }
}
