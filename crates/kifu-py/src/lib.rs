//! The Python module `kifu` (its native part, `kifu._kifu`): game records of shogi, chu shogi
//! and cetkaik read with diagnostics, replayed, converted, and positions to play on.
//!
//! Everything here is a thin layer over the library crates: `kifu-records` reads and writes
//! the files, the rules crates replay them. The Python package in `python/kifu` re-exports these
//! names and holds the type stubs.

use std::path::{Path, PathBuf};

use kifu_cetkaik::Cetkaik;
use kifu_chu::Chu;
use kifu_shogi::Shogi;
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};
use rayon::prelude::*;

/// Records built on `read_many`'s threads are freed on Python's: mimalloc frees a block of
/// another thread without the lock glibc's malloc takes on that thread's arena.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod analyze;
mod archive;
mod cetkaik;
mod chu;
mod games;
mod outcome;
mod record;
mod shogi;

use kifu_records::detect::GameKind;
use record::{PyRecord, ReadFailure, RecordStream, read_as, stream_as};

create_exception!(
    kifu,
    ReadError,
    PyValueError,
    "The input cannot be read as a record file at all (its bytes are not text in the format's \
     encoding), or the game or format asked for does not exist. `line` and `column` (from 1) \
     say where, when there is a place to point at. Problems inside a record are not raised: \
     they are the record's diagnostics."
);
create_exception!(
    kifu,
    IllegalMove,
    PyValueError,
    "A move that the rules forbid in this position, or that is not a move at all; the message \
     names the rule as players word it (二歩, 打ち歩詰め …)."
);

impl ReadFailure {
    fn into_py_err(self, py: Python<'_>, name: Option<&str>) -> PyErr {
        let prefix = name.map(|n| format!("{n}: ")).unwrap_or_default();
        match self {
            // OSError(errno, strerror, filename) makes the subclass Python itself would raise
            // (FileNotFoundError, PermissionError …).
            ReadFailure::Io(e) => match (e.raw_os_error(), name) {
                (Some(errno), Some(name)) => {
                    let message = e.to_string();
                    let strerror = message.split(" (os error").next().unwrap_or(&message);
                    PyOSError::new_err((errno, strerror.to_string(), name.to_string()))
                }
                _ => PyOSError::new_err(format!("{prefix}{e}")),
            },
            ReadFailure::Usage(message) => PyValueError::new_err(message),
            ReadFailure::Unreadable {
                line,
                column,
                message,
            } => {
                let err = ReadError::new_err(format!("{prefix}{line}:{column}: {message}"));
                let value = err.value(py);
                let _ = value.setattr("line", line);
                let _ = value.setattr("column", column);
                err
            }
        }
    }
}

/// How to read: the game and format forced by the caller, if any.
#[derive(Clone, Copy)]
struct ReadOptions<'a> {
    game: Option<GameKind>,
    format: Option<&'a str>,
}

