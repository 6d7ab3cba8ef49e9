//! `kifu.Outcome`: how a game stands decided, shared by the positions of every game.

use pyo3::prelude::*;

/// How a game stands decided: `kind` says how (``"checkmate"``, ``"repetition"``,
/// ``"TORYO"`` …) and `winner` who won (``"first"``, ``"second"``, or ``None`` for a draw).
#[pyclass(module = "kifu", name = "Outcome", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Outcome {
    /// How the game ended.
    pub kind: String,
    /// ``"first"``, ``"second"``, or ``None`` for a draw.
    pub winner: Option<&'static str>,
}

#[pymethods]
impl Outcome {
    fn __repr__(&self) -> String {
        format!("Outcome(kind={:?}, winner={:?})", self.kind, self.winner)
    }
}
