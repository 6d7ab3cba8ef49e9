//! The client bridge: puts a USI engine on a CSA server (CSA server protocol 1.2.1, and what bridge users ask for) — login (plain or
//! x1), the summary, AGREE, the engine's moves with eval/PV comments, keep-alive pings,
//! re-login after a lost connection, a new engine process after a dead one, a series of
//! games, and a record of every game. One game's play (clock, go/ponder) is in `client/game.rs`.
//!
//! Ten games of an engine on floodgate's 10-minute, 10-second game, records kept:
//!
//! ```no_run
//! use kifu_csa_net::client::{ClientConfig, run_series};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut config = ClientConfig::new("127.0.0.1", 4081, "bot", "secret", "/usr/local/bin/engine");
//! config.game = Some("floodgate-600-10".to_owned());
//! config.games = 10;
//! config.records = Some("records".into());
//! let reports = kifu_csa_net::runtime()?.block_on(run_series(&config))?;
//! for r in &reports {
//!     println!("{} {:?} after {} plies", r.game_id, r.verdict, r.plies);
//! }
//! # Ok(())
//! # }
//! ```

use std::path::PathBuf;
use std::time::Duration;

use kifu_csa::server_protocol::{
    ClientMessage, GameSummary, Reason, ServerMessage, Step, SummaryError, SummaryReader, Verdict,
};
use kifu_shogi::Color;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::time::Instant;

use crate::server::record::Meta;
use crate::wall_time::Stamp;
use kifu_engines::process::{Engine, EngineError};

mod game;
pub mod record;

pub use game::MAX_MOVE_LINE;
use game::Table;

/// How the bridge connects and plays.
#[derive(Clone)]
pub struct ClientConfig {
    /// The server's host name or address.
    pub host: String,
    /// The server's port (4081 for floodgate and shogi-server).
    pub port: u16,
    /// The login name.
    pub user: String,
    /// Never logged.
    pub password: String,
    /// The game to ask for. In CSA mode the login password becomes `<game>,<password>`
    /// (floodgate's form; the password is then the trip), or just `<game>` without a
    /// password; in x1 mode it is asked for with `%%GAME <game> *`.
    pub game: Option<String>,
    /// Log in with shogi-server's extended mode (`LOGIN name password x1`).
    pub x1: bool,
    /// Engine command line (program and arguments).
    pub engine: String,
    /// `setoption name N value V` for each pair, sent before `isready`.
    pub engine_options: Vec<(String, String)>,
    /// How many games to play before stopping.
    pub games: u32,
    /// Milliseconds kept back from the time the engine is told it has (network latency, its
    /// reaction), so that its move reaches the server before the clock runs out.
    pub margin_ms: u64,
    /// A blank line goes to the server after this long without sending anything.
    pub keepalive: Duration,
    /// Where records are saved (`<Game_ID>.csa`), also after a disconnect.
    pub records: Option<PathBuf>,
    /// Attempts to log in again after a lost or refused connection, per game.
    pub relogin_attempts: u32,
    /// The wait before each attempt to log in again.
    pub relogin_delay: Duration,
    /// Send the engine's evaluation and PV as `,'* <score> <pv>` (score from Black's side).
    pub comments: bool,
    /// Let the engine think on the opponent's time (`go ponder` on the reply it expects).
    pub ponder: bool,
    /// Never tell the engine more than this many ms of main or per-move time.
    pub time_cap_ms: Option<u64>,
    /// Where the whole USI conversation is written (`> ` to the engine, `< ` from it).
    pub usi_log: Option<PathBuf>,
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
            .field("ponder", &self.ponder)
            .finish_non_exhaustive()
    }
}

impl ClientConfig {
    /// A configuration with the defaults: one game, a 2.5 s margin, a blank line after 40 s
    /// of silence, three re-login attempts 5 s apart, PV comments on, no pondering.
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
            ponder: false,
            time_cap_ms: None,
            usi_log: None,
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
    /// The server's `Game_ID`.
    pub game_id: String,
    /// The side the bridge played.
    pub color: Color,
    /// Why the game ended (`#RESIGN`, `#TIME_UP`, …), when the server said.
    pub reason: Option<Reason>,
    /// `None` when the connection was lost before the result.
    pub verdict: Option<Verdict>,
    /// Moves played.
    pub plies: usize,
    /// Where the record was saved, when records are kept.
    pub record: Option<PathBuf>,
}

