//! Who decides this side's moves: a USI engine, a person at the terminal, or a record.
//!
//! A player runs on a thread of its own (the driver's business), so `think` may block.
//!
//! ```
//! use kifu_csa::clock::Clocks;
//! use kifu_csa::player::{MoveList, Player, ThinkRequest};
//! use kifu_csa::session::Decision;
//! use kifu_shogi::Position;
//!
//! let start = Position::startpos();
//! let first = start.parse_usi_move("7g7f").unwrap();
//! let mut record = MoveList::new("game.csa".into(), start.clone(), vec![first], None);
//! let request = ThinkRequest {
//!     start: start.clone(),
//!     moves: Vec::new(),
//!     position: start,
//!     clocks: Clocks::default(),
//!     time: None,
//!     relay: false,
//! };
//! assert_eq!(record.think(&request).unwrap(), Decision::Move(first));
//! ```

use kifu_record::TimeControl;
use kifu_shogi::{Color, Move, Position};

use crate::clock::Clocks;
use crate::session::{Decision, GameResult};

mod human;
mod moves;
mod usi;

pub use human::{Human, HumanError, InputError, parse_input};
pub use moves::{MoveList, MoveListError};
pub use usi::{UsiEngine, UsiEngineError};

/// Everything a player needs to decide.
#[derive(Clone, Debug)]
pub struct ThinkRequest {
    /// The set-up position, as USI's `position` command wants it.
    pub start: Position,
    /// The moves since the set-up position.
    pub moves: Vec<Move>,
    /// The current position (with its history, so repetitions are known).
    pub position: Position,
    /// Where both clocks stand.
    pub clocks: Clocks,
    /// The game's time control, if it has one.
    pub time: Option<TimeControl>,
    /// Whether `%MATTA` and `%CHUDAN` may be chosen (a relay operator).
    pub relay: bool,
}

impl ThinkRequest {
    /// The side to decide for: the side to move.
    pub fn me(&self) -> Color {
        self.position.turn()
    }
}

/// Why a player could not decide.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// The USI engine failed.
    #[error(transparent)]
    Engine(#[from] UsiEngineError),
    /// The person's terminal failed.
    #[error(transparent)]
    Human(#[from] HumanError),
    /// The record being played back cannot answer.
    #[error(transparent)]
    Moves(#[from] MoveListError),
}

/// Decides one side's moves.
pub trait Player: Send {
    /// A name for the record's header.
    fn name(&self) -> String;
    /// Called once before the first request (`usinewgame` for an engine).
    fn new_game(&mut self, _me: Color) -> Result<(), PlayerError> {
        Ok(())
    }
    /// This side's decision in the position of `request`.
    fn think(&mut self, request: &ThinkRequest) -> Result<Decision, PlayerError>;
    /// Told how the game ended (`None`: interrupted).
    fn game_over(&mut self, _result: Option<GameResult>) {}
}
