//! The tokio server: accepts connections within the admission limits, and pairs logged-in
//! players by game name (CSA server protocol 1.2.1: message order, LOGIN, Game_Summary, AGREE/START; floodgate game names). Each connection runs in
//! [`crate::connection`], each game in [`crate::table`].

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use kifu_records::shogi::csa::CsaVersion;
use kifu_shogi::Color;
use tokio::net::TcpListener;

use crate::admission::Admission;
use crate::game_name::Request;
use crate::peer::Peer;
use crate::record_keeper::{RecordKeeper, clean_stale};
use crate::server_log::{LogTarget, ServerLog};
use crate::store::Store;
use crate::table::{self, IdBook, Table};

/// The longest line the server reads, in bytes. shogi-server reads lines of any length and
/// floodgate clients send `,'*` comments with whole PVs (hundreds of bytes); this is thirty
/// times the longest such line seen, and a line over it is answered
/// `##[ERROR] line too long: <n> bytes (the limit is 8192)` without being judged.
pub const MAX_LINE_BYTES: usize = 8192;

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
    /// How long a connection may stay without logging in.
    pub login_timeout: Duration,
    pub agree_timeout: Duration,
    /// How long a finished CSA-mode player may stay for its `LOGOUT`.
    pub logout_grace: Duration,
    /// A closed list: only these names may log in.
    pub players: Option<HashSet<String>>,
    /// Connections held at once; more are refused.
    pub max_connections: usize,
    /// Connections from one address that have not logged in yet; more are refused.
    pub max_unauthenticated_per_ip: usize,
    /// Players logged in from one address at once; more logins are refused.
    pub max_logged_in_per_ip: usize,
    /// How long a logged-in player may stay silent outside a game (x1 between games, any
    /// player waiting for an opponent) before it is let go.
    pub lobby_timeout: Duration,
    /// Failed logins allowed before the limits bite, and how fast that allowance comes
    /// back: per name and per address (see [`crate::login_throttle`]).
    pub login_failures: crate::login_throttle::Limits,
    pub log: LogTarget,
    /// The CSA edition records are written in.
    pub csa_version: CsaVersion,
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
            players: None,
            max_connections: 12_000,
            max_unauthenticated_per_ip: 512,
            max_logged_in_per_ip: 1_000,
            lobby_timeout: Duration::from_secs(30 * 60),
            login_failures: crate::login_throttle::Limits::default(),
            log: LogTarget::Off,
            csa_version: CsaVersion::V30,
        }
    }
}

pub(crate) struct Waiting {
    /// Which connection: a player logging in again replaces its name's old connection.
    pub conn: u64,
    pub name: String,
    pub color: Option<Color>,
    pub peer: Arc<Peer>,
}

pub(crate) struct Shared {
    pub config: Config,
    pub store: Option<Mutex<Store>>,
    pub log: ServerLog,
    pub admission: Arc<Admission>,
    lobby: Mutex<HashMap<String, Vec<Waiting>>>,
    /// Logged-in players by name, with what `%%WHO` tells of them.
    pub online: Mutex<HashMap<String, Presence>>,
    pub ids: Mutex<IdBook>,
    /// Writes records and index rows off the runtime (with `--data`).
    pub records: Option<RecordKeeper>,
    /// Games seated and not over yet, for `%%LIST` and `%%SHOW`.
    pub games: Mutex<HashMap<String, Weak<Table>>>,
    /// Password hashing has a lane of its own (a result never waits behind a login), at
    /// most half the cores at once, so a password flood cannot starve the relay.
    pub login_checks: tokio::sync::Semaphore,
    /// One hash check in flight per address: the lane serves addresses in turn, so a
    /// flood from one place queues behind itself, not in front of everyone else.
    address_gates: Mutex<HashMap<std::net::IpAddr, Arc<tokio::sync::Semaphore>>>,
    /// Failed logins per name and per address.
    pub throttle: crate::login_throttle::Throttle,
    /// Secrets that passed the Argon2 check in this server's lifetime, as keyed 64-bit
    /// tags: a returning player is let in without hashing again, even while its name is
    /// under a password flood.
    pub verified: Mutex<HashMap<String, u64>>,
    tag_key: std::hash::RandomState,
    next_conn: std::sync::atomic::AtomicU64,
}