impl<'a> ReadOptions<'a> {
    fn new(game: Option<&str>, format: Option<&'a str>) -> PyResult<ReadOptions<'a>> {
        let game = match game {
            None | Some("auto") => None,
            Some(name) => Some(GameKind::by_name(name).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "unknown game `{name}` (one of: shogi, chu, cetkaik)"
                ))
            })?),
        };
        if let Some(format) = format {
            let candidates: Vec<GameKind> = match game {
                Some(g) => vec![g],
                None => GameKind::ALL.to_vec(),
            };
            if !candidates.iter().any(|&g| games::knows_format(g, format)) {
                let known: Vec<String> = candidates
                    .iter()
                    .map(|g| format!("{}: {}", g.name(), g.format_names().join(", ")))
                    .collect();
                return Err(PyValueError::new_err(format!(
                    "unknown format `{format}`; {}",
                    known.join("; ")
                )));
            }
        }
        Ok(ReadOptions { game, format })
    }

    /// Reads every record of one source.
    fn read(&self, bytes: &[u8], path: Option<&Path>) -> Result<Vec<PyRecord>, ReadFailure> {
        let opened = self.open(bytes, path)?;
        match opened.game {
            GameKind::Shogi => read_as::<Shogi>(opened, path),
            GameKind::Chu => read_as::<Chu>(opened, path),
            GameKind::Cetkaik => read_as::<Cetkaik>(opened, path),
        }
    }

    /// The records of one source, to be read one at a time.
    fn stream(&self, bytes: Vec<u8>, path: Option<&Path>) -> Result<RecordStream, ReadFailure> {
        let opened = self.open(&bytes, path)?;
        let (game, format) = (opened.game, opened.format);
        let (file_level, text) = record::owned_text(opened, bytes.len())?;
        let text = text.unwrap_or_else(|| {
            String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
        });
        match game {
            GameKind::Shogi => stream_as::<Shogi>(text, format, file_level, path),
            GameKind::Chu => stream_as::<Chu>(text, format, file_level, path),
            GameKind::Cetkaik => stream_as::<Cetkaik>(text, format, file_level, path),
        }
    }

    /// The bytes through the records layer's front door (`kifu_records::open`), as the
    /// command line reads them: one decode, the game and format judged on the decoded text,
    /// the named ones first.
    fn open<'b>(
        &self,
        bytes: &'b [u8],
        path: Option<&Path>,
    ) -> Result<kifu_records::open::Opened<'b>, ReadFailure> {
        let request = kifu_records::open::Request {
            path,
            game: self.game,
            format: self.format,
        };
        let opened = kifu_records::open::open(bytes, &request);
        // Empty text fits every format and none: read it as the game's first format, whose
        // reader reports it as a file with no record (an invalid record, as `kifu check`
        // counts it), instead of a failure to tell the format.
        let opened = match opened {
            Err(kifu_records::open::OpenError::CannotTell {
                game,
                why: kifu_records::open::EMPTY,
            }) if self.format.is_none() => {
                let first = game.format_names().first().copied();
                kifu_records::open::open(
                    bytes,
                    &kifu_records::open::Request {
                        format: first,
                        game: Some(game),
                        ..request
                    },
                )
            }
            other => other,
        };
        opened.map_err(|e| match e {
            kifu_records::open::OpenError::UnknownFormat { .. } => {
                ReadFailure::Usage(e.to_string())
            }
            kifu_records::open::OpenError::CannotTell { .. } => ReadFailure::Unreadable {
                line: 1,
                column: 1,
                message: e.to_string(),
            },
        })
    }

    /// Reads every record of bytes Python holds, letting other Python threads run meanwhile
    /// when there is enough to read to pay for handing the interpreter over (a few hundred
    /// nanoseconds; a 4 KiB record takes tens of microseconds to read).
    fn read_in_memory(&self, py: Python<'_>, bytes: &[u8]) -> Result<Vec<PyRecord>, ReadFailure> {
        const RELEASED_FROM: usize = 4 << 10;
        if bytes.len() < RELEASED_FROM {
            self.read(bytes, None)
        } else {
            // The bytes are immutable (`bytes`, a `str`'s UTF-8) or our own copy (`bytearray`),
            // and kept alive by the caller's reference while they are read.
            py.detach(|| self.read(bytes, None))
        }
    }

    fn read_file(&self, path: &Path) -> Result<Vec<PyRecord>, ReadFailure> {
        FILE_BUFFER.with_borrow_mut(|buffer| {
            let bytes = read_into(path, buffer).map_err(ReadFailure::Io)?;
            self.read(bytes, Some(path))
        })
    }
}

