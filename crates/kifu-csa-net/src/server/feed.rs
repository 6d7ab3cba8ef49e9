//! What spectators see of the games in progress: each game's moves, clocks and evaluations
//! as the game's table publishes them, kept apart from the game's own state.
//!
//! A table publishes under its own lock (it already holds it to judge the move) into its
//! [`LiveGame`], whose short lock guards only what spectators read; nobody reading the feed
//! ever takes a game's lock, so a crowd of spectators cannot make a player's move wait for
//! more than the few microseconds a move takes to append here. Changes go out on
//! `tokio::sync::broadcast` channels, whose senders never wait for their receivers: a
//! receiver that falls behind by a whole channel learns it has lagged and is dropped by the
//! HTTP side (`crate::http`).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use kifu_csa::message::CsaMove;
use kifu_csa::server_protocol::{GameSummary, MoveComment, Reason};
use kifu_record::{Comment, CommentKind, Game as _, Score, Span};
use kifu_shogi::{Color, Position, Shogi};
use serde::Serialize;
use tokio::sync::broadcast;

use crate::game_name::GameName;
use crate::server::game::{Ending, PlayedMove};
use crate::server::record::{Meta, builder_of, record_of};

/// Events a game's channel holds for a subscriber that reads slower than the moves come:
/// a subscriber this far behind is dropped rather than slow the game or grow a queue.
const GAME_CHANNEL: usize = 64;
/// Events the lobby's channel holds (games starting and ending, server-wide).
const LOBBY_CHANNEL: usize = 1024;
/// Finished games kept for spectators who ask right after the end (a server without
/// `--data` has no other copy of them).
const RECENT_FINISHED: usize = 64;

/// Every game in progress, and the lobby's channel.
pub struct Feed {
    games: Mutex<Games>,
    lobby: broadcast::Sender<LobbyEvent>,
}

#[derive(Default)]
struct Games {
    /// In the order they started.
    live: Vec<Arc<LiveGame>>,
    by_id: HashMap<String, Arc<LiveGame>>,
    finished: VecDeque<Arc<LiveGame>>,
}

/// A change in the list of games.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LobbyEvent {
    /// A game started (its first view, with no moves unless it is a buoy's).
    Started(Box<GameView>),
    /// A game ended.
    Finished {
        /// The Game_ID.
        id: String,
        /// How.
        result: GameResult,
    },
}

/// A change in one game.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum GameEvent {
    /// A move was played.
    Move(MoveView),
    /// The game ended; nothing follows.
    End(GameResult),
}

/// One game in progress as spectators see it.
pub struct LiveGame {
    /// The Game_ID.
    pub id: String,
    state: Mutex<LiveState>,
    events: broadcast::Sender<Arc<GameEvent>>,
}

struct LiveState {
    view: GameView,
    position: Position,
    /// What the record needs (the summary and the moves as the judge kept them).
    summary: GameSummary,
    played: Vec<PlayedMove>,
    meta: Meta,
    ending: Option<Ending>,
    /// Every move event sent, for a spectator who comes back after a break (`from`).
    history: Vec<Arc<GameEvent>>,
}

/// A game as `GET /api/games/<id>` answers it.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The Game_ID.
    pub id: String,
    /// The game name the players asked for (`floodgate-600-10`).
    pub game_name: String,
    /// Black's login name.
    pub black: String,
    /// White's login name.
    pub white: String,
    /// Black's rating, when the server rates its players.
    pub black_rating: Option<f64>,
    /// White's rating, when the server rates its players.
    pub white_rating: Option<f64>,
    /// The time control.
    pub time: TimeControl,
    /// When `START` went out (`YYYY/MM/DD HH:MM:SS`, the server's local time).
    pub start_time: Option<String>,
    /// The start position (after a buoy's moves, those are in `moves`).
    pub start_sfen: String,
    /// The position now.
    pub sfen: String,
    /// Every move from the start position, in USI.
    pub moves: Vec<String>,
    /// The same moves in CSA (`+7776FU`).
    pub csa: Vec<String>,
    /// Each move's time charged, in seconds (0 for a buoy's moves).
    pub times: Vec<u64>,
    /// The evaluations players sent in `'*` comments.
    pub evaluations: Vec<Evaluation>,
    /// Both clocks.
    pub clock: ClockView,
    /// How the game ended, once it has.
    pub result: Option<GameResult>,
}

/// A game's time control, in seconds.
#[derive(Clone, Debug, Serialize)]
pub struct TimeControl {
    /// Each side's main time.
    pub total: u64,
    /// Byoyomi (seconds a move may take once the main time is spent).
    pub byoyomi: u64,
    /// Fischer increment per move.
    pub increment: u64,
}

/// Both clocks, as at the last move: the mover's clock runs from `since_ms`.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// Main time left, in milliseconds: Black's, then White's.
    pub remaining_ms: [i64; 2],
    /// Whose clock runs: `black` or `white` (`null` once the game is over).
    pub running: Option<&'static str>,
    /// When the running clock started (Unix time in milliseconds).
    pub since_ms: u64,
}

