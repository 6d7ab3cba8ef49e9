//! The CSA server protocol over the network: a tokio tournament server and a client bridge
//! for USI engines.
//!
//! The parts that decide things are sans-IO and tested without sockets:
//! [`game_name`] (what a login asks for), [`clock`] (shogi-server's arithmetic) and
//! [`game`] (one game judged under the full rules). [`record`] turns games into CSA records,
//! [`store`] keeps players and the game index, and a thread of their own keeps both as games
//! go (`record_keeper`), so that no move or result waits for a disk; [`plain_text`] keeps
//! what players send from shaping those files. [`server`], [`connection`] and [`table`] put
//! them on tokio: one task per connection, which judges and relays its player's moves itself.

mod admission;
pub mod auth;
pub mod client;
pub mod client_record;
pub mod clock;
mod connection;
pub mod game;
pub mod game_name;
pub mod login_throttle;
mod peer;
pub mod plain_text;
pub mod record;
mod record_keeper;
pub mod server;
pub mod server_log;
pub mod store;
pub mod table;
pub mod usi_clock;
pub mod usi_engine;
pub mod wall_time;
pub mod x1;
mod x1_reports;

/// The runtime the command-line front ends run on.
pub type Runtime = tokio::runtime::Runtime;

/// A multi-threaded runtime with timers and I/O, for front ends that do not use tokio.
pub fn runtime() -> std::io::Result<Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
}
