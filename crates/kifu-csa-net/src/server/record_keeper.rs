//! Records and the game index, kept by a thread of their own so that no move and no result
//! waits for a disk.
//!
//! A game's record is on disk from its `START` on, as shogi-server keeps it: the file
//! reserved under the Game_ID when the game was seated (see [`reserve`]) holds the header,
//! the moves so far and a provisional `%CHUDAN`, rewritten from the first changed byte as
//! moves come in. So a server killed outright (kill -9, a power cut aside) leaves a valid
//! record of every game in progress, ended as interrupted, and an index row in progress
//! that the next start closes as `CHUDAN` ([`reconcile`]). When the game ends the record is
//! replaced atomically by the final one (tmp file, fsync, rename) and the row completed —
//! after both players have had the result.
//!
//! Jobs arrive over a channel; the thread takes every job waiting before it writes, so a
//! game with many moves queued is written once, not once per move.
//!
//! A write that fails (a full disk, a directory made read-only) is not lost: the game's
//! record stays due and is written again every [`RETRY`] until it goes through, and a
//! finished game's row is completed only after its final record is on disk, so the index
//! never tells of an ending its file does not hold. The operator's log says what failed,
//! once per kind of failure a minute (`flood_log`'s habit), and when it went through.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kifu_csa::server_protocol::GameSummary;
use kifu_records::shogi::csa::CsaVersion;

use crate::server::game::{Ending, PlayedMove};
use crate::server::record::{Meta, csa_text, record_of};
use crate::server::store::GameRow;
use crate::server::store::Store;

/// A game whose record file is reserved and whose `START` went out.
pub(crate) struct Started {
    pub id: String,
    pub game_name: String,
    /// Black's and White's player ids.
    pub players: [String; 2],
    pub path: PathBuf,
    pub summary: GameSummary,
    pub meta: Meta,
}

enum Job {
    Start(Box<Started>),
    Move(String, PlayedMove),
    Finish(String, Ending, String),
    /// A player logged in: counted in its row, if it has one.
    Login(String),
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

/// Brings the index in line with the records at start: a game the index holds as started
/// and never finished (the server stopped before its row was completed) is closed as
/// interrupted with the plies its record holds — the record ends in `%CHUDAN` then, as
/// written while the game went on. Returns how many rows were closed; a record that says
/// more than the row can is reported for the operator.
pub(crate) fn reconcile(store: &Store) -> rusqlite::Result<usize> {
    let mut closed = 0;
    for (id, path) in store.unfinished_games()? {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        // Moves are the lines `+7776FU`/`-3334FU`, as shogi-server reads a record back.
        let is_move = |l: &&str| {
            let b = l.as_bytes();
            b.len() >= 7 && matches!(b[0], b'+' | b'-') && b[1..5].iter().all(u8::is_ascii_digit)
        };
        let plies = text.lines().filter(is_move).count();
        let ending = text.lines().rev().find(|l| l.starts_with('%'));
        if let Some(e) = ending.filter(|e| *e != "%CHUDAN") {
            tracing::info!(
                "game {id}: its record ends in {e} but its row was never completed; the row \
                 is closed as interrupted"
            );
        }
        let end_time = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| crate::wall_time::Stamp::from_unix(d.as_secs() as i64).csa())
            .unwrap_or_else(|| crate::wall_time::Stamp::now().csa());
        store.close_interrupted(&id, u32::try_from(plies).unwrap_or(u32::MAX), &end_time)?;
        closed += 1;
    }
    Ok(closed)
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

