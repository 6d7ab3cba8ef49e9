//! `kifu.shogi.Position`: a shogi position to play moves on, with its history.

use kifu_shogi::{Outcome as ShogiOutcome, Position, side_of};
use pyo3::exceptions::{PyIndexError, PyValueError};
use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString};

use crate::IllegalMove;
use crate::outcome::Outcome;

/// A shogi position, with the moves played on it (for repetition and :meth:`pop`).
///
/// ``Position()`` is the start of an even game; ``Position(sfen)`` any position. Moves are USI
/// strings (``7g7f``, ``8h2b+``, ``P*5e``).
///
/// >>> from kifu.shogi import Position
/// >>> pos = Position()
/// >>> len(pos.legal_moves())
/// 30
/// >>> pos.push("7g7f"); pos.sfen()
/// 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2'
#[pyclass(module = "kifu.shogi", name = "Position")]
#[derive(Clone)]
pub struct ShogiPosition {
    position: Position,
}

impl ShogiPosition {
    pub fn from_position(position: Position) -> ShogiPosition {
        ShogiPosition { position }
    }

    fn parse(&self, usi: &str) -> Result<kifu_shogi::Move, String> {
        let mv = kifu_shogi::usi::parse_move(usi).map_err(|e| e.to_string())?;
        self.position
            .check_move(mv)
            .map_err(|rule| format!("{usi}: {rule}"))?;
        Ok(mv)
    }
}

#[pymethods]
impl ShogiPosition {
    /// The start of an even game, or the position an SFEN string describes.
    #[new]
    #[pyo3(signature = (sfen = None))]
    fn new(sfen: Option<&str>) -> PyResult<ShogiPosition> {
        let position = match sfen {
            None => Position::startpos(),
            Some(text) => {
                let text = text.strip_prefix("sfen ").unwrap_or(text);
                Position::from_sfen(text).map_err(|e| PyValueError::new_err(e.to_string()))?
            }
        };
        Ok(ShogiPosition { position })
    }

    /// The position as SFEN.
    fn sfen(&self) -> String {
        self.position.to_sfen()
    }

    /// Every legal move, as USI strings.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let moves = self.position.legal_moves();
        PyList::new(py, moves.iter().map(|&mv| usi_string(py, mv)))
    }

    /// Plays a move (USI). Raises :class:`kifu.IllegalMove`, naming the rule, if the rules
    /// forbid it; the position is then unchanged.
    fn push(&mut self, usi: &str) -> PyResult<()> {
        let mv = self.parse(usi).map_err(IllegalMove::new_err)?;
        self.position.play_unchecked(mv);
        Ok(())
    }

    /// Takes back the last move played on this position and returns it (USI). Raises
    /// ``IndexError`` when no move was played.
    fn pop(&mut self) -> PyResult<String> {
        self.position
            .undo()
            .map(|mv| mv.usi())
            .ok_or_else(|| PyIndexError::new_err("pop from a position with no move played"))
    }

    /// ``None`` when the move is legal here, or why not: the rule it breaks as shogi players
    /// word it (``"P*5c: 二歩 — …"``), or why the text is not a move.
    fn check_move(&self, usi: &str) -> Option<String> {
        self.parse(usi).err()
    }

    /// True when the move (USI) is legal here.
    fn is_legal(&self, usi: &str) -> bool {
        self.parse(usi).is_ok()
    }

    /// True when the side to move is in check.
    fn is_check(&self) -> bool {
        self.position.is_check()
    }

    /// How the game stands decided by the rules alone (``checkmate``, ``no-legal-moves``,
    /// ``repetition`` (千日手), ``perpetual-check``), or ``None`` while play goes on.
    fn outcome(&self) -> Option<Outcome> {
        self.position.outcome().map(|outcome| {
            let (kind, winner) = match outcome {
                ShogiOutcome::Checkmate { winner } => ("checkmate", Some(winner)),
                ShogiOutcome::NoLegalMoves { winner } => ("no-legal-moves", Some(winner)),
                ShogiOutcome::Repetition => ("repetition", None),
                ShogiOutcome::PerpetualCheck { winner } => ("perpetual-check", Some(winner)),
            };
            Outcome {
                kind: kind.to_string(),
                winner: winner.map(|c| side_of(c).name()),
            }
        })
    }

    /// The side to move: ``"first"`` (先手, black) or ``"second"`` (後手, white).
    #[getter]
    fn turn(&self) -> &'static str {
        side_of(self.position.turn()).name()
    }

    /// The move number of SFEN (1 at the start of a game, counting both sides' moves).
    #[getter]
    fn move_number(&self) -> u32 {
        self.position.move_number()
    }

    /// The moves played on this position object, oldest first (USI).
    #[getter]
    fn history(&self) -> Vec<String> {
        self.position.moves_played().map(|mv| mv.usi()).collect()
    }

    /// A copy with the same history.
    fn copy(&self) -> ShogiPosition {
        self.clone()
    }

    fn __copy__(&self) -> ShogiPosition {
        self.clone()
    }

    fn __eq__(&self, other: PyRef<'_, ShogiPosition>) -> bool {
        self.position.to_sfen() == other.position.to_sfen()
    }

    fn __str__(&self) -> String {
        self.position.diagram()
    }

    fn __repr__(&self) -> String {
        format!("Position({:?})", self.position.to_sfen())
    }
}

