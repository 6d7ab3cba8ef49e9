//! USI engines as processes, and matches between them.
//!
//! - [`process`]: one USI engine as a tokio child process over the sans-IO
//!   [`kifu_csa::usi::EngineProtocol`] (shared by `kifu csa-client`'s bridge and `kifu match`);
//! - [`pool`]: engines kept between games and restarted when they fail;
//!
//! and, with the `match` feature (on by default), `kifu match`'s runner:
//!
//! - [`spec`]: an engine's `name=… cmd=… option.X=Y nodes=… tc=…`;
//! - [`openings`]: SFEN / `position` lines, or the first plies of records;
//! - [`clock`]: byoyomi, Fischer, stop-watch, node, depth and move-time limits, sans-IO;
//! - [`adjudication`]: resignation and draws on both engines' scores, sans-IO;
//! - [`evaluation`]: an engine's score and PV, as CSA `'**` lines or ShogiHome's KIF comments;
//! - [`game`]: one game judged move by move under kifu's rules, and its CSA record;
//! - [`schedule`]: which game is which (pairs with colours reversed, modes, seeded openings);
//! - [`ledger`]: the finished games, one JSON line each, that make a match resumable;
//! - [`results`]: W/D/L, Elo, LOS, pentanomial pairs, SPRT, crosstable (through `kifu-stats`);
//! - [`table`]: the games as Parquet;
//! - [`settings`]: a match as a TOML match file or the command line says it, one over the other;
//! - [`runner`]: the whole match, concurrent, stopped by the SPRT or an interruption;
//! - [`analysis`]: records analysed position by position (`kifu analyze`): budgets, a batch
//!   over `--jobs` engines that survives their faults, a cache, the judgement of each move.

pub mod pool;
pub mod process;

#[cfg(feature = "match")]
pub mod adjudication;
#[cfg(feature = "match")]
pub mod analysis;
#[cfg(feature = "match")]
pub mod clock;
#[cfg(feature = "match")]
mod cpu;
#[cfg(feature = "match")]
pub mod evaluation;
#[cfg(feature = "match")]
pub mod game;
#[cfg(feature = "match")]
pub mod ledger;
#[cfg(feature = "match")]
pub mod openings;
#[cfg(feature = "match")]
pub mod results;
#[cfg(feature = "match")]
pub mod runner;
#[cfg(feature = "match")]
pub mod schedule;
#[cfg(feature = "match")]
pub mod settings;
#[cfg(feature = "match")]
pub mod spec;
#[cfg(feature = "match")]
pub mod table;

#[cfg(feature = "match")]
pub use kifu_stats as stats;
