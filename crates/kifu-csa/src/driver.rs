//! Runs a [`Session`] for real: the line read on one thread, the player thinking on
//! another, everything else (the session, the writes, the record) on the caller's.

use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use kifu_shogi::Color;

use crate::player::{Player, ThinkRequest};
use crate::record::{self, Header};
use crate::session::{Action, Event, GameResult, Session, State};
use crate::transport::{Transport, pump_lines};

enum ToPlayer {
    Start(Color),
    Think(Box<ThinkRequest>),
    Over(Option<GameResult>),
}

/// Why a game could not be played on: the line or the record file failed. (A failing
/// player or a lost line interrupts the game instead, which [`play`] returns as its state.)
#[derive(Debug, thiserror::Error)]
pub enum DriverError {
    /// The line could not be split into its reading and writing halves.
    #[error("{line}: {source}")]
    Line {
        /// The line, as [`Transport::describe`] names it.
        line: String,
        /// Why it failed.
        source: std::io::Error,
    },
    /// The record could not be saved.
    #[error("cannot write the record {}: {source}", path.display())]
    Record {
        /// The record's path.
        path: PathBuf,
        /// Why it could not be written.
        source: std::io::Error,
    },
}

/// Where the game's record goes and what its header says.
pub struct Output<'a> {
    /// The names and start time for the record's header.
    pub header: Header,
    /// Where the record is saved after every ply (`None`: not saved).
    pub record: Option<&'a Path>,
    /// Progress for the operator: moves, notices, the result.
    pub log: &'a mut dyn FnMut(&str),
}

/// Plays the game to its end or interruption and returns how it stood then. `events` is a
/// channel whose sender the caller may also hand to a signal handler, to send
/// [`Event::OperatorInterrupt`].
pub fn play(
    mut session: Session,
    transport: Box<dyn Transport>,
    player: Box<dyn Player>,
    events: (Sender<Event>, Receiver<Event>),
    out: Output<'_>,
) -> Result<State, DriverError> {
    let Output {
        header,
        record: record_path,
        log,
    } = out;
    let (tx, rx) = events;
    let line_name = transport.describe();
    let (read, mut write) = transport.split().map_err(|source| DriverError::Line {
        line: line_name.clone(),
        source,
    })?;
    let pump_tx = tx.clone();
    thread::spawn(move || pump_lines(read, pump_tx));
    let (to_player, player_done) = spawn_player(player, tx.clone());
    let _ = to_player.send(ToPlayer::Start(session.config().me));
    log(&format!("playing {} on {line_name}", session.config().me));

    let clock = Instant::now();
    let now_ms = || clock.elapsed().as_millis() as u64;
    let mut pending: VecDeque<Event> = VecDeque::from([Event::OpponentReady]);
    let mut actions = Vec::new();
    loop {
        let event = match pending.pop_front() {
            Some(e) => e,
            None => match rx.recv_timeout(Duration::from_millis(200)) {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) => Event::Tick,
                Err(RecvTimeoutError::Disconnected) => Event::Failure("no more events".into()),
            },
        };
        session.handle(event, now_ms(), &mut actions);
        for action in actions.drain(..) {
            match action {
                Action::Send(m) => {
                    log(&format!("> {m}"));
                    if let Err(e) = writeln!(write, "{m}").and_then(|()| write.flush()) {
                        pending.push_back(Event::Failure(format!("cannot send on the line: {e}")));
                    }
                }
                Action::Think => {
                    let request = ThinkRequest {
                        start: session.start().clone(),
                        moves: session.position().moves_played().collect(),
                        position: session.position().clone(),
                        clocks: session.clocks(),
                        time: session.config().time,
                        relay: session.config().relay,
                    };
                    if to_player.send(ToPlayer::Think(Box::new(request))).is_err() {
                        pending.push_back(Event::Failure("the player is gone".into()));
                    }
                }
                Action::Played { color, line } => {
                    let ply = session.position().moves_played().len();
                    let c = session.clocks();
                    log(&format!(
                        "{ply:>4} {line}  ({color} has used {:.1} s)",
                        c.used_ms[color.index()] as f64 / 1000.0
                    ));
                }
                Action::Show(text) => log(&text),
                Action::GameOver(end) => {
                    let result = match end.result {
                        GameResult::Win(c) => format!("{c} wins"),
                        GameResult::Draw => "draw".into(),
                    };
                    log(&format!(
                        "game over: {} — {result} ({})",
                        end.kind, end.reason
                    ));
                }
                Action::Interrupted(why) => log(&format!("game interrupted: {why}")),
                Action::Save => {
                    if let Some(path) = record_path {
                        save(path, &record::write(&session, &header)).map_err(|source| {
                            DriverError::Record {
                                path: path.to_owned(),
                                source,
                            }
                        })?;
                    }
                }
            }
        }
        let result = match session.state() {
            State::Ended(end) => Some(end.result),
            State::Interrupted(_) => None,
            _ => continue,
        };
        if pending.is_empty() {
            let _ = write.flush();
            let _ = to_player.send(ToPlayer::Over(result));
            // Let an engine hear `gameover` and quit; do not wait on one stuck thinking.
            let _ = player_done.recv_timeout(Duration::from_secs(2));
            return Ok(session.state().clone());
        }
    }
}

fn spawn_player(
    mut player: Box<dyn Player>,
    events: Sender<Event>,
) -> (Sender<ToPlayer>, Receiver<()>) {
    let (tx, rx) = mpsc::channel::<ToPlayer>();
    let (done_tx, done_rx) = mpsc::channel();
    thread::spawn(move || {
        for message in rx {
            let event = match message {
                ToPlayer::Start(me) => match player.new_game(me) {
                    Ok(()) => continue,
                    Err(e) => Event::Failure(format!("the player cannot start: {e}")),
                },
                ToPlayer::Think(request) => match player.think(&request) {
                    Ok(d) => Event::Local(d),
                    Err(e) => Event::Failure(format!("the player stopped: {e}")),
                },
                ToPlayer::Over(result) => {
                    player.game_over(result);
                    break;
                }
            };
            if events.send(event).is_err() {
                break;
            }
        }
        drop(player);
        let _ = done_tx.send(());
    });
    (tx, done_rx)
}

/// Writes the record whole or not at all: a crash mid-write must not destroy the last save.
fn save(path: &Path, text: &str) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}
