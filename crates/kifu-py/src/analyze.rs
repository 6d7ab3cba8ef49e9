//! `kifu.analyze`: one record's main line searched position by position by a USI engine, as
//! `kifu analyze` does it (`kifu_engines::analysis`), with the findings and the judgement of
//! each move handed back as plain Python values.

use std::path::PathBuf;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use kifu_engines::analysis::Budget;
use kifu_engines::analysis::Score;
use kifu_engines::analysis::batch::{BatchSettings, analyse};
use kifu_engines::analysis::cache::Cache;
use kifu_engines::analysis::judgement::{Thresholds, judge};

use crate::record::PyRecord;

/// One position's row, as a dict.
#[derive(serde::Serialize)]
struct Row {
    ply: u32,
    sfen: String,
    #[serde(rename = "move")]
    played: Option<String>,
    eval: Option<i64>,
    mate: Option<i64>,
    best: Option<String>,
    pv: Vec<String>,
    depth: Option<u32>,
    nodes: Option<u64>,
    loss_cp: Option<i64>,
    loss_win_rate: Option<f64>,
    class: Option<&'static str>,
    failure: Option<String>,
}

/// Analyses a shogi record's main line with a USI engine: at the start and after each move
/// the engine searches under one budget — ``nodes`` (the default, 100000), ``depth`` or
/// ``movetime`` (milliseconds) — and the move played from each position is judged against
/// the engine's best, as ``kifu analyze`` does.
///
/// ``engine`` is the engine's command (a program on ``PATH`` or a path, with its arguments).
/// ``options`` are ``setoption`` pairs (``Threads`` is 1 unless given); ``jobs`` engine
/// processes share the positions; ``timeout`` (seconds) bounds each search; ``cache`` names
/// an SQLite file of findings shared with ``kifu analyze --cache``, so that a position
/// already searched with this engine and budget is not searched again.
///
/// Returns a list with a dict per position of the main line, the start first: ``ply``
/// (moves before it), ``sfen``, ``move`` (the record's move from there, or ``None`` at the
/// end), ``eval`` (centipawns from Black's side; a mate is ±30000), ``mate`` (plies to a
/// mate, positive when Black mates, when the engine said), ``best``, ``pv`` (USI), ``depth``,
/// ``nodes``, ``loss_cp`` and ``loss_win_rate`` (what the move played gave away, the mover's
/// side), ``class`` (``"inaccuracy"``, ``"dubious"``, ``"mistake"``, ``"blunder"`` or
/// ``None``, at ShogiHome's default thresholds) and ``failure`` (why a position has no
/// finding: the engine crashed, hung or lied twice there).
///
/// Raises ``ValueError`` for a record of another game or two budgets, ``RuntimeError`` when
/// the engine cannot be started. Other Python threads run meanwhile.
#[pyfunction]
#[pyo3(signature = (record, *, engine, nodes = None, depth = None, movetime = None, options = None, jobs = 1, timeout = None, cache = None))]
#[allow(clippy::too_many_arguments)]
pub fn analyze(
    py: Python<'_>,
    record: &PyRecord,
    engine: &str,
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime: Option<u64>,
    options: Option<Vec<(String, String)>>,
    jobs: usize,
    timeout: Option<f64>,
    cache: Option<PathBuf>,
) -> PyResult<Py<PyAny>> {
    if record.inner.game() != "shogi" {
        return Err(PyValueError::new_err(format!(
            "kifu.analyze reads shogi records (this one is {})",
            record.inner.game()
        )));
    }
    let budget = match (nodes, depth, movetime) {
        (n, None, None) => Budget::Nodes(n.unwrap_or(100_000)),
        (None, Some(d), None) => Budget::Depth(d),
        (None, None, Some(ms)) => Budget::Movetime(ms),
        _ => return Err(PyValueError::new_err("give one of nodes, depth, movetime")),
    };
    // The record again, from its start and its replayed moves: the main line is what is
    // analysed, and this needs nothing of the Python record's own type.
    let text = format!(
        "position sfen {} moves {}\n",
        record.inner.start_text(),
        record.inner.replayed_moves().join(" ")
    );
    let usi = kifu_records::shogi::format_by_name("usi").expect("USI is in the table");
    let (_, parsed) = kifu_records::read_bytes(text.as_bytes(), usi);
    let shogi = parsed
        .records
        .into_iter()
        .next()
        .ok_or_else(|| PyValueError::new_err("the record has no main line to analyse"))?;
    let mut options = options.unwrap_or_default();
    if !options.iter().any(|(n, _)| n == "Threads") {
        options.push(("Threads".to_owned(), "1".to_owned()));
    }
    let settings = BatchSettings {
        command: engine.to_owned(),
        options,
        budget,
        jobs: jobs.max(1),
        timeout: timeout.map_or_else(|| budget.default_timeout(), Duration::from_secs_f64),
        variations: false,
    };
    let report = py.detach(|| {
        let cache = cache
            .as_deref()
            .map(Cache::open)
            .transpose()
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        runtime
            .block_on(analyse(
                &settings,
                std::slice::from_ref(&shogi),
                cache.as_ref(),
                |_| {},
                std::future::pending(),
            ))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    });
    let report = report?;
    let positions = &report.records[0];
    let judged = judge(positions, &Thresholds::default());
    let rows: Vec<Row> = positions
        .iter()
        .map(|p| {
            let f = p.finding.as_ref();
            let j = judged.iter().find(|m| m.ply == p.task.ply + 1);
            Row {
                ply: p.task.ply,
                sfen: p.task.sfen.clone(),
                played: p.task.played.clone(),
                eval: f.and_then(|f| f.score).map(Score::value),
                mate: f.and_then(|f| match f.score {
                    Some(Score::Mate {
                        black_wins,
                        plies: Some(n),
                    }) => Some(if black_wins {
                        i64::from(n)
                    } else {
                        -i64::from(n)
                    }),
                    _ => None,
                }),
                best: f.map(|f| f.bestmove.clone()),
                pv: f.map(|f| f.pv.clone()).unwrap_or_default(),
                depth: f.and_then(|f| f.depth),
                nodes: f.and_then(|f| f.nodes),
                loss_cp: j.map(|j| j.loss_cp),
                loss_win_rate: j.map(|j| j.loss_win_rate),
                class: j.and_then(|j| j.class).map(|c| c.name()),
                failure: report
                    .unanalysed
                    .iter()
                    .find(|u| u.ply == p.task.ply)
                    .map(|u| u.reason.clone()),
            }
        })
        .collect();
    crate::archive::to_python(py, &rows)
}