/// Why the bridge stopped playing.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The name or password was wrong.
    #[error("the server refused the login (LOGIN:incorrect)")]
    LoginIncorrect,
    /// The connection failed.
    #[error("connection: {0}")]
    Io(#[from] std::io::Error),
    /// The server hung up.
    #[error("the server closed the connection")]
    Closed,
    /// The server answered `REJECT` to the game summary (the text is its line).
    #[error("the game was rejected: {0}")]
    Rejected(String),
    /// The USI engine failed to start, answer or move.
    #[error("{0}")]
    Engine(#[from] EngineError),
    /// The server sent something the CSA server protocol does not allow at that point.
    #[error("protocol: {0}")]
    Protocol(String),
    /// The `Game_Summary` block could not be read.
    #[error("protocol: Game_Summary: {0}")]
    Summary(#[from] SummaryError),
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
///
/// An engine that dies or stops answering mid-game loses that game (the connection is
/// dropped, the record saved with `%CHUDAN`); it is started again and the series goes on,
/// within the same number of attempts as logins.
pub async fn run_series(config: &ClientConfig) -> Result<Vec<GameReport>, ClientError> {
    let start = || {
        Engine::start(
            &config.engine,
            &config.engine_options,
            config.ponder,
            config.usi_log.as_deref(),
        )
    };
    let mut engine = start().await?;
    let mut reports = Vec::new();
    while reports.len() < config.games as usize {
        let mut failures = 0;
        let report = loop {
            match play_one(config, &mut engine).await {
                Ok(r) => break r,
                Err(ClientError::Engine(e)) if failures < config.relogin_attempts => {
                    failures += 1;
                    eprintln!(
                        "csa-client: {e}; starting the engine again ({failures}/{})",
                        config.relogin_attempts
                    );
                    engine = start().await?;
                }
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

pub(crate) struct Link {
    pub lines: Lines<BufReader<OwnedReadHalf>>,
    wr: OwnedWriteHalf,
    pub last_sent: Instant,
}

impl Link {
    pub async fn send(&mut self, line: &str) -> Result<(), ClientError> {
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
            Step::Failed(e) => return Err(e.into()),
            Step::Taken | Step::NotMine => {}
        }
    }
}

/// A Game_ID as a file name: a server chooses the id, so nothing but the characters of
/// shogi-server's ids (`[A-Za-z0-9_+@.-]`) may reach the path — no `/`, no `..` on its own.
fn file_stem(id: &str) -> String {
    let stem: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_+@.-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if stem.is_empty() || stem.chars().all(|c| c == '.') {
        format!("game{}", stem.len())
    } else {
        stem
    }
}

async fn play_one(config: &ClientConfig, engine: &mut Engine) -> Result<GameReport, ClientError> {
    let mut link = login(config).await?;
    let summary = read_summary(config, &mut link).await?;
    let id = summary.game_id.clone();
    engine.ready().await?;
    engine.protocol().new_game();
    engine.flush().await?;
    link.send(&format!("AGREE {id}")).await?;
    loop {
        match ServerMessage::parse(&link.recv_alive(config.keepalive).await?) {
            ServerMessage::Start { .. } => break,
            ServerMessage::Rejected { by, .. } => return Err(ClientError::Rejected(by)),
            _ => {}
        }
    }
    let start_time = Stamp::now().csa();
    let mut game = Table::new(summary);
    let outcome = game.play(config, engine, &mut link).await;
    let meta = Meta {
        start_time: Some(start_time),
        end_time: Some(Stamp::now().csa()),
        notes: Vec::new(),
    };
    let (reason, verdict) = match &outcome {
        Ok(end) => end.clone(),
        Err(_) => (game.reason.clone(), None),
    };
    let record = config.records.as_ref().and_then(|dir| {
        let text = record::to_csa(&game.summary, &game.played, reason.as_ref(), verdict, &meta);
        // A server restarted may give a Game_ID again: the earlier record stays.
        crate::server::record::write_new(dir, &file_stem(&id), &text)
            .map_err(|e| eprintln!("csa-client: record of {id} not written: {e}"))
            .ok()
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

#[cfg(test)]
mod tests {
    use super::file_stem;

    #[test]
    fn a_game_id_reaches_a_file_name_only_in_safe_characters() {
        assert_eq!(
            file_stem("wdoor+floodgate-300-10F+a+b+20240101000000"),
            "wdoor+floodgate-300-10F+a+b+20240101000000"
        );
        assert_eq!(file_stem("../../etc/passwd"), ".._.._etc_passwd");
        assert_eq!(file_stem("a\r\nb"), "a__b");
        assert_eq!(file_stem(".."), "game2");
        assert_eq!(file_stem(""), "game0");
    }
}