/// The bytes of a whole file, into the thread's buffer. Unlike `std::fs::read` it neither asks
/// the file's size (a `statx` call: a fifth of the system calls of reading a small record
/// file) nor allocates per file: the buffer is kept from file to file, grown as needed.
///
/// On Unix the reads are positioned (`pread`), which a regular file takes and a pipe or a
/// terminal refuses (`ESPIPE`, before reading anything): a positioned read of a regular file
/// that returns less than it asked for has reached the end (POSIX `read()`), so a record file
/// takes one read, not a second one that finds the end (1.4 µs of the 16 µs `kifu.read` took
/// per file, issue 36). What is not seekable is read to the end as a stream.
fn read_into<'b>(path: &Path, buffer: &'b mut Vec<u8>) -> std::io::Result<&'b [u8]> {
    /// The largest buffer kept between files: one grown larger for a big file is freed when
    /// the thread reads its next file.
    const KEPT: usize = 1 << 20;
    if buffer.len() > KEPT {
        *buffer = Vec::new();
    }
    if buffer.is_empty() {
        buffer.resize(64 << 10, 0);
    }
    let mut file = std::fs::File::open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        let mut filled = 0;
        loop {
            if filled == buffer.len() {
                buffer.resize(buffer.len() * 2, 0);
            }
            let asked = buffer.len() - filled;
            match file.read_at(&mut buffer[filled..], filled as u64) {
                Ok(n) if n < asked => return Ok(&buffer[..filled + n]),
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                // Nothing was read: a pipe, a terminal or a socket, read as a stream below.
                Err(e) if e.kind() == std::io::ErrorKind::NotSeekable && filled == 0 => break,
                Err(e) => return Err(e),
            }
        }
    }
    read_stream(&mut file, buffer)
}

