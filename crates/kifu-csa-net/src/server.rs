//! The tokio server: accepts connections, logs players in and pairs them by game name
//! (reference §3.2–§3.5, §6). Each game runs in [`crate::table`].

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kifu_csa::lines::{Line, LineFramer};
use kifu_csa::server_protocol::ClientMessage;
use kifu_shogi::Color;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot};

use crate::game_name::Request;
use crate::store::Store;
use crate::table::{self, Input, Seat};
use crate::x1::X1Command;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    pub bind: SocketAddr,
    /// Records go under `data/YYYY/MM/DD/<Game_ID>.csa`, the store in `data/kifu.sqlite`.
    pub data: Option<PathBuf>,
    /// Ply limit announced as `Max_Moves` (0 = none).
    pub max_moves: u32,
    /// The `<event>` part of game ids.
    pub event: String,
    pub login_timeout: Duration,
    pub agree_timeout: Duration,
    /// How long a finished CSA-mode player may stay for its `LOGOUT`.
    pub logout_grace: Duration,
}

impl Config {
    pub fn new(bind: SocketAddr) -> Config {
        Config {
            bind,
            data: None,
            max_moves: 256,
            event: "kifu".to_owned(),
            login_timeout: Duration::from_secs(300),
            agree_timeout: Duration::from_secs(120),
            logout_grace: Duration::from_secs(10),
        }
    }
}

/// What goes to a connection's writer.
#[derive(Debug)]
pub enum Out {
    Line(String),
    Close,
}

/// Lines queued for a client that does not read; beyond this it is cut off.
const OUT_QUEUE: usize = 1024;

struct Waiting {
    name: String,
    color: Option<Color>,
    out: mpsc::Sender<Out>,
    seat: oneshot::Sender<Seat>,
}

pub(crate) struct Shared {
    pub config: Config,
    pub store: Option<Mutex<Store>>,
    lobby: Mutex<HashMap<String, Vec<Waiting>>>,
    online: Mutex<HashSet<String>>,
    pub ids: Mutex<HashSet<String>>,
}

/// A bound server, ready to run.
pub struct Server {
    listener: TcpListener,
    shared: Arc<Shared>,
}

impl Server {
    pub async fn bind(config: Config) -> std::io::Result<Server> {
        let store = match &config.data {
            Some(dir) => {
                std::fs::create_dir_all(dir)?;
                let store = Store::open(&dir.join("kifu.sqlite")).map_err(std::io::Error::other)?;
                Some(Mutex::new(store))
            }
            None => None,
        };
        let listener = TcpListener::bind(config.bind).await?;
        Ok(Server {
            listener,
            shared: Arc::new(Shared {
                config,
                store,
                lobby: Mutex::new(HashMap::new()),
                online: Mutex::new(HashSet::new()),
                ids: Mutex::new(HashSet::new()),
            }),
        })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Accepts connections until the task is dropped.
    pub async fn run(self) -> std::io::Result<()> {
        loop {
            let (stream, _) = match self.listener.accept().await {
                Ok(x) => x,
                // Out of descriptors under a flood: wait a little, keep serving the rest.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let shared = self.shared.clone();
            tokio::spawn(async move { connection(stream, shared).await });
        }
    }
}

/// Builds a runtime, binds, reports the address and serves until Ctrl-C.
pub fn run_blocking(config: Config, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let server = Server::bind(config).await?;
        ready(server.local_addr()?);
        tokio::select! {
            r = server.run() => r,
            _ = tokio::signal::ctrl_c() => Ok(()),
        }
    })
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 32
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-@.".contains(&b))
}

async fn writer(mut wr: OwnedWriteHalf, mut rx: mpsc::Receiver<Out>) {
    let mut buf = Vec::new();
    while let Some(first) = rx.recv().await {
        let mut close = false;
        let mut push = |o: Out, buf: &mut Vec<u8>| match o {
            Out::Line(l) => {
                buf.extend_from_slice(l.as_bytes());
                buf.push(b'\n');
            }
            Out::Close => close = true,
        };
        push(first, &mut buf);
        while let Ok(o) = rx.try_recv() {
            push(o, &mut buf);
        }
        let write = tokio::time::timeout(Duration::from_secs(30), wr.write_all(&buf)).await;
        buf.clear();
        if !matches!(write, Ok(Ok(()))) || close {
            let _ = wr.shutdown().await;
            return;
        }
    }
    let _ = wr.shutdown().await;
}

enum State {
    Login,
    /// An x1 player between games.
    Idle(String),
    Waiting(String, oneshot::Receiver<Seat>),
    Playing(String, Seat),
    Finished,
}