/// Every move's USI string, made once and shared: a list of moves (`Record.moves`,
/// `Position.legal_moves`) then costs a reference count per move instead of a new string.
/// Indexed by [`move_key`]; filled as moves are first seen.
static USI_STRINGS: PyOnceLock<Box<[OnceLock<Py<PyString>>]>> = PyOnceLock::new();

/// Distinct keys: destination (81) × origin (81 squares, then 16 piece kinds dropped) ×
/// promotion (2).
const MOVE_KEYS: usize = 81 * (81 + 16) * 2;

fn move_key(mv: kifu_shogi::Move) -> usize {
    let origin = match (mv.from(), mv.drop_kind()) {
        (Some(from), _) => from.index(),
        (None, Some(kind)) => 81 + (kind as usize & 15),
        (None, None) => 81 + 15,
    };
    (mv.to().index() + 81 * origin) * 2 + usize::from(mv.is_promotion())
}

/// A move's USI text as a Python string, shared between every list that holds it.
pub fn usi_string<'py>(py: Python<'py>, mv: kifu_shogi::Move) -> Bound<'py, PyString> {
    UsiStrings::get(py).string(py, mv)
}

/// The shared USI strings, looked up once for a whole list of moves rather than per move.
#[derive(Clone, Copy)]
pub struct UsiStrings(&'static [OnceLock<Py<PyString>>]);

impl UsiStrings {
    /// The table, made on first use.
    pub fn get(py: Python<'_>) -> UsiStrings {
        UsiStrings(
            USI_STRINGS.get_or_init(py, || (0..MOVE_KEYS).map(|_| OnceLock::new()).collect()),
        )
    }

    /// `mv`'s string (a new reference to the shared one).
    #[inline]
    pub fn string<'py>(self, py: Python<'py>, mv: kifu_shogi::Move) -> Bound<'py, PyString> {
        self.0[move_key(mv)]
            .get_or_init(|| {
                let mut buffer = [0u8; 8];
                PyString::new(py, usi_text(mv, &mut buffer)).unbind()
            })
            .bind(py)
            .clone()
    }
}

/// The USI text of a move written into `buffer` (no allocation per move).
pub fn usi_text(mv: kifu_shogi::Move, buffer: &mut [u8; 8]) -> &str {
    use std::io::Write;
    let mut cursor = std::io::Cursor::new(&mut buffer[..]);
    let _ = write!(cursor, "{mv}");
    let len = cursor.position() as usize;
    std::str::from_utf8(&buffer[..len]).unwrap_or("")
}
