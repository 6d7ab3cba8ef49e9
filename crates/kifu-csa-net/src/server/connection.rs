//! One task per connection: it reads the client's lines and acts on them itself (a move is
//! judged and relayed from here, see [`crate::server::table`]), flushes what the socket did not take
//! at once, and follows the player from login through the lobby and games to logout.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use kifu_csa::lines::{Line, LineFramer};
use kifu_csa::server_protocol::ClientMessage;
use tokio::net::TcpStream;
use tokio::time::Instant;

use crate::game_name::{LOGIN_SYNTAX, MAX_PASSWORD, Request};
use crate::plain_text::escape_controls;
use crate::server::admission::Ticket;
use crate::server::auth;
use crate::server::identity::name_of;
use crate::server::lobby::{Lobby, Presence, Status};
use crate::server::login_gate::LoginGate;
use crate::server::peer::Peer;
use crate::server::rate::Bucket;
use crate::server::table::{Seat, SeatSlot, Table, Watch};
use crate::server::x1::X1Command;
use crate::server::x1_reports::{chat, list, rating, show, who};

/// The logged-in states carry the player's id (see [`crate::server::identity`]).
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

/// Chat lines one player may send in a burst, then one per this long.
const CHAT_BURST: u32 = 5;
const CHAT_EVERY: Duration = Duration::from_secs(1);

/// How long a closing connection may take to drain its last lines.
const DRAIN: Duration = Duration::from_secs(5);

