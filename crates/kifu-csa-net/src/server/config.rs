//! How a server runs: its address, data directory, limits and timeouts.

use std::collections::HashSet;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use kifu_records::shogi::csa::CsaVersion;

use crate::server::log::LogTarget;
use crate::server::login_throttle;

/// The longest line the server reads, in bytes. shogi-server reads lines of any length and
/// floodgate clients send `,'*` comments with whole PVs (hundreds of bytes); this is thirty
/// times the longest such line seen, and a line over it is answered
/// `##[ERROR] line too long: <n> bytes (the limit is 8192)` without being judged.
pub const MAX_LINE_BYTES: usize = 8192;

/// How the server runs.
///
/// ```
/// use std::time::Duration;
/// use kifu_csa_net::server::{Config, LogTarget};
///
/// let mut config = Config::new("0.0.0.0:4081".parse().unwrap());
/// config.data = Some("tournament".into());
/// config.log = LogTarget::Stderr;
/// // A refusal beyond an address's allowance waits 2 s for its answer, the next 4 s …
/// config.login_failures.refusal_delay = Duration::from_secs(2);
/// ```
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (port 0: any free port, see [`crate::server::Server::local_addr`]).
    pub bind: SocketAddr,
    /// Records go under `data/YYYY/MM/DD/<Game_ID>.csa`, the store in `data/kifu.sqlite`.
    pub data: Option<PathBuf>,
    /// Ply limit announced as `Max_Moves` (0 = none).
    pub max_moves: u32,
    /// The `<event>` part of game ids.
    pub event: String,
    /// How long a connection may stay without logging in: short, since a client logs in
    /// with its first line.
    pub login_timeout: Duration,
    /// How long a paired player may take to `AGREE` before the game is rejected.
    pub agree_timeout: Duration,
    /// How long a finished CSA-mode player may stay for its `LOGOUT`.
    pub logout_grace: Duration,
    /// A closed list: only these names may log in.
    pub players: Option<HashSet<String>>,
    /// Connections held at once; more are refused.
    pub max_connections: usize,
    /// Connections not logged in yet, from every address together: the rest of
    /// `max_connections` is always room for players who have logged in. When it is full a
    /// newcomer takes the place of the oldest connection of the address holding most of it
    /// (if that holds more than the newcomer's address would).
    pub max_unauthenticated: usize,
    /// Connections from one address that have not logged in yet; more are refused.
    pub max_unauthenticated_per_ip: usize,
    /// Players logged in from one address at once; more logins are refused.
    pub max_logged_in_per_ip: usize,
    /// How long a logged-in player may stay silent outside a game (x1 between games, any
    /// player waiting for an opponent) before it is let go.
    pub lobby_timeout: Duration,
    /// Refused logins an address may send before their answers are delayed, and how fast
    /// that allowance comes back (see [`crate::server::login_throttle`]).
    pub login_failures: login_throttle::Limits,
    /// Where the server's log goes.
    pub log: LogTarget,
    /// The CSA edition records are written in.
    pub csa_version: CsaVersion,
    /// Leagues (`--league FILE`): game names whose players are paired in scheduled rounds.
    pub leagues: crate::server::league::Leagues,
    /// The read-only HTTP side for spectators (`--http`), off unless asked.
    pub http: Option<HttpConfig>,
}

/// The read-only HTTP side (`crate::http`): the JSON API, the event streams and the pages.
#[derive(Clone, Debug)]
pub struct HttpConfig {
    /// Where it listens (loopback unless the operator names another address).
    pub bind: SocketAddr,
    /// The one origin whose pages may read the API (`Access-Control-Allow-Origin`); none
    /// unless asked.
    pub cors: Option<String>,
    /// Event streams open at once; more are answered 503.
    pub max_spectators: usize,
}

impl HttpConfig {
    /// Streams open at once by default: a thousand spectators of a busy server.
    pub const MAX_SPECTATORS: usize = 2_000;

    /// The HTTP side on `bind`, with no cross-origin reading and the default cap.
    pub fn new(bind: SocketAddr) -> HttpConfig {
        HttpConfig {
            bind,
            cors: None,
            max_spectators: HttpConfig::MAX_SPECTATORS,
        }
    }
}

impl Config {
    /// A server on `bind` with the defaults: 256 plies, 30 seconds to log in, 2 minutes to
    /// agree, nothing kept on disk, nothing logged.
    pub fn new(bind: SocketAddr) -> Config {
        Config {
            bind,
            data: None,
            max_moves: 256,
            event: "kifu".to_owned(),
            login_timeout: Duration::from_secs(30),
            agree_timeout: Duration::from_secs(120),
            logout_grace: Duration::from_secs(10),
            players: None,
            max_connections: 12_000,
            max_unauthenticated: 1_000,
            max_unauthenticated_per_ip: 512,
            max_logged_in_per_ip: 1_000,
            lobby_timeout: Duration::from_secs(30 * 60),
            login_failures: login_throttle::Limits::default(),
            log: LogTarget::Off,
            csa_version: CsaVersion::V30,
            leagues: crate::server::league::Leagues::default(),
            http: None,
        }
    }
}
