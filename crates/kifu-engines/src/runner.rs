//! A whole match: the schedule played `concurrency` games at a time by workers that take
//! engines from the pool, each finished game's record saved and its row appended to the
//! ledger before it counts, the SPRT consulted after every game, and an interruption (or a
//! verdict) ending the games in progress without counting them, so that running the same
//! match again on the same directory plays exactly the games still missing.

use std::collections::BTreeSet;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use kifu_csa::record::timestamp;
use kifu_record::TextEncoding;
use kifu_records::shogi::{ShogiRecord, csa, kif};
use kifu_shogi::Color;
use kifu_stats::{Sprt, Verdict};
use serde_json::json;
use tokio::sync::{Mutex, mpsc, watch};

use crate::evaluation::RecordStyle;
use crate::game::{GameReport, Player, Rules, play};
use crate::ledger::{GameRow, Ledger, LedgerError};
use crate::openings::Opening;
use crate::pool::{EnginePool, Launch};
use crate::process::EngineError;
use crate::results::Standings;
use crate::schedule::{Mode, Schedule, Scheduled};
use crate::spec::EngineSpec;

/// Everything a match is.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines, each with its limit (the match's defaults already filled in).
    pub engines: Vec<EngineSpec>,
    /// How they meet.
    pub mode: Mode,
    /// Games per pairing (rounded up to pairs).
    pub games: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// Where games start.
    pub openings: Vec<Opening>,
    /// Shuffles the openings' order.
    pub seed: Option<u64>,
    /// The rules of every game.
    pub rules: Rules,
    /// The test that may stop the match early.
    pub sprt: Option<Sprt>,
    /// Records, ledger, table and summary go here.
    pub out_dir: PathBuf,
    /// The records' `$EVENT`.
    pub event: String,
    /// The records' format: CSA V3.0 with `'**` lines, or KIF with ShogiHome's comments.
    pub style: RecordStyle,
}

/// Why a match could not go on.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// An engine could not be started (a wrong command, options it refused to get ready with).
    #[error("engine {name} could not be started: {source}")]
    Start {
        /// The engine.
        name: String,
        /// Why.
        source: EngineError,
    },
    /// The ledger cannot be read or written.
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// The output directory holds a different match.
    #[error("{0}")]
    Mismatch(String),
    /// Writing an output failed.
    #[error("{path}: {reason}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    /// The statistics of every finished game (earlier runs' included).
    pub standings: Standings,
    /// Finished games.
    pub finished: u64,
    /// Games the schedule holds.
    pub planned: u64,
    /// Games finished in this run.
    pub played_now: u64,
    /// Whether an interruption stopped it.
    pub interrupted: bool,
    /// Engine processes started (restarts included).
    pub engines_started: u64,
    /// CPU seconds of this process and of its engines in this run, where known.
    pub cpu_seconds: Option<(f64, f64)>,
    /// The summary as JSON.
    pub json: serde_json::Value,
}

/// A finished game on its way to the ledger.
struct Finished {
    slot: Scheduled,
    report: GameReport,
    start_time: String,
}

