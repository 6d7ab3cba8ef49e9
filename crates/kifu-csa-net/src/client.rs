//! The client bridge: puts a USI engine on a CSA server (reference §3, §7) — login (plain or
//! x1), the summary, AGREE, the engine's moves with eval/PV comments, keep-alive pings,
//! re-login after a lost connection, a series of games, and a record of every game.

use std::path::PathBuf;
use std::time::Duration;

use kifu_csa::CsaMove;
use kifu_csa::server_protocol::{
    ClientMessage, GameSummary, Reason, ServerMessage, Step, SummaryReader, Verdict,
};
use kifu_shogi::{Color, Move, Position};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::time::Instant;

use crate::client_record::{self, Played};
use crate::clock::Clock;
use crate::usi_clock::go_command;
use crate::usi_engine::{Engine, EngineError, Thought, absorb};

/// How the bridge connects and plays.
#[derive(Clone)]
pub struct ClientConfig {
    pub host: String,
    pub port: u16,
    pub user: String,
    /// Never logged.
    pub password: String,
    /// The game to ask for. In CSA mode the login password becomes `<game>,<password>`
    /// (floodgate's form; the password is then the trip), or just `<game>` without a
    /// password; in x1 mode it is asked for with `%%GAME <game> *`.
    pub game: Option<String>,
    pub x1: bool,
    /// Engine command line (program and arguments).
    pub engine: String,
    pub engine_options: Vec<(String, String)>,
    pub games: u32,
    pub margin_ms: u64,
    /// A blank line goes to the server after this long without sending anything.
    pub keepalive: Duration,
    /// Where records are saved (`<Game_ID>.csa`), also after a disconnect.
    pub records: Option<PathBuf>,
    /// Attempts to log in again after a lost or refused connection, per game.
    pub relogin_attempts: u32,
    pub relogin_delay: Duration,
    /// Send the engine's evaluation and PV as `,'* <score> <pv>` (score from Black's side).
    pub comments: bool,
}

impl std::fmt::Debug for ClientConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("user", &self.user)
            .field("password", &"****")
            .field("game", &self.game)
            .field("engine", &self.engine)
            .finish_non_exhaustive()
    }
}

impl ClientConfig {
    pub fn new(host: &str, port: u16, user: &str, password: &str, engine: &str) -> ClientConfig {
        ClientConfig {
            host: host.to_owned(),
            port,
            user: user.to_owned(),
            password: password.to_owned(),
            game: None,
            x1: false,
            engine: engine.to_owned(),
            engine_options: Vec::new(),
            games: 1,
            margin_ms: 2500,
            keepalive: Duration::from_secs(40),
            records: None,
            relogin_attempts: 3,
            relogin_delay: Duration::from_secs(5),
            comments: true,
        }
    }

    fn login_line(&self) -> String {
        let password = match (&self.game, self.x1) {
            (Some(g), false) if self.password.is_empty() => g.clone(),
            (Some(g), false) => format!("{g},{}", self.password),
            _ => self.password.clone(),
        };
        ClientMessage::Login {
            name: self.user.clone(),
            password,
            x1: self.x1,
        }
        .to_string()
    }
}