/// The rest of `file` into `buffer` (from its start), read until a read returns nothing.
fn read_stream<'b>(file: &mut std::fs::File, buffer: &'b mut Vec<u8>) -> std::io::Result<&'b [u8]> {
    use std::io::Read;
    let mut filled = 0;
    loop {
        if filled == buffer.len() {
            buffer.resize(buffer.len() * 2, 0);
        }
        match file.read(&mut buffer[filled..]) {
            Ok(0) => return Ok(&buffer[..filled]),
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

thread_local! {
    /// Each reading thread's buffer for [`read_into`].
    static FILE_BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Reads every record of a file, or of bytes.
///
/// `source` is a path (``str`` or ``os.PathLike``) or the content as ``bytes``. The game
/// (``"shogi"``, ``"chu"``, ``"cetkaik"``) and the format (``"csa"``, ``"kif"``, ``"ki2"``,
/// ``"jkf"``, ``"usi"``, ``"csl"``, ``"ckka"`` …) come from the file's extension and content
/// unless `game` or `format` name them. Returns a list of :class:`kifu.Record`, one per game
/// in the file (a cetkaik match gives one per season).
///
/// Problems in a record do not raise: the record's ``valid`` is false and its
/// ``diagnostics`` say what and where. Raises :class:`kifu.ReadError` (with ``line`` and
/// ``column``) when the bytes are not text in the format's encoding, ``OSError`` when the
/// file cannot be read, ``ValueError`` for an unknown game or format.
///
/// Other Python threads run while a file, or more than 4 KiB of bytes, is read.
#[pyfunction]
#[pyo3(signature = (source, *, format = None, game = None))]
fn read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    game: Option<&str>,
) -> PyResult<Vec<PyRecord>> {
    let options = ReadOptions::new(game, format)?;
    match Source::of(source, "kifu.read")? {
        Source::Bytes(bytes) => options.read_in_memory(py, bytes.as_bytes()),
        Source::ByteArray(bytes) => options.read_in_memory(py, &bytes),
        Source::Path(path) => {
            return py
                .detach(|| options.read_file(&path))
                .map_err(|e| e.into_py_err(py, Some(&path.to_string_lossy())));
        }
    }
    .map_err(|e| e.into_py_err(py, None))
}

/// What :func:`kifu.read` and :func:`kifu.stream` are given to read.
enum Source<'py> {
    Bytes(Bound<'py, PyBytes>),
    /// A copy: a ``bytearray`` can change while it is read.
    ByteArray(Vec<u8>),
    Path(PathBuf),
}

impl<'py> Source<'py> {
    fn of(source: &Bound<'py, PyAny>, function: &str) -> PyResult<Source<'py>> {
        if let Ok(bytes) = source.cast::<PyBytes>() {
            return Ok(Source::Bytes(bytes.clone()));
        }
        if let Ok(bytes) = source.cast::<PyByteArray>() {
            return Ok(Source::ByteArray(bytes.to_vec()));
        }
        source.extract().map(Source::Path).map_err(|_| {
            PyTypeError::new_err(format!(
                "{function} takes a path (str or os.PathLike) or bytes; for a str holding a \
                 record, use kifu.parse"
            ))
        })
    }
}

/// Reads every record of a text (``str``) or of bytes, as :func:`kifu.read` reads a file;
/// the game and format come from the content unless `game` or `format` name them.
///
/// >>> import kifu
/// >>> kifu.parse("7g7f 3c3d", format="usi")[0].moves
/// ['7g7f', '3c3d']
#[pyfunction]
#[pyo3(signature = (text, *, format = None, game = None))]
fn parse(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    format: Option<&str>,
    game: Option<&str>,
) -> PyResult<Vec<PyRecord>> {
    let options = ReadOptions::new(game, format)?;
    if let Ok(text) = text.cast::<PyString>() {
        let text = text.to_cow()?;
        return options
            .read_in_memory(py, text.as_bytes())
            .map_err(|e| e.into_py_err(py, None));
    }
    read(py, text, format, game)
}

/// Reads the records of a file, or of bytes, one at a time: an iterator of
/// :class:`kifu.Record`, each read when the loop asks for it.
///
/// For files of many games (a tournament's CSA archive with ``/`` between games, a USI list,
/// chu NDJSON): only the file's text and the record being read are held, where
/// :func:`kifu.read` builds every record first. `source`, `format` and `game` are taken as
/// :func:`kifu.read` takes them, and the records are the same. The file is read and decoded
/// (and an unreadable one raises) when ``stream`` is called. Other Python threads run while
/// each record is read, and any thread may take the next one.
///
/// >>> import kifu
/// >>> [len(r) for r in kifu.stream(b"7g7f 3c3d\n2g2f\n", format="usi")]
/// [2, 1]
#[pyfunction]
#[pyo3(signature = (source, *, format = None, game = None))]
fn stream(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    game: Option<&str>,
) -> PyResult<RecordStream> {
    let options = ReadOptions::new(game, format)?;
    match Source::of(source, "kifu.stream")? {
        Source::Bytes(bytes) => options.stream(bytes.as_bytes().to_vec(), None),
        Source::ByteArray(bytes) => options.stream(bytes, None),
        Source::Path(path) => {
            let name = path.to_string_lossy().into_owned();
            return py
                .detach(|| std::fs::read(&path))
                .map_err(ReadFailure::Io)
                .and_then(|bytes| options.stream(bytes, Some(&path)))
                .map_err(|e| e.into_py_err(py, Some(&name)));
        }
    }
    .map_err(|e| e.into_py_err(py, None))
}

/// What one file of `read_many` gave.
type FileResult = (PathBuf, Result<Vec<PyRecord>, ReadFailure>);

/// A batch of files read on the pool, or the panic that stopped it.
type BatchResult = std::thread::Result<Vec<FileResult>>;

/// The files of :func:`kifu.read_many`, read in batches on Rust threads: while Python goes
/// through one batch, the threads read the next.
#[pyclass(module = "kifu", name = "ReadMany")]
struct ReadMany {
    paths: std::vec::IntoIter<PathBuf>,
    /// Each path as given, yielded with its records: the caller's own object back (making a
    /// `pathlib.Path` of a `str` would cost Python's thread, the one every file passes
    /// through, more than reading a small file); `None` for a file found in a directory given
    /// as a `pathlib.Path`, yielded as one.
    given: std::vec::IntoIter<Option<Py<PyAny>>>,
    ready: std::collections::VecDeque<FileResult>,
    /// The batch being read, if any (in a mutex only because a Python object must be `Sync`).
    reading: Option<std::sync::Mutex<std::sync::mpsc::Receiver<BatchResult>>>,
    game: Option<GameKind>,
    format: Option<std::sync::Arc<str>>,
    pool: rayon::ThreadPool,
    batch: usize,
}

impl ReadMany {
    /// Starts reading the next batch of files on the pool, without waiting for it.
    fn start_batch(&mut self) {
        let batch: Vec<PathBuf> = self.paths.by_ref().take(self.batch).collect();
        if batch.is_empty() {
            self.reading = None;
            return;
        }
        let (sender, receiver) = std::sync::mpsc::sync_channel(1);
        let game = self.game;
        let format = self.format.clone();
        self.pool.spawn(move || {
            let options = ReadOptions {
                game,
                format: format.as_deref(),
            };
            // A panic is carried to the Python thread (which raises it there) rather than
            // ending the process from a pool thread.
            let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                batch
                    .into_par_iter()
                    .map(|path| {
                        let read = options.read_file(&path);
                        (path, read)
                    })
                    .collect()
            }));
            // The receiver is gone when Python dropped the iterator: nothing to deliver.
            let _ = sender.send(results);
        });
        self.reading = Some(std::sync::Mutex::new(receiver));
    }
}

