//! A game: a start position and the moves played, with repetition and the end of the game.

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::moves::Move;
use crate::outcome::{EndReason, Outcome};
use crate::position::Position;

/// Why a move could not be added to a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The move is not legal in the current position.
    Illegal(Move),
    /// The game has already ended.
    GameOver(Outcome),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Illegal(m) => write!(f, "illegal move {m}"),
            PlayError::GameOver(o) => write!(f, "the game is already over: {o}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    current: Position,
    moves: Vec<Move>,
    /// Repetition key of the position before each move and of the current one.
    keys: Vec<u64>,
    /// Whether each move left the opponent in check.
    checks: Vec<bool>,
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

impl Game {
    pub fn new(start: Position) -> Game {
        let key = start.repetition_key();
        Game {
            current: start.clone(),
            start,
            moves: Vec::new(),
            keys: vec![key],
            checks: Vec::new(),
        }
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.current
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a legal move if the game is not over.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::GameOver(o));
        }
        if !self.current.is_legal(m) {
            return Err(PlayError::Illegal(m));
        }
        let mover = self.current.turn();
        self.current.play_unchecked(m);
        self.moves.push(m);
        self.keys.push(self.current.repetition_key());
        self.checks.push(self.current.is_check(!mover));
        Ok(())
    }

    /// The end of the game, if it has ended: the position's own verdict, else a fourth
    /// occurrence of the current position.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.current.outcome() {
            return Some(o);
        }
        let now = *self.keys.last()?;
        let occurrences: Vec<usize> = (0..self.keys.len())
            .filter(|&i| self.keys[i] == now)
            .collect();
        if occurrences.len() < 4 {
            return None;
        }
        // Moves played since the first occurrence; move i was made by the side to move at key i.
        let first = occurrences[0];
        let start_turn = self.start.turn();
        let mut always_checked = [true, true];
        for i in first..self.moves.len() {
            let mover = if i % 2 == 0 { start_turn } else { !start_turn };
            if !self.checks[i] {
                always_checked[mover as usize] = false;
            }
        }
        match always_checked {
            [true, false] => Some(Outcome {
                reason: EndReason::PerpetualCheck,
                winner: Some(crate::Color::White),
            }),
            [false, true] => Some(Outcome {
                reason: EndReason::PerpetualCheck,
                winner: Some(crate::Color::Black),
            }),
            _ => Some(Outcome {
                reason: EndReason::Repetition,
                winner: None,
            }),
        }
    }
}