/// Runs `config`; `progress` hears the standings after every game, and `interrupt`
/// finishing (a SIGINT) stops the match, the games in progress uncounted.
pub async fn run(
    config: &MatchConfig,
    mut progress: impl FnMut(&Standings, u64, u64),
    interrupt: impl Future<Output = ()>,
) -> Result<MatchReport, MatchError> {
    let cpu_before = crate::cpu::cpu_seconds();
    let dir = &config.out_dir;
    std::fs::create_dir_all(dir).map_err(|e| write_error(dir, e))?;
    check_same_match(config)?;
    let schedule = Schedule::new(
        config.mode,
        config.engines.len(),
        config.games,
        config.openings.len(),
        config.seed,
    );
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let (mut ledger, mut rows) = Ledger::open(&dir.join("ledger.jsonl"))?;
    for row in &rows {
        let slot = schedule.game(row.game.saturating_sub(1));
        let opening = &config.openings[slot.opening].label;
        if row.black != names[slot.black]
            || row.white != names[slot.white]
            || row.opening != *opening
        {
            return Err(MatchError::Mismatch(format!(
                "{}: game {} was {} vs {} from {}, but this match schedules {} vs {} from {}",
                dir.display(),
                row.game,
                row.black,
                row.white,
                row.opening,
                names[slot.black],
                names[slot.white],
                opening
            )));
        }
    }
    let done: BTreeSet<u64> = rows.iter().map(|r| r.game - 1).collect();
    let mut standings = Standings::new(&names, &schedule.pairings, &rows, config.sprt.as_ref());
    let todo: Vec<u64> = (0..schedule.len()).filter(|g| !done.contains(g)).collect();
    let planned = schedule.len();
    let already_decided = standings.verdict().is_some_and(|v| v != Verdict::Continue);

    let pool = Arc::new(EnginePool::new(
        config
            .engines
            .iter()
            .map(|e| Launch {
                cmd: e.cmd.clone(),
                options: e.options.clone(),
            })
            .collect(),
    ));
    let queue = Arc::new(Mutex::new(if already_decided {
        Vec::new()
    } else {
        todo.into_iter().rev().collect::<Vec<u64>>()
    }));
    let (stop_tx, stop_rx) = watch::channel(false);
    let (tx, mut rx) = mpsc::channel::<Result<Finished, MatchError>>(config.concurrency.max(1) * 2);
    let shared = Arc::new((config.clone(), schedule.clone()));
    let mut workers = Vec::new();
    for _ in 0..config.concurrency.max(1) {
        workers.push(tokio::spawn(worker(
            shared.clone(),
            pool.clone(),
            queue.clone(),
            stop_rx.clone(),
            tx.clone(),
        )));
    }
    drop(tx);

    let mut interrupted = false;
    let mut played_now = 0;
    let mut failure = None;
    let mut interrupt = std::pin::pin!(interrupt);
    loop {
        let message = tokio::select! {
            m = rx.recv() => m,
            () = &mut interrupt, if !interrupted => {
                interrupted = true;
                let _ = stop_tx.send(true);
                continue;
            }
        };
        let Some(message) = message else { break };
        let finished = match message {
            Ok(f) => f,
            Err(e) => {
                let _ = stop_tx.send(true);
                failure.get_or_insert(e);
                continue;
            }
        };
        let row = save(config, &names, finished)?;
        ledger.append(&row)?;
        rows.push(row);
        played_now += 1;
        standings = Standings::new(&names, &schedule.pairings, &rows, config.sprt.as_ref());
        progress(&standings, rows.len() as u64, planned);
        if standings.verdict().is_some_and(|v| v != Verdict::Continue) {
            let _ = stop_tx.send(true);
        }
    }
    for w in workers {
        let _ = w.await;
    }
    pool.close().await;
    if let Some(e) = failure {
        return Err(e);
    }
    rows.sort_by_key(|r| r.game);
    crate::table::write(&dir.join("games.parquet"), &rows).map_err(|e| MatchError::Write {
        path: dir.join("games.parquet"),
        reason: e.to_string(),
    })?;
    let cpu_seconds = match (cpu_before, crate::cpu::cpu_seconds()) {
        (Some((a0, b0)), Some((a1, b1))) => Some((a1 - a0, b1 - b0)),
        _ => None,
    };
    let mut json = standings.to_json(config.sprt.as_ref());
    json["planned"] = json!(planned);
    json["finished"] = json!(rows.len());
    json["played_now"] = json!(played_now);
    json["interrupted"] = json!(interrupted);
    json["mode"] = json!(config.mode.as_str());
    json["output"] = json!(dir.display().to_string());
    json["engines_started"] = json!(pool.started());
    if let Some((own, engines)) = cpu_seconds {
        json["cpu_seconds"] = json!({"kifu": own, "engines": engines});
    }
    write_file(&dir.join("summary.json"), &format!("{json:#}\n"))?;
    Ok(MatchReport {
        standings,
        finished: rows.len() as u64,
        planned,
        played_now,
        interrupted,
        engines_started: pool.started(),
        cpu_seconds,
        json,
    })
}

/// One worker: takes the next game, engines from the pool, plays, hands the result on.
async fn worker(
    shared: Arc<(MatchConfig, Schedule)>,
    pool: Arc<EnginePool>,
    queue: Arc<Mutex<Vec<u64>>>,
    mut stop: watch::Receiver<bool>,
    results: mpsc::Sender<Result<Finished, MatchError>>,
) {
    let (config, schedule) = &*shared;
    loop {
        if *stop.borrow() {
            return;
        }
        let Some(g) = queue.lock().await.pop() else {
            return;
        };
        let slot = schedule.game(g);
        let mut engines = Vec::new();
        for side in [slot.black, slot.white] {
            match pool.take(side).await {
                Ok(e) => engines.push(e),
                Err(source) => {
                    let _ = results
                        .send(Err(MatchError::Start {
                            name: config.engines[side].name.clone(),
                            source,
                        }))
                        .await;
                    for e in engines {
                        e.kill().await;
                    }
                    return;
                }
            }
        }
        let [mut black, mut white]: [_; 2] = engines.try_into().ok().expect("two engines");
        let start_time = timestamp(SystemTime::now());
        let game = play(
            [
                Player {
                    spec: &config.engines[slot.black],
                    engine: &mut black,
                },
                Player {
                    spec: &config.engines[slot.white],
                    engine: &mut white,
                },
            ],
            &config.openings[slot.opening],
            &config.rules,
            &config.event,
            config.style,
        );
        let report = tokio::select! {
            r = game => Some(r),
            _ = stop.wait_for(|s| *s) => None,
        };
        let Some(report) = report else {
            // Stopped mid-game: the game is not counted and will be played on a resume.
            black.kill().await;
            white.kill().await;
            return;
        };
        for (i, (side, engine)) in [(slot.black, black), (slot.white, white)]
            .into_iter()
            .enumerate()
        {
            if report.faulty[i] {
                engine.kill().await;
            } else {
                pool.give_back(side, engine).await;
            }
        }
        if results
            .send(Ok(Finished {
                slot,
                report,
                start_time,
            }))
            .await
            .is_err()
        {
            return;
        }
    }
}

