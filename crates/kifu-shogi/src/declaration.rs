//! 入玉宣言: winning (or drawing) by declaration when the king has entered the enemy camp.

use std::fmt;
use std::str::FromStr;

use crate::attacks;
use crate::{Color, PieceKind, Position};

/// Which point rule a declaration is judged by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclarationRule {
    /// CSA / floodgate (`$JISHOGI:27`): Black needs 28 points, White 27, else the declarer loses.
    Points27,
    /// The 24-point rule: 31 or more wins, 24–30 draws, fewer loses.
    Points24,
}

/// What a valid declaration achieves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclarationVerdict {
    /// The declarer wins (CSA `%KACHI`, KIF `入玉勝ち`).
    Win,
    /// The game is drawn (the 24-point rule's 24–30 points).
    Draw,
}

/// The counts a declaration is judged on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclarationCount {
    /// Points of the declarer's pieces in the enemy camp plus those in hand (king excluded).
    pub points: u32,
    /// Pieces other than the king in the enemy camp.
    pub pieces_in_camp: u32,
}

/// Why a declaration fails (the declarer then loses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeclarationFailure {
    /// The declarer has no king to have entered with.
    #[error("{color} has no king")]
    NoKing {
        /// The declarer.
        color: Color,
    },
    /// The declarer's king is not in the enemy camp (the three far ranks).
    #[error("{color}'s king has not entered the enemy camp")]
    KingNotInCamp {
        /// The declarer.
        color: Color,
    },
    /// The declarer is in check.
    #[error("{color}'s king is in check")]
    InCheck {
        /// The declarer.
        color: Color,
    },
    /// Fewer than ten of the declarer's pieces besides the king are in the enemy camp.
    #[error("only {count} pieces besides the king are in the enemy camp; 10 are needed")]
    TooFewPieces {
        /// The declarer's pieces in the enemy camp, king excluded.
        count: u32,
    },
    /// Too few points under the rule.
    #[error("{points} points; {needed} are needed")]
    TooFewPoints {
        /// The declarer's points (see [`DeclarationCount::points`]).
        points: u32,
        /// The least the rule accepts.
        needed: u32,
    },
}

impl Position {
    /// Judges a declaration by the side to move under `rule`.
    ///
    /// The conditions are those of the CSA's declaration rule for computer shogi (the CSA
    /// server protocol's `Declaration:Jishogi 1.1`, as floodgate judges `%KACHI`): the
    /// declarer is the side to move, its king is in the enemy camp (the three far ranks) and
    /// not in check, at least ten of its other pieces are in the camp, and its points (5 for
    /// each rook or bishop, promoted or not, 1 for any other piece, over the pieces in the
    /// camp and in hand) reach what `rule` asks. The clock condition (the declarer must have
    /// time left) is the caller's to check.
    ///
    /// ```
    /// use kifu_shogi::{DeclarationCount, DeclarationFailure, DeclarationRule, DeclarationVerdict, Position};
    ///
    /// // Black's king on 5b with 8 small pieces and 4 promoted major pieces in the camp.
    /// let pos = Position::from_sfen("GGGG1SSSS/4K4/+R+R+B+B5/9/9/9/9/9/4k4 b - 1").unwrap();
    /// let count = DeclarationCount { points: 28, pieces_in_camp: 12 };
    /// assert_eq!(pos.declaration(DeclarationRule::Points27), Ok((DeclarationVerdict::Win, count)));
    /// assert_eq!(pos.declaration(DeclarationRule::Points24), Ok((DeclarationVerdict::Draw, count)));
    ///
    /// // The same board with White to move: its king on 5i has entered alone.
    /// let pos = Position::from_sfen("GGGG1SSSS/4K4/+R+R+B+B5/9/9/9/9/9/4k4 w - 1").unwrap();
    /// assert_eq!(
    ///     pos.declaration(DeclarationRule::Points27),
    ///     Err(DeclarationFailure::TooFewPieces { count: 0 })
    /// );
    /// ```
    pub fn declaration(
        &self,
        rule: DeclarationRule,
    ) -> Result<(DeclarationVerdict, DeclarationCount), DeclarationFailure> {
        let us = self.turn();
        let king = self
            .king_square(us)
            .ok_or(DeclarationFailure::NoKing { color: us })?;
        if !king.in_promotion_zone(us) {
            return Err(DeclarationFailure::KingNotInCamp { color: us });
        }
        if self.is_check() {
            return Err(DeclarationFailure::InCheck { color: us });
        }
        let count = self.declaration_count(us);
        if count.pieces_in_camp < 10 {
            return Err(DeclarationFailure::TooFewPieces {
                count: count.pieces_in_camp,
            });
        }
        let points = count.points;
        let verdict = match rule {
            DeclarationRule::Points27 => {
                let needed = if us == Color::Black { 28 } else { 27 };
                if points < needed {
                    return Err(DeclarationFailure::TooFewPoints { points, needed });
                }
                DeclarationVerdict::Win
            }
            DeclarationRule::Points24 => match points {
                31.. => DeclarationVerdict::Win,
                24..=30 => DeclarationVerdict::Draw,
                _ => return Err(DeclarationFailure::TooFewPoints { points, needed: 24 }),
            },
        };
        Ok((verdict, count))
    }