struct Conn {
    /// This connection's id (a re-login under the same name gets a new one).
    id: u64,
    peer: Arc<Peer>,
    /// Where the lobby puts this player's seat when it is paired.
    slot: Arc<SeatSlot>,
    lobby: Arc<Lobby>,
    gate: Arc<LoginGate>,
    from: SocketAddr,
    ticket: Ticket,
    state: State,
    x1: bool,
    framer: LineFramer,
    lines: Vec<Line>,
    /// When the connection is dropped if nothing changes (login, lobby silence, logout
    /// grace, drain).
    deadline: Option<Instant>,
    /// Games this connection watches (`%%MONITOR2ON`).
    watching: Vec<std::sync::Weak<Table>>,
    /// What this player may still chat.
    chat: Bucket,
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

pub(crate) async fn run(
    stream: TcpStream,
    from: SocketAddr,
    ticket: Ticket,
    lobby: Arc<Lobby>,
    gate: Arc<LoginGate>,
) {
    tune(&stream);
    let deadline = Some(Instant::now() + lobby.services.config.login_timeout);
    let mut conn = Conn {
        id: lobby.new_conn_id(),
        peer: Arc::new(Peer::new(stream)),
        slot: Arc::new(SeatSlot::default()),
        lobby,
        gate,
        from,
        ticket,
        state: State::Login,
        x1: false,
        framer: LineFramer::with_limit(crate::server::config::MAX_LINE_BYTES),
        lines: Vec::new(),
        deadline,
        watching: Vec::new(),
        chat: Bucket::new(CHAT_BURST, CHAT_EVERY),
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

    /// Refuses a login: `why` goes to the log, `tell` to the client as an error line after
    /// `LOGIN:incorrect`, so it learns what to change before the close. Within its
    /// address's allowance of refusals the answer goes at once; beyond it, after a delay
    /// that grows with every further refusal (see [`crate::server::login_throttle`]) —
    /// spent in this connection's own task, still counted against its address's cap on
    /// connections not logged in, and cut short if the connection is let go to make room.
    async fn refuse_login(&mut self, why: &str, tell: &str) {
        let ip = self.from.ip();
        let delay = self.gate.refused(ip);
        if delay.is_zero() || self.gate.delayed.note(ip) {
            let late = if delay.is_zero() {
                String::new()
            } else {
                format!(
                    " (answered after {:.1} s: too many refusals)",
                    delay.as_secs_f64()
                )
            };
            tracing::info!("login refused from {}: {why}{late}", self.from);
        }
        if !delay.is_zero() {
            tokio::select! {
                () = tokio::time::sleep(delay) => {}
                () = self.ticket.evicted() => {}
            }
        }
        self.peer.send_all([
            "LOGIN:incorrect",
            &format!("##[ERROR] {}", escape_controls(tell)),
        ]);
        self.close();
    }

    /// `##[ERROR] unknown command: <the line>`, the line's control characters escaped so
    /// that the echo is one line whatever the client splits lines on.
    fn unknown_command(&self, msg: &ClientMessage) {
        // A second LOGIN carries a password: never echo it, not even to its sender.
        if matches!(msg, ClientMessage::Login { .. }) {
            self.send("##[ERROR] you are already logged in");
            return;
        }
        let text = msg.to_string();
        self.send(&format!(
            "##[ERROR] unknown command: {}",
            escape_controls(&text)
        ));
    }

    /// Outside a game a logged-in player is let go after this much silence.
    fn lobby_deadline(&self) -> Option<Instant> {
        Some(Instant::now() + self.lobby.services.config.lobby_timeout)
    }

    /// Follows what other tasks did: a seat handed over, a game over.
    fn follow(&mut self) {
        if let State::Waiting(name) = &mut self.state
            && let Some(seat) = self.slot.take()
        {
            self.state = State::Playing(std::mem::take(name), seat);
            self.deadline = None;
        }
        if let State::Playing(name, _) = &mut self.state
            && self.peer.take_game_over()
        {
            let name = std::mem::take(name);
            if self.x1 {
                self.lobby.set_status(&name, Status::Connected);
                self.state = State::Idle(name);
                self.deadline = self.lobby_deadline();
            } else {
                self.lobby.go_offline(&name, self.id);
                self.state = State::Finished;
                self.deadline = Some(Instant::now() + self.lobby.services.config.logout_grace);
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
            if self.peer.is_replaced() {
                self.peer.send(
                    "##[ERROR] you logged in again on another connection; this one is closed",
                );
                let _ = self.peer.flush();
                return End::CutOff("its player logged in again on another connection");
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
                () = self.ticket.evicted(), if matches!(self.state, State::Login) && !closing => {
                    self.send("##[ERROR] closed to make room for another connection: log in with the first line");
                    self.close();
                    tracing::info!("let go {} before its login: room was needed", self.from);
                }
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
                    match self.state {
                        State::Login => return End::CutOff("no login in time"),
                        _ if closing => return End::CutOff("its last lines were not read in time"),
                        State::Idle(_) | State::Waiting(_) => {
                            let secs = self.lobby.services.config.lobby_timeout.as_secs();
                            tracing::info!(
                                "let go {} {}: silent for {secs} s outside a game",
                                self.from,
                                self.name().unwrap_or("")
                            );
                            self.send(&format!(
                                "##[ERROR] closed after {secs} s without a line outside a game"
                            ));
                            self.logout_quietly();
                        }
                        _ => return End::Done,
                    }
                }
            }
        }
    }

    async fn line(&mut self, line: Line) {
        let msg = match line {
            Line::Text(bytes) => ClientMessage::parse_bytes(&bytes),
            // Before a login, garbage like any other: refused.
            Line::TooLong { length, .. } if matches!(self.state, State::Login) => {
                ClientMessage::Unknown(format!("(a line of {length} bytes)"))
            }
            Line::TooLong { length, .. } => {
                // Never judged: the player may send its move again, shorter.
                return self.send(&format!(
                    "##[ERROR] line too long: {length} bytes (the limit is {})",
                    crate::server::config::MAX_LINE_BYTES
                ));
            }
        };
        // The seat is handed over before the summary is sent, so a line answering the
        // summary (AGREE) finds it even when both arrive in one read.
        self.follow();
        if matches!(self.state, State::Idle(_) | State::Waiting(_)) {
            self.deadline = self.lobby_deadline();
        }
        if !matches!(self.state, State::Login | State::Finished) {
            match &msg {
                // CSA's testing-server command: shogi-server answers it in every state.
                ClientMessage::Unknown(t) if t.starts_with("CHALLENGE") => {
                    return self.send("CHALLENGE ACCEPTED");
                }
                ClientMessage::Extended(line) => {
                    let line = line.clone();
                    return self.x1_command(&line);
                }
                _ => {}
            }
        }
        match &mut self.state {
            State::Login => self.login(msg).await,
            State::Idle(_) => match msg {
                ClientMessage::Logout => self.logout(),
                ClientMessage::KeepAlive => self.send(""),
                ClientMessage::Blank => {}
                other => self.unknown_command(&other),
            },
            State::Waiting(_) => match msg {
                ClientMessage::Logout => self.logout(),
                ClientMessage::KeepAlive => self.send(""),
                ClientMessage::Blank => {}
                other => self.unknown_command(&other),
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

    /// An x1 `%%` command (shogi-server answers the reports for CSA-mode players too).
    /// `%%MONITORON`/`%%MONITOR2ON` (`on`) or their `OFF`; a game not in progress is
    /// ignored, as shogi-server ignores it.
    fn watch(&mut self, id: &str, watch: Watch, on: bool) {
        let Some(t) = self.lobby.game_table(id) else {
            return;
        };
        if on {
            t.watch(self.id, &self.peer, watch);
            self.watching.push(Arc::downgrade(&t));
        } else {
            t.unwatch(self.id, Some(watch));
        }
    }

    fn x1_command(&mut self, line: &str) {
        let command = X1Command::parse(line);
        match command {
            X1Command::Who => self.send_lines(who(&self.lobby)),
            X1Command::List => self.send_lines(list(&self.lobby)),
            X1Command::Show(id) => self.send_lines(show(&self.lobby, &id)),
            X1Command::Chat(message) => {
                if !self.chat.take() {
                    return self.send(
                        "##[ERROR] chat is limited to one line a second; this line was not sent",
                    );
                }
                let name = name_of(self.name().unwrap_or("")).to_owned();
                if !chat(&self.lobby, &name, &message) {
                    self.send("##[ERROR] the server's chat is busy; this line was not sent");
                }
            }
            X1Command::Rating => self.send_lines(rating(&self.lobby)),
            X1Command::SetBuoy { name, moves, count } => {
                let owner = name_of(self.name().unwrap_or("")).to_owned();
                let lines = self
                    .lobby
                    .buoys
                    .set(&name, &moves, count.as_deref(), &owner);
                let set = lines.last().is_some_and(|l| l.ends_with("+OK"));
                self.send_lines(lines);
                if set {
                    self.lobby.start_waiting(&name);
                }
            }
            X1Command::DeleteBuoy(name) => {
                let who = name_of(self.name().unwrap_or("")).to_owned();
                self.send_lines(self.lobby.buoys.delete(&name, &who));
            }
            X1Command::GetBuoyCount(name) => self.send_lines(self.lobby.buoys.count_lines(&name)),
            X1Command::Fork {
                source,
                name,
                moves,
            } => {
                let Some(table) = self.lobby.game_table(&source) else {
                    return self.send(&format!("##[ERROR] wrong source game name: {source}"));
                };
                match crate::server::buoy::fork(&source, &table.all_moves(), name.as_deref(), moves)
                {
                    Err(line) => self.send(&line),
                    Ok((name, taken, mut lines)) => {
                        let owner = name_of(self.name().unwrap_or("")).to_owned();
                        let text = crate::server::buoy::moves_text(&taken);
                        let set = self.lobby.buoys.set(&name, &text, None, &owner);
                        let ok = set.last().is_some_and(|l| l.ends_with("+OK"));
                        lines.extend(set);
                        self.send_lines(lines);
                        if ok {
                            self.lobby.start_waiting(&name);
                        }
                    }
                }
            }
            X1Command::MonitorOn(id) => self.watch(&id, Watch::Positions, true),
            X1Command::Monitor2On(id) => self.watch(&id, Watch::Moves, true),
            X1Command::MonitorOff(id) => self.watch(&id, Watch::Positions, false),
            X1Command::Monitor2Off(id) => self.watch(&id, Watch::Moves, false),
            X1Command::Game(_) | X1Command::Challenge(_) | X1Command::Cancel if !self.x1 => {
                self.send("##[ERROR] %%GAME and %%CHALLENGE are for players logged in with x1");
            }
            X1Command::Game(request) => match &mut self.state {
                State::Idle(name) => {
                    let name = std::mem::take(name);
                    self.enter(name, request);
                }
                _ => self.send("##[ERROR] %%GAME is for players not in a game nor waiting for one"),
            },
            X1Command::Challenge(request) => match &mut self.state {
                State::Idle(_) if !self.lobby.someone_waits(&request.game.name, request.color) => {
                    self.send(&format!(
                        "##[ERROR] can't find rival for {}",
                        request.game.name
                    ));
                }
                State::Idle(name) => {
                    let name = std::mem::take(name);
                    self.enter(name, request);
                }
                _ => self
                    .send("##[ERROR] %%CHALLENGE is for players not in a game nor waiting for one"),
            },
            X1Command::Cancel => {
                if let State::Waiting(name) = &mut self.state {
                    let name = std::mem::take(name);
                    self.lobby.leave(self.id);
                    self.state = State::Waiting(name);
                    // Paired a moment before leaving: the game stands.
                    self.follow();
                    if let State::Waiting(name) = &mut self.state {
                        self.lobby.set_status(name, Status::Connected);
                        self.state = State::Idle(std::mem::take(name));
                    }
                } else if !matches!(self.state, State::Idle(_)) {
                    self.send("##[ERROR] %%GAME alone cancels waiting, and you are in a game");
                }
            }
            X1Command::Void => {}
            other => self.send_lines(other.reply()),
        }
    }

    async fn login(&mut self, msg: ClientMessage) {
        let (name, password, x1) = match msg {
            ClientMessage::Login { name, password, x1 } => (name, password, x1),
            ClientMessage::KeepAlive | ClientMessage::Blank => return,
            _ => {
                return self
                    .refuse_login("not a LOGIN line", &format!("expected {LOGIN_SYNTAX}"))
                    .await;
            }
        };
        if !valid_name(&name) {
            return self
                .refuse_login(
                    "a bad name",
                    "a name is 1 to 32 characters of A-Z a-z 0-9 _ - @ .",
                )
                .await;
        }
        let request = if x1 {
            if password.len() > MAX_PASSWORD {
                return self
                    .refuse_login(
                        &format!("{name}: an oversized password"),
                        &format!("the password is over {MAX_PASSWORD} bytes"),
                    )
                    .await;
            }
            None
        } else {
            match Request::from_password(&password) {
                Ok(r) => Some(r),
                Err(e) => {
                    // Never log the field itself: it may be a password typed in the wrong place.
                    return self
                        .refuse_login(
                            &format!("{name}: the password field asks for no game"),
                            &format!("{e}; the syntax is {LOGIN_SYNTAX}"),
                        )
                        .await;
                }
            }
        };
        let services = self.lobby.services.clone();
        if services
            .config
            .players
            .as_ref()
            .is_some_and(|p| !p.contains(&name))
        {
            return self
                .refuse_login(
                    &format!("{name}: not on the players list"),
                    &format!("{name} is not on this tournament's list of players"),
                )
                .await;
        }
        let trip = auth::secret(&password, x1);
        let tripped = trip.is_some_and(|t| !t.trim().is_empty());
        let player = self.gate.trip_key.player_id(&name, trip);
        let taken = {
            let mut online = self.lobby.online.lock().unwrap();
            match online.get(&player) {
                // Without a trip a name is anyone's, but a namesake must not end someone's
                // game; with one, the same id proves the same player (shogi-server drops
                // the old connection then).
                Some(old) if !tripped && matches!(old.status, Status::Game { .. }) => {
                    Some(format!("{name} is logged in already, and in a game"))
                }
                old => match self.ticket.authenticated() {
                    Err(r) => Some(r.reason().to_owned()),
                    Ok(()) => {
                        if let Some(old) = old {
                            old.peer.replace();
                            self.lobby.leave(old.conn);
                            tracing::info!(
                                "{player} logged in again from {}: its connection from {} is dropped",
                                self.from,
                                old.from
                            );
                        }
                        // In the order a client and the log's readers can rely on: what
                        // the login does, its log line, the answer, and only then the
                        // presence others see (from then on chat may fan out to this peer,
                        // and no `##[CHAT]` line may come before `LOGIN:<name> OK`).
                        if x1 {
                            self.peer.set_x1();
                        }
                        if let Some(keeper) = &services.records {
                            keeper.login(&player);
                        }
                        match &request {
                            None => self.gate.log_login(
                                self.from.ip(),
                                format_args!("login {player} from {} (x1)", self.from),
                            ),
                            Some(request) => self.gate.log_login(
                                self.from.ip(),
                                format_args!(
                                    "login {player} from {} for {}",
                                    self.from, request.game.name
                                ),
                            ),
                        }
                        let ok = format!("LOGIN:{name} OK");
                        if request.is_none() {
                            self.peer.send_all([ok.as_str(), "##[LOGIN] +OK x1"]);
                        } else {
                            self.peer.send(&ok);
                        }
                        online.insert(
                            player.clone(),
                            Presence {
                                name: name.clone(),
                                x1,
                                status: Status::Connected,
                                conn: self.id,
                                peer: self.peer.clone(),
                                from: self.from,
                            },
                        );
                        None
                    }
                },
            }
        };
        if let Some(tell) = taken {
            return self.refuse_login(&format!("{player}: {tell}"), &tell).await;
        }
        self.x1 = x1;
        self.deadline = self.lobby_deadline();
        match request {
            None => self.state = State::Idle(player),
            Some(request) => self.enter(player, request),
        }
    }

    /// Asks the lobby for a game; the seat may come at once or later.
    fn enter(&mut self, name: String, request: Request) {
        self.lobby
            .join(self.id, &name, request, &self.peer, &self.slot);
        self.state = State::Waiting(name);
        self.follow();
    }

    fn logout(&mut self) {
        self.leave_everything();
        self.send("LOGOUT:completed");
        self.close();
    }

    /// Leaves the lobby or the game, frees the name and closes after the last lines.
    fn logout_quietly(&mut self) {
        self.leave_everything();
        self.close();
    }

    fn leave_everything(&mut self) {
        match std::mem::replace(&mut self.state, State::Finished) {
            State::Waiting(name) | State::Idle(name) => {
                self.lobby.leave(self.id);
                if let Some(seat) = self.slot.take() {
                    seat.table.gone(seat.color);
                }
                self.lobby.go_offline(&name, self.id);
            }
            State::Playing(name, seat) => {
                seat.table.gone(seat.color);
                // Free the name before the reply, so an immediate re-login works.
                self.lobby.go_offline(&name, self.id);
            }
            State::Login | State::Finished => {}
        }
    }

    fn cleanup(&mut self, end: End) {
        let name = self.name().unwrap_or("").to_owned();
        match std::mem::replace(&mut self.state, State::Finished) {
            State::Idle(name) => {
                self.lobby.go_offline(&name, self.id);
            }
            State::Waiting(name) => {
                self.lobby.leave(self.id);
                self.lobby.go_offline(&name, self.id);
            }
            State::Playing(name, seat) => {
                seat.table.gone(seat.color);
                self.lobby.go_offline(&name, self.id);
            }
            State::Login | State::Finished => {}
        }
        for t in self.watching.drain(..) {
            if let Some(t) = t.upgrade() {
                t.unwatch(self.id, None);
            }
        }
        if let Some(seat) = self.slot.take() {
            seat.table.gone(seat.color);
        }
        match end {
            End::CutOff(why) => tracing::info!(
                "cut off {}{}{}: {why}",
                self.from,
                if name.is_empty() { "" } else { " " },
                name
            ),
            End::Closed if !name.is_empty() => {
                tracing::info!("{name} ({}) closed the connection", self.from)
            }
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