/// One game as the bridge saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    pub game_id: String,
    pub color: Color,
    pub reason: Option<Reason>,
    /// `None` when the connection was lost before the result.
    pub verdict: Option<Verdict>,
    pub plies: usize,
    pub record: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("the server refused the login (LOGIN:incorrect)")]
    LoginIncorrect,
    #[error("connection: {0}")]
    Io(#[from] std::io::Error),
    #[error("the server closed the connection")]
    Closed,
    #[error("the game was rejected: {0}")]
    Rejected(String),
    #[error("{0}")]
    Engine(#[from] EngineError),
    #[error("protocol: {0}")]
    Protocol(String),
}

impl ClientError {
    /// Whether logging in again may help.
    fn retry(&self) -> bool {
        matches!(
            self,
            ClientError::Io(_) | ClientError::Closed | ClientError::Rejected(_)
        )
    }
}

/// Plays `config.games` games with one engine process, logging in again when a connection
/// is lost. Returns a report per game played (a game cut off by a disconnect included).
pub async fn run_series(config: &ClientConfig) -> Result<Vec<GameReport>, ClientError> {
    let mut engine = Engine::start(&config.engine, &config.engine_options).await?;
    let mut reports = Vec::new();
    while reports.len() < config.games as usize {
        let mut failures = 0;
        let report = loop {
            match play_one(config, &mut engine).await {
                Ok(r) => break r,
                Err(e) if e.retry() && failures < config.relogin_attempts => {
                    failures += 1;
                    eprintln!(
                        "csa-client: {e}; logging in again in {} s ({failures}/{})",
                        config.relogin_delay.as_secs(),
                        config.relogin_attempts
                    );
                    tokio::time::sleep(config.relogin_delay).await;
                }
                Err(e) => {
                    engine.quit().await;
                    return Err(e);
                }
            }
        };
        reports.push(report);
    }
    engine.quit().await;
    Ok(reports)
}

struct Link {
    lines: Lines<BufReader<OwnedReadHalf>>,
    wr: OwnedWriteHalf,
    last_sent: Instant,
}

impl Link {
    async fn send(&mut self, line: &str) -> Result<(), ClientError> {
        self.wr.write_all(format!("{line}\n").as_bytes()).await?;
        self.last_sent = Instant::now();
        Ok(())
    }

    async fn recv(&mut self) -> Result<String, ClientError> {
        self.lines.next_line().await?.ok_or(ClientError::Closed)
    }

    /// The next line, sending keep-alives while waiting.
    async fn recv_alive(&mut self, keepalive: Duration) -> Result<String, ClientError> {
        loop {
            let ping_at = self.last_sent + keepalive;
            tokio::select! {
                line = self.lines.next_line() => return line?.ok_or(ClientError::Closed),
                _ = tokio::time::sleep_until(ping_at) => self.send("").await?,
            }
        }
    }
}

async fn login(config: &ClientConfig) -> Result<Link, ClientError> {
    let addr = (config.host.as_str(), config.port);
    let stream = tokio::time::timeout(Duration::from_secs(15), TcpStream::connect(addr))
        .await
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::TimedOut))??;
    stream.set_nodelay(true)?;
    // Against NAT timeouts and half-open links, besides the blank-line pings.
    let probes = socket2::TcpKeepalive::new()
        .with_time(Duration::from_secs(60))
        .with_interval(Duration::from_secs(10));
    let _ = socket2::SockRef::from(&stream).set_tcp_keepalive(&probes);
    let (rd, wr) = stream.into_split();
    let mut link = Link {
        lines: BufReader::new(rd).lines(),
        wr,
        last_sent: Instant::now(),
    };
    link.send(&config.login_line()).await?;
    match ServerMessage::parse(&link.recv().await?) {
        ServerMessage::LoginOk { .. } => {}
        ServerMessage::LoginIncorrect => return Err(ClientError::LoginIncorrect),
        other => return Err(ClientError::Protocol(format!("login answered {other}"))),
    }
    if let (true, Some(game)) = (config.x1, &config.game) {
        // A colour wish written as in CSA mode (`-B`/`-W`) becomes %%GAME's turn field.
        let (name, turn) = match game.rsplit_once('-') {
            Some((name, "B" | "b")) => (name, "+"),
            Some((name, "W" | "w")) => (name, "-"),
            _ => (game.as_str(), "*"),
        };
        link.send(&format!("%%GAME {name} {turn}")).await?;
    }
    Ok(link)
}

async fn read_summary(config: &ClientConfig, link: &mut Link) -> Result<GameSummary, ClientError> {
    let mut reader = SummaryReader::new();
    loop {
        let line = link.recv_alive(config.keepalive).await?;
        match reader.push(&line) {
            Step::Done(s) => return Ok(*s),
            Step::Failed(e) => return Err(ClientError::Protocol(format!("Game_Summary: {e}"))),
            Step::Taken | Step::NotMine => {}
        }
    }
}

async fn play_one(config: &ClientConfig, engine: &mut Engine) -> Result<GameReport, ClientError> {
    let mut link = login(config).await?;
    let summary = read_summary(config, &mut link).await?;
    let id = summary.game_id.clone();
    engine.ready().await?;
    engine.send("usinewgame").await?;
    link.send(&format!("AGREE {id}")).await?;
    loop {
        match ServerMessage::parse(&link.recv_alive(config.keepalive).await?) {
            ServerMessage::Start { .. } => break,
            ServerMessage::Rejected { by, .. } => return Err(ClientError::Rejected(by)),
            _ => {}
        }
    }
    let mut game = Table::new(summary);
    let outcome = game.play(config, engine, &mut link).await;
    let (reason, verdict) = match &outcome {
        Ok(end) => end.clone(),
        Err(_) => (game.reason.clone(), None),
    };
    let record = config.records.as_ref().and_then(|dir| {
        let text = client_record::to_csa(&game.summary, &game.played, reason.as_ref(), verdict);
        crate::record::write_atomically(dir, &format!("{id}.csa"), &text).ok()
    });
    if outcome.is_ok() {
        let _ = link.send("LOGOUT").await;
        let _ = tokio::time::timeout(Duration::from_secs(5), async {
            while let Ok(l) = link.recv().await {
                if l == "LOGOUT:completed" {
                    break;
                }
            }
        })
        .await;
    }
    outcome?;
    Ok(GameReport {
        game_id: id,
        color: game.summary.your_turn,
        reason,
        verdict,
        plies: game.played.len(),
        record,
    })
}

/// The game as the client follows it.
struct Table {
    summary: GameSummary,
    position: Position,
    clock: Clock,
    played: Vec<Played>,
    usi_moves: Vec<String>,
    reason: Option<Reason>,
}

impl Table {
    fn new(summary: GameSummary) -> Table {
        let mut clock = Clock::new(
            summary.time.of(Color::Black).clone(),
            summary.time.of(Color::White).clone(),
            false,
        );
        let mut position = summary.position.start.clone();
        let mut usi_moves = Vec::new();
        for (mv, t) in &summary.position.moves {
            clock.commit(position.side_to_move(), t.unwrap_or(0));
            usi_moves.push(mv.usi());
            position.play(*mv);
        }
        Table {
            summary,
            position,
            clock,
            played: Vec::new(),
            usi_moves,
            reason: None,
        }
    }

