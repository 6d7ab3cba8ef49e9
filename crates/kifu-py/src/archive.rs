//! `kifu.Archive`: an archive built by `kifu index`, asked from Python (kifu-index answers;
//! answers come as the same JSON the command line prints, turned into dicts and lists).

use std::path::PathBuf;

use kifu_index::archive::Archive;
use kifu_index::games::GameResult;
use kifu_index::query::{self, Filter};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

/// An archive of shogi games (``kifu index FILES -o ARCHIVE``), opened without loading it.
///
/// ``explore`` and ``find`` take a position as ``"startpos"``, an SFEN, or
/// ``"startpos moves 7g7f 3c3d"``, and the same filters as the command line: ``player``,
/// ``min_rating``, ``date_from``/``date_to`` (``YYYY-MM-DD``), ``event``, ``result``
/// (``black-win``, ``white-win``, ``draw``, ``unknown``).
#[pyclass(name = "Archive", module = "kifu", frozen, subclass)]
pub struct PyArchive {
    archive: Archive,
}

/// Parses the filters the methods share.
fn filter(
    player: Option<String>,
    min_rating: Option<f32>,
    date_from: Option<&str>,
    date_to: Option<&str>,
    event: Option<String>,
    result: Option<&str>,
) -> PyResult<Filter> {
    let day = |d: Option<&str>| {
        d.map(|t| Filter::day(t).map_err(PyValueError::new_err))
            .transpose()
    };
    Ok(Filter {
        player,
        min_rating,
        from_day: day(date_from)?,
        to_day: day(date_to)?,
        event,
        result: result
            .map(|r| {
                GameResult::by_name(r).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "result `{r}`: one of black-win, white-win, draw, unknown"
                    ))
                })
            })
            .transpose()?,
    })
}

/// A value as Python objects, through JSON (the archive's answers are small).
pub(crate) fn to_python<T: serde::Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(value).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let json = py.import("json")?;
    Ok(json.call_method1("loads", (text,))?.unbind())
}

fn archive_error(e: kifu_index::archive::ArchiveError) -> PyErr {
    match e {
        kifu_index::archive::ArchiveError::Io { .. } => PyOSError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

#[pymethods]
impl PyArchive {
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<PyArchive> {
        let archive = py.detach(|| Archive::open(&path)).map_err(archive_error)?;
        Ok(PyArchive { archive })
    }

    /// Games in the archive.
    fn __len__(&self) -> usize {
        self.archive.games() as usize
    }

    /// The moves played from ``position``: a dict with ``games``, ``results`` (for the side to
    /// move), ``moves`` (each with ``move`` in USI, ``games``, ``results``,
    /// ``average_rating``), ``top_games`` and ``latest_games``.
    #[pyo3(signature = (position = "startpos", *, player = None, min_rating = None, date_from = None, date_to = None, event = None, result = None, top = 5))]
    #[allow(clippy::too_many_arguments)]
    fn explore(
        &self,
        py: Python<'_>,
        position: &str,
        player: Option<String>,
        min_rating: Option<f32>,
        date_from: Option<&str>,
        date_to: Option<&str>,
        event: Option<String>,
        result: Option<&str>,
        top: usize,
    ) -> PyResult<Py<PyAny>> {
        let filter = filter(player, min_rating, date_from, date_to, event, result)?;
        let position = query::parse_position(position).map_err(PyValueError::new_err)?;
        let found = py
            .detach(|| query::explore(&self.archive, &position, &filter, top))
            .map_err(archive_error)?;
        to_python(py, &found)
    }

    /// The games that reached ``position`` by any move order: a list of dicts with ``file``,
    /// ``record`` (from 1), ``ply`` and the game's facts.
    #[pyo3(signature = (position, *, player = None, min_rating = None, date_from = None, date_to = None, event = None, result = None, limit = None))]
    #[allow(clippy::too_many_arguments)]
    fn find(
        &self,
        py: Python<'_>,
        position: &str,
        player: Option<String>,
        min_rating: Option<f32>,
        date_from: Option<&str>,
        date_to: Option<&str>,
        event: Option<String>,
        result: Option<&str>,
        limit: Option<usize>,
    ) -> PyResult<Py<PyAny>> {
        let filter = filter(player, min_rating, date_from, date_to, event, result)?;
        let position = query::parse_position(position).map_err(PyValueError::new_err)?;
        let found = py
            .detach(|| query::find(&self.archive, &position, &filter, limit))
            .map_err(archive_error)?;
        to_python(py, &found)
    }

    /// Game ``number`` (from 0, in the order games were added) as a dict of its facts.
    fn game(&self, py: Python<'_>, number: u32) -> PyResult<Py<PyAny>> {
        if number >= self.archive.games() {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "game {number}: the archive holds {}",
                self.archive.games()
            )));
        }
        let meta = self.archive.game(number).map_err(archive_error)?;
        to_python(py, &meta)
    }

    /// The 16-hex-digit key of a position (``docs/position-key.md``).
    #[staticmethod]
    fn position_key(position: &str) -> PyResult<String> {
        let position = query::parse_position(position).map_err(PyValueError::new_err)?;
        Ok(kifu_index::key::hex(kifu_index::key::position_key(
            &position,
        )))
    }
}