impl Shared {
    /// A keyed tag of a name's secret (never stored, never logged; the key is random per
    /// server run).
    pub fn secret_tag(&self, name: &str, secret: Option<&str>) -> Option<u64> {
        use std::hash::BuildHasher;
        secret.map(|s| self.tag_key.hash_one((name, s)))
    }

    /// The gate an address's hash checks pass one at a time.
    pub fn address_gate(&self, ip: std::net::IpAddr) -> Arc<tokio::sync::Semaphore> {
        let mut gates = self.address_gates.lock().unwrap();
        if gates.len() > 10_000 {
            gates.retain(|_, g| Arc::strong_count(g) > 1);
        }
        gates
            .entry(ip)
            .or_insert_with(|| Arc::new(tokio::sync::Semaphore::new(1)))
            .clone()
    }

    pub fn new_conn_id(&self) -> u64 {
        self.next_conn
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }
}

/// A logged-in player: what `%%WHO` shows of it, and what a new login under its name
/// needs to replace it.
pub(crate) struct Presence {
    pub x1: bool,
    pub status: Status,
    pub conn: u64,
    pub peer: Arc<Peer>,
    /// The tag of the secret it logged in with ([`Shared::secret_tag`]).
    pub secret: Option<u64>,
    pub from: SocketAddr,
}

#[derive(Clone, Debug)]
pub(crate) enum Status {
    Connected,
    /// In the lobby for a game name, with the side asked for.
    Waiting(String, Option<Color>),
    /// Seated at a game.
    Game {
        game: String,
        color: Color,
        table: Weak<Table>,
    },
}

impl Shared {
    /// The table of a game in progress, by its Game_ID (`None` once it has ended).
    pub fn game_table(&self, id: &str) -> Option<Arc<Table>> {
        self.games.lock().unwrap().get(id).and_then(Weak::upgrade)
    }

    /// Sets a logged-in player's status (no-op for names not online).
    pub fn set_status(&self, name: &str, status: Status) {
        if let Some(p) = self.online.lock().unwrap().get_mut(name) {
            p.status = status;
        }
    }

    /// Takes a name offline, unless a newer connection holds it now.
    pub fn go_offline(&self, name: &str, conn: u64) {
        let mut online = self.online.lock().unwrap();
        if online.get(name).is_some_and(|p| p.conn == conn) {
            online.remove(name);
        }
    }
}

/// A bound server, ready to run.
pub struct Server {
    listener: TcpListener,
    shared: Arc<Shared>,
}