/// An evaluation a player sent with its move (`,'* 30 -3334FU …`).
#[derive(Clone, Debug, Serialize)]
pub struct Evaluation {
    /// The ply of the move it came with (1 is the first move played).
    pub ply: usize,
    /// Who sent it: `black` or `white`.
    pub by: &'static str,
    /// The score from Black's point of view, in the engine's unit (`null` for a mate).
    pub score: Option<i32>,
    /// A forced mate: positive when Black mates, negative when White does (plies if known,
    /// else ±1).
    pub mate: Option<i64>,
    /// The score in words, as the viewer writes it (`評価値 +30`).
    pub words: String,
    /// The line the engine expected, as written.
    pub pv: String,
}

/// A move as the game's stream sends it.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// 1 for the first move played.
    pub ply: usize,
    /// The move in USI.
    pub usi: String,
    /// The move in CSA (`+7776FU`).
    pub csa: String,
    /// Its time charged, in seconds.
    pub time: u64,
    /// The position after it.
    pub sfen: String,
    /// Both clocks after it.
    pub clock: ClockView,
    /// The evaluation its player sent with it.
    pub evaluation: Option<Evaluation>,
}

/// How a game ended.
#[derive(Clone, Debug, Serialize)]
pub struct GameResult {
    /// The reason token, as the players heard it (`RESIGN`, `TIME_UP`, `SENNICHITE` …).
    pub reason: String,
    /// `black`, `white` or `null` (a draw, the move limit, an interruption).
    pub winner: Option<&'static str>,
    /// Plies played.
    pub plies: usize,
}

/// Now, as Unix time in milliseconds: what a browser's clock can count from.
fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A player's rating from the record's notes (`black_rate:<name>:<rate>`).
fn rating(notes: &[String], key: &str) -> Option<f64> {
    notes
        .iter()
        .find_map(|n| n.strip_prefix(key))
        .and_then(|rest| rest.rsplit(':').next())
        .and_then(|r| r.trim().parse().ok())
}

fn evaluation(comment: &MoveComment, ply: usize, by: Color) -> Option<Evaluation> {
    let MoveComment::Engine(text) = comment else {
        return None;
    };
    let comment = Comment::new(CommentKind::Engine, text.as_str(), Span::default());
    let e = kifu_render::caption::comment_evaluation(&comment)?;
    let (score, mate) = match e.score {
        Score::Value(v) => (Some(v), None),
        Score::Mate {
            winner_first,
            plies,
        } => {
            let n = i64::from(plies.unwrap_or(1).max(1));
            (None, Some(if winner_first { n } else { -n }))
        }
    };
    Some(Evaluation {
        ply,
        by: color_name(by),
        score,
        mate,
        words: e.words(),
        pv: e.pv,
    })
}

impl Default for Feed {
    fn default() -> Feed {
        Feed {
            games: Mutex::default(),
            lobby: broadcast::channel(LOBBY_CHANNEL).0,
        }
    }
}

impl Feed {
    /// A game started: it joins the list and the lobby hears of it.
    pub(crate) fn started(
        &self,
        id: &str,
        game: &GameName,
        summary: &GameSummary,
        meta: &Meta,
        remaining_ms: [i64; 2],
    ) -> Arc<LiveGame> {
        let start = summary.position.start.clone();
        let mut position = start.clone();
        let mut view = GameView {
            id: id.to_owned(),
            game_name: game.name.clone(),
            black: summary.black.clone(),
            white: summary.white.clone(),
            black_rating: rating(&meta.notes, "black_rate:"),
            white_rating: rating(&meta.notes, "white_rate:"),
            time: TimeControl {
                total: game.total,
                byoyomi: if game.fischer { 0 } else { game.last },
                increment: if game.fischer { game.last } else { 0 },
            },
            start_time: meta.start_time.clone(),
            start_sfen: Shogi::position_text(&start),
            sfen: String::new(),
            moves: Vec::new(),
            csa: Vec::new(),
            times: Vec::new(),
            evaluations: Vec::new(),
            clock: ClockView {
                remaining_ms,
                running: None,
                since_ms: unix_ms(),
            },
            result: None,
        };
        for &(mv, t) in &summary.position.moves {
            view.moves.push(mv.usi());
            view.csa.push(CsaMove::from_move(&position, mv).to_string());
            view.times.push(t.unwrap_or(0));
            position.play_unchecked(mv);
        }
        view.sfen = Shogi::position_text(&position);
        view.clock.running = Some(color_name(position.turn()));
        let live = Arc::new(LiveGame {
            id: id.to_owned(),
            state: Mutex::new(LiveState {
                view: view.clone(),
                position,
                summary: summary.clone(),
                played: Vec::new(),
                meta: meta.clone(),
                ending: None,
                history: Vec::new(),
            }),
            events: broadcast::channel(GAME_CHANNEL).0,
        });
        let mut games = self.games.lock().unwrap();
        games.live.push(live.clone());
        games.by_id.insert(id.to_owned(), live.clone());
        let _ = self.lobby.send(LobbyEvent::Started(Box::new(view)));
        live
    }