async fn connection(stream: TcpStream, shared: Arc<Shared>) {
    let _ = stream.set_nodelay(true);
    // Half-open connections (a player's machine gone without a FIN) are found by the
    // kernel's keep-alive probes rather than lingering forever.
    let keepalive = socket2::TcpKeepalive::new()
        .with_time(Duration::from_secs(60))
        .with_interval(Duration::from_secs(10));
    let _ = socket2::SockRef::from(&stream).set_tcp_keepalive(&keepalive);
    let (mut rd, wr) = stream.into_split();
    let (out, out_rx) = mpsc::channel(OUT_QUEUE);
    tokio::spawn(writer(wr, out_rx));
    let send = |line: String| {
        let _ = out.try_send(Out::Line(line));
    };
    let mut state = State::Login;
    let mut x1 = false;
    let mut framer = LineFramer::new();
    let mut lines = Vec::new();
    let mut buf = vec![0u8; 4096];
    let mut idle_limit = shared.config.login_timeout;
    'conn: loop {
        let read = async {
            match &mut state {
                State::Waiting(_, seat) => tokio::select! {
                    biased;
                    s = seat => Err(s.ok()),
                    r = rd.read(&mut buf) => Ok(r),
                },
                State::Playing(_, seat) => tokio::select! {
                    biased;
                    _ = seat.to_game.closed() => Err(None),
                    r = rd.read(&mut buf) => Ok(r),
                },
                _ => Ok(rd.read(&mut buf).await),
            }
        };
        let event = tokio::time::timeout(idle_limit, read).await;
        let n = match event {
            Err(_) => {
                // Silent too long: before a game this ends the connection; in a game the
                // table's own timer judges time, so only the login wait is bounded here.
                if let State::Playing(..) = state {
                    continue;
                }
                break 'conn;
            }
            Ok(Err(Some(seat))) => {
                if let State::Waiting(name, _) = state {
                    state = State::Playing(name, seat);
                    idle_limit = Duration::from_secs(24 * 3600);
                }
                continue;
            }
            Ok(Err(None)) => {
                state = match state {
                    State::Playing(name, _) if x1 => State::Idle(name),
                    State::Playing(name, _) => {
                        shared.online.lock().unwrap().remove(&name);
                        idle_limit = shared.config.logout_grace;
                        State::Finished
                    }
                    // The lobby let go of a waiting player: nothing more will come.
                    State::Waiting(name, _) => {
                        shared.online.lock().unwrap().remove(&name);
                        idle_limit = shared.config.logout_grace;
                        State::Finished
                    }
                    other => other,
                };
                continue;
            }
            Ok(Ok(Ok(0))) | Ok(Ok(Err(_))) => break 'conn,
            Ok(Ok(Ok(n))) => n,
        };
        framer.push(&buf[..n], &mut lines);
        for line in lines.drain(..) {
            let msg = match line {
                Line::Text(bytes) => match String::from_utf8(bytes) {
                    Ok(s) => ClientMessage::parse(&s),
                    Err(_) => ClientMessage::Unknown("(bytes that are not text)".to_owned()),
                },
                Line::TooLong { length, .. } => {
                    ClientMessage::Unknown(format!("(a line of {length} bytes)"))
                }
            };
            // The seat is handed over before the summary is sent, so a line answering
            // the summary (AGREE) must find it even when both arrive in one wake-up.
            if let State::Waiting(name, seat) = &mut state
                && let Ok(seat) = seat.try_recv()
            {
                state = State::Playing(std::mem::take(name), seat);
                idle_limit = Duration::from_secs(24 * 3600);
            }
            match &mut state {
                State::Login => match msg {
                    ClientMessage::Login {
                        name,
                        password,
                        x1: extended,
                    } => {
                        if !valid_name(&name) || password.len() > 64 {
                            send("LOGIN:incorrect".to_owned());
                            let _ = out.try_send(Out::Close);
                            break 'conn;
                        }
                        if !shared.online.lock().unwrap().insert(name.clone()) {
                            send("LOGIN:incorrect".to_owned());
                            let _ = out.try_send(Out::Close);
                            break 'conn;
                        }
                        if let Some(store) = &shared.store {
                            let _ = store.lock().unwrap().login(&name);
                        }
                        send(format!("LOGIN:{name} OK"));
                        idle_limit = Duration::from_secs(24 * 3600);
                        if extended {
                            x1 = true;
                            send("##[LOGIN] +OK x1".to_owned());
                            state = State::Idle(name);
                            continue;
                        }
                        let request = Request::from_password(&password);
                        let seat = join(&shared, &name, request, out.clone());
                        state = State::Waiting(name, seat);
                    }
                    ClientMessage::KeepAlive | ClientMessage::Blank => {}
                    _ => {
                        send("LOGIN:incorrect".to_owned());
                        let _ = out.try_send(Out::Close);
                        break 'conn;
                    }
                },
                State::Idle(name) => match msg {
                    ClientMessage::Logout => {
                        shared.online.lock().unwrap().remove(name.as_str());
                        send("LOGOUT:completed".to_owned());
                        let _ = out.try_send(Out::Close);
                        break 'conn;
                    }
                    ClientMessage::KeepAlive => send(String::new()),
                    ClientMessage::Extended(line) => match X1Command::parse(&line) {
                        X1Command::Game(request) => {
                            let seat = join(&shared, name, request, out.clone());
                            state = State::Waiting(std::mem::take(name), seat);
                        }
                        other => other.reply().into_iter().for_each(send),
                    },
                    ClientMessage::Blank => {}
                    other => send(format!("##[ERROR] unknown command: {other}")),
                },
                State::Waiting(name, _)
                    if x1 && matches!(&msg, ClientMessage::Extended(l) if l == "%%GAME") =>
                {
                    leave(&shared, name);
                    state = State::Idle(std::mem::take(name));
                }
                State::Waiting(name, _) => match msg {
                    ClientMessage::Logout => {
                        leave(&shared, name);
                        shared.online.lock().unwrap().remove(name.as_str());
                        send("LOGOUT:completed".to_owned());
                        let _ = out.try_send(Out::Close);
                        break 'conn;
                    }
                    ClientMessage::KeepAlive => send(String::new()),
                    ClientMessage::Blank => {}
                    other => send(format!("##[ERROR] unknown command: {other}")),
                },
                State::Playing(name, seat) => {
                    if matches!(msg, ClientMessage::Logout) {
                        let _ = seat.to_game.send((seat.color, Input::Gone)).await;
                        // Free the name before the reply, so an immediate re-login works.
                        shared.online.lock().unwrap().remove(name.as_str());
                        send("LOGOUT:completed".to_owned());
                        let _ = out.try_send(Out::Close);
                        break 'conn;
                    }
                    let _ = seat.to_game.send((seat.color, Input::Line(msg))).await;
                }
                State::Finished => match msg {
                    ClientMessage::Logout => {
                        send("LOGOUT:completed".to_owned());
                        let _ = out.try_send(Out::Close);
                        break 'conn;
                    }
                    ClientMessage::KeepAlive => send(String::new()),
                    _ => {}
                },
            }
        }
    }
    match state {
        State::Idle(name) => {
            shared.online.lock().unwrap().remove(&name);
        }
        State::Waiting(name, _) => {
            leave(&shared, &name);
            shared.online.lock().unwrap().remove(&name);
        }
        State::Playing(name, seat) => {
            let _ = seat.to_game.send((seat.color, Input::Gone)).await;
            shared.online.lock().unwrap().remove(&name);
        }
        _ => {}
    }
    let _ = out.try_send(Out::Close);
}

