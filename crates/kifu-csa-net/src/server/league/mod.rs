//! Leagues: games of one name started in rounds at scheduled times, with the waiting players
//! paired by a strategy — what floodgate does with shogi-server's `--floodgate-games` (its
//! `league/floodgate.rb` and `pairing.rb`).
//!
//! - [`config`]: the league file (TOML) an organiser writes, checked when the server starts;
//! - [`schedule`]: when each league's next round starts;
//! - [`pairing`]: who plays whom in a round, and with which colours.

pub mod config;
pub mod pairing;
pub mod schedule;

pub use config::{LeagueError, LeagueSpec, Leagues, PairingStrategy};
pub use schedule::Schedule;
