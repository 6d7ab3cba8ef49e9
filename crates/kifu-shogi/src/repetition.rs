//! 千日手: the same position (board, hands, side to move) four times.

use crate::{Color, Move, Position};

/// How the current position stands with respect to repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// Fewer than four occurrences.
    None,
    /// The fourth occurrence: the game is a draw (千日手).
    Draw,
    /// The fourth occurrence, and every move `loser` made since the first of the four
    /// gave check: 連続王手の千日手, which `loser` loses.
    PerpetualCheck {
        /// The side that gave every check.
        loser: Color,
    },
}

impl Position {
    /// How many times the current position has occurred since set-up, this time included.
    pub fn repetition_count(&self) -> usize {
        let h = self.hash();
        1 + self.history.iter().filter(|s| s.hash == h).count()
    }

    /// True when the last move can never be undone: a drop, a promotion, a capture or a
    /// pawn's step. Positions before such a move cannot recur, so a replay that counts
    /// repetitions after every move can look back only to the last irreversible one.
    pub fn last_move_irreversible(&self) -> bool {
        self.history.last().is_some_and(|s| {
            s.mv.is_drop()
                || s.mv.is_promotion()
                || s.captured.is_some()
                || s.moved == crate::PieceKind::Pawn
        })
    }

    /// True when `mv`, a legal move here, can never be undone once it is made: what
    /// [`Position::last_move_irreversible`] says after `mv`, asked before it. A replay that
    /// has just read the move off this board finds the answer in squares it has loaded,
    /// where the history's last entry is a dozen instructions away after the move.
    ///
    /// ```
    /// use kifu_shogi::Position;
    ///
    /// let mut pos = Position::startpos();
    /// for usi in ["7g7f", "3c3d", "2h7h", "8b3b", "8h2b+"] {
    ///     let mv = usi.parse().unwrap();
    ///     let irreversible = pos.is_irreversible(mv);
    ///     pos.play(mv).unwrap();
    ///     assert_eq!(irreversible, pos.last_move_irreversible(), "{usi}");
    /// }
    /// ```
    #[inline]
    pub fn is_irreversible(&self, mv: Move) -> bool {
        match mv.from() {
            None => true,
            Some(from) => {
                mv.is_promotion()
                    || self.piece_at(mv.to()).is_some()
                    || self
                        .piece_at(from)
                        .is_some_and(|p| p.kind == crate::PieceKind::Pawn)
            }
        }
    }

    /// True if the current position stands for the fourth time among the last `plies`
    /// positions (positions with the same side to move only). Cheaper than
    /// [`Position::repetition`] when the caller knows how far back a repeat is possible.
    pub fn is_fourth_occurrence_within(&self, plies: usize) -> bool {
        let hash = self.hash();
        let history = &self.history;
        let window = plies.min(history.len());
        let mut seen = 0;
        let mut back = 4; // a position recurs four plies later at the earliest
        while back <= window {
            if history[history.len() - back].hash == hash {
                seen += 1;
                if seen == 3 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// 千日手 by the four-fold rule, including perpetual check.
    ///
    /// Only positions since this `Position` was set up are known; a game
    /// replayed from its start sees them all.
    ///
    /// ```
    /// use kifu_shogi::{Position, Repetition};
    ///
    /// // Both rooks step aside and back three times: the start position stands a fourth time.
    /// let mut pos = Position::startpos();
    /// for _ in 0..3 {
    ///     assert_eq!(pos.repetition(), Repetition::None);
    ///     for usi in ["2h3h", "8b7b", "3h2h", "7b8b"] {
    ///         pos.play(usi.parse().unwrap()).unwrap();
    ///     }
    /// }
    /// assert_eq!(pos.repetition_count(), 4);
    /// assert_eq!(pos.repetition(), Repetition::Draw);
    /// ```
    pub fn repetition(&self) -> Repetition {
        let h = self.hash();
        let n = self.history.len();
        // Indices of earlier occurrences, most recent first.
        let mut seen = 0;
        let mut first = None;
        for i in (0..n).rev() {
            if self.history[i].hash == h {
                seen += 1;
                if seen == 3 {
                    first = Some(i);
                    break;
                }
            }
        }
        let Some(first) = first else {
            return Repetition::None;
        };
        // Move j leads from position j to j+1; it gave check if position j+1 had checkers.
        let mut all_checks = [true; 2];
        for j in first..n {
            let checked = match self.history.get(j + 1) {
                Some(next) => next.checkers.is_nonempty(),
                None => self.is_check(),
            };
            // The mover of move j is the side to move in position j.
            let mover = if (n - j) % 2 == 1 {
                self.turn().flip()
            } else {
                self.turn()
            };
            if !checked {
                all_checks[mover.index()] = false;
            }
        }
        match all_checks {
            [true, false] => Repetition::PerpetualCheck {
                loser: Color::Black,
            },
            [false, true] => Repetition::PerpetualCheck {
                loser: Color::White,
            },
            _ => Repetition::Draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usi::parse_position_command;

    fn after(line: &str) -> Position {
        parse_position_command(line).unwrap().end()
    }

    #[test]
    fn a_move_is_irreversible_before_exactly_when_it_was_after() {
        // Every legal move of positions along pseudo-random games (captures, drops,
        // promotions, pawn steps and quiet moves of every kind), asked before and after.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut asked = 0;
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &mv in moves.iter() {
                    let before = pos.is_irreversible(mv);
                    let mut after = pos.clone();
                    after.play_unchecked(mv);
                    assert_eq!(
                        before,
                        after.last_move_irreversible(),
                        "{mv} in {}",
                        pos.to_sfen()
                    );
                    asked += 1;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
            }
        }
        assert!(asked > 50_000, "{asked}");
    }

    #[test]
    fn fourfold_shuffle_is_a_draw() {
        let cycle = " 5i4h 5a4b 4h5i 4b5a";
        let mut line = "position startpos moves".to_string();
        for _ in 0..2 {
            line.push_str(cycle);
        }
        let p = after(&line);
        assert_eq!(p.repetition_count(), 3);
        assert_eq!(p.repetition(), Repetition::None);
        line.push_str(cycle);
        let p = after(&line);
        assert_eq!(p.repetition_count(), 4);
        assert_eq!(p.repetition(), Repetition::Draw);
    }

    #[test]
    fn perpetual_check_loses_for_the_checker() {
        // The rook checks the cornered king from file 1 and file 2 in turn.
        let mut line = "position sfen 8k/9/9/9/9/9/9/9/K6R1 b - 1 moves".to_string();
        for _ in 0..3 {
            line.push_str(" 2i1i 1a2a 1i2i 2a1a");
        }
        let p = after(&line);
        assert_eq!(p.repetition_count(), 4);
        assert_eq!(
            p.repetition(),
            Repetition::PerpetualCheck {
                loser: Color::Black
            }
        );
    }
}