/// Puts a player in the lobby, or pairs it with a compatible waiting player at once.
fn join(
    shared: &Arc<Shared>,
    name: &str,
    request: Request,
    out: mpsc::Sender<Out>,
) -> oneshot::Receiver<Seat> {
    let (seat_tx, seat_rx) = oneshot::channel();
    let me = Waiting {
        name: name.to_owned(),
        color: request.color,
        out,
        seat: seat_tx,
    };
    let mut lobby = shared.lobby.lock().unwrap();
    let queue = lobby.entry(request.game.name.clone()).or_default();
    queue.retain(|w| !w.seat.is_closed());
    let fits = |w: &Waiting| match (w.color, me.color) {
        (Some(a), Some(b)) => a != b,
        _ => true,
    };
    match queue.iter().position(fits) {
        Some(i) => {
            let other = queue.remove(i);
            drop(lobby);
            // The earlier arrival gets its wish; without wishes, the earlier one plays Black.
            let other_black = match (other.color, me.color) {
                (Some(c), _) => c == Color::Black,
                (None, Some(c)) => c == Color::White,
                (None, None) => true,
            };
            let (black, white) = if other_black {
                (other, me)
            } else {
                (me, other)
            };
            table::spawn(shared.clone(), request.game, [black.into(), white.into()]);
        }
        None => queue.push(me),
    }
    seat_rx
}

fn leave(shared: &Shared, name: &str) {
    let mut lobby = shared.lobby.lock().unwrap();
    for queue in lobby.values_mut() {
        queue.retain(|w| w.name != name);
    }
    lobby.retain(|_, q| !q.is_empty());
}

/// A player handed to a table.
pub(crate) struct Player {
    pub name: String,
    pub out: mpsc::Sender<Out>,
    pub seat: oneshot::Sender<Seat>,
}

impl From<Waiting> for Player {
    fn from(w: Waiting) -> Player {
        Player {
            name: w.name,
            out: w.out,
            seat: w.seat,
        }
    }
}
