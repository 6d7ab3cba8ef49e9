//! `kifu csa-client`: puts a USI engine on a CSA server (floodgate, a tournament, `kifu csa-server`).
use std::path::PathBuf;
use std::time::Duration;

use kifu_csa_net::client::{ClientConfig, run_series};

use crate::Outcome;

/// Connect a USI engine to a CSA server (protocol 1.2.1) and play a series of games.
///
/// In CSA mode the login password is `<game>,<password>` (floodgate's form, the password
/// being the trip) or just `<game>`; with --x1 the game is asked for with `%%GAME`.
/// The password is never printed; it may also come from KIFU_CSA_PASSWORD.
#[derive(clap::Args)]
pub struct Args {
    /// Server host name or address.
    #[arg(long)]
    host: String,
    /// Server port.
    #[arg(long, default_value_t = 4081)]
    port: u16,
    /// Login name.
    #[arg(long)]
    user: String,
    /// Password (floodgate: the trip); KIFU_CSA_PASSWORD is used when this is not given.
    #[arg(long)]
    password: Option<String>,
    /// Game name, e.g. floodgate-300-10F or test-600-10-B (colour wish).
    #[arg(long)]
    game: Option<String>,
    /// Engine command line, e.g. "sekirei" or "/path/to/engine --flag".
    #[arg(long)]
    engine: String,
    /// USI option for the engine, NAME=VALUE (repeatable; the same flag as `kifu link`'s).
    #[arg(long = "usi-option", alias = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Number of games to play.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Log in in shogi-server's extended mode.
    #[arg(long)]
    x1: bool,
    /// Milliseconds kept in hand on every move.
    #[arg(long, default_value_t = 2500)]
    margin_ms: u64,
    /// Seconds without sending before a keep-alive blank line.
    #[arg(long, default_value_t = 40)]
    keepalive: u64,
    /// Directory for the records of the games (saved even after a disconnect).
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Attempts to log in again after a lost connection.
    #[arg(long, default_value_t = 3)]
    relogin: u32,
    /// Seconds to wait before logging in again.
    #[arg(long, value_name = "SECONDS", default_value_t = 5)]
    relogin_delay: u64,
    /// Do not send the engine's evaluation and PV as move comments.
    #[arg(long)]
    no_comments: bool,
    /// Think on the opponent's time: `go ponder` on the reply the engine expects,
    /// `ponderhit` when it comes, `stop` otherwise (sets USI_Ponder).
    #[arg(long)]
    ponder: bool,
    /// Tell the engine at most this many ms of main time and of per-move time, so that it
    /// plays faster than the clock requires (the real clock still bounds both).
    #[arg(long, value_name = "MS")]
    time_cap_ms: Option<u64>,
    /// Write the whole USI conversation to FILE (`> ` to the engine, `< ` from it).
    #[arg(long, value_name = "FILE")]
    usi_log: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<Outcome, String> {
    let password = args
        .password
        .or_else(|| std::env::var("KIFU_CSA_PASSWORD").ok())
        .unwrap_or_default();
    let mut config = ClientConfig::new(&args.host, args.port, &args.user, &password, &args.engine);
    config.game = args.game;
    config.x1 = args.x1;
    config.games = args.games;
    config.margin_ms = args.margin_ms;
    config.keepalive = Duration::from_secs(args.keepalive.max(1));
    config.records = args.records;
    config.relogin_attempts = args.relogin;
    config.relogin_delay = Duration::from_secs(args.relogin_delay);
    config.comments = !args.no_comments;
    config.ponder = args.ponder;
    config.time_cap_ms = args.time_cap_ms;
    config.usi_log = args.usi_log;
    for o in &args.options {
        let (name, value) = o
            .split_once('=')
            .ok_or_else(|| format!("--option {o}: expected NAME=VALUE"))?;
        config
            .engine_options
            .push((name.to_owned(), value.to_owned()));
    }
    let rt = tokio_runtime()?;
    let reports = rt
        .block_on(run_series(&config))
        .map_err(|e| format!("csa-client: {e}"))?;
    for r in reports {
        let reason = r.reason.as_ref().map_or("-", |x| x.token());
        let verdict = r.verdict.map_or("DISCONNECTED", |v| v.token());
        let record = r
            .record
            .as_ref()
            .map_or(String::new(), |p| p.display().to_string());
        println!(
            "{} {} {reason} {verdict} {} {record}",
            r.game_id,
            r.color.csa_sign(),
            r.plies
        );
    }
    Ok(Outcome::Ok)
}

fn tokio_runtime() -> Result<kifu_csa_net::Runtime, String> {
    kifu_csa_net::runtime().map_err(|e| format!("csa-client: {e}"))
}
