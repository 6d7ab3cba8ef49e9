//! One task per connection: it reads the client's lines and acts on them itself (a move is
//! judged and relayed from here, see [`crate::table`]), flushes what the socket did not take
//! at once, and follows the player from login through the lobby and games to logout.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use kifu_csa::lines::{Line, LineFramer};
use kifu_csa::server_protocol::ClientMessage;
use tokio::net::TcpStream;
use tokio::time::Instant;

use crate::admission::Ticket;
use crate::auth;
use crate::game_name::Request;
use crate::peer::{Peer, Seat};
use crate::server::{Presence, Shared, Status, join, leave};
use crate::x1::X1Command;
use crate::x1_reports::{list, show, who};

enum State {
    Login,
    /// An x1 player between games.
    Idle(String),
    Waiting(String),
    Playing(String, Seat),
    /// A CSA-mode player after its game, until `LOGOUT` or the grace time.
    Finished,
}

/// Why a connection ended, for the log.
enum End {
    Closed,
    Done,
    CutOff(&'static str),
}

/// How long a closing connection may take to drain its last lines.
const DRAIN: Duration = Duration::from_secs(5);

struct Conn {
    peer: Arc<Peer>,
    shared: Arc<Shared>,
    from: SocketAddr,
    ticket: Ticket,
    state: State,
    x1: bool,
    framer: LineFramer,
    lines: Vec<Line>,
    /// When the connection is dropped if nothing changes (login, logout grace, drain).
    deadline: Option<Instant>,
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 32
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-@.".contains(&b))
}

/// A relayed move leaves at once (no Nagle delay), and half-open connections (a player's
/// machine gone without a FIN) are found by the kernel's keep-alive probes — after a minute
/// of silence, then every 10 s — rather than lingering forever.
fn tune(stream: &TcpStream) {
    let _ = stream.set_nodelay(true);
    let keepalive = socket2::TcpKeepalive::new()
        .with_time(Duration::from_secs(60))
        .with_interval(Duration::from_secs(10));
    let _ = socket2::SockRef::from(stream).set_tcp_keepalive(&keepalive);
}

pub(crate) async fn run(stream: TcpStream, from: SocketAddr, ticket: Ticket, shared: Arc<Shared>) {
    tune(&stream);
    let deadline = Some(Instant::now() + shared.config.login_timeout);
    let mut conn = Conn {
        peer: Arc::new(Peer::new(stream)),
        shared,
        from,
        ticket,
        state: State::Login,
        x1: false,
        framer: LineFramer::new(),
        lines: Vec::new(),
        deadline,
    };
    let end = conn.serve().await;
    conn.cleanup(end);
}

impl Conn {
    fn name(&self) -> Option<&str> {
        match &self.state {
            State::Idle(n) | State::Waiting(n) | State::Playing(n, _) => Some(n),
            State::Login | State::Finished => None,
        }
    }

    fn send(&self, line: &str) {
        self.peer.send(line);
    }

    fn send_lines(&self, lines: Vec<String>) {
        self.peer.send_all(lines.iter().map(String::as_str));
    }

    fn close(&mut self) {
        self.peer.close();
        self.deadline = Some(Instant::now() + DRAIN);
    }

    fn refuse_login(&mut self, why: &str) {
        self.shared
            .log
            .line(format_args!("login refused from {}: {why}", self.from));
        self.send("LOGIN:incorrect");
        self.close();
    }

    /// Follows what other tasks did: a seat handed over, a game over.
    fn follow(&mut self) {
        if let State::Waiting(name) = &mut self.state
            && let Some(seat) = self.peer.take_seat()
        {
            self.state = State::Playing(std::mem::take(name), seat);
        }
        if let State::Playing(name, _) = &mut self.state
            && self.peer.take_game_over()
        {
            let name = std::mem::take(name);
            if self.x1 {
                self.shared.set_status(&name, Status::Connected);
                self.state = State::Idle(name);
            } else {
                self.shared.online.lock().unwrap().remove(&name);
                self.state = State::Finished;
                self.deadline = Some(Instant::now() + self.shared.config.logout_grace);
            }
        }
    }