impl Server {
    pub async fn bind(mut config: Config) -> std::io::Result<Server> {
        let mut stale = 0;
        let store = match &mut config.data {
            Some(dir) => {
                std::fs::create_dir_all(&*dir)?;
                // The index keeps absolute paths: they stay true wherever it is read from.
                *dir = std::path::absolute(&*dir)?;
                stale = clean_stale(dir);
                let store = Store::open(&dir.join("kifu.sqlite")).map_err(std::io::Error::other)?;
                Some(Mutex::new(store))
            }
            None => None,
        };
        let log = ServerLog::open(&config.log)?;
        if stale > 0 {
            log.line(format_args!(
                "removed {stale} stale file(s) a crash left (temporary records, empty reservations)"
            ));
        }
        let listener = TcpListener::bind(config.bind).await?;
        let admission = Admission::new(
            config.max_connections,
            config.max_unauthenticated_per_ip,
            config.max_logged_in_per_ip,
        );
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let throttle = crate::login_throttle::Throttle::new(config.login_failures);
        let keep_records = config.data.is_some();
        let version = config.csa_version;
        let mut failed = None;
        let shared = Arc::new_cyclic(|weak| Shared {
            records: keep_records
                .then(|| RecordKeeper::start(weak.clone(), version))
                .and_then(|r| r.map_err(|e| failed = Some(e)).ok()),
            config,
            store,
            log,
            admission,
            lobby: Mutex::new(HashMap::new()),
            online: Mutex::new(HashMap::new()),
            ids: Mutex::new(IdBook::default()),
            games: Mutex::new(HashMap::new()),
            login_checks: tokio::sync::Semaphore::new((cores / 2).max(1)),
            address_gates: Mutex::new(HashMap::new()),
            throttle,
            verified: Mutex::new(HashMap::new()),
            tag_key: std::hash::RandomState::new(),
            next_conn: std::sync::atomic::AtomicU64::new(1),
        });
        if let Some(e) = failed {
            return Err(e);
        }
        Ok(Server { listener, shared })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Accepts connections until the task is dropped.
    pub async fn run(self) -> std::io::Result<()> {
        let addr = self.local_addr()?;
        self.shared.log.line(format_args!("listening on {addr}"));
        loop {
            let (stream, from) = match self.listener.accept().await {
                Ok(x) => x,
                // Out of descriptors under a flood: wait a little, keep serving the rest.
                Err(e) => {
                    self.shared.log.line(format_args!("accept failed: {e}"));
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            match self.shared.admission.admit(from.ip()) {
                Ok(ticket) => {
                    let shared = self.shared.clone();
                    tokio::spawn(crate::connection::run(stream, from, ticket, shared));
                }
                Err(why) => {
                    self.shared
                        .log
                        .line(format_args!("refused {from}: {}", why.reason()));
                    // Told why, if the socket takes the line at once; never waited for.
                    let _ = stream.try_write(format!("##[ERROR] {}\n", why.reason()).as_bytes());
                    drop(stream);
                }
            }
        }
    }
}

/// How a server run by [`run_blocking`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// A signal stopped it: every game in progress was ended as interrupted, its players
    /// told, its record and index row written.
    Gracefully,
    /// A second signal came during the graceful stop: it stopped at once.
    AtOnce,
}

/// How long a graceful stop waits for the records of the games it interrupted.
const STOP_PATIENCE: Duration = Duration::from_secs(30);

/// Builds a runtime, binds, reports the address and serves until SIGTERM or SIGINT.
///
/// The first signal stops gracefully: no more connections are accepted, each game in
/// progress ends as interrupted (`#CHUDAN` to both players; a game not started yet is
/// rejected), and its record (`%CHUDAN`) and index row are written before this returns.
/// A second signal returns at once.
pub fn run_blocking(config: Config, ready: impl FnOnce(SocketAddr)) -> std::io::Result<Stopped> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let stopped = rt.block_on(async move {
        let mut signals = StopSignals::new()?;
        let server = Server::bind(config).await?;
        ready(server.local_addr()?);
        let shared = server.shared.clone();
        tokio::select! {
            r = server.run() => r.map(|()| Stopped::Gracefully),
            () = signals.next() => {
                tokio::select! {
                    () = stop_gracefully(shared) => Ok(Stopped::Gracefully),
                    () = signals.next() => Ok(Stopped::AtOnce),
                }
            }
        }
    });
    // Blocking work still running (a password hash) is not waited for.
    rt.shutdown_background();
    stopped
}

/// SIGTERM and SIGINT, whichever comes.
struct StopSignals {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl StopSignals {
    #[cfg(unix)]
    fn new() -> std::io::Result<StopSignals> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(StopSignals {
            term: signal(SignalKind::terminate())?,
            int: signal(SignalKind::interrupt())?,
        })
    }

    #[cfg(not(unix))]
    fn new() -> std::io::Result<StopSignals> {
        Ok(StopSignals {})
    }