#[pymethods]
impl ReadMany {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<(Py<PyAny>, Py<PyAny>)>> {
        if self.ready.is_empty() {
            if self.reading.is_none() {
                self.start_batch();
            }
            let Some(receiver) = self.reading.take() else {
                return Ok(None);
            };
            let receiver = receiver.into_inner().unwrap_or_else(|e| e.into_inner());
            let results = py.detach(move || receiver.recv()).map_err(|_| {
                PyRuntimeError::new_err("kifu.read_many: a reading thread ended without its files")
            })?;
            let results = results.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            self.ready.extend(results);
            self.start_batch();
        }
        let Some((path, result)) = self.ready.pop_front() else {
            return Ok(None);
        };
        let value = match result {
            Ok(records) => records
                .into_iter()
                .map(|r| Py::new(py, r))
                .collect::<PyResult<Vec<_>>>()?
                .into_pyobject(py)?
                .into_any()
                .unbind(),
            Err(failure) => {
                let name = path.to_string_lossy().into_owned();
                failure
                    .into_py_err(py, Some(&name))
                    .into_value(py)
                    .into_any()
            }
        };
        let path = match self.given.next().flatten() {
            Some(given) => given,
            None => path.into_pyobject(py)?.into_any().unbind(),
        };
        Ok(Some((path, value)))
    }
}

