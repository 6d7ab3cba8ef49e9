//! One game on the server: summaries, AGREE/REJECT, START, then the judge. The game state
//! sits behind a short lock that the two players' connection tasks take in turn: a move is
//! judged by the mover's own task and written straight to both sockets, with no task in
//! between. A small timer task per game ends it on time without waiting for input, sends
//! the result, and only then hands the ending to the record keeper
//! (`record_keeper.rs`), which has had every move as it was played.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tracing::instrument::WithSubscriber as _;

use kifu_csa::message::CsaMove;
use kifu_csa::server_protocol::{ClientMessage, Clock, GameSummary, PositionBlock, Reason};
use kifu_shogi::Color;
use tokio::sync::Notify;
use tokio::time::Instant;

use crate::game_name::GameName;
use crate::server::feed::LiveGame;
use crate::server::game::{Ending, Game, Outbox};
use crate::server::peer::Peer;
use crate::server::record::{IN_PROGRESS, Meta, to_csa};
use crate::server::record_keeper::{Started, reserve};
use crate::server::services::Services;
use crate::wall_time::Stamp;

enum Phase {
    Agreeing {
        agreed: [bool; 2],
        deadline: Instant,
    },
    Playing,
    /// Rejected before START: the REJECT lines are out, nothing to record.
    Rejected,
    /// The game has an ending; the timer task writes the record, then the result goes out.
    Ended,
}

struct State {
    phase: Phase,
    summary: Option<GameSummary>,
    play: Option<Game>,
    origin: Instant,
    outbox: Outbox,
    /// The instant the timer task sleeps until, so a move that brings it forward wakes it.
    armed: Option<Instant>,
    /// The record file reserved under the Game_ID, until `START` hands it to the keeper.
    reserved: Option<PathBuf>,
    /// Moves handed to the record keeper so far.
    recorded: usize,
    /// When `START` went out, as the record's `$START_TIME`.
    start_time: Option<String>,
    /// Why no record can be written (with `--data`): the game is rejected before it starts.
    unrecordable: Option<String>,
    /// What spectators see of the game (from `START` on) and the moves published there.
    live: Option<Arc<LiveGame>>,
    published: usize,
}

pub(crate) struct Table {
    pub id: String,
    pub game: GameName,
    pub names: [String; 2],
    /// The players' ids (see [`crate::server::identity`]), Black's first.
    pub players: [String; 2],
    peers: [Arc<Peer>; 2],
    services: Arc<Services>,
    state: Mutex<State>,
    timer: Notify,
    /// `%%MONITORON` and `%%MONITOR2ON` watchers, by connection id and what they watch.
    watchers: Mutex<Vec<(u64, Arc<Peer>, Watch)>>,
    /// The record's header comment lines: the players' ratings, a buoy's start.
    notes: Vec<String>,
}

/// Where a seated player's lines go.
#[derive(Clone)]
pub(crate) struct Seat {
    pub table: Arc<Table>,
    pub color: Color,
}

/// Where the lobby hands a paired player its seat, for the player's connection to take.
/// The table holds the player's [`Peer`] (to write to it) but not this slot, so no
/// reference cycle runs between a table and its players.
#[derive(Default)]
pub(crate) struct SeatSlot(Mutex<Option<Seat>>);

impl SeatSlot {
    pub fn take(&self) -> Option<Seat> {
        self.0.lock().unwrap().take()
    }
}

/// The Game_IDs given out in the current second. An id is shogi-server's
/// `<event>+<game>+<black>+<white>+<YYYYMMDDHHMMSS>`, made unique by a `-2`, `-3` … suffix:
/// ids of different seconds never collide, so only this second's are remembered.
#[derive(Default)]
pub(crate) struct IdBook {
    second: String,
    taken: HashSet<String>,
}

