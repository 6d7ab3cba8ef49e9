//! Records and the game index, kept by a thread of their own so that no move and no result
//! waits for a disk.
//!
//! A game's record is on disk from its `START` on, as shogi-server keeps it: the file
//! reserved under the Game_ID when the game was seated (see [`reserve`]) holds the header,
//! the moves so far and a provisional `%CHUDAN`, rewritten from the first changed byte as
//! moves come in. So a server killed outright (kill -9, a power cut aside) leaves a valid
//! record of every game in progress, ended as interrupted, and its index row says `CHUDAN`.
//! When the game ends the record is replaced atomically by the final one (tmp file, fsync,
//! rename) and the row completed — after both players have had the result.
//!
//! Jobs arrive over a channel; the thread takes every job waiting before it writes, so a
//! game with many moves queued is written once, not once per move.

use std::collections::HashMap;
use std::fs::OpenOptions;
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kifu_csa::server_protocol::GameSummary;
use kifu_records::shogi::csa::CsaVersion;

use crate::server::game::{Ending, PlayedMove};
use crate::server::record::{Meta, csa_text, record_of, write_atomically};
use crate::server::store::GameRow;
use crate::server::store::Store;

/// A game whose record file is reserved and whose `START` went out.
pub(crate) struct Started {
    pub id: String,
    pub game_name: String,
    pub path: PathBuf,
    pub summary: GameSummary,
    pub meta: Meta,
}

enum Job {
    Start(Box<Started>),
    Move(String, PlayedMove),
    Finish(String, Ending, String),
    /// A reservation of a game rejected before `START`: the empty file goes.
    Discard(PathBuf),
    Flush(Sender<()>),
}

/// Reserves `dir/<id>.csa` for a new game's record with `create_new`: the file of an
/// earlier game — of this run or of another — is never replaced; `None` when the name is
/// taken. The file is left empty and closed (a game in progress holds no descriptor).
pub(crate) fn reserve(dir: &Path, id: &str) -> std::io::Result<Option<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!("{id}.csa"));
    match OpenOptions::new().write(true).create_new(true).open(&path) {
        Ok(_) => Ok(Some(path)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(None),
        Err(e) => Err(e),
    }
}

/// Removes what a crash can leave in `dir`: temporary files of atomic writes (`.<name>.tmp`)
/// and empty reservations of games that never started. Returns how many went.
pub(crate) fn clean_stale(dir: &Path) -> usize {
    let mut removed = 0;
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(kind) = e.file_type() else { continue };
            let path = e.path();
            let name = e.file_name();
            let name = name.to_string_lossy();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() {
                let stale_tmp = name.starts_with('.') && name.ends_with(".tmp");
                let empty_reservation =
                    name.ends_with(".csa") && e.metadata().is_ok_and(|m| m.len() == 0);
                if (stale_tmp || empty_reservation) && std::fs::remove_file(&path).is_ok() {
                    removed += 1;
                }
            }
        }
    }
    removed
}

pub(crate) struct RecordKeeper {
    jobs: Sender<Job>,
}

impl RecordKeeper {
    /// Starts the thread, which indexes games in `store` and reports failures to the
    /// server's `log`; it ends when the keeper is dropped and every job is done.
    pub fn start(
        store: Option<Arc<Mutex<Store>>>,
        log: tracing::Dispatch,
        version: CsaVersion,
    ) -> std::io::Result<RecordKeeper> {
        let (tx, rx) = channel();
        let shared = KeeperShared { store };
        std::thread::Builder::new()
            .name("kifu-records".to_owned())
            .spawn(move || tracing::dispatcher::with_default(&log, || keep(rx, shared, version)))?;
        Ok(RecordKeeper { jobs: tx })
    }

    fn send(&self, job: Job) {
        let _ = self.jobs.send(job);
    }

    pub fn start_game(&self, started: Started) {
        self.send(Job::Start(Box::new(started)));
    }

    pub fn moved(&self, id: &str, played: PlayedMove) {
        self.send(Job::Move(id.to_owned(), played));
    }

    pub fn finish(&self, id: &str, ending: Ending, end_time: String) {
        self.send(Job::Finish(id.to_owned(), ending, end_time));
    }

    pub fn discard(&self, path: PathBuf) {
        self.send(Job::Discard(path));
    }

    /// Waits (blocking) until every job sent so far is done; `false` after `patience`.
    pub fn flush(&self, patience: Duration) -> bool {
        let (tx, rx) = channel();
        self.send(Job::Flush(tx));
        rx.recv_timeout(patience).is_ok()
    }
}

struct Kept {
    started: Started,
    moves: Vec<PlayedMove>,
    /// Bytes of the file that the next write leaves as they are: the text before the
    /// provisional ending.
    stable: usize,
    dirty: bool,
    /// The game's row went into the index at its start: the row to complete is its own.
    indexed: bool,
}