    fn position_command(&self) -> String {
        let mut s = format!("position sfen {}", self.summary.position.start.to_sfen());
        if !self.usi_moves.is_empty() {
            s.push_str(" moves ");
            s.push_str(&self.usi_moves.join(" "));
        }
        s
    }

    async fn play(
        &mut self,
        config: &ClientConfig,
        engine: &mut Engine,
        link: &mut Link,
    ) -> Result<(Option<Reason>, Option<Verdict>), ClientError> {
        let me = self.summary.your_turn;
        let mut thinking: Option<Thought> = None;
        let mut sent = false;
        let mut my_comment: Option<String> = None;
        loop {
            if self.position.side_to_move() == me && thinking.is_none() && !sent {
                engine.send(&self.position_command()).await?;
                let go = go_command(&self.clock, me, config.margin_ms)
                    .unwrap_or_else(|| "go btime 0 wtime 0 byoyomi 10000".to_owned());
                engine.send(&go).await?;
                thinking = Some(Thought::default());
            }
            let ping_at = link.last_sent + config.keepalive;
            tokio::select! {
                line = link.lines.next_line() => {
                    let line = line?.ok_or(ClientError::Closed)?;
                    match ServerMessage::parse(&line) {
                        ServerMessage::Move { mv, time } => {
                            let m = mv.to_move(&self.position).map_err(|e| {
                                ClientError::Protocol(format!("the server relayed {mv}: {e}"))
                            })?;
                            let mover = self.position.side_to_move();
                            let t = time.unwrap_or(0);
                            self.clock.commit(mover, t);
                            let comment = if mover == me { my_comment.take() } else { None };
                            self.played.push(Played { mv: m, t, comment });
                            self.usi_moves.push(m.usi());
                            self.position.play(m);
                            sent = false;
                        }
                        ServerMessage::Reason(r) => {
                            let chudan = r == Reason::Chudan;
                            self.reason = Some(r);
                            if chudan {
                                stop(engine, &mut thinking).await;
                                return Ok((self.reason.clone(), None));
                            }
                        }
                        ServerMessage::Result(v) => {
                            stop(engine, &mut thinking).await;
                            let word = match v {
                                Verdict::Win => "win",
                                Verdict::Lose => "lose",
                                Verdict::Draw | Verdict::Censored => "draw",
                            };
                            engine.send(&format!("gameover {word}")).await?;
                            return Ok((self.reason.clone(), Some(v)));
                        }
                        _ => {}
                    }
                }
                line = engine.next_line(), if thinking.is_some() => {
                    let line = line?;
                    let thought = thinking.as_mut().expect("thinking");
                    if absorb(thought, &line) {
                        let thought = thinking.take().expect("thinking");
                        let (msg, comment) = self.answer(&thought, config.comments);
                        my_comment = comment;
                        link.send(&msg.to_string()).await?;
                        sent = true;
                    }
                }
                _ = tokio::time::sleep_until(ping_at) => link.send("").await?,
            }
        }
    }

    /// The line for the engine's `bestmove`, and the comment kept for the record.
    fn answer(&self, thought: &Thought, comments: bool) -> (ClientMessage, Option<String>) {
        match thought.bestmove.as_str() {
            "win" => (ClientMessage::Declare, None),
            text => match self.position.parse_usi_move(text) {
                Err(_) => (ClientMessage::Resign, None),
                Ok(mv) => {
                    let comment = comment(&self.position, mv, thought);
                    let csa = CsaMove::from_move(&self.position, mv);
                    let sent = if comments { comment.clone() } else { None };
                    (ClientMessage::mv(csa, sent), comment)
                }
            },
        }
    }
}

/// `<score> <pv in CSA>`, the score from Black's side (floodgate's convention).
fn comment(pos: &Position, best: Move, thought: &Thought) -> Option<String> {
    let score = thought.score?;
    let score = if pos.side_to_move() == Color::White {
        -score
    } else {
        score
    };
    let mut text = score.to_string();
    let mut p = pos.clone();
    let pv = match thought.pv.split_first() {
        Some((first, rest)) if *first == best.usi() => rest,
        _ => &thought.pv[..],
    };
    p.play(best);
    for m in pv {
        let Ok(mv) = p.parse_usi_move(m) else { break };
        text.push(' ');
        text.push_str(&CsaMove::from_move(&p, mv).to_string());
        p.play(mv);
    }
    Some(text)
}

async fn stop(engine: &mut Engine, thinking: &mut Option<Thought>) {
    if let Some(mut thought) = thinking.take() {
        let _ = engine.send("stop").await;
        let _ = tokio::time::timeout(Duration::from_secs(5), async {
            while let Ok(line) = engine.next_line().await {
                if absorb(&mut thought, &line) {
                    break;
                }
            }
        })
        .await;
    }
}
