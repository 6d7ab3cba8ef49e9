//! A game in progress: the position with the history the rules need to judge repetition
//! (lishogi's fourth occurrence, JCSA's initiator who must deviate).

use std::hash::{Hash, Hasher};

use crate::moves::Move;
use crate::outcome::{EndReason, Outcome};
use crate::piece::Color;
use crate::position::Position;

/// Why a move could not be added to a game: the rule it breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The move is not legal in the current position.
    #[error("illegal move {0}")]
    Illegal(Move),
    /// JCSA: the move would repeat a position for the fourth time, and its player initiated the
    /// repetition.
    #[error("{0} repeats a position a fourth time; the initiator must deviate (JCSA)")]
    Repetition(Move),
    /// The game has already ended.
    #[error("the game is already over: {0}")]
    GameOver(Outcome),
}

/// A game in progress or finished: its start, its moves and the position they reach.
///
/// ```
/// use kifu_chu::{GameState, Move, PlayError, Position};
///
/// let mut game = GameState::new(Position::startpos());
/// let lion: Move = "7j7h".parse().unwrap();
/// game.play(lion).unwrap();
/// // Now it is White's turn, and 7h holds Black's lion.
/// assert_eq!(game.play(lion), Err(PlayError::Illegal(lion)));
/// assert_eq!(game.moves(), &[lion]);
/// assert!(game.outcome().is_none());
/// ```
#[derive(Clone, Debug)]
pub struct GameState {
    start: Position,
    current: Position,
    moves: Vec<Move>,
    /// Repetition key of the position before each move and of the current one.
    keys: Vec<u64>,
    /// Whether each move was an attacking move (gave check).
    attacks: Vec<bool>,
}

impl Position {
    /// Identifies the position for repetition: board, side to move and counter-strike square.
    pub fn repetition_key(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.board.hash(&mut h);
        self.turn.hash(&mut h);
        self.counter_strike.hash(&mut h);
        h.finish()
    }
}

impl GameState {
    /// A game from `start`, no move played yet.
    pub fn new(start: Position) -> GameState {
        let key = start.repetition_key();
        GameState {
            current: start.clone(),
            start,
            moves: Vec::new(),
            keys: vec![key],
            attacks: Vec::new(),
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position after the moves played.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether `m` may be played now: the game is not over, the move is legal, and (JCSA) it
    /// does not repeat a position a fourth time by the player who must deviate.
    pub fn check_move(&self, m: Move) -> Result<(), PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::GameOver(o));
        }
        if !self.current.is_legal(m) {
            return Err(PlayError::Illegal(m));
        }
        if self.current.rules().initiator_must_deviate {
            let mover = self.current.turn();
            let mut after = self.current.clone();
            after.play_unchecked(m);
            let gives_check = after.is_royal_attacked(!mover);
            if self.initiates_fourth(after.repetition_key(), mover, gives_check) {
                return Err(PlayError::Repetition(m));
            }
        }
        Ok(())
    }

    /// Plays a move if [`GameState::check_move`] allows it.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        self.check_move(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move already known to be allowed, recording what repetition needs.
    pub fn play_unchecked(&mut self, m: Move) {
        let mover = self.current.turn();
        self.current.play_unchecked(m);
        self.moves.push(m);
        self.keys.push(self.current.repetition_key());
        // lishogi counts a move as attacking when it gives check. (Its server also has a clause
        // for a moved piece that attacks any enemy piece, but the recorded games show it does
        // not decide repetitions: OGH2sJc2 ends in a plain draw although one side's moved piece
        // attacked on every move.)
        self.attacks.push(self.current.is_royal_attacked(!mover));
    }

    /// JCSA: whether a move by `mover` reaching `key` would be a fourth occurrence that `mover`
    /// must avoid. The initiator is the player who checked on every move since the first
    /// occurrence if only one did, else the player who would complete the repetition. (The
    /// finer JCSA criteria, pieces brought to bear and mutual passes, are not modelled.)
    fn initiates_fourth(&self, key: u64, mover: Color, gives_check: bool) -> bool {
        let Some(first) = self.keys.iter().position(|&k| k == key) else {
            return false;
        };
        if self.keys.iter().filter(|&&k| k == key).count() < 3 {
            return false;
        }
        let start_turn = self.start.turn();
        let mut only_checks = [true, true];
        for i in first..self.moves.len() {
            let who = if i % 2 == 0 { start_turn } else { !start_turn };
            only_checks[who as usize] &= self.attacks[i];
        }
        only_checks[mover as usize] &= gives_check;
        match only_checks {
            [true, false] => mover == Color::Black,
            [false, true] => mover == Color::White,
            _ => true,
        }
    }

    /// The end of the game, if it has ended: the position's own verdict, else a fourth
    /// occurrence of the current position.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.current.outcome() {
            return Some(o);
        }
        if self.current.rules().initiator_must_deviate {
            return None;
        }
        let now = *self.keys.last()?;
        let occurrences: Vec<usize> = (0..self.keys.len())
            .filter(|&i| self.keys[i] == now)
            .collect();
        if occurrences.len() < 4 {
            return None;
        }
        // lishogi: a player who made only attacking moves since the position first occurred
        // loses (unless both did); otherwise it is a draw.
        let first = occurrences[0];
        let start_turn = self.start.turn();
        let mut only_attacks = [true, true];
        for i in first..self.moves.len() {
            let mover = if i % 2 == 0 { start_turn } else { !start_turn };
            only_attacks[mover as usize] &= self.attacks[i];
        }
        let reason_winner = match only_attacks {
            [true, false] => (EndReason::PerpetualCheck, Some(Color::White)),
            [false, true] => (EndReason::PerpetualCheck, Some(Color::Black)),
            _ => (EndReason::Repetition, None),
        };
        Some(Outcome {
            reason: reason_winner.0,
            winner: reason_winner.1,
        })
    }
}
