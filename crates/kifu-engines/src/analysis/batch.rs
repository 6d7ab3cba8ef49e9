//! Many records analysed by `jobs` engine processes at once.
//!
//! Every position of every record is a job of its own: a position needs only what the
//! engine is told to reach it and the budget, so the jobs of one record are shared among the
//! engines as freely as the records are (one long game gains from `--jobs` as much as many
//! short ones). Jobs are queued in the records' order, position after position, and each
//! engine sends `usinewgame` when it moves on to another record than the one it last
//! searched — so an engine that takes consecutive positions of a game keeps its hash, as in
//! a GUI's analysis, and never carries one game's hash into another's as if it were one
//! game.
//!
//! Before anything is queued, the cache is asked, and positions of the batch that are the
//! same position (the same SFEN but for the move number) are searched once.
//!
//! An engine that fails on a position (it dies, hangs past the timeout, answers an illegal
//! `bestmove` or prints what is not USI) is killed; the position goes back to the head of the
//! queue to be asked once more of a fresh engine, and if that fails too it is reported
//! unanalysed. No other position is lost: the batch always completes, and its report lists
//! what was not analysed and why.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kifu_records::shogi::ShogiRecord;
use tokio::sync::mpsc;

use super::cache::{Cache, CacheError, EngineIdentity};
use super::search::search;
use super::tasks::{PositionTask, positions};
use super::{Budget, Finding};
use crate::process::{Engine, EngineError};

/// How a batch is run.
#[derive(Clone, Debug)]
pub struct BatchSettings {
    /// The engine's command line (program, then arguments).
    pub command: String,
    /// `setoption` pairs, in order (`Threads=1` is added by the caller if it wants it).
    pub options: Vec<(String, String)>,
    /// The search of each position.
    pub budget: Budget,
    /// Engine processes at once.
    pub jobs: usize,
    /// How long one search may take before the engine is taken to hang.
    pub timeout: Duration,
    /// Ask about the variations' positions too.
    pub variations: bool,
}

/// A position that was not analysed, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unanalysed {
    /// The record's place in the batch.
    pub record: usize,
    /// Moves from the start to the position.
    pub ply: u32,
    /// Whether it is on the main line.
    pub main_line: bool,
    /// What went wrong, the last time it was asked (`interrupted` if it never was).
    pub reason: String,
}

/// One position with what was found.
#[derive(Clone, Debug)]
pub struct AnalysedPosition {
    /// The position.
    pub task: PositionTask,
    /// The finding, unless it could not be had.
    pub finding: Option<Finding>,
}

/// What a batch did.
#[derive(Debug)]
pub struct BatchReport {
    /// The engine, as the cache knows it.
    pub engine: EngineIdentity,
    /// The budget of each search.
    pub budget: Budget,
    /// Per record, in the batch's order: its positions in order (the main line first).
    pub records: Vec<Vec<AnalysedPosition>>,
    /// Searches the engines completed in this run.
    pub searched: u64,
    /// Positions answered from the cache.
    pub from_cache: u64,
    /// Positions answered by the search of the same position elsewhere in the batch.
    pub shared: u64,
    /// Positions the rules decided (no legal move), without an engine.
    pub decided: u64,
    /// Engine processes started (restarts included).
    pub engines_started: u64,
    /// Positions asked again after an engine failed on them.
    pub retried: u64,
    /// Positions that were not analysed.
    pub unanalysed: Vec<Unanalysed>,
    /// Whether the batch was stopped before its end.
    pub interrupted: bool,
}

/// Why a batch could not run at all.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The first engine did not start (a wrong command, an engine that fails its handshake).
    #[error("{0}")]
    Start(EngineError),
    /// The cache could not be read or written.
    #[error(transparent)]
    Cache(#[from] CacheError),
}

/// How far a batch is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Searches finished (or given up).
    pub done: usize,
    /// Searches the batch needs.
    pub total: usize,
}