    /// A game ended: it leaves the list (kept a while among the recently finished).
    pub(crate) fn finished(&self, live: &Arc<LiveGame>, ending: Option<&Ending>) {
        let result = live.end(ending);
        let mut games = self.games.lock().unwrap();
        games.live.retain(|g| !Arc::ptr_eq(g, live));
        games.by_id.remove(&live.id);
        games.finished.push_back(live.clone());
        if games.finished.len() > RECENT_FINISHED {
            games.finished.pop_front();
        }
        let _ = self.lobby.send(LobbyEvent::Finished {
            id: live.id.clone(),
            result,
        });
    }

    /// Every game in progress, in the order they started.
    pub fn games(&self) -> Vec<Arc<LiveGame>> {
        self.games.lock().unwrap().live.clone()
    }

    /// A game in progress, or one finished a moment ago.
    pub fn game(&self, id: &str) -> Option<Arc<LiveGame>> {
        let games = self.games.lock().unwrap();
        games
            .by_id
            .get(id)
            .or_else(|| games.finished.iter().rev().find(|g| g.id == id))
            .cloned()
    }

    /// The games in progress and the lobby's channel from that moment on, taken together so
    /// that no game is missed or told twice.
    pub fn subscribe(&self) -> (Vec<Arc<LiveGame>>, broadcast::Receiver<LobbyEvent>) {
        let games = self.games.lock().unwrap();
        (games.live.clone(), self.lobby.subscribe())
    }
}

impl LiveGame {
    /// The game as it stands.
    pub fn view(&self) -> GameView {
        self.state.lock().unwrap().view.clone()
    }

    /// The game as it stands, the events after ply `from` (its moves, then its end once it
    /// is over), and its channel from that moment on.
    pub fn subscribe(
        &self,
        from: usize,
    ) -> (
        GameView,
        Vec<Arc<GameEvent>>,
        broadcast::Receiver<Arc<GameEvent>>,
    ) {
        let st = self.state.lock().unwrap();
        // The history holds the moves played, not those a buoy's summary listed.
        let listed = st.summary.position.moves.len();
        let from = from.saturating_sub(listed);
        let mut missed: Vec<_> = st.history.get(from..).unwrap_or_default().to_vec();
        if let Some(result) = &st.view.result {
            missed.push(Arc::new(GameEvent::End(result.clone())));
        }
        (st.view.clone(), missed, self.events.subscribe())
    }

    /// The game so far as a record (ending in `%CHUDAN` while it goes on, as the record on
    /// disk does).
    pub fn record(&self) -> kifu_records::shogi::ShogiRecord {
        let st = self.state.lock().unwrap();
        record_of(&st.summary, &st.played, st.ending.as_ref(), &st.meta)
    }

    /// [`LiveGame::record`] without the `%CHUDAN` of a game still going: what a page shows.
    pub fn record_so_far(&self) -> kifu_records::shogi::ShogiRecord {
        let st = self.state.lock().unwrap();
        match &st.ending {
            Some(_) => record_of(&st.summary, &st.played, st.ending.as_ref(), &st.meta),
            None => builder_of(&st.summary, &st.played, &st.meta).finish(),
        }
    }

    /// A move was played (called by the table, under its lock, in the order of play).
    pub(crate) fn moved(&self, played: &PlayedMove, remaining_ms: [i64; 2], unit_ms: u64) {
        let mut st = self.state.lock().unwrap();
        let mover = st.position.turn();
        let csa = CsaMove::from_move(&st.position, played.mv).to_string();
        st.position.play_unchecked(played.mv);
        let ply = st.view.moves.len() + 1;
        let evaluation = played
            .comment
            .as_ref()
            .and_then(|c| evaluation(c, ply, mover));
        let mv = MoveView {
            ply,
            usi: played.mv.usi(),
            csa,
            time: played.t * unit_ms / 1000,
            sfen: Shogi::position_text(&st.position),
            clock: ClockView {
                remaining_ms,
                running: Some(color_name(st.position.turn())),
                since_ms: unix_ms(),
            },
            evaluation,
        };
        st.played.push(played.clone());
        let view = &mut st.view;
        view.moves.push(mv.usi.clone());
        view.csa.push(mv.csa.clone());
        view.times.push(mv.time);
        view.sfen.clone_from(&mv.sfen);
        view.clock = mv.clock.clone();
        if let Some(e) = &mv.evaluation {
            view.evaluations.push(e.clone());
        }
        // Sent under the lock, so that a subscriber's view and its events join exactly.
        let event = Arc::new(GameEvent::Move(mv));
        st.history.push(event.clone());
        let _ = self.events.send(event);
    }

    fn end(&self, ending: Option<&Ending>) -> GameResult {
        let mut st = self.state.lock().unwrap();
        let result = GameResult {
            reason: ending
                .map_or(Reason::Chudan.token(), |e| e.reason.token())
                .to_owned(),
            winner: ending.and_then(|e| e.winner).map(color_name),
            plies: st.view.moves.len(),
        };
        st.ending = ending.cloned();
        st.view.result = Some(result.clone());
        st.view.clock.running = None;
        let _ = self.events.send(Arc::new(GameEvent::End(result.clone())));
        result
    }
}