    /// Declaration points and pieces in the enemy camp for `color`.
    pub fn declaration_count(&self, color: Color) -> DeclarationCount {
        let camp = self.color_pieces(color)
            & attacks::far_ranks(color, 3)
            & !self.pieces(color, PieceKind::King);
        let mut points: u32 = camp
            .map(|sq| self.piece_at(sq).map_or(0, |p| p.kind.declaration_points()))
            .sum();
        for (kind, n) in self.hand(color).iter() {
            points += kind.declaration_points() * u32::from(n);
        }
        DeclarationCount {
            points,
            pieces_in_camp: camp.count(),
        }
    }
}

/// Written by its Japanese name: `27点法`, `24点法`.
impl fmt::Display for DeclarationRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeclarationRule::Points27 => "27点法",
            DeclarationRule::Points24 => "24点法",
        })
    }
}

/// Text that names no declaration rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a declaration rule (27点法 or 24点法, or 27 or 24)")]
pub struct ParseDeclarationRuleError(pub String);

/// Reads the name [`Display`](fmt::Display) writes, or just the number (as in CSA's
/// `$JISHOGI:27`).
///
/// ```
/// use kifu_shogi::DeclarationRule;
///
/// assert_eq!("24".parse::<DeclarationRule>().unwrap(), DeclarationRule::Points24);
/// assert_eq!(DeclarationRule::Points27.to_string().parse::<DeclarationRule>().unwrap(), DeclarationRule::Points27);
/// assert!("30".parse::<DeclarationRule>().is_err());
/// ```
impl FromStr for DeclarationRule {
    type Err = ParseDeclarationRuleError;

    fn from_str(text: &str) -> Result<DeclarationRule, ParseDeclarationRuleError> {
        match text {
            "27点法" | "27" => Ok(DeclarationRule::Points27),
            "24点法" | "24" => Ok(DeclarationRule::Points24),
            _ => Err(ParseDeclarationRuleError(text.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_seven_point_rule() {
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
        assert_eq!(
            p.declaration(DeclarationRule::Points27),
            Err(DeclarationFailure::KingNotInCamp {
                color: Color::Black
            })
        );
        // Black king on 5b with 10 pieces in camp: R B 4G 4S = 5+5+8 = 18 points, plus hand.
        let base = "GGGGRSSSS/B3K4/9/9/9/9/9/9/4k4";
        let p = Position::from_sfen(&format!("{base} b 10P 1")).unwrap();
        assert_eq!(
            p.declaration(DeclarationRule::Points27),
            Ok((
                DeclarationVerdict::Win,
                DeclarationCount {
                    points: 28,
                    pieces_in_camp: 10
                }
            ))
        );
        let p = Position::from_sfen(&format!("{base} b 9P 1")).unwrap();
        assert_eq!(
            p.declaration(DeclarationRule::Points27),
            Err(DeclarationFailure::TooFewPoints {
                points: 27,
                needed: 28
            })
        );
        assert_eq!(
            p.declaration(DeclarationRule::Points24).map(|r| r.0),
            Ok(DeclarationVerdict::Draw)
        );
        let p = Position::from_sfen(&format!("{base} b 13P 1")).unwrap();
        assert_eq!(
            p.declaration(DeclarationRule::Points24).map(|r| r.0),
            Ok(DeclarationVerdict::Win)
        );
        let p = Position::from_sfen("GGGGRSSS1/B3K4/9/9/9/9/9/9/4k4 b S13P 1").unwrap();
        assert_eq!(
            p.declaration(DeclarationRule::Points27),
            Err(DeclarationFailure::TooFewPieces { count: 9 })
        );
    }

    #[test]
    fn white_needs_twenty_seven() {
        let p = Position::from_sfen("4K4/9/9/9/9/9/9/b3k4/ggggrssss w 9p 1").unwrap();
        assert_eq!(
            p.declaration(DeclarationRule::Points27).map(|r| r.1.points),
            Ok(27)
        );
        let p = Position::from_sfen("4K4/9/9/9/9/4R4/9/b3k4/gggg1ssss w 9p 1").unwrap();
        assert_eq!(
            p.declaration(DeclarationRule::Points27),
            Err(DeclarationFailure::InCheck {
                color: Color::White
            })
        );
    }
}