    #[cfg(unix)]
    async fn next(&mut self) {
        tokio::select! {
            _ = self.term.recv() => {}
            _ = self.int.recv() => {}
        }
    }

    #[cfg(not(unix))]
    async fn next(&mut self) {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Ends every game in progress as interrupted and waits until their results are out and
/// their records written. The listener is already gone (the accept loop was dropped).
async fn stop_gracefully(shared: Arc<Shared>) {
    shared.log.line(format_args!(
        "stopping: games in progress end as interrupted"
    ));
    let current = || -> Vec<Arc<Table>> {
        shared
            .games
            .lock()
            .unwrap()
            .values()
            .filter_map(Weak::upgrade)
            .collect()
    };
    let mut tables = current();
    // Each game's timer task sends the result, hands the ending to the keeper and leaves
    // the list of games; a game seated meanwhile (a pairing in flight) is ended as well.
    loop {
        let now = current();
        if now.is_empty() {
            break;
        }
        for t in &now {
            if !tables.iter().any(|seen| Arc::ptr_eq(seen, t)) {
                tables.push(t.clone());
            }
            t.interrupt();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let interrupted = tables.len();
    let shared2 = shared.clone();
    let written = tokio::task::spawn_blocking(move || {
        shared2
            .records
            .as_ref()
            .is_none_or(|k| k.flush(STOP_PATIENCE))
    })
    .await
    .unwrap_or(false);
    if !written {
        shared.log.line(format_args!(
            "stopping: some records were not written in time"
        ));
    }
    // The result lines were written to the sockets as they were produced; a client slow
    // to read gets a moment more.
    for _ in 0..100 {
        if !tables.iter().any(|t| t.output_pending()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    shared
        .log
        .line(format_args!("stopped ({interrupted} game(s) interrupted)"));
}

/// Puts a player in the lobby, or pairs it with a compatible waiting player at once. The
/// seats are handed over under the lobby's lock, so a player leaving the lobby either was
/// seated before or will never be.
pub(crate) fn join(
    shared: &Arc<Shared>,
    conn: u64,
    name: &str,
    request: Request,
    peer: &Arc<Peer>,
) {
    shared.set_status(
        name,
        Status::Waiting(request.game.name.clone(), request.color),
    );
    let me = Waiting {
        conn,
        name: name.to_owned(),
        color: request.color,
        peer: peer.clone(),
    };
    let mut lobby = shared.lobby.lock().unwrap();
    let queue = lobby.entry(request.game.name.clone()).or_default();
    let fits = |w: &Waiting| match (w.color, me.color) {
        (Some(a), Some(b)) => a != b,
        _ => true,
    };
    let Some(i) = queue.iter().position(fits) else {
        queue.push(me);
        return;
    };
    let other = queue.remove(i);
    if queue.is_empty() {
        lobby.remove(&request.game.name);
    }
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
    let t = table::seat(
        shared,
        request.game,
        [(black.name, black.peer), (white.name, white.peer)],
    );
    drop(lobby);
    for (n, color) in t.names.iter().zip(Color::ALL) {
        let status = Status::Game {
            game: t.game.name.clone(),
            color,
            table: Arc::downgrade(&t),
        };
        shared.set_status(n, status);
    }
    t.open(shared.clone());
}

/// Takes a connection out of the lobby.
pub(crate) fn leave(shared: &Shared, conn: u64) {
    let mut lobby = shared.lobby.lock().unwrap();
    for queue in lobby.values_mut() {
        queue.retain(|w| w.conn != conn);
    }
    lobby.retain(|_, q| !q.is_empty());
}

/// Whether someone waits for this game name with a side that fits (for `%%CHALLENGE`).
pub(crate) fn someone_waits(shared: &Shared, game: &str, color: Option<Color>) -> bool {
    let lobby = shared.lobby.lock().unwrap();
    lobby.get(game).is_some_and(|q| {
        q.iter().any(|w| match (w.color, color) {
            (Some(a), Some(b)) => a != b,
            _ => true,
        })
    })
}