    async fn serve(&mut self) -> End {
        loop {
            self.follow();
            let (broken, closing, pending) = self.peer.status();
            if broken {
                return End::CutOff("its output queue overflowed (it does not read)");
            }
            if closing && !pending {
                return End::Done;
            }
            let peer = self.peer.clone();
            let deadline = self.deadline;
            let sleep = async {
                match deadline {
                    Some(d) => tokio::time::sleep_until(d).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                biased;
                _ = peer.wake.notified() => {}
                r = peer.stream.writable(), if pending => {
                    if r.is_err() || self.peer.flush().is_err() {
                        return End::CutOff("its socket failed");
                    }
                }
                r = peer.stream.readable(), if !closing => {
                    if r.is_err() {
                        return End::Closed;
                    }
                    let n = {
                        let mut buf = [0u8; 2048];
                        match self.peer.stream.try_read(&mut buf) {
                            Ok(0) => return End::Closed,
                            Ok(n) => {
                                self.framer.push(&buf[..n], &mut self.lines);
                                n
                            }
                            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => 0,
                            Err(_) => return End::Closed,
                        }
                    };
                    if n > 0 {
                        let lines = std::mem::take(&mut self.lines);
                        let mut lines_iter = lines.into_iter();
                        for line in lines_iter.by_ref() {
                            if self.peer.status().1 {
                                break;
                            }
                            self.line(line).await;
                        }
                        // Keep the vector's capacity for the next read.
                        let mut back: Vec<Line> = lines_iter.collect();
                        back.clear();
                        self.lines = back;
                    }
                }
                _ = sleep => {
                    return match self.state {
                        State::Login => End::CutOff("no login in time"),
                        _ if closing => End::CutOff("its last lines were not read in time"),
                        _ => End::Done,
                    };
                }
            }
        }
    }

    async fn line(&mut self, line: Line) {
        let msg = match line {
            Line::Text(bytes) => ClientMessage::parse_bytes(&bytes),
            Line::TooLong { length, .. } => {
                ClientMessage::Unknown(format!("(a line of {length} bytes)"))
            }
        };
        // The seat is handed over before the summary is sent, so a line answering the
        // summary (AGREE) finds it even when both arrive in one read.
        self.follow();
        match &mut self.state {
            State::Login => self.login(msg).await,
            State::Idle(name) => match msg {
                ClientMessage::Logout => self.logout(),
                ClientMessage::KeepAlive => self.send(""),
                ClientMessage::Extended(line) => match X1Command::parse(&line) {
                    X1Command::Game(request) => {
                        let name = std::mem::take(name);
                        self.enter(name, request);
                    }
                    X1Command::Who => self.send_lines(who(&self.shared)),
                    X1Command::List => self.send_lines(list(&self.shared)),
                    X1Command::Show(id) => self.send_lines(show(&self.shared, &id)),
                    other => {
                        for l in other.reply() {
                            self.send(&l);
                        }
                    }
                },
                ClientMessage::Blank => {}
                other => self.send(&format!("##[ERROR] unknown command: {other}")),
            },
            State::Waiting(name)
                if self.x1 && matches!(&msg, ClientMessage::Extended(l) if l == "%%GAME") =>
            {
                let name = std::mem::take(name);
                leave(&self.shared, &name);
                self.state = State::Waiting(name);
                // Paired a moment before leaving: the game stands.
                self.follow();
                if let State::Waiting(name) = &mut self.state {
                    self.shared.set_status(name, Status::Connected);
                    self.state = State::Idle(std::mem::take(name));
                }
            }
            State::Waiting(_) => match msg {
                ClientMessage::Logout => self.logout(),
                ClientMessage::KeepAlive => self.send(""),
                ClientMessage::Blank => {}
                // The reports need no seat: an x1 player may look around while it waits.
                ClientMessage::Extended(line) if self.x1 => match X1Command::parse(&line) {
                    X1Command::Who => self.send_lines(who(&self.shared)),
                    X1Command::List => self.send_lines(list(&self.shared)),
                    X1Command::Show(id) => self.send_lines(show(&self.shared, &id)),
                    _ => self.send(&format!("##[ERROR] unknown command: {line}")),
                },
                other => self.send(&format!("##[ERROR] unknown command: {other}")),
            },
            State::Playing(_, seat) => {
                if matches!(msg, ClientMessage::Logout) {
                    self.logout();
                } else {
                    seat.table.line(seat.color, msg);
                }
            }
            State::Finished => match msg {
                ClientMessage::Logout => self.logout(),
                ClientMessage::KeepAlive => self.send(""),
                _ => {}
            },
        }
    }

    async fn login(&mut self, msg: ClientMessage) {
        let (name, password, x1) = match msg {
            ClientMessage::Login { name, password, x1 } => (name, password, x1),
            ClientMessage::KeepAlive | ClientMessage::Blank => return,
            _ => return self.refuse_login("not a LOGIN line"),
        };
        if !valid_name(&name) || password.len() > 64 {
            return self.refuse_login("a bad name or an oversized password");
        }
        let shared = &self.shared;
        if shared.store.is_some() || shared.config.players.is_some() {
            let secret = auth::secret(&password, x1).map(str::to_owned);
            let shared2 = shared.clone();
            let who = name.clone();
            let verdict = shared
                .slow(move || {
                    auth::check(
                        shared2.store.as_ref(),
                        shared2.config.players.as_ref(),
                        &who,
                        secret.as_deref(),
                    )
                })
                .await
                .unwrap_or(Err(auth::Refusal::StoreFailed));
            if let Err(r) = verdict {
                return self.refuse_login(&format!("{name}: {}", r.reason()));
            }
        }
        {
            let mut online = self.shared.online.lock().unwrap();
            if online.contains_key(&name) {
                drop(online);
                return self.refuse_login(&format!("{name}: already logged in"));
            }
            let status = Status::Connected;
            online.insert(name.clone(), Presence { x1, status });
        }
        self.ticket.authenticated();
        self.x1 = x1;
        self.deadline = None;
        self.send(&format!("LOGIN:{name} OK"));
        if x1 {
            self.shared
                .log
                .line(format_args!("login {name} from {} (x1)", self.from));
            self.send("##[LOGIN] +OK x1");
            self.state = State::Idle(name);
            return;
        }
        let request = Request::from_password(&password);
        self.shared.log.line(format_args!(
            "login {name} from {} for {}",
            self.from, request.game.name
        ));
        self.enter(name, request);
    }

    /// Asks the lobby for a game; the seat may come at once or later.
    fn enter(&mut self, name: String, request: Request) {
        join(&self.shared, &name, request, &self.peer);
        self.state = State::Waiting(name);
        self.follow();
    }

    fn logout(&mut self) {
        match std::mem::replace(&mut self.state, State::Finished) {
            State::Waiting(name) | State::Idle(name) => {
                leave(&self.shared, &name);
                if let Some(seat) = self.peer.take_seat() {
                    seat.table.gone(seat.color);
                }
                self.shared.online.lock().unwrap().remove(&name);
            }
            State::Playing(name, seat) => {
                seat.table.gone(seat.color);
                // Free the name before the reply, so an immediate re-login works.
                self.shared.online.lock().unwrap().remove(&name);
            }
            State::Login | State::Finished => {}
        }
        self.send("LOGOUT:completed");
        self.close();
    }

    fn cleanup(&mut self, end: End) {
        let name = self.name().unwrap_or("").to_owned();
        match std::mem::replace(&mut self.state, State::Finished) {
            State::Idle(name) => {
                self.shared.online.lock().unwrap().remove(&name);
            }
            State::Waiting(name) => {
                leave(&self.shared, &name);
                self.shared.online.lock().unwrap().remove(&name);
            }
            State::Playing(name, seat) => {
                seat.table.gone(seat.color);
                self.shared.online.lock().unwrap().remove(&name);
            }
            State::Login | State::Finished => {}
        }
        if let Some(seat) = self.peer.take_seat() {
            seat.table.gone(seat.color);
        }
        match end {
            End::CutOff(why) => self.shared.log.line(format_args!(
                "cut off {}{}{}: {why}",
                self.from,
                if name.is_empty() { "" } else { " " },
                name
            )),
            End::Closed if !name.is_empty() => self
                .shared
                .log
                .line(format_args!("{name} ({}) closed the connection", self.from)),
            End::Closed | End::Done => {}
        }
        self.peer.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn accepted_sockets_send_at_once_and_probe_silent_peers() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let _client = TcpStream::connect(addr).await.unwrap();
        let (stream, _) = listener.accept().await.unwrap();
        tune(&stream);
        assert!(stream.nodelay().unwrap());
        let sock = socket2::SockRef::from(&stream);
        assert!(sock.keepalive().unwrap());
        assert_eq!(sock.tcp_keepalive_time().unwrap(), Duration::from_secs(60));
        assert_eq!(
            sock.tcp_keepalive_interval().unwrap(),
            Duration::from_secs(10)
        );
    }
}