/// A Game_ID no game of this server's lifetime has had and, with `--data`, no record on disk
/// has: the record file is reserved under it (`create_new`), so a restart within the same
/// second gets the next suffix instead of replacing the earlier game's record. With
/// `--data`, `Err` says why no record can be reserved.
fn reserve_id(
    services: &Services,
    book: &mut IdBook,
    game: &GameName,
    names: &[String; 2],
    start: &Stamp,
) -> (String, Result<Option<PathBuf>, String>) {
    let second = start.compact();
    let base = format!(
        "{}+{}+{}+{}+{second}",
        services.config.event, game.name, names[0], names[1],
    );
    let dir = services.config.data.as_ref().map(|d| {
        let [y, m, d2] = start.dirs();
        d.join(y).join(m).join(d2)
    });
    if book.second != second {
        book.second = second;
        book.taken.clear();
    }
    let mut n = 1;
    loop {
        let id = if n == 1 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        n += 1;
        if !book.taken.insert(id.clone()) {
            continue;
        }
        // A record moved away does not free its id: the index still holds it.
        let indexed = services
            .store
            .as_ref()
            .is_some_and(|s| s.lock().unwrap().has_game(&id).unwrap_or(false));
        if indexed {
            continue;
        }
        let Some(dir) = &dir else {
            return (id, Ok(None));
        };
        match reserve(dir, &id) {
            Ok(Some(path)) => return (id, Ok(Some(path))),
            Ok(None) => continue,
            Err(e) => {
                tracing::info!(
                    "game {id}: no record can be written in {}: {e}; the game is rejected",
                    dir.display()
                );
                return (id, Err(e.to_string()));
            }
        }
    }
}

/// Seats two players (Black first) and returns the table; the caller hands over the seats
/// with [`Table::give_seats`], then sends the summaries with [`Table::open`].
pub(crate) fn seat(
    services: &Arc<Services>,
    ids: &mut IdBook,
    game: GameName,
    players: [(String, String, Arc<Peer>); 2],
    mut notes: Vec<String>,
    initial_moves: Vec<kifu_shogi::Move>,
) -> Arc<Table> {
    let started = Stamp::now();
    let [(black, black_id, bp), (white, white_id, wp)] = players;
    let names = [black, white];
    let (id, reserved) = reserve_id(services, ids, &game, &names, &started);
    let (reserved, unrecordable) = match reserved {
        Ok(path) => (path, None),
        Err(why) => (None, Some(why)),
    };
    let mut summary = GameSummary::new(&id, &names[0], &names[1], game.time_rule());
    summary.max_moves = services.config.max_moves;
    if let Some(h) = game.handicap {
        summary.position = PositionBlock::new(h.position());
        summary.to_move = summary.position.start.turn();
    }
    // A buoy game starts after its moves, listed in the summary's position as shogi-server
    // lists them.
    if !initial_moves.is_empty() {
        notes.push(format!(
            "buoy game starting with {} moves",
            initial_moves.len()
        ));
        summary.position.moves = initial_moves.into_iter().map(|m| (m, None)).collect();
    }
    Arc::new(Table {
        id,
        game,
        names,
        players: [black_id, white_id],
        peers: [bp, wp],
        services: services.clone(),
        state: Mutex::new(State {
            phase: Phase::Agreeing {
                agreed: [false; 2],
                deadline: Instant::now() + services.config.agree_timeout,
            },
            summary: Some(summary),
            play: None,
            origin: Instant::now(),
            outbox: Outbox::default(),
            armed: None,
            reserved,
            recorded: 0,
            start_time: None,
            unrecordable,
            live: None,
            published: 0,
        }),
        timer: Notify::new(),
        watchers: Mutex::new(Vec::new()),
        notes,
    })
}

impl Table {
    /// Hands each player's connection its seat (Black's slot first) and wakes it.
    pub(crate) fn give_seats(self: &Arc<Table>, slots: [&SeatSlot; 2]) {
        for color in Color::ALL {
            let peer = &self.peers[color.index()];
            peer.new_game();
            *slots[color.index()].0.lock().unwrap() = Some(Seat {
                table: self.clone(),
                color,
            });
            peer.wake.notify_one();
        }
    }

