//! Who decides this side's moves: a USI engine, a person at the terminal, or a record.
//!
//! A player runs on a thread of its own (the driver's business), so `think` may block.

use kifu_record::TimeControl;
use kifu_shogi::{Color, Move, Position};

use crate::clock::Clocks;
use crate::session::{Decision, GameResult};

mod human;
mod moves;
mod usi;

pub use human::{Human, parse_input};
pub use moves::MoveList;
pub use usi::UsiEngine;

/// Everything a player needs to decide.
#[derive(Clone, Debug)]
pub struct ThinkRequest {
    /// The set-up position and the moves since, as USI's `position` command wants them.
    pub start: Position,
    pub moves: Vec<Move>,
    /// The current position (with its history, so repetitions are known).
    pub position: Position,
    pub clocks: Clocks,
    pub time: Option<TimeControl>,
    /// Whether `%MATTA` and `%CHUDAN` may be chosen (a relay operator).
    pub relay: bool,
}

impl ThinkRequest {
    pub fn me(&self) -> Color {
        self.position.turn()
    }
}

pub trait Player: Send {
    /// A name for the record's header.
    fn name(&self) -> String;
    /// Called once before the first request (`usinewgame` for an engine).
    fn new_game(&mut self, _me: Color) -> Result<(), String> {
        Ok(())
    }
    fn think(&mut self, request: &ThinkRequest) -> Result<Decision, String>;
    /// Told how the game ended (`None`: interrupted).
    fn game_over(&mut self, _result: Option<GameResult>) {}
}
