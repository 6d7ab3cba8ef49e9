//! `kifu.Record` and `kifu.Diagnostic`: one record of a file, of any game, with the problems
//! found in it.

use std::borrow::Cow;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use kifu_record::{
    Decoded, Diagnostic as RustDiagnostic, NodeItem, Record, RecordFormat, SourceText,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::games::{PyGame, ending_word};

/// One problem found in a record: where (line and column from 1), how bad
/// (``"error"`` or ``"warning"``), what kind (``"syntax"``, ``"illegal-move"`` …) and why.
#[pyclass(module = "kifu", name = "Diagnostic", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1.
    pub column: u32,
    /// ``"error"`` (the record is invalid) or ``"warning"``.
    pub severity: &'static str,
    /// The kind of problem: ``encoding``, ``syntax``, ``illegal-move``, ``after-end``,
    /// ``inconsistent``, ``unknown`` or ``no-record``.
    pub kind: &'static str,
    /// The reason, in plain words.
    pub message: String,
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        format!(
            "Diagnostic(line={}, column={}, severity={:?}, message={:?})",
            self.line, self.column, self.severity, self.message
        )
    }

    fn __str__(&self) -> String {
        format!(
            "{}:{}: {}: {}",
            self.line, self.column, self.severity, self.message
        )
    }
}

/// One line of play other than the main line: `moves` from the start of the game (so it can be
/// replayed on its own), leaving the main line or another variation at move `start_ply`
/// (counted from 1), with the ending written at its end if any.
#[pyclass(module = "kifu", name = "Variation", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Variation {
    /// The move, counted from 1, where this line leaves the line it branches from.
    pub start_ply: u32,
    /// Every move of the line from the start position, in the game's machine notation.
    pub moves: Vec<String>,
    /// How the line ends (``"TORYO"`` …), or ``None``.
    pub ending: Option<String>,
}

#[pymethods]
impl Variation {
    fn __repr__(&self) -> String {
        format!(
            "Variation(start_ply={}, moves=[{} moves], ending={:?})",
            self.start_ply,
            self.moves.len(),
            self.ending
        )
    }
}