/// What the keeper's thread shares with the server.
struct KeeperShared {
    store: Option<Arc<Mutex<Store>>>,
}

fn keep(rx: Receiver<Job>, shared: KeeperShared, version: CsaVersion) {
    let mut games: HashMap<String, Kept> = HashMap::new();
    loop {
        let Ok(first) = rx.recv() else { return };
        let mut batch = vec![first];
        // Everything already waiting, within a bound that keeps finished games from waiting
        // behind a flood of moves.
        while batch.len() < 4096 {
            match rx.recv_timeout(Duration::ZERO) {
                Ok(job) => batch.push(job),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
        let mut flushed = Vec::new();
        for job in batch {
            match job {
                Job::Start(started) => {
                    let id = started.id.clone();
                    let indexed = index_start(&shared, &started);
                    games.insert(
                        id,
                        Kept {
                            started: *started,
                            moves: Vec::new(),
                            stable: 0,
                            dirty: true,
                            indexed,
                        },
                    );
                }
                Job::Move(id, played) => {
                    if let Some(k) = games.get_mut(&id) {
                        k.moves.push(played);
                        k.dirty = true;
                    }
                }
                Job::Finish(id, ending, end_time) => {
                    if let Some(k) = games.remove(&id) {
                        finish(&shared, k, &ending, end_time, version);
                    }
                }
                Job::Discard(path) => {
                    let _ = std::fs::remove_file(path);
                }
                Job::Flush(done) => flushed.push(done),
            }
        }
        for k in games.values_mut().filter(|k| k.dirty) {
            k.dirty = false;
            if let Err(e) = write_progress(k, version) {
                tracing::info!("game {}: record not written: {e}", k.started.id);
            }
        }
        for done in flushed {
            let _ = done.send(());
        }
    }
}

/// Writes the game so far, with its provisional `%CHUDAN`, from the first byte that changed.
fn write_progress(k: &mut Kept, version: CsaVersion) -> std::io::Result<()> {
    let s = &k.started;
    let text = csa_text(&record_of(&s.summary, &k.moves, None, &s.meta), version);
    // The provisional ending is the last `%CHUDAN` line and what follows it (its note);
    // moves are only ever added before it.
    let ending_at = text.rfind("\n%CHUDAN\n").map_or(0, |i| i + 1);
    let from = k.stable.min(ending_at);
    let file = OpenOptions::new().write(true).open(&s.path)?;
    file.write_all_at(&text.as_bytes()[from..], from as u64)?;
    file.set_len(text.len() as u64)?;
    k.stable = ending_at;
    Ok(())
}

fn row(s: &Started, ending: Option<&Ending>, end_time: &str, plies: usize) -> GameRow {
    GameRow {
        id: s.id.clone(),
        game_name: s.game_name.clone(),
        black: s.summary.black.clone(),
        white: s.summary.white.clone(),
        start_time: s.meta.start_time.clone().unwrap_or_default(),
        end_time: end_time.to_owned(),
        reason: ending.map_or("CHUDAN", |e| e.reason.token()).to_owned(),
        winner: ending
            .and_then(|e| e.winner)
            .map(|c| c.csa_sign().to_string())
            .unwrap_or_default(),
        plies: u32::try_from(plies).unwrap_or(u32::MAX),
        path: s.path.display().to_string(),
    }
}

/// Adds the started game's row; `false` if it could not (the id taken, the store failing).
fn index_start(sh: &KeeperShared, s: &Started) -> bool {
    let Some(store) = &sh.store else { return false };
    match store.lock().unwrap().begin_game(&row(s, None, "", 0)) {
        Ok(()) => true,
        Err(e) => {
            tracing::info!("game {}: not indexed: {e}", s.id);
            false
        }
    }
}

fn finish(shared: &KeeperShared, k: Kept, ending: &Ending, end_time: String, version: CsaVersion) {
    let Kept {
        started,
        moves,
        indexed,
        ..
    } = k;
    let mut meta = started.meta.clone();
    meta.end_time = Some(end_time.clone());
    let text = csa_text(
        &record_of(&started.summary, &moves, Some(ending), &meta),
        version,
    );
    let dir = started.path.parent().unwrap_or(Path::new("."));
    let name = started
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Err(e) = write_atomically(dir, &name, &text) {
        tracing::info!("game {}: record not written: {e}", started.id);
    }
    let plies = moves.len();
    let sh = shared;
    let Some(store) = &sh.store else { return };
    let row = row(&started, Some(ending), &end_time, plies);
    let mut store = store.lock().unwrap();
    // A row this game did not add is another game's: it is never overwritten.
    if !indexed && let Err(e) = store.begin_game(&row) {
        tracing::info!(
            "game {}: not indexed (the index refused its row: {e})",
            started.id
        );
        return;
    }
    if let Err(e) = store.finish_game(&row) {
        tracing::info!("game {}: not indexed: {e}", started.id);
    }
}
