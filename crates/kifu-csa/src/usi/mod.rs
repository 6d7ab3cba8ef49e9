//! The USI engine protocol, sans-IO: one conversation with an engine shared by `kifu link`
//! (a blocking child process, [`crate::player::UsiEngine`]) and `kifu csa-client` and `kifu match`
//! (a tokio child process in `kifu-engines`), following the USI protocol's public description.
//!
//! - [`command`]: the `position` and `go` commands, `gameover`'s word;
//! - [`output`]: the engine's lines decoded, a search's `info` and `bestmove` folded into a
//!   [`Thought`];
//! - [`engine`]: the conversation as a state machine ([`EngineProtocol`]): handshake,
//!   options, `go`, `go ponder` with `ponderhit` or `stop`, `bestmove`s owed and thrown away;
//! - [`time`]: what `go btime … wtime … byoyomi|binc … winc …` tells the engine, in the CSA
//!   1998 line protocol and on a CSA server (with a safety margin).
//!
//! The I/O layers own the process, its pipes and the timeouts; everything they decide is
//! here.

pub mod command;
pub mod engine;
pub mod output;
pub mod time;

pub use command::{GameOver, GoTimes, PerMove, PositionCommand, SearchLimit, Start};
pub use engine::{EngineEvent, EngineProtocol, Handshake, Ponder, Search, UsiStateError};
pub use output::{BestMove, EngineLine, IllegalBestMove, Info, MATE_SCORE, Thought};
pub use time::{TimePolicy, line_go_times, server_go_times};
