//! How a game ends on the board: royals captured, no legal move, bare king, only royals left.
//! Repetition needs the game's history and is judged by [`crate::GameState`].

use std::fmt;

use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::square::Square;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The loser's last royal (king, crown prince) was captured.
    RoyalsCaptured,
    /// The side to move has no legal move (lishogi: it loses).
    NoLegalMoves,
    /// Bare king: a side left with only its royal (lishogi), or the two royals and one piece (JCSA).
    BareKing,
    /// Only the two royals remain, neither in check (lishogi).
    OnlyRoyals,
    /// The same position (board, side to move, counter-strike square) for the fourth time.
    Repetition,
    /// Fourth occurrence reached by a player who checked on every move since the first: that
    /// player loses.
    PerpetualCheck,
    /// The side to move has a single royal in check and no move saves it (JCSA).
    Checkmate,
}

impl EndReason {
    /// Every reason, in declaration order.
    pub const ALL: [EndReason; 7] = [
        EndReason::RoyalsCaptured,
        EndReason::NoLegalMoves,
        EndReason::BareKing,
        EndReason::OnlyRoyals,
        EndReason::Repetition,
        EndReason::PerpetualCheck,
        EndReason::Checkmate,
    ];

    /// lishogi's status name (`royalsLost`, `bareKing`, `stalemate`, `draw`, `repetition`,
    /// `perpetualCheck`).
    pub fn lishogi_status(self) -> &'static str {
        match self {
            EndReason::RoyalsCaptured => "royalsLost",
            EndReason::NoLegalMoves => "stalemate",
            EndReason::BareKing => "bareKing",
            EndReason::OnlyRoyals => "draw",
            EndReason::Repetition => "repetition",
            EndReason::PerpetualCheck => "perpetualCheck",
            EndReason::Checkmate => "checkmate",
        }
    }
}

impl fmt::Display for EndReason {
    /// lishogi's status name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.lishogi_status())
    }
}

/// A text that is not one of lishogi's board-decided statuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a board ending (expected royalsLost, stalemate, bareKing, draw, repetition, perpetualCheck or checkmate)"
)]
/// A name that is no [`EndReason`] (the name as given).
pub struct UnknownEndReason(pub String);

impl std::str::FromStr for EndReason {
    type Err = UnknownEndReason;

    /// lishogi's status name, as [`EndReason::lishogi_status`] writes it.
    fn from_str(s: &str) -> Result<EndReason, UnknownEndReason> {
        EndReason::ALL
            .into_iter()
            .find(|r| r.lishogi_status() == s)
            .ok_or_else(|| UnknownEndReason(s.to_owned()))
    }
}

/// The end of a game: the reason and the winner (`None` for a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Why the game ended.
    pub reason: EndReason,
    /// Who won (`None` for a draw).
    pub winner: Option<Color>,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = match self.winner {
            Some(Color::Black) => "Black wins",
            Some(Color::White) => "White wins",
            None => "draw",
        };
        write!(f, "{who} ({})", self.reason.lishogi_status())
    }
}

fn last_rank(color: Color) -> u8 {
    match color {
        Color::Black => 0,
        Color::White => 11,
    }
}

/// A pawn or lance on its last rank can never move again.
fn is_dead(sq: Square, p: Piece) -> bool {
    matches!(p.kind, Kind::Pawn | Kind::Lance) && sq.rank() == last_rank(p.color)
}

