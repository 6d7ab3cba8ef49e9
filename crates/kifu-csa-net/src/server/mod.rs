//! The tokio server: accepts connections within the admission limits, and pairs logged-in
//! players by game name (CSA server protocol 1.2.1: message order, LOGIN, Game_Summary,
//! AGREE/START; floodgate game names).
//!
//! Each connection runs in a task of its own (`connection.rs`) and talks to the
//! lobby (`lobby.rs`: who is logged in, who waits, the games in play); the lobby seats
//! paired players at a table (`table.rs`: one game), which writes to the players' sockets
//! (`peer.rs`). A table holds its players' sockets but not their connections, and the
//! lobby holds tables only weakly, so no reference cycle keeps a game or a server alive.
//! Below them all are the services every part reaches (`services.rs`: configuration,
//! store, log, record keeper).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::TcpListener;
use tracing::instrument::WithSubscriber as _;

mod admission;
pub mod auth;
mod buoy;
mod config;
mod connection;
pub mod feed;
mod flood_log;
pub mod game;
pub mod identity;
pub mod league;
pub(crate) mod lobby;
pub mod log;
mod login_gate;
pub mod login_throttle;
mod peer;
mod rate;
pub mod record;
mod record_keeper;
pub(crate) mod services;
pub mod store;
mod table;
pub mod x1;
mod x1_reports;

pub use config::{Config, HttpConfig, MAX_LINE_BYTES};
pub use log::LogTarget;

use crate::server::admission::{Admission, Caps, Refused};
use crate::server::flood_log::FloodLog;
use crate::server::identity::TripKey;
use crate::server::lobby::Lobby;
use crate::server::login_gate::LoginGate;
use crate::server::record_keeper::{RecordKeeper, clean_stale, reconcile};
use crate::server::services::Services;
use crate::server::store::Store;

/// A bound server, ready to run.
pub struct Server {
    listener: TcpListener,
    /// The spectators' HTTP side (`--http`).
    http: Option<TcpListener>,
    lobby: Arc<Lobby>,
    gate: Arc<LoginGate>,
    admission: Arc<Admission>,
    /// Connections refused at the door, by reason (a flood is summed up, see `flood_log`).
    door_floods: [Arc<FloodLog>; Refused::ALL.len()],
}

impl Server {
    /// Opens the data directory (removing what a crash left), the store and the log, and
    /// binds the listener; nothing is accepted before [`Server::run`].
    pub async fn bind(mut config: Config) -> std::io::Result<Server> {
        if let Some(dir) = &config.data {
            // The log may be kept in the data directory.
            std::fs::create_dir_all(dir)?;
        }
        let log = log::dispatch(&config.log)?;
        let mut stale = 0;
        let mut trip_key = None;
        let mut reconciled = 0;
        let store = match &mut config.data {
            Some(dir) => {
                std::fs::create_dir_all(&*dir)?;
                // The index keeps absolute paths: they stay true wherever it is read from.
                *dir = std::path::absolute(&*dir)?;
                stale = clean_stale(dir);
                let store = Store::open(&dir.join("kifu.sqlite")).map_err(std::io::Error::other)?;
                // Player ids stay the same across restarts: the key is kept with the store.
                let key = store.trip_key().map_err(std::io::Error::other)?;
                trip_key = Some(TripKey::from_bytes(key));
                reconciled = tracing::dispatcher::with_default(&log, || reconcile(&store))
                    .map_err(std::io::Error::other)?;
                Some(Mutex::new(store))
            }
            None => None,
        };
        let trip_key = match trip_key {
            Some(key) => key,
            None => TripKey::random()?,
        };
        tracing::dispatcher::with_default(&log, || {
            if stale > 0 {
                tracing::info!(
                    "removed {stale} stale file(s) a crash left (temporary records, empty reservations)"
                );
            }
            if reconciled > 0 {
                tracing::info!(
                    "closed {reconciled} index row(s) of games left unfinished as interrupted"
                );
            }
        });
        let listener = TcpListener::bind(config.bind).await?;
        let http = match &config.http {
            Some(h) => Some(TcpListener::bind(h.bind).await?),
            None => None,
        };
        let admission = Admission::new(Caps {
            total: config.max_connections,
            pending: config.max_unauthenticated,
            pending_per_address: config.max_unauthenticated_per_ip,
            players_per_address: config.max_logged_in_per_ip,
        });
        let store = store.map(Arc::new);
        let records = match config.data.is_some() {
            true => Some(RecordKeeper::start(
                store.clone(),
                log.clone(),
                config.csa_version,
            )?),
            false => None,
        };
        let gate = Arc::new(LoginGate::new(config.login_failures, trip_key));
        let services = Arc::new(Services {
            config,
            store,
            log,
            records,
            feed: Arc::default(),
        });
        Ok(Server {
            listener,
            http,
            lobby: Arc::new(Lobby::new(services)),
            gate,
            admission,
            door_floods: Refused::ALL.map(|why| FloodLog::new(why.log_line())),
        })
    }

