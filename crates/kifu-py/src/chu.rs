//! `kifu.chu.Position`: a chu shogi position to play moves on, with its history.

use kifu_chu::{GameState, Position, side_of};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;

use crate::IllegalMove;
use crate::outcome::Outcome;

/// A chu shogi (中将棋) position with the game's history (the repetition rules need it), under
/// lishogi's rules. Moves are lishogi USI strings (``7i7h``, ``7i7h+``, a lion's double move
/// ``7j7i6h``); positions are lishogi SFEN.
///
/// >>> from kifu.chu import Position
/// >>> len(Position().legal_moves())
/// 36
#[pyclass(module = "kifu.chu", name = "Position")]
#[derive(Clone)]
pub struct ChuPosition {
    game: GameState,
    /// The states before each move played on this object, for `pop`.
    undo: Vec<GameState>,
}

impl ChuPosition {
    pub fn from_state(game: GameState) -> ChuPosition {
        ChuPosition {
            game,
            undo: Vec::new(),
        }
    }

    fn parse(&self, usi: &str) -> Result<kifu_chu::Move, String> {
        let mv = kifu_chu::parse_usi(usi)
            .ok_or_else(|| format!("`{usi}` is not a chu USI move (like 7i7h, 7i7h+ or 7j7i6h)"))?;
        self.game
            .check_move(mv)
            .map_err(|rule| format!("{usi}: {rule}"))?;
        Ok(mv)
    }
}

#[pymethods]
impl ChuPosition {
    /// The chu start position, or the position a lishogi SFEN string describes.
    #[new]
    #[pyo3(signature = (sfen = None))]
    fn new(sfen: Option<&str>) -> PyResult<ChuPosition> {
        let position = match sfen {
            None => Position::startpos(),
            Some(text) => {
                Position::from_sfen(text).map_err(|e| PyValueError::new_err(e.to_string()))?
            }
        };
        Ok(ChuPosition::from_state(GameState::new(position)))
    }

    /// The position as lishogi SFEN.
    fn sfen(&self) -> String {
        self.game.position().to_sfen()
    }

    /// Every legal move, as USI strings.
    fn legal_moves(&self) -> Vec<String> {
        if self.game.outcome().is_some() {
            return Vec::new();
        }
        let position = self.game.position();
        // Only JCSA's repetition rule forbids a move the board allows.
        let judge = position.rules().initiator_must_deviate;
        position
            .legal_moves()
            .iter()
            .filter(|&&mv| !judge || self.game.check_move(mv).is_ok())
            .map(|mv| mv.to_string())
            .collect()
    }

    /// Plays a move (USI). Raises :class:`kifu.IllegalMove` if the rules forbid it; the
    /// position is then unchanged.
    fn push(&mut self, usi: &str) -> PyResult<()> {
        let mv = self.parse(usi).map_err(IllegalMove::new_err)?;
        self.undo.push(self.game.clone());
        self.game.play_unchecked(mv);
        Ok(())
    }

    /// Takes back the last move played on this object and returns it (USI). Raises
    /// ``IndexError`` when no move was played on it.
    fn pop(&mut self) -> PyResult<String> {
        let before = self
            .undo
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from a position with no move played"))?;
        let last = self.game.moves().last().map(|mv| mv.to_string());
        self.game = before;
        Ok(last.unwrap_or_default())
    }

    /// ``None`` when the move is legal here, or why not.
    fn check_move(&self, usi: &str) -> Option<String> {
        self.parse(usi).err()
    }

    /// True when the move (USI) is legal here.
    fn is_legal(&self, usi: &str) -> bool {
        self.parse(usi).is_ok()
    }

    /// True when a royal of the side to move is attacked.
    fn is_check(&self) -> bool {
        self.game.position().is_check()
    }

    /// How the game stands decided on the board (``royalsLost``, ``checkmate``, ``stalemate``,
    /// ``bareKing``, ``draw``, ``repetition``, ``perpetualCheck`` — lishogi's words), or
    /// ``None`` while play goes on.
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().map(|outcome| Outcome {
            kind: outcome.reason.lishogi_status().to_string(),
            winner: outcome.winner.map(|c| side_of(c).name()),
        })
    }

    /// The side to move: ``"first"`` (black) or ``"second"`` (white).
    #[getter]
    fn turn(&self) -> &'static str {
        side_of(self.game.position().turn()).name()
    }

    /// The moves played since the game's start position, oldest first (USI).
    #[getter]
    fn history(&self) -> Vec<String> {
        self.game.moves().iter().map(|mv| mv.to_string()).collect()
    }

    /// A copy with the same history.
    fn copy(&self) -> ChuPosition {
        self.clone()
    }

    fn __copy__(&self) -> ChuPosition {
        self.clone()
    }

    fn __str__(&self) -> String {
        self.game.position().board_text()
    }

    fn __repr__(&self) -> String {
        format!("Position({:?})", self.game.position().to_sfen())
    }
}