impl Position {
    /// The game's end as judged from this position alone, or `None` if play goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        let us = self.turn;
        if self.royals(us).next().is_none() {
            return Some(Outcome {
                reason: EndReason::RoyalsCaptured,
                winner: Some(!us),
            });
        }
        if self.rules.checkmate_wins && self.is_checkmate() {
            return Some(Outcome {
                reason: EndReason::Checkmate,
                winner: Some(!us),
            });
        }
        if self.rules.lishogi_draw_and_stalemate && self.legal_moves().is_empty() {
            return Some(Outcome {
                reason: EndReason::NoLegalMoves,
                winner: Some(!us),
            });
        }
        if self.rules.lishogi_bare_king {
            for bare in [Color::Black, Color::White] {
                if self.is_bare_king_lishogi(bare) {
                    return Some(Outcome {
                        reason: EndReason::BareKing,
                        winner: Some(!bare),
                    });
                }
            }
        } else if let Some(winner) = self.jcsa_bare_king_winner() {
            return Some(Outcome {
                reason: EndReason::BareKing,
                winner: Some(winner),
            });
        }
        if self.rules.lishogi_draw_and_stalemate && self.only_royals_left() {
            return Some(Outcome {
                reason: EndReason::OnlyRoyals,
                winner: None,
            });
        }
        None
    }

    /// The side to move has exactly one royal, it is attacked, and after every legal move the
    /// opponent could still take the last royal (a move that makes a second royal, promoting a
    /// drunk elephant to crown prince, escapes).
    pub fn is_checkmate(&self) -> bool {
        let us = self.turn;
        let mut royals = self.royals(us);
        let (Some(royal), None) = (royals.next(), royals.next()) else {
            return false;
        };
        if !self.is_attacked(royal, !us) {
            return false;
        }
        let escapes = |m: &crate::moves::Move| {
            let mut after = self.clone();
            after.play_unchecked(*m);
            let royals: Vec<Square> = after.royals(us).collect();
            royals.len() >= 2 || royals.iter().any(|&r| !after.is_attacked(r, !us))
        };
        !self.legal_moves().iter().any(escapes)
    }

    /// lishogi: `bare` has nothing but one royal (dead pawns and lances aside), the opponent has
    /// one royal and more than one piece that counts (not pawns, go-betweens or dead lances), is
    /// not in check, and either has more than two such pieces or none next to the bare royal.
    fn is_bare_king_lishogi(&self, bare: Color) -> bool {
        let them = !bare;
        let ours = self
            .pieces()
            .filter(|&(sq, p)| p.color == bare && !is_dead(sq, p))
            .count();
        let our_royals: Vec<Square> = self.royals(bare).collect();
        if ours != 1 || our_royals.len() != 1 {
            return false;
        }
        let theirs: Vec<Square> = self
            .pieces()
            .filter(|&(sq, p)| {
                p.color == them
                    && !matches!(p.kind, Kind::Pawn | Kind::GoBetween)
                    && !(p.kind == Kind::Lance && is_dead(sq, p))
            })
            .map(|(sq, _)| sq)
            .collect();
        theirs.len() > 1
            && self.royals(them).count() >= 1
            && !self.is_royal_attacked(them)
            && (theirs.len() > 2 || theirs.iter().all(|&sq| sq.distance(our_royals[0]) > 1))
    }

    /// JCSA: with the two royals and a single counting piece left (pawns and go-betweens count
    /// only promoted, dead pieces never), the side owning it wins, unless the lone royal can
    /// take it at once.
    fn jcsa_bare_king_winner(&self) -> Option<Color> {
        let mut royals = [0usize; 2];
        let mut others = Vec::new();
        for (sq, p) in self.pieces() {
            if p.kind.is_royal() {
                royals[p.color as usize] += 1;
            } else if !is_dead(sq, p) && !matches!(p.kind, Kind::Pawn | Kind::GoBetween) {
                others.push((sq, p));
            }
        }
        if royals != [1, 1] || others.len() != 1 {
            return None;
        }
        let (sq, piece) = others[0];
        let lone = !piece.color;
        let lone_royal = self.royals(lone).next()?;
        if self.turn == lone && sq.distance(lone_royal) == 1 {
            return None;
        }
        Some(piece.color)
    }

    fn only_royals_left(&self) -> bool {
        let live = self.pieces().filter(|&(sq, p)| !is_dead(sq, p)).count();
        live == 2
            && self.royals(Color::Black).count() == 1
            && self.royals(Color::White).count() == 1
            && !self.is_royal_attacked(Color::Black)
            && !self.is_royal_attacked(Color::White)
    }
}