/// What every game's record offers the Python side, written once for `Record<G>`.
pub trait RecordOps: Send + Sync {
    fn game(&self) -> &'static str;
    fn start_text(&self) -> String;
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>>;
    fn ply_count(&self) -> usize;
    fn replayed_moves(&self) -> Vec<String>;
    fn header<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>>;
    fn ending(&self) -> Option<String>;
    fn outcome(&self) -> Option<&'static str>;
    fn times(&self) -> Vec<Option<f64>>;
    fn comments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>>;
    fn variations(&self) -> Vec<Variation>;
    fn write(
        &self,
        format: &str,
    ) -> Result<(kifu_record::Written, kifu_record::TextEncoding), String>;
    fn positions(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>>;
    fn start_position(&self, py: Python<'_>) -> PyResult<Py<PyAny>>;
}

impl<G: PyGame> RecordOps for Record<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn start_text(&self) -> String {
        G::position_text(&G::start_position(&self.start))
    }

    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, G::main_line_texts(py, self))
    }

    fn replayed_moves(&self) -> Vec<String> {
        let mut texts = Vec::new();
        self.walk_main_line(|_, position, mv| texts.push(G::move_text(position, mv)));
        texts
    }

    fn ply_count(&self) -> usize {
        self.moves
            .main_line()
            .take_while(|&id| matches!(self.moves[id].item, NodeItem::Move(_)))
            .count()
    }

    fn header<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for entry in self.header.entries() {
            if !dict.contains(&entry.key)? {
                dict.set_item(&entry.key, &entry.value)?;
            }
        }
        Ok(dict)
    }

    fn ending(&self) -> Option<String> {
        self.moves.ending().map(|e| ending_word::<G>(&e.kind))
    }

    fn outcome(&self) -> Option<&'static str> {
        match Record::outcome(self) {
            kifu_record::Outcome::Win(side) => Some(side.name()),
            kifu_record::Outcome::Draw => Some("draw"),
            kifu_record::Outcome::None => None,
        }
    }

    fn times(&self) -> Vec<Option<f64>> {
        self.moves
            .main_line()
            .filter(|&id| matches!(self.moves[id].item, NodeItem::Move(_)))
            .map(|id| self.moves[id].time_ms().map(|ms| ms as f64 / 1000.0))
            .collect()
    }

    fn comments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        let tree = &self.moves;
        for id in std::iter::once(tree.root()).chain(tree.main_line()) {
            let node = &tree[id];
            if node.comments().is_empty() {
                continue;
            }
            let texts: Vec<&str> = node.comments().iter().map(|c| c.text.as_str()).collect();
            match dict.get_item(node.ply())? {
                Some(list) => {
                    for text in texts {
                        list.cast::<PyList>()?.append(text)?;
                    }
                }
                None => dict.set_item(node.ply(), PyList::new(py, texts)?)?,
            }
        }
        Ok(dict)
    }

    fn variations(&self) -> Vec<Variation> {
        let tree = &self.moves;
        // The text of every move the rules accept, wherever it is in the tree.
        let mut texts: Vec<Option<String>> = vec![None; tree.len()];
        self.walk_tree(|id, position, mv| texts[id.index()] = Some(G::move_text(position, mv)));
        let mut out = Vec::new();
        for id in tree.ids() {
            let Some(parent) = tree.parent(id) else {
                continue;
            };
            if tree.main_child(parent) == Some(id) || !matches!(tree[id].item, NodeItem::Move(_)) {
                continue;
            }
            let line: Vec<_> = tree
                .path_to(id)
                .into_iter()
                .chain(tree.line_from(id))
                .collect();
            let moves: Vec<String> = line
                .iter()
                .map_while(|n| texts[n.index()].clone())
                .collect();
            let ending = line
                .last()
                .and_then(|&n| tree[n].ending())
                .map(|e| ending_word::<G>(&e.kind));
            out.push(Variation {
                start_ply: tree[id].ply(),
                moves,
                ending,
            });
        }
        out
    }

    fn write(
        &self,
        format: &str,
    ) -> Result<(kifu_record::Written, kifu_record::TextEncoding), String> {
        let target = crate::games::format_named::<G>(format).ok_or_else(|| {
            format!(
                "unknown {} format `{format}` (one of: {})",
                G::NAME,
                G::formats()
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        Ok((target.write(std::slice::from_ref(self)), target.encoding()))
    }

    fn positions(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.positions()
            .skip(1)
            .map(|(_, position)| G::position_object(py, position))
            .collect()
    }

    fn start_position(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        G::position_object(py, G::start_position(&self.start))
    }
}

/// One game record read from a file or text: its header, start, moves (with variations, times
/// and comments) and ending, and every problem found reading and replaying it.
///
/// Records come from :func:`kifu.read`, :func:`kifu.parse` and :func:`kifu.read_many`. A
/// record with problems is still returned: ``valid`` is false and ``diagnostics`` says what is
/// wrong and where. Moves are given in the game's machine notation: USI for shogi and chu
/// (``7g7f``, ``P*5e``), notation ⓪ of the CKKA draft for cetkaik (``MAU弓MAIMY橋一``). The main
/// line stops at the first move the rules refuse (its diagnostic says why).
///
/// >>> import kifu
/// >>> r = kifu.parse("PI\n+\n+7776FU\n-3334FU\n%TORYO\n")[0]
/// >>> r.game, r.format, r.moves, r.ending, r.valid
/// ('shogi', 'csa', ['7g7f', '3c3d'], 'TORYO', True)
#[pyclass(module = "kifu", name = "Record", frozen)]
pub struct PyRecord {
    pub inner: Box<dyn RecordOps>,
    pub format: &'static str,
    pub diagnostics: Vec<Diagnostic>,
    pub valid: bool,
    pub path: Option<String>,
}

#[pymethods]
impl PyRecord {
    /// The game: ``"shogi"``, ``"chu"`` or ``"cetkaik"``.
    #[getter]
    fn game(&self) -> &'static str {
        self.inner.game()
    }

    /// The format the record was read in (``"csa"``, ``"kif"``, ``"ki2"``, ``"jkf"``,
    /// ``"usi"``, ``"csl"``, ``"ckka"`` …).
    #[getter]
    fn format(&self) -> &'static str {
        self.format
    }

    /// The file the record was read from, or ``None`` for text or bytes.
    #[getter]
    fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// The start position: SFEN for shogi and chu; for cetkaik, the board in notation ⓪'s
    /// piece words with the scores and the rate.
    #[getter]
    fn start(&self) -> String {
        self.inner.start_text()
    }

    /// The moves of the main line, as a list of strings in the game's machine notation (USI
    /// for shogi and chu, notation ⓪ for cetkaik). Each access builds a new list.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.inner.moves(py)
    }

    /// The game information as a dict, key → value, as the file wrote the keys (``先手``,
    /// ``Black``, ``EVENT`` …); the first of repeated keys.
    #[getter]
    fn header<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.inner.header(py)
    }

    /// How the main line ends, as a CSA-style word (``"TORYO"``, ``"SENNICHITE"``,
    /// ``"TIME_UP"``, ``"KACHI"``, ``"TSUMI"`` …), or ``None`` when the record says nothing.
    #[getter]
    fn ending(&self) -> Option<String> {
        self.inner.ending()
    }

    /// Who won by the record's ending, or by the final position when it has none:
    /// ``"first"``, ``"second"``, ``"draw"``, or ``None`` when undecided.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.inner.outcome()
    }

    /// The time each main-line move took, in seconds (``None`` where the record has none).
    #[getter]
    fn times(&self) -> Vec<Option<f64>> {
        self.inner.times()
    }

    /// The comments of the main line by ply: ``{0: [...]}`` holds those before the first
    /// move, ``{n: [...]}`` those after move n. Plies without comments are left out.
    #[getter]
    fn comments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.inner.comments(py)
    }

    /// Every other line of play in the move tree, as :class:`kifu.Variation` objects (each
    /// with its moves from the start), in the order the file wrote them.
    #[getter]
    fn variations(&self) -> Vec<Variation> {
        self.inner.variations()
    }

    /// True when reading and replaying the record found no error (warnings allowed).
    #[getter]
    fn valid(&self) -> bool {
        self.valid
    }

    /// Every problem found in this record, as :class:`kifu.Diagnostic` objects.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        self.diagnostics.clone()
    }

    /// The record written in `format` (any format of its game kifu writes: ``"csa"``,
    /// ``"kif"``, ``"ki2"``, ``"jkf"``, ``"usi"`` for shogi …), as ``(text, warnings)``:
    /// `warnings` lists everything the format cannot hold and that was left out.
    fn to_string(&self, format: &str) -> PyResult<(String, Vec<String>)> {
        let (written, _) = self.inner.write(format).map_err(PyValueError::new_err)?;
        Ok((written.text, written.warnings))
    }

    /// Like :meth:`to_string`, as the bytes of a file of that format (Shift_JIS for ``kif``
    /// and ``ki2``, UTF-8 otherwise), with the characters that encoding cannot hold warned
    /// about too.
    fn to_bytes(&self, format: &str) -> PyResult<(Vec<u8>, Vec<String>)> {
        let (written, encoding) = self.inner.write(format).map_err(PyValueError::new_err)?;
        Ok(written.encode(encoding))
    }

    /// The position after each move of the main line, as new position objects
    /// (:class:`kifu.shogi.Position`, :class:`kifu.chu.Position` or
    /// :class:`kifu.cetkaik.Position`).
    fn positions(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.inner.positions(py)
    }

    /// The start position as a position object.
    fn start_position(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.inner.start_position(py)
    }

    /// The main line replayed move by move (what :attr:`moves` gives, computed the slow way:
    /// for kifu's own tests).
    fn _replayed_moves(&self) -> Vec<String> {
        self.inner.replayed_moves()
    }

    /// The number of moves in the main line.
    fn __len__(&self) -> usize {
        self.inner.ply_count()
    }

    fn __repr__(&self) -> String {
        format!(
            "<kifu.Record {} {}{}: {} moves, {}>",
            self.inner.game(),
            self.format,
            self.path
                .as_deref()
                .map(|p| format!(" {p}"))
                .unwrap_or_default(),
            self.inner.ply_count(),
            if self.valid { "valid" } else { "invalid" }
        )
    }
}

