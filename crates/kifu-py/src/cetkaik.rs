//! `kifu.cetkaik.Position`: a cetkaik match state to play moves on.

use kifu_cetkaik::{Cetkaik, Declaration, Event, MatchState, SeasonStart, Throws};
use kifu_record::Game;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;

use crate::IllegalMove;
use crate::outcome::Outcome;

/// A cetkaik (机戦) match as the rules see it: the board of the current season, the scores,
/// the rate and whose turn it is, under the standard rules.
///
/// Moves are written as :meth:`legal_moves` gives them (``KAI-KY``, pieces' squares joined by
/// ``-``), or in notation ⓪ of the CKKA draft without sticks (``KAI兵KY無撃裁``); the
/// declarations after a hand are ``再行`` and ``終季``. A move that needs a stick throw cannot be
/// pushed here (the throw is part of the record's move, not of the position).
#[pyclass(module = "kifu.cetkaik", name = "Position")]
#[derive(Clone)]
pub struct CetkaikPosition {
    state: MatchState,
    undo: Vec<(MatchState, String)>,
}

impl CetkaikPosition {
    pub fn from_state(state: MatchState) -> CetkaikPosition {
        CetkaikPosition {
            state,
            undo: Vec::new(),
        }
    }

    /// The event a text names, and the text as `legal_moves` writes it.
    fn parse(&self, text: &str) -> Result<Event, String> {
        for declaration in [Declaration::TyMok, Declaration::TaXot] {
            if text == declaration.kanji() {
                let event = Event::Declare {
                    declaration,
                    named: None,
                };
                Cetkaik::check_move(&self.state, &event)
                    .map_err(|rule| format!("{text}: {rule}"))?;
                return Ok(event);
            }
        }
        let event = self
            .state
            .legal_moves()
            .into_iter()
            .map(|mv| Event::mv(mv, Throws::default()))
            .find(|event| {
                let Event::Move { mv, .. } = event else {
                    return false;
                };
                mv.to_string() == text || Cetkaik::move_text(&self.state, event) == text
            })
            .ok_or_else(|| format!("`{text}` is not a legal move here"))?;
        Cetkaik::check_move(&self.state, &event).map_err(|rule| format!("{text}: {rule}"))?;
        Ok(event)
    }
}

#[pymethods]
impl CetkaikPosition {
    /// The start of a match under the standard rules, the IA side (黒) moving first.
    #[new]
    fn new() -> CetkaikPosition {
        CetkaikPosition::from_state(Cetkaik::start_position(&SeasonStart::default()))
    }

    /// The board, the pieces in hand, the side to move, the scores and the rate, as text.
    fn text(&self) -> String {
        Cetkaik::position_text(&self.state)
    }

    /// The moves the side to move may make (without their stick throws), like ``KAI-KY``.
    fn legal_moves(&self) -> Vec<String> {
        self.state
            .legal_moves()
            .into_iter()
            .map(|mv| mv.to_string())
            .collect()
    }

    /// Plays a move or a declaration. Raises :class:`kifu.IllegalMove` if the rules forbid it
    /// (or it needs sticks); the position is then unchanged.
    fn push(&mut self, text: &str) -> PyResult<()> {
        let event = self.parse(text).map_err(IllegalMove::new_err)?;
        let before = self.state.clone();
        Cetkaik::play(&mut self.state, &event).map_err(|e| IllegalMove::new_err(e.to_string()))?;
        self.undo.push((before, text.to_string()));
        Ok(())
    }

    /// Takes back the last move played on this object and returns its text.
    fn pop(&mut self) -> PyResult<String> {
        let (before, text) = self
            .undo
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from a position with no move played"))?;
        self.state = before;
        Ok(text)
    }

    /// ``None`` when the move is legal here, or why not.
    fn check_move(&self, text: &str) -> Option<String> {
        self.parse(text).err()
    }

    /// Who won once the match is over (``kind`` ``"match-over"``), ``None`` while it goes on.
    fn outcome(&self) -> Option<Outcome> {
        Cetkaik::outcome(&self.state).map(|outcome| Outcome {
            kind: "match-over".to_string(),
            winner: match outcome {
                kifu_record::Outcome::Win(side) => Some(side.name()),
                _ => None,
            },
        })
    }

    /// The side to move, as the record counts sides: ``"first"`` is the season's first mover.
    #[getter]
    fn turn(&self) -> &'static str {
        Cetkaik::turn(&self.state).name()
    }

    /// The season being played, from 0.
    #[getter]
    fn season(&self) -> u8 {
        self.state.season()
    }

    /// A copy.
    fn copy(&self) -> CetkaikPosition {
        self.clone()
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!("<kifu.cetkaik.Position season {}>", self.state.season())
    }
}