    /// Sends both summaries and starts the timer task; `released` runs once the game is
    /// over (or rejected) and its players told, before its record is handed on.
    pub(crate) fn open(self: &Arc<Table>, released: impl FnOnce() + Send + 'static) {
        {
            let mut st = self.state.lock().unwrap();
            let summary = st.summary.as_ref().expect("a summary before START");
            for color in Color::ALL {
                let text = summary.for_player(color);
                self.peers[color.index()].send_all(text.lines().iter().map(String::as_str));
            }
            // A game nobody could find afterwards is not played: both players hear why
            // before it is rejected, and may ask again once the operator has made room.
            if let Some(why) = st.unrecordable.take() {
                let line = format!(
                    "##[ERROR] the server cannot record this game ({}): it is not played",
                    crate::plain_text::escape_controls(&why)
                );
                for p in &self.peers {
                    p.send(&line);
                }
                self.reject(&mut st, "the Server (no record can be written)");
            }
        }
        tracing::info!(
            "game {} paired: {} (+) vs {} (-)",
            self.id,
            self.names[0],
            self.names[1]
        );
        // The game's log lines go to its server's log, whoever paired it.
        tokio::spawn(
            self.clone()
                .timer_task(released)
                .with_subscriber(self.services.log.clone()),
        );
    }