struct Job {
    /// The representative task, by index.
    task: usize,
    /// 0 the first time, 1 on the retry.
    attempt: u8,
}

enum Message {
    Found(usize, Finding),
    Retrying,
    Failed(usize, String),
}

struct Shared {
    queue: Mutex<VecDeque<Job>>,
    stop: AtomicBool,
    started: AtomicU64,
}

impl Shared {
    fn next(&self) -> Option<Job> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        self.queue
            .lock()
            .expect("no panic holds the queue")
            .pop_front()
    }
}

async fn start(settings: &BatchSettings, shared: &Shared) -> Result<Engine, EngineError> {
    shared.started.fetch_add(1, Ordering::Relaxed);
    Engine::start(&settings.command, &settings.options, false, None).await
}

async fn worker(
    mut engine: Option<Engine>,
    settings: Arc<BatchSettings>,
    tasks: Arc<Vec<PositionTask>>,
    shared: Arc<Shared>,
    tx: mpsc::UnboundedSender<Message>,
) {
    let mut last_record = None;
    while let Some(job) = shared.next() {
        let task = &tasks[job.task];
        let current = match &mut engine {
            Some(e) => e,
            None => match start(&settings, &shared).await {
                Ok(e) => {
                    last_record = None;
                    engine.insert(e)
                }
                Err(e) => {
                    let _ = tx.send(Message::Failed(
                        job.task,
                        format!("the engine could not be restarted: {e}"),
                    ));
                    continue;
                }
            },
        };
        if last_record != Some(task.record) {
            // Queued before `position`/`go` and sent with them.
            current.protocol().new_game();
            last_record = Some(task.record);
        }
        let answer = search(
            current,
            &task.position,
            &task.command,
            settings.budget,
            settings.timeout,
        )
        .await;
        match answer {
            Ok(finding) => {
                let _ = tx.send(Message::Found(job.task, finding));
            }
            Err(fault) => {
                if let Some(e) = engine.take() {
                    e.kill().await;
                }
                let reason = format!("{}: {fault}", fault.kind());
                if job.attempt == 0 {
                    shared
                        .queue
                        .lock()
                        .expect("no panic holds the queue")
                        .push_front(Job {
                            task: job.task,
                            attempt: 1,
                        });
                    let _ = tx.send(Message::Retrying);
                } else {
                    let _ = tx.send(Message::Failed(job.task, reason));
                }
            }
        }
    }
    if let Some(e) = engine {
        e.quit().await;
    }
}

