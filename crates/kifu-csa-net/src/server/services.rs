//! What every part of a running server reaches: its configuration, the store, the log and
//! the record keeper. Nothing here knows of connections, the lobby or games, so each of
//! those depends on it and it on none of them.

use std::sync::{Arc, Mutex};

use crate::server::config::Config;
use crate::server::record_keeper::RecordKeeper;
use crate::server::store::Store;

pub(crate) struct Services {
    pub config: Config,
    /// Players and the game index (with `--data`); the record keeper's thread holds it too.
    pub store: Option<Arc<Mutex<Store>>>,
    /// The server's log: every task the server spawns carries it (see `log.rs`).
    pub log: tracing::Dispatch,
    /// Writes records and index rows off the runtime (with `--data`).
    pub records: Option<RecordKeeper>,
    /// What spectators see of the games in progress (`feed.rs`, read by `crate::http`).
    pub feed: Arc<crate::server::feed::Feed>,
}