    /// Counts a login off the login's path: a store that fails never refuses anyone.
    pub fn login(&self, player: &str) {
        self.send(Job::Login(player.to_owned()));
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

/// How often writes that failed are tried again.
pub(crate) const RETRY: Duration = Duration::from_secs(1);

/// A finished game whose final record or row is not written yet.
struct Unfinished {
    kept: Kept,
    ending: Ending,
    end_time: String,
    /// The final record is on disk.
    recorded: bool,
    /// Failures so far, for the log.
    failures: u32,
}

fn keep(rx: Receiver<Job>, shared: KeeperShared, version: CsaVersion) {
    let mut games: HashMap<String, Kept> = HashMap::new();
    let mut unfinished: Vec<Unfinished> = Vec::new();
    let mut complaints = Complaints::default();
    loop {
        let behind = !unfinished.is_empty() || games.values().any(|k| k.dirty);
        let first = if behind {
            match rx.recv_timeout(RETRY) {
                Ok(job) => Some(job),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        } else {
            match rx.recv() {
                Ok(job) => Some(job),
                Err(_) => return,
            }
        };
        let mut batch: Vec<Job> = first.into_iter().collect();
        // Everything already waiting, within a bound that keeps finished games from waiting
        // behind a flood of moves.
        while !batch.is_empty() && batch.len() < 4096 {
            match rx.recv_timeout(Duration::ZERO) {
                Ok(job) => batch.push(job),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
        let mut flushed = Vec::new();
        let mut logins = Vec::new();
        for job in batch {
            match job {
                Job::Start(started) => {
                    let id = started.id.clone();
                    let indexed = index_start(&shared, &started, &mut complaints);
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
                    if let Some(kept) = games.remove(&id) {
                        unfinished.push(Unfinished {
                            kept,
                            ending,
                            end_time,
                            recorded: false,
                            failures: 0,
                        });
                    }
                }
                Job::Login(player) => logins.push(player),
                Job::Discard(path) => {
                    let _ = std::fs::remove_file(path);
                }
                Job::Flush(done) => flushed.push(done),
            }
        }
        if !logins.is_empty()
            && let Some(store) = &shared.store
        {
            let store = store.lock().unwrap();
            for player in logins {
                if let Err(e) = store.login(&player) {
                    complaints.note("a login was not counted in its player's row", &e);
                }
            }
        }
        finish_all(&shared, &mut unfinished, version, &mut complaints);
        for k in games.values_mut().filter(|k| k.dirty) {
            match write_progress(k, version) {
                Ok(()) => k.dirty = false,
                Err(e) => complaints.note(
                    "a record of a game in progress was not written (it is tried again)",
                    &format!("{}: {e}", k.started.id),
                ),
            }
        }
        if !flushed.is_empty() && !unfinished.is_empty() {
            // A flush waits for what can be written now, not for a disk that is full.
            complaints.note(
                "finished games wait for their records to be written",
                &unfinished.len(),
            );
        }
        for done in flushed {
            let _ = done.send(());
        }
    }
}

/// Failures the keeper logs: the first of each kind at once, then at most one line a
/// minute per kind with how many more there were, so a full disk does not fill the log.
#[derive(Default)]
struct Complaints {
    kinds: HashMap<&'static str, (std::time::Instant, u64)>,
}

impl Complaints {
    fn note(&mut self, what: &'static str, detail: &dyn std::fmt::Display) {
        let now = std::time::Instant::now();
        match self.kinds.get_mut(what) {
            Some((at, more)) if now.duration_since(*at) < Duration::from_secs(60) => *more += 1,
            Some((at, more)) => {
                tracing::info!(
                    "{what}: {detail} ({} more like it in the last minute)",
                    *more
                );
                *at = now;
                *more = 0;
            }
            None => {
                tracing::info!("{what}: {detail}");
                self.kinds.insert(what, (now, 0));
            }
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
        black_id: s.players[0].clone(),
        white_id: s.players[1].clone(),
        start_time: s.meta.start_time.clone().unwrap_or_default(),
        end_time: end_time.to_owned(),
        // A game in progress has no reason yet: `CHUDAN` is for a game that was interrupted
        // (see `reconcile`), not one whose row is about to be completed.
        reason: ending.map_or("", |e| e.reason.token()).to_owned(),
        winner: ending
            .and_then(|e| e.winner)
            .map(|c| c.csa_sign().to_string())
            .unwrap_or_default(),
        plies: u32::try_from(plies).unwrap_or(u32::MAX),
        path: s.path.display().to_string(),
    }
}

/// Adds the started game's row; `false` if it could not (the id taken, the store failing).
fn index_start(sh: &KeeperShared, s: &Started, complaints: &mut Complaints) -> bool {
    let Some(store) = &sh.store else { return false };
    match store.lock().unwrap().begin_game(&row(s, None, "", 0)) {
        Ok(()) => true,
        Err(e) => {
            complaints.note(
                "a started game was not indexed (its row is added when it ends)",
                &format!("{}: {e}", s.id),
            );
            false
        }
    }
}

/// Writes the final records of the finished games, then completes their rows; keeps in
/// `unfinished` only the games whose record or row is still due (tried again in a moment).
///
/// Games that end together are written together: each final record goes to its temporary
/// file, the files are flushed side by side (a journaling file system commits flushes that
/// wait at the same time in one go, so a hundred games ending at once cost about one flush
/// instead of a hundred in a row), then each is renamed into place, and the rows are
/// completed in one transaction. Until then a game's row says it is in progress, and its
/// file holds every move and the provisional ending.
fn finish_all(
    shared: &KeeperShared,
    unfinished: &mut Vec<Unfinished>,
    version: CsaVersion,
    complaints: &mut Complaints,
) {
    record_finished(unfinished, version, complaints);
    let Some(store) = &shared.store else {
        unfinished.retain(|u| !u.recorded);
        return;
    };
    let mut store = store.lock().unwrap();
    let mut rows = Vec::new();
    let mut settled = vec![false; unfinished.len()];
    for (i, u) in unfinished.iter().enumerate().filter(|(_, u)| u.recorded) {
        let started = &u.kept.started;
        // A row this game did not add is another game's: it is never overwritten.
        if !u.kept.indexed {
            match store.has_game(&started.id) {
                Ok(false) => {}
                Ok(true) => {
                    tracing::info!(
                        "game {}: not indexed (another game's row has its id)",
                        started.id
                    );
                    settled[i] = true;
                    continue;
                }
                Err(e) => {
                    complaints.note(
                        "a finished game's row was not written (it is tried again)",
                        &format!("{}: {e}", started.id),
                    );
                    continue;
                }
            }
        }
        rows.push((
            i,
            row(started, Some(&u.ending), &u.end_time, u.kept.moves.len()),
        ));
    }
    if !rows.is_empty() {
        let games: Vec<&GameRow> = rows.iter().map(|(_, r)| r).collect();
        match store.finish_games(&games) {
            Ok(()) => rows.iter().for_each(|(i, _)| settled[*i] = true),
            Err(e) => complaints.note(
                "a finished game's row was not written (it is tried again)",
                &format!("{} game(s): {e}", rows.len()),
            ),
        }
    }
    drop(store);
    let mut settled = settled.into_iter();
    unfinished.retain(|_| !settled.next().unwrap_or(false));
}

/// A final record written to its temporary file, not yet flushed nor in place.
struct Written {
    index: usize,
    file: File,
    tmp: PathBuf,
}

/// Writes the final record of every finished game that has none on disk yet (see
/// [`finish_all`]); marks each written one `recorded`.
fn record_finished(
    unfinished: &mut [Unfinished],
    version: CsaVersion,
    complaints: &mut Complaints,
) {
    let mut written = Vec::new();
    for (index, u) in unfinished.iter_mut().enumerate() {
        if u.recorded {
            continue;
        }
        match write_final(u, version) {
            Ok((file, tmp)) => written.push(Written { index, file, tmp }),
            Err(e) => not_recorded(u, e, version, complaints),
        }
    }
    let files: Vec<&File> = written.iter().map(|w| &w.file).collect();
    let flushed = flush_together(&files);
    for (w, flushed) in written.into_iter().zip(flushed) {
        let u = &mut unfinished[w.index];
        drop(w.file);
        let placed = flushed.and_then(|()| std::fs::rename(&w.tmp, &u.kept.started.path));
        if let Err(e) = placed {
            // A full disk leaves no half-written temporary file behind for the next try.
            let _ = std::fs::remove_file(&w.tmp);
            not_recorded(u, e, version, complaints);
            continue;
        }
        u.recorded = true;
        if u.failures > 0 {
            tracing::info!(
                "game {}: record written after {} failed tries",
                u.kept.started.id,
                u.failures
            );
        }
    }
}

/// The final record of `u` in its temporary file (`.<name>.tmp` beside the record), written
/// but not flushed.
fn write_final(u: &Unfinished, version: CsaVersion) -> std::io::Result<(File, PathBuf)> {
    let started = &u.kept.started;
    let mut meta = started.meta.clone();
    meta.end_time = Some(u.end_time.clone());
    let text = csa_text(
        &record_of(&started.summary, &u.kept.moves, Some(&u.ending), &meta),
        version,
    );
    let name = started
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = started.path.with_file_name(format!(".{name}.tmp"));
    if let Some(dir) = tmp.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = File::create(&tmp)?;
    if let Err(e) = file.write_all(text.as_bytes()) {
        drop(file);
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok((file, tmp))
}

/// A final record that could not be written: logged, counted, and the provisional record
/// kept up to date meanwhile.
fn not_recorded(
    u: &mut Unfinished,
    e: std::io::Error,
    version: CsaVersion,
    complaints: &mut Complaints,
) {
    complaints.note(
        "a finished game's record was not written (it is tried again)",
        &format!("{}: {e}", u.kept.started.id),
    );
    u.failures += 1;
    // Until the final record goes through, the file holds every move played and the
    // provisional ending: valid, and what a crash would leave.
    if u.kept.dirty && write_progress(&mut u.kept, version).is_ok() {
        u.kept.dirty = false;
    }
}

/// At most this many flushes wait at once: enough for the file system to take them as one
/// commit, few enough threads to start on every round.
const FLUSHERS: usize = 16;

/// Flushes every file to disk, side by side; one result per file, in order.
fn flush_together(files: &[&File]) -> Vec<std::io::Result<()>> {
    if files.len() <= 1 {
        return files.iter().map(|f| f.sync_all()).collect();
    }
    let share = files.len().div_ceil(FLUSHERS);
    std::thread::scope(|scope| {
        let flushers: Vec<_> = files
            .chunks(share)
            .map(|chunk| {
                let flushing =
                    scope.spawn(move || chunk.iter().map(|f| f.sync_all()).collect::<Vec<_>>());
                (chunk.len(), flushing)
            })
            .collect();
        flushers
            .into_iter()
            .flat_map(|(n, flushing)| {
                flushing.join().unwrap_or_else(|_| {
                    (0..n)
                        .map(|_| Err(std::io::Error::other("a flushing thread failed")))
                        .collect()
                })
            })
            .collect()
    })
}