    /// The address bound (the actual port when the configuration asked for port 0).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The address the spectators' HTTP side is bound to, with `--http`.
    pub fn http_addr(&self) -> Option<SocketAddr> {
        self.http.as_ref().and_then(|l| l.local_addr().ok())
    }

    /// Accepts connections (and serves the HTTP side, with `--http`) until the task is
    /// dropped.
    pub async fn run(mut self) -> std::io::Result<()> {
        // This server's log is the current dispatcher of its accept loop and of every task
        // spawned from it (not the process's global one).
        let log = self.lobby.services.log.clone();
        let http = self.http.take();
        let lobby = self.lobby.clone();
        let http = async move {
            match http {
                Some(listener) => crate::http::serve(listener, lobby).await,
                None => std::future::pending().await,
            }
        };
        async move {
            tokio::select! {
                r = self.accept() => r,
                r = http => r,
            }
        }
        .with_subscriber(log)
        .await
    }

    async fn accept(self) -> std::io::Result<()> {
        let addr = self.local_addr()?;
        tracing::info!("listening on {addr}");
        // The league rounds and the ratings' refresh hold the lobby weakly: they end with it.
        for i in 0..self.lobby.services.config.leagues.leagues.len() {
            tokio::spawn(
                league::rounds::run(Arc::downgrade(&self.lobby), i).with_current_subscriber(),
            );
        }
        tokio::spawn(
            league::rounds::refresh_ratings(Arc::downgrade(&self.lobby)).with_current_subscriber(),
        );
        loop {
            let (stream, from) = match self.listener.accept().await {
                Ok(x) => x,
                // Out of descriptors under a flood: wait a little, keep serving the rest.
                Err(e) => {
                    tracing::info!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            match self.admission.admit(from.ip()) {
                Ok(ticket) => {
                    let lobby = self.lobby.clone();
                    let gate = self.gate.clone();
                    tokio::spawn(
                        connection::run(stream, from, ticket, lobby, gate)
                            .with_current_subscriber(),
                    );
                }
                Err(why) => {
                    if self.door_floods[why as usize].note(from.ip()) {
                        tracing::info!("refused {from}: {}", why.reason());
                    }
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
        let lobby = server.lobby.clone();
        let log = lobby.services.log.clone();
        tokio::select! {
            r = server.run() => r.map(|()| Stopped::Gracefully),
            () = signals.next() => {
                tokio::select! {
                    () = stop_gracefully(lobby).with_subscriber(log) => Ok(Stopped::Gracefully),
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
async fn stop_gracefully(lobby: Arc<Lobby>) {
    let services = lobby.services.clone();
    tracing::info!("stopping: games in progress end as interrupted");
    let mut tables = lobby.tables();
    // Each game's timer task sends the result, hands the ending to the keeper and leaves
    // the list of games; a game seated meanwhile (a pairing in flight) is ended as well.
    loop {
        let now = lobby.tables();
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
    let keeper = services.clone();
    let written = tokio::task::spawn_blocking(move || {
        keeper
            .records
            .as_ref()
            .is_none_or(|k| k.flush(STOP_PATIENCE))
    })
    .await
    .unwrap_or(false);
    if !written {
        tracing::info!("stopping: some records were not written in time");
    }
    // The result lines were written to the sockets as they were produced; a client slow
    // to read gets a moment more.
    for _ in 0..100 {
        if !tables.iter().any(|t| t.output_pending()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tracing::info!("stopped ({interrupted} game(s) interrupted)");
}