/// Why a source could not be read at all.
#[derive(Debug)]
pub enum ReadFailure {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The bytes are not text of the format (line, column, reason).
    Unreadable {
        line: u32,
        column: u32,
        message: String,
    },
    /// A game or format name that does not exist, or that does not go together.
    Usage(String),
}

/// Reads every record of an input the front door opened (`kifu_records::open`) as game `G`.
pub fn read_as<G: PyGame>(
    opened: kifu_records::open::Opened<'_>,
    path: Option<&Path>,
) -> Result<Vec<PyRecord>, ReadFailure> {
    let format = format_named::<G>(opened.format)?;
    let file_level = file_level(&opened.decoded)?;
    Ok(py_records(&opened.decoded.text, format, file_level, path).collect())
}

/// The decoding problems of an opened input, and its text when it is not the input's bytes
/// as they are (`None`: the bytes are the whole text, valid UTF-8 without a byte-order mark,
/// and can become the text without a copy).
pub fn owned_text(
    opened: kifu_records::open::Opened<'_>,
    bytes_len: usize,
) -> Result<(Vec<Diagnostic>, Option<String>), ReadFailure> {
    let file_level = file_level(&opened.decoded)?;
    let text = match opened.decoded.text {
        Cow::Owned(text) => Some(text),
        // Borrowed: valid UTF-8, and the whole of it unless a byte-order mark was left out.
        Cow::Borrowed(text) if text.len() < bytes_len => Some(text.to_owned()),
        Cow::Borrowed(_) => None,
    };
    Ok((file_level, text))
}