/// Reads many files in parallel on Rust threads (Python's GIL is released while they read),
/// yielding ``(path, records)`` for each file in the order given; `path` is the very object
/// given (a ``str`` stays a ``str``, a ``pathlib.Path`` a ``pathlib.Path``).
///
/// `paths` is one path or an iterable of paths (a ``str`` is one path, never its characters).
/// A directory stands for the record files under it, in name order, as ``kifu check DIR``
/// finds them (with `game`, that game's files); each is yielded as a path of the directory's
/// type.
///
/// `records` is the list :func:`kifu.read` would return, or, for a file that cannot be read,
/// the exception it would raise (:class:`kifu.ReadError`, ``OSError``), yielded rather than
/// raised so that one bad file does not end the walk. `jobs` is the number of reading threads
/// (0: one per core); they read the next files while the Python loop goes through those
/// already read. `game` and `format` apply to every file.
#[pyfunction]
#[pyo3(signature = (paths, *, jobs = 0, format = None, game = None))]
fn read_many(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    jobs: usize,
    format: Option<&str>,
    game: Option<&str>,
) -> PyResult<ReadMany> {
    let options = ReadOptions::new(game, format)?;
    if paths.cast::<PyBytes>().is_ok() || paths.cast::<PyByteArray>().is_ok() {
        return Err(PyTypeError::new_err(
            "kifu.read_many takes a path or an iterable of paths; for bytes holding a record, \
             use kifu.read",
        ));
    }
    // One path (a str, or an os.PathLike such as pathlib.Path): a str is iterable, but its
    // characters are not paths.
    let one: Vec<Bound<'_, PyAny>>;
    let items: Box<dyn Iterator<Item = PyResult<Bound<'_, PyAny>>>> =
        if paths.cast::<PyString>().is_ok() || paths.hasattr("__fspath__")? {
            one = vec![paths.clone()];
            Box::new(one.into_iter().map(Ok))
        } else {
            Box::new(paths.try_iter().map_err(|_| {
                PyTypeError::new_err(format!(
                    "kifu.read_many takes a path or an iterable of paths, not {}",
                    paths
                        .get_type()
                        .name()
                        .map_or_else(|_| "this".into(), |n| n.to_string())
                ))
            })?)
        };
    let mut list = Vec::new();
    let mut given = Vec::new();
    for item in items {
        let item = item?;
        if item.cast::<PyString>().is_err() && !item.hasattr("__fspath__")? {
            return Err(PyTypeError::new_err(format!(
                "kifu.read_many: {} is not a path (str or os.PathLike)",
                item.repr()?
            )));
        }
        let path = item.extract::<PathBuf>()?;
        if !path.is_dir() {
            list.push(path);
            given.push(Some(item.unbind()));
            continue;
        }
        let as_str = item.cast::<PyString>().is_ok();
        for file in record_files(&path, options.game)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?
        {
            given.push(if as_str {
                Some(
                    PyString::new(py, &file.to_string_lossy())
                        .into_any()
                        .unbind(),
                )
            } else {
                None
            });
            list.push(file);
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start {jobs} threads: {e}")))?;
    let batch = 64 * pool.current_num_threads();
    Ok(ReadMany {
        paths: list.into_iter(),
        given: given.into_iter(),
        ready: Default::default(),
        reading: None,
        game: options.game,
        format: format.map(std::sync::Arc::from),
        pool,
        batch,
    })
}

/// The record files under `dir`, in name order, as the command line finds them
/// (`kifu_records::detect::is_record_file`, of `game` when one is named).
fn record_files(dir: &Path, game: Option<GameKind>) -> Result<Vec<PathBuf>, walkdir::Error> {
    let mut files = Vec::new();
    let by_name = |a: &walkdir::DirEntry, b: &walkdir::DirEntry| {
        a.path().as_os_str().cmp(b.path().as_os_str())
    };
    for entry in walkdir::WalkDir::new(dir).sort_by(by_name) {
        let entry = entry?;
        if entry.file_type().is_file() && kifu_records::detect::is_record_file(entry.path(), game) {
            files.push(entry.into_path());
        }
    }
    Ok(files)
}

/// The formats kifu reads and writes for `game`, the default first.
#[pyfunction]
fn formats(game: &str) -> PyResult<Vec<&'static str>> {
    GameKind::by_name(game)
        .map(GameKind::format_names)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown game `{game}` (one of: shogi, chu, cetkaik)"
            ))
        })
}

#[pymodule]
fn _kifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ReadError", py.get_type::<ReadError>())?;
    m.add("IllegalMove", py.get_type::<IllegalMove>())?;
    m.add_class::<PyRecord>()?;
    m.add_class::<record::Diagnostic>()?;
    m.add_class::<outcome::Outcome>()?;
    m.add_class::<record::Variation>()?;
    m.add_class::<ReadMany>()?;
    m.add_class::<RecordStream>()?;
    m.add_class::<archive::PyArchive>()?;
    // Each game's position is `Position` in its submodule (kifu.shogi …): registered here
    // under distinct names for python/kifu/<game>.py to import.
    m.add("ShogiPosition", py.get_type::<shogi::ShogiPosition>())?;
    m.add("ChuPosition", py.get_type::<chu::ChuPosition>())?;
    m.add("CetkaikPosition", py.get_type::<cetkaik::CetkaikPosition>())?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(read_many, m)?)?;
    m.add_function(wrap_pyfunction!(stream, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(analyze::analyze, m)?)?;
    Ok(())
}