/// Writes a finished game's record and gives its ledger row.
fn save(config: &MatchConfig, names: &[String], f: Finished) -> Result<GameRow, MatchError> {
    let slot = f.slot;
    let (black, white) = (&names[slot.black], &names[slot.white]);
    let stem = format!(
        "{:05}-{}-{}",
        slot.game + 1,
        file_safe(black),
        file_safe(white)
    );
    let (file, bytes) = record_file(&stem, &f.report.record, config.style);
    write_bytes(&config.out_dir.join(&file), &bytes)?;
    let result = match f.report.winner {
        Some(Color::Black) => "1-0",
        Some(Color::White) => "0-1",
        None => "1/2-1/2",
    };
    Ok(GameRow {
        game: slot.game + 1,
        pairing: slot.pairing,
        pair: slot.pair,
        black: black.clone(),
        white: white.clone(),
        opening: config.openings[slot.opening].label.clone(),
        result: result.to_owned(),
        reason: f.report.reason.as_str().to_owned(),
        detail: f.report.detail,
        plies: f.report.plies,
        black_time_ms: f.report.time_ms[0],
        white_time_ms: f.report.time_ms[1],
        record: file,
        start_time: f.start_time,
        end_time: timestamp(SystemTime::now()),
    })
}

/// The record's file name and bytes: CSA V3.0 in UTF-8 (its `'CSA encoding=` line says so),
/// or KIF in Shift_JIS as `.kif` — what Kakinoki's programs and ShogiHome read by default —
/// unless a name or comment has characters Shift_JIS cannot hold: then UTF-8 as `.kifu`,
/// so that nothing is replaced by `?`.
fn record_file(stem: &str, record: &ShogiRecord, style: RecordStyle) -> (String, Vec<u8>) {
    match style {
        RecordStyle::Csa => {
            let text = csa::write(record, csa::CsaVersion::V30).text;
            (format!("{stem}.csa"), text.into_bytes())
        }
        RecordStyle::Kif => {
            let text = kif::write(record).text;
            let (bytes, lost) = kifu_record::encode(&text, TextEncoding::ShiftJis);
            if lost.is_empty() {
                (format!("{stem}.kif"), bytes.into_owned())
            } else {
                (format!("{stem}.kifu"), text.into_bytes())
            }
        }
    }
}

/// A name as part of a file name: letters, digits, `-`, `_` and `.` kept, the rest `_`.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes through a temporary file renamed into place, so a reader never sees half a file.
fn write_file(path: &Path, text: &str) -> Result<(), MatchError> {
    write_bytes(path, text.as_bytes())
}

fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), MatchError> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| write_error(path, e))
}

fn write_error(path: &Path, e: std::io::Error) -> MatchError {
    MatchError::Write {
        path: path.to_owned(),
        reason: e.to_string(),
    }
}

/// `match.json` says what match a directory holds: the engines (names, commands, options,
/// limits), the mode, the openings and the seed. A resume must be the same match; `--games`,
/// `--concurrency` and the SPRT may change (a game's place does not depend on them).
fn check_same_match(config: &MatchConfig) -> Result<(), MatchError> {
    let identity = json!({
        "engines": config.engines.iter().map(|e| json!({
            "name": e.name,
            "cmd": e.cmd,
            "options": e.options,
            "limit": e.limit.to_string(),
        })).collect::<Vec<_>>(),
        "mode": config.mode.as_str(),
        "openings": config.openings.iter().map(|o| o.usi()).collect::<Vec<_>>(),
        "seed": config.seed,
    });
    let path = config.out_dir.join("match.json");
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let saved: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| MatchError::Mismatch(format!("{}: {e}", path.display())))?;
            if saved != identity {
                return Err(MatchError::Mismatch(format!(
                    "{} holds another match (other engines, limits, openings, mode or seed); \
                     use another output directory",
                    config.out_dir.display()
                )));
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            write_file(&path, &format!("{identity:#}\n"))
        }
        Err(e) => Err(write_error(&path, e)),
    }
}