    fn now_ms(st: &State) -> u64 {
        u64::try_from(st.origin.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// A line from the player of `color`.
    pub(crate) fn line(&self, color: Color, msg: ClientMessage) {
        let mut st = self.state.lock().unwrap();
        match &mut st.phase {
            Phase::Agreeing { agreed, .. } => match msg {
                ClientMessage::Agree(_) => {
                    agreed[color.index()] = true;
                    if agreed[0] && agreed[1] {
                        self.start(&mut st);
                    }
                }
                ClientMessage::KeepAlive => {
                    self.peers[color.index()].send("");
                }
                ClientMessage::Reject(_) => {
                    self.reject(&mut st, &self.names[color.index()].clone());
                }
                _ => {}
            },
            Phase::Playing => {
                let now = Self::now_ms(&st);
                let st = &mut *st;
                let play = st.play.as_mut().expect("a game in play");
                play.handle(color, msg, now, &mut st.outbox);
                self.after_input(st);
            }
            Phase::Rejected | Phase::Ended => {}
        }
    }

    /// The player of `color` is gone (closed, cut off, logged out).
    pub(crate) fn gone(&self, color: Color) {
        let mut st = self.state.lock().unwrap();
        match st.phase {
            Phase::Agreeing { .. } => {
                let by = self.names[color.index()].clone();
                self.reject(&mut st, &by);
            }
            Phase::Playing => {
                let now = Self::now_ms(&st);
                let st = &mut *st;
                let play = st.play.as_mut().expect("a game in play");
                play.disconnect(color, now, &mut st.outbox);
                self.after_input(st);
            }
            Phase::Rejected | Phase::Ended => {}
        }
    }

    fn start(&self, st: &mut State) {
        let summary = st.summary.take().expect("a summary before START");
        let start_time = Stamp::now().csa();
        if let (Some(keeper), Some(path)) = (&self.services.records, st.reserved.take()) {
            keeper.start_game(Started {
                id: self.id.clone(),
                game_name: self.game.name.clone(),
                players: self.players.clone(),
                path,
                summary: summary.clone(),
                meta: Meta {
                    start_time: Some(start_time.clone()),
                    end_time: None,
                    notes: self.notes.clone(),
                },
            });
        }
        st.start_time = Some(start_time);
        st.origin = Instant::now();
        let rule = self.game.clock_rule();
        let clock = Clock::new(rule.clone(), rule, self.game.stopwatch);
        let play = Game::with_clock(summary, clock, 0);
        let meta = Meta {
            start_time: st.start_time.clone(),
            end_time: None,
            notes: self.notes.clone(),
        };
        st.live = Some(self.services.feed.started(
            &self.id,
            &self.game,
            play.summary(),
            &meta,
            Self::remaining_ms(&play),
        ));
        // After the feed has the game: a spectator told of it by a player finds it there.
        let line = format!("START:{}", self.id);
        for p in &self.peers {
            p.send(&line);
        }
        st.play = Some(play);
        st.phase = Phase::Playing;
        self.rearm(st);
        tracing::info!("game {} started", self.id);
    }

    fn reject(&self, st: &mut State, by: &str) {
        let line = format!("REJECT:{} by {by}", self.id);
        for p in &self.peers {
            p.send(&line);
            // As in shogi-server, an x1 player goes back to the lobby, connected; a
            // CSA-mode player's connection was for this one game.
            if !p.is_x1() {
                p.close();
            }
        }
        st.phase = Phase::Rejected;
        if let (Some(keeper), Some(path)) = (&self.services.records, st.reserved.take()) {
            keeper.discard(path);
        }
        self.timer.notify_one();
    }

    /// Hands the moves played since the last call to the record keeper.
    fn record_moves(&self, st: &mut State) {
        let (Some(keeper), Some(play)) = (&self.services.records, &st.play) else {
            return;
        };
        for played in &play.moves()[st.recorded..] {
            keeper.moved(&self.id, played.clone());
        }
        st.recorded = play.moves().len();
    }

    /// Hands the moves played since the last call to the spectators' feed.
    fn publish_moves(&self, st: &mut State) {
        let (Some(live), Some(play)) = (&st.live, &st.play) else {
            return;
        };
        let moves = play.moves();
        if st.published == moves.len() {
            return;
        }
        let remaining = Self::remaining_ms(play);
        let unit = play.clock().rule(Color::Black).unit.millis();
        for played in &moves[st.published..] {
            live.moved(played, remaining, unit);
        }
        st.published = moves.len();
    }

    /// Both players' main time left, in milliseconds.
    fn remaining_ms(play: &Game) -> [i64; 2] {
        let clock = play.clock();
        Color::ALL.map(|c| {
            let unit = i64::try_from(clock.rule(c).unit.millis()).unwrap_or(1000);
            clock.remaining(c).saturating_mul(unit)
        })
    }

    /// Sends what the judge said, or hands an ended game to the timer task.
    fn after_input(&self, st: &mut State) {
        self.record_moves(st);
        let play = st.play.as_mut().expect("a game in play");
        if play.ending().is_some() {
            st.phase = Phase::Ended;
            self.timer.notify_one();
            return;
        }
        self.tell_watchers(st, &st.outbox.lines[0], false);
        let mut cut_off = [false; 2];
        for color in Color::ALL {
            let peer = &self.peers[color.index()];
            let lines = &mut st.outbox.lines[color.index()];
            if !lines.is_empty() {
                cut_off[color.index()] = !peer.send_all(lines.iter().map(String::as_str));
                lines.clear();
            }
        }
        // Spectators hear of the move after both players.
        self.publish_moves(st);
        for color in Color::ALL {
            if cut_off[color.index()] {
                // A client that does not read loses its seat, not the other's game.
                let now = Self::now_ms(st);
                let play = st.play.as_mut().expect("a game in play");
                play.disconnect(color, now, &mut st.outbox);
                if play.ending().is_some() {
                    st.phase = Phase::Ended;
                    self.timer.notify_one();
                    return;
                }
            }
        }
        self.rearm(st);
    }

    fn deadline(st: &State) -> Option<Instant> {
        match &st.phase {
            Phase::Agreeing { deadline, .. } => Some(*deadline),
            Phase::Playing => st
                .play
                .as_ref()?
                .deadline_ms()
                .map(|d| st.origin + Duration::from_millis(d)),
            Phase::Rejected | Phase::Ended => None,
        }
    }

    /// Wakes the timer only when the deadline came forward (it re-checks a later one itself).
    fn rearm(&self, st: &mut State) {
        let d = Self::deadline(st);
        let earlier = match (d, st.armed) {
            (Some(d), Some(a)) => d < a,
            (Some(_), None) => true,
            _ => false,
        };
        if earlier {
            self.timer.notify_one();
        }
    }

    async fn timer_task(self: Arc<Table>, released: impl FnOnce()) {
        let services = self.services.clone();
        loop {
            let deadline = {
                let mut st = self.state.lock().unwrap();
                match st.phase {
                    Phase::Rejected => {
                        tracing::info!("game {} rejected", self.id);
                        self.release(released);
                        return;
                    }
                    Phase::Ended => break,
                    _ => {}
                }
                let d = Self::deadline(&st);
                st.armed = d;
                d
            };
            let sleep = async {
                match deadline {
                    Some(d) => tokio::time::sleep_until(d).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = sleep => self.fire(),
                _ = self.timer.notified() => {}
            }
        }
        // The players hear the result first; the record and the index follow on the
        // keeper's thread, so no result ever waits behind a disk.
        let mut st = self.state.lock().unwrap();
        let ending = st.play.as_ref().and_then(|p| p.ending().cloned());
        let plies = st.play.as_ref().map_or(0, |p| p.moves().len());
        // One line appended to the log, so that whoever has the result finds it logged.
        if let Some(ending) = &ending {
            self.log_ending(ending, plies);
        }
        self.tell_watchers(&st, &st.outbox.lines[0], true);
        for color in Color::ALL {
            let lines = &mut st.outbox.lines[color.index()];
            self.peers[color.index()].send_all(lines.iter().map(String::as_str));
            lines.clear();
        }
        self.record_moves(&mut st);
        self.publish_moves(&mut st);
        if let Some(live) = st.live.take() {
            self.services.feed.finished(&live, ending.as_ref());
        }
        drop(st);
        self.watchers.lock().unwrap().clear();
        self.release(released);
        let Some(ending) = ending else { return };
        if let Some(keeper) = &services.records {
            keeper.finish(&self.id, ending, Stamp::now().csa());
        }
    }

    /// Ends the game as interrupted (`#CHUDAN` to both), for a server that is stopping;
    /// a game not started yet is rejected.
    pub(crate) fn interrupt(&self) {
        let mut st = self.state.lock().unwrap();
        match st.phase {
            Phase::Agreeing { .. } => self.reject(&mut st, "the Server (stopping)"),
            Phase::Playing => {
                let st = &mut *st;
                let play = st.play.as_mut().expect("a game in play");
                play.interrupt("the server was stopped", &mut st.outbox);
                self.after_input(st);
            }
            Phase::Rejected | Phase::Ended => {}
        }
    }

    /// Whether either player has lines the socket has not taken yet.
    pub(crate) fn output_pending(&self) -> bool {
        self.peers.iter().any(|p| p.status().2)
    }

    fn log_ending(&self, ending: &Ending, plies: usize) {
        let result = match ending.winner {
            Some(c) => format!("{} wins", self.names[c.index()]),
            None if ending.reason == Reason::Chudan => "interrupted".to_owned(),
            None => "draw".to_owned(),
        };
        tracing::info!(
            "game {} ended: #{} {result} after {plies} {}{}",
            self.id,
            ending.reason.token(),
            if plies == 1 { "ply" } else { "plies" },
            if ending.note.is_empty() {
                String::new()
            } else {
                format!(" ({})", ending.note)
            }
        );
    }

    fn release(&self, released: impl FnOnce()) {
        released();
        for p in &self.peers {
            p.end_game();
        }
    }

    /// The timer went off: the agree time or the mover's clock ran out (if it still has).
    fn fire(&self) {
        let mut st = self.state.lock().unwrap();
        let now = Instant::now();
        match &st.phase {
            Phase::Agreeing { deadline, .. } if *deadline <= now => {
                self.reject(&mut st, "the Server (timed out)");
            }
            Phase::Playing => {
                let now = Self::now_ms(&st);
                let st = &mut *st;
                let play = st.play.as_mut().expect("a game in play");
                play.tick(now, &mut st.outbox);
                self.after_input(st);
            }
            _ => {}
        }
    }

    /// The game as `%%SHOW` tells it, in shogi-server's form: the summary without
    /// `Your_Turn`, with `Remaining_Time+`, `Remaining_Time-`, `Last_Move` (empty before
    /// the first move) and `Current_Turn` (the number of plies played) inside the Time
    /// block, and the position as it stands now; `##[SHOW]` before each line.
    /// Every move of the game from its start position: those its summary listed (a buoy's),
    /// then those played.
    pub(crate) fn all_moves(&self) -> Vec<kifu_shogi::Move> {
        let st = self.state.lock().unwrap();
        let Some(play) = &st.play else {
            return Vec::new();
        };
        let listed = play.summary().position.moves.iter().map(|&(m, _)| m);
        listed.chain(play.moves().iter().map(|p| p.mv)).collect()
    }

    pub(crate) fn show(&self) -> Vec<String> {
        let st = self.state.lock().unwrap();
        let lines = Self::show_of(&st);
        drop(st);
        lines.into_iter().map(|l| format!("##[SHOW] {l}")).collect()
    }

    /// The lines of [`Table::show`], without their tag.
    fn show_of(st: &State) -> Vec<String> {
        let (summary, remaining, last, plies, now) = match (&st.play, &st.summary) {
            (Some(play), _) => {
                let summary = play.summary().clone();
                let mut pos = summary.position.current();
                let mut last = String::new();
                for played in play.moves() {
                    let text = CsaMove::from_move(&pos, played.mv).to_string();
                    last = format!("{text},T{}", played.t);
                    pos.play_unchecked(played.mv);
                }
                let clock = play.clock();
                let remaining = Color::ALL.map(|c| clock.remaining(c));
                let plies = summary.position.moves.len() + play.moves().len();
                (summary, remaining, last, plies, play.position().clone())
            }
            (None, Some(summary)) => {
                let total = |c: Color| {
                    i64::try_from(summary.time.of(c).total.unwrap_or(0)).unwrap_or(i64::MAX)
                };
                let now = summary.position.current();
                let plies = summary.position.moves.len();
                (
                    summary.clone(),
                    Color::ALL.map(total),
                    String::new(),
                    plies,
                    now,
                )
            }
            (None, None) => return Vec::new(),
        };
        let mut summary = summary;
        summary.to_move = now.turn();
        summary.your_turn = now.turn();
        summary.position = PositionBlock::new(now);
        let mut extra = vec![
            format!("Remaining_Time+:{}", remaining[0]),
            format!("Remaining_Time-:{}", remaining[1]),
            format!("Last_Move:{last}"),
            format!("Current_Turn:{plies}"),
        ];
        let mut out = Vec::new();
        for line in summary.lines() {
            if line.starts_with("Your_Turn:") {
                continue;
            }
            if line.starts_with("END Time") {
                out.append(&mut extra);
            }
            out.push(line);
        }
        out
    }

    /// What `%%WHO` says of the player of `color`: `agree_waiting`, `start_waiting`
    /// (agreed, the opponent not yet), `game` or `finished`.
    pub(crate) fn phase_of(&self, color: Color) -> &'static str {
        match &self.state.lock().unwrap().phase {
            Phase::Agreeing { agreed, .. } if agreed[color.index()] => "start_waiting",
            Phase::Agreeing { .. } => "agree_waiting",
            Phase::Playing => "game",
            Phase::Rejected | Phase::Ended => "finished",
        }
    }

    /// `%%MONITORON` ([`Watch::Positions`]): sends the game as `%%SHOW` tells it, one
    /// `##[MONITOR][<id>]` line each and a closing `+OK`, and again after every move.
    /// `%%MONITOR2ON` ([`Watch::Moves`]): sends the game so far as a CSA record, one
    /// `##[MONITOR2][<id>]` line each and a closing `+OK`, then every move as it is
    /// played. Both hear the ending. A connection may watch a game both ways at once, as
    /// in shogi-server.
    pub(crate) fn watch(&self, conn: u64, peer: &Arc<Peer>, watch: Watch) {
        let st = self.state.lock().unwrap();
        if watch == Watch::Positions {
            let lines = self.tagged(watch, Self::show_of(&st));
            peer.send_all(lines.iter().map(String::as_str));
            drop(st);
            self.add_watcher(conn, peer, watch);
            return;
        }
        let text = match &st.play {
            Some(play) => {
                let meta = Meta {
                    start_time: st.start_time.clone(),
                    end_time: None,
                    notes: self.notes.clone(),
                };
                to_csa(play, &meta, self.services.config.csa_version)
            }
            None => String::new(),
        };
        let prefix = format!("##[MONITOR2][{}] ", self.id);
        let mut lines: Vec<String> = text
            .lines()
            // The record's closing `%CHUDAN` and its note stand for a game still going (what
            // a crash would leave on disk), not for an ending.
            .filter(|l| !l.starts_with('%') && l.strip_prefix('\'') != Some(IN_PROGRESS))
            .map(|l| format!("{prefix}{l}"))
            .collect();
        lines.push(format!("{prefix}+OK"));
        peer.send_all(lines.iter().map(String::as_str));
        drop(st);
        self.add_watcher(conn, peer, watch);
    }

    fn add_watcher(&self, conn: u64, peer: &Arc<Peer>, watch: Watch) {
        let mut watchers = self.watchers.lock().unwrap();
        watchers.retain(|(c, _, w)| (*c, *w) != (conn, watch));
        watchers.push((conn, peer.clone(), watch));
    }

    /// `lines` each behind `##[MONITOR][<id>] ` (or `MONITOR2`), and the closing `+OK`.
    fn tagged(&self, watch: Watch, lines: Vec<String>) -> Vec<String> {
        let prefix = format!("##[{}][{}] ", watch.tag(), self.id);
        lines
            .into_iter()
            .chain(std::iter::once("+OK".to_owned()))
            .map(|l| format!("{prefix}{l}"))
            .collect()
    }

    /// `%%MONITOROFF` or `%%MONITOR2OFF` (`Some`), or every watch of a connection that
    /// went (`None`).
    pub(crate) fn unwatch(&self, conn: u64, watch: Option<Watch>) {
        self.watchers
            .lock()
            .unwrap()
            .retain(|(c, _, w)| *c != conn || watch.is_some_and(|watch| watch != *w));
    }

    /// Relays to the watchers the moves and, at the end, the reason line among `lines` (what
    /// Black hears): to `%%MONITOR2ON` watchers each move (`+7776FU` and `T3` lines), to
    /// `%%MONITORON` watchers the whole game as it stands after it (`st`: the table's state,
    /// held by the caller).
    fn tell_watchers(&self, st: &State, lines: &[String], ended: bool) {
        let watchers = self.watchers.lock().unwrap();
        if watchers.is_empty() {
            return;
        }
        let moves = self.moves_for_watchers(lines, ended);
        let positions = if watchers.iter().any(|(_, _, w)| *w == Watch::Positions) {
            self.positions_for_watchers(st, lines, ended)
        } else {
            Vec::new()
        };
        for (_, p, w) in watchers.iter() {
            let out = match w {
                Watch::Moves => &moves,
                Watch::Positions => &positions,
            };
            if !out.is_empty() {
                p.send_fan_out(out.iter().map(String::as_str));
            }
        }
    }

    /// The `##[MONITOR]` lines for `lines`: after a move the whole game as it stands (unless
    /// the move ended it: shogi-server then sends the result alone), and at the end the
    /// reason, each line closed by `+OK` as for `%%MONITOR2ON`.
    fn positions_for_watchers(&self, st: &State, lines: &[String], ended: bool) -> Vec<String> {
        let moved = lines.iter().any(|l| l.starts_with(['+', '-']));
        let mut out = if moved && !ended {
            self.tagged(Watch::Positions, Self::show_of(st))
        } else {
            Vec::new()
        };
        if ended {
            for line in lines.iter().filter(|l| is_result(l)) {
                out.extend(self.tagged(Watch::Positions, vec![line.clone()]));
            }
        }
        out
    }

    /// The `##[MONITOR2]` lines of `lines`: moves, and at the end the reason.
    fn moves_for_watchers(&self, lines: &[String], ended: bool) -> Vec<String> {
        let prefix = format!("##[MONITOR2][{}] ", self.id);
        let mut out = Vec::new();
        for line in lines {
            let is_move = line.starts_with(['+', '-']);
            if !(is_move || ended && is_result(line)) {
                continue;
            }
            for part in line.split(',') {
                out.push(format!("{prefix}{part}"));
            }
            out.push(format!("{prefix}+OK"));
        }
        out
    }
}

/// Whether a line a player hears at the end is the result a watcher hears: the ending
/// (`%TORYO`, `%KACHI`) or the reason (`#RESIGN`), not the player's own `#WIN`/`#LOSE`.
fn is_result(line: &str) -> bool {
    line.starts_with('%') || line.starts_with('#') && !matches!(line, "#WIN" | "#LOSE")
}

/// How a connection watches a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Watch {
    /// `%%MONITORON`: the whole game (summary, clocks, position) after every move.
    Positions,
    /// `%%MONITOR2ON`: the record so far, then each move.
    Moves,
}

impl Watch {
    fn tag(self) -> &'static str {
        match self {
            Watch::Positions => "MONITOR",
            Watch::Moves => "MONITOR2",
        }
    }
}