/// The records of a decoded text as game `G`, read one at a time as Python asks for them
/// (see [`RecordStream`]).
pub fn stream_as<G: PyGame>(
    text: String,
    format: &str,
    file_level: Vec<Diagnostic>,
    path: Option<&Path>,
) -> Result<RecordStream, ReadFailure> {
    let format = format_named::<G>(format)?;
    let path = path.map(Path::to_path_buf);
    Ok(RecordStream {
        records: Mutex::new(StreamedText::new(text, |text| {
            Box::new(py_records(text, format, file_level, path.as_deref()))
        })),
    })
}

/// The format the front door chose, by its name in `G`'s table.
fn format_named<G: PyGame>(name: &str) -> Result<&'static dyn RecordFormat<G>, ReadFailure> {
    crate::games::format_named::<G>(name).ok_or_else(|| {
        ReadFailure::Usage(format!(
            "unknown {} format `{name}` (one of: {})",
            G::NAME,
            G::formats()
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })
}

/// The problems of decoding itself, for the first record; an error among them means the
/// bytes are not text of the format at all.
fn file_level(decoded: &Decoded<'_>) -> Result<Vec<Diagnostic>, ReadFailure> {
    let mut source = None;
    let file_level = python_diagnostics(&decoded.diagnostics, &decoded.text, &mut source);
    match file_level.iter().find(|d| d.severity == "error") {
        Some(first) => Err(ReadFailure::Unreadable {
            line: first.line,
            column: first.column,
            message: first.message.clone(),
        }),
        None => Ok(file_level),
    }
}

/// `diagnostics` with their spans turned into lines and columns of `text`; the line index
/// (`source`) is made the first time a record has a problem, and kept for the next ones.
fn python_diagnostics<'t>(
    diagnostics: &[RustDiagnostic],
    text: &'t str,
    source: &mut Option<SourceText<'t>>,
) -> Vec<Diagnostic> {
    if diagnostics.is_empty() {
        return Vec::new();
    }
    let source = source.get_or_insert_with(|| SourceText::new("", text));
    diagnostics
        .iter()
        .map(|d| {
            let at = source.line_col(d.span.start);
            Diagnostic {
                line: at.line,
                column: at.column,
                severity: match d.severity {
                    kifu_record::Severity::Error => "error",
                    kifu_record::Severity::Warning => "warning",
                },
                kind: d.kind.code(),
                message: d.message.clone(),
            }
        })
        .collect()
}

/// The Python records of a decoded `text`, read as `format` one at a time; `file_level` (the
/// decoding's warnings) go to the first.
fn py_records<'t, G: PyGame>(
    text: &'t str,
    format: &'static dyn RecordFormat<G>,
    mut file_level: Vec<Diagnostic>,
    path: Option<&Path>,
) -> impl Iterator<Item = PyRecord> + 't {
    let path = path.map(|p| p.to_string_lossy().into_owned());
    let mut source = None;
    format.records(text).map(move |read| {
        let mut diagnostics = std::mem::take(&mut file_level);
        diagnostics.extend(python_diagnostics(&read.diagnostics, text, &mut source));
        let valid = !diagnostics.iter().any(|d| d.severity == "error");
        PyRecord {
            inner: Box::new(read.record),
            format: format.name(),
            diagnostics,
            valid,
            path: path.clone(),
        }
    })
}

/// The records of one text, read as they are asked for.
type PyRecordIter<'t> = Box<dyn Iterator<Item = PyRecord> + Send + 't>;

self_cell::self_cell!(
    /// A decoded text with the reader going through it: the reader borrows the text, and
    /// both live as long as Python holds the stream.
    struct StreamedText {
        owner: String,
        #[not_covariant]
        dependent: PyRecordIter,
    }
);

/// The records of one file or text, read one at a time as the loop asks for the next: only
/// the text and the record being read are held, whatever the number of games in the file
/// (:func:`kifu.stream`).
#[pyclass(module = "kifu", name = "RecordStream")]
pub struct RecordStream {
    /// In a mutex because a Python object must be `Sync`: any thread may ask for the next
    /// record.
    records: Mutex<StreamedText>,
}

#[pymethods]
impl RecordStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Reads the next record with the interpreter released, the lock taken once released: a
    /// second thread waiting for it must not hold the interpreter the first needs back.
    fn __next__(&self, py: Python<'_>) -> Option<PyRecord> {
        py.detach(|| {
            let mut records = self.records.lock().unwrap_or_else(PoisonError::into_inner);
            records.with_dependent_mut(|_, records| records.next())
        })
    }
}
