//! The CSA server protocol over the network: a tokio tournament server and a client bridge
//! for USI engines.
//!
//! The parts that decide things are sans-IO and tested without sockets:
//! [`game_name`] (what a login asks for), [`clock`] (shogi-server's arithmetic) and
//! [`server::game`] (one game judged under the full rules). [`server::record`] turns games
//! into CSA records, [`server::store`] keeps players and the game index, and a thread of its
//! own keeps both as games go, so that no move or result waits for a disk; [`plain_text`]
//! keeps what players send from shaping those files.
//!
//! [`server`] puts them on tokio: one task per connection, which talks to the server's
//! lobby (who is logged in, who waits, the games in play) and judges and relays its
//! player's moves itself at the game's table. Dependencies point one way: connection →
//! lobby → table → peer (a socket), with the services every part reaches (configuration,
//! store, log, record keeper) below them all.
//!
//! [`client`] is the bridge: one USI engine playing a series of games on a CSA server.
//!
//! A server on any free port of 127.0.0.1, one player logging in:
//!
//! ```
//! use kifu_csa_net::server::{Config, Server};
//! use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
//!
//! # fn main() -> std::io::Result<()> {
//! let rt = kifu_csa_net::runtime()?;
//! rt.block_on(async {
//!     let server = Server::bind(Config::new("127.0.0.1:0".parse().unwrap())).await?;
//!     let addr = server.local_addr()?;
//!     tokio::spawn(server.run());
//!
//!     let stream = tokio::net::TcpStream::connect(addr).await?;
//!     let (rd, mut wr) = stream.into_split();
//!     wr.write_all(b"LOGIN alice floodgate-600-10\n").await?;
//!     let mut line = String::new();
//!     BufReader::new(rd).read_line(&mut line).await?;
//!     assert_eq!(line, "LOGIN:alice OK\n");
//!     Ok(())
//! })
//! # }
//! ```

#![warn(missing_docs)]

pub mod client;
pub mod clock;
pub mod game_name;
mod http;
/// Moved to [`kifu_csa::plain_text`], where records are built; kept here for old paths.
pub use kifu_csa::plain_text;
pub mod server;
pub mod wall_time;

/// The runtime the command-line front ends run on.
pub type Runtime = tokio::runtime::Runtime;

/// A multi-threaded runtime with timers and I/O, for front ends that do not use tokio.
pub fn runtime() -> std::io::Result<Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
}