/// Analyses `records` as `settings` say, the cache first if one is given (and every new
/// finding written to it as it arrives). `progress` is called after each search; `stop`
/// ending (Ctrl-C) lets the searches under way finish and stops the batch, reported
/// `interrupted`, with the positions not reached listed unanalysed.
pub async fn analyse(
    settings: &BatchSettings,
    records: &[ShogiRecord],
    cache: Option<&Cache>,
    mut progress: impl FnMut(Progress),
    stop: impl Future<Output = ()>,
) -> Result<BatchReport, BatchError> {
    let mut tasks = Vec::new();
    let mut ranges = Vec::with_capacity(records.len());
    for (index, record) in records.iter().enumerate() {
        let from = tasks.len();
        tasks.extend(positions(record, index, settings.variations));
        ranges.push(from..tasks.len());
    }
    let first = Engine::start(&settings.command, &settings.options, false, None)
        .await
        .map_err(BatchError::Start)?;
    let mut first = Some(first);
    let engine = EngineIdentity {
        name: first
            .as_mut()
            .and_then(|e| e.protocol().name().map(str::to_owned))
            .unwrap_or_default(),
        command: settings.command.clone(),
        options: settings.options.clone(),
    };
    let engine_key = engine.key();

    let mut findings: Vec<Option<Finding>> = vec![None; tasks.len()];
    let mut reasons: HashMap<usize, String> = HashMap::new();
    let (mut from_cache, mut decided) = (0, 0);
    // Tasks waiting for the search of the same position, by the representative's index.
    let mut followers: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut representative: HashMap<&str, usize> = HashMap::new();
    let mut queue = VecDeque::new();
    for (i, task) in tasks.iter().enumerate() {
        if task.is_decided() {
            findings[i] = Some(Finding::decided(&task.position));
            decided += 1;
            continue;
        }
        let key = task.cache_key();
        if let Some(&rep) = representative.get(key) {
            followers.entry(rep).or_default().push(i);
            continue;
        }
        if let Some(cache) = cache
            && let Some(found) = cache.get(key, &engine_key, settings.budget)?
        {
            findings[i] = Some(found);
            from_cache += 1;
            representative.insert(key, i);
            continue;
        }
        representative.insert(key, i);
        queue.push_back(Job {
            task: i,
            attempt: 0,
        });
    }
    // Followers of a cached representative are cached too.
    for (&rep, list) in &followers {
        if findings[rep].is_some() {
            for &i in list {
                findings[i] = findings[rep].clone();
                from_cache += 1;
            }
        }
    }
    followers.retain(|rep, _| findings[*rep].is_none());

    let total = queue.len();
    let shared = Arc::new(Shared {
        queue: Mutex::new(queue),
        stop: AtomicBool::new(false),
        started: AtomicU64::new(1),
    });
    let tasks = Arc::new(tasks);
    let settings_shared = Arc::new(settings.clone());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let workers = settings.jobs.max(1).min(total);
    let mut handles = Vec::with_capacity(workers);
    for _ in 0..workers {
        handles.push(tokio::spawn(worker(
            first.take(),
            settings_shared.clone(),
            tasks.clone(),
            shared.clone(),
            tx.clone(),
        )));
    }
    drop(tx);
    if let Some(e) = first.take() {
        e.quit().await;
    }

    let (mut searched, mut shared_count, mut retried, mut done) = (0u64, 0u64, 0u64, 0usize);
    let mut interrupted = false;
    tokio::pin!(stop);
    progress(Progress { done, total });
    loop {
        let message = tokio::select! {
            m = rx.recv() => m,
            () = &mut stop, if !interrupted => {
                interrupted = true;
                shared.stop.store(true, Ordering::Relaxed);
                continue;
            }
        };
        let Some(message) = message else { break };
        match message {
            Message::Found(i, finding) => {
                searched += 1;
                done += 1;
                if let Some(cache) = cache {
                    cache.put(tasks[i].cache_key(), &engine_key, settings.budget, &finding)?;
                }
                for &j in followers.get(&i).map_or(&[][..], Vec::as_slice) {
                    findings[j] = Some(finding.clone());
                    shared_count += 1;
                }
                findings[i] = Some(finding);
            }
            Message::Retrying => retried += 1,
            Message::Failed(i, reason) => {
                done += 1;
                for &j in followers.get(&i).map_or(&[][..], Vec::as_slice) {
                    reasons.insert(j, reason.clone());
                }
                reasons.insert(i, reason);
            }
        }
        progress(Progress { done, total });
    }
    for handle in handles {
        let _ = handle.await;
    }

    let mut unanalysed = Vec::new();
    let mut out = Vec::with_capacity(ranges.len());
    for range in ranges {
        let mut positions = Vec::with_capacity(range.len());
        for i in range {
            let task = tasks[i].clone();
            let finding = findings[i].take();
            if finding.is_none() {
                unanalysed.push(Unanalysed {
                    record: task.record,
                    ply: task.ply,
                    main_line: task.main_line,
                    reason: reasons
                        .remove(&i)
                        .unwrap_or_else(|| "interrupted".to_owned()),
                });
            }
            positions.push(AnalysedPosition { task, finding });
        }
        out.push(positions);
    }
    Ok(BatchReport {
        engine,
        budget: settings.budget,
        records: out,
        searched,
        from_cache,
        shared: shared_count,
        decided,
        engines_started: shared.started.load(Ordering::Relaxed),
        retried,
        unanalysed,
        interrupted,
    })
}
