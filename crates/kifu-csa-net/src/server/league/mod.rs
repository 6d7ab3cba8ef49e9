//! Leagues: games of one name started in rounds at scheduled times, with the waiting players
//! paired by a strategy — what floodgate does with shogi-server's `--floodgate-games` (its
//! `league/floodgate.rb` and `pairing.rb`).
//!
//! - [`config`]: the league file (TOML) an organiser writes, checked when the server starts;
//! - [`schedule`]: when each league's next round starts;
//! - [`pairing`]: who plays whom in a round, and with which colours;
//! - [`standings`]: ratings (shogi-server's `mk_rate` method) and a crosstable from the store;
//! - `rounds`: the task that starts each league's rounds.

pub mod config;
pub mod pairing;
pub(crate) mod rounds;
pub mod schedule;
pub mod standings;

pub use config::{LeagueError, LeagueSpec, Leagues, PairingStrategy};
pub use schedule::Schedule;
