//! `kifu csa-server`: a CSA server protocol 1.2.1 server for local tournaments.
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use kifu_csa_net::server::auth::read_players;
use kifu_csa_net::server::log::LogTarget;
use kifu_csa_net::server::{Config, Stopped, run_blocking};
use kifu_records::shogi::csa::CsaVersion;

use crate::Outcome;

/// How players log in, how long a line may be and how the server stops, shown after the options.
const AFTER_HELP: &str = "Logging in:
  LOGIN <name> <game>[-B|-W][,<password>]   CSA mode: one game, then the connection ends
  LOGIN <name> <password> x1                extended mode: then %%GAME <game> <+|-|*>
  <game> is <id>-<total seconds>-<byoyomi seconds>, with F after the last number for a
  Fischer increment: floodgate-300-10F. -B or -W asks for Black or White. A login that
  names no game is refused with this syntax.

Who a player is (shogi-server's model): a name alone, or a name and the <password> (the
trip) given with it. Nothing is registered: a different trip is a different player, shown
under the same name, so no login can take a name from its owner; its results count under
its player id, <name>+<32 hex digits> (a keyed digest of the name and trip, the key kept
under --data). Without a trip, a namesake may take over an idle connection, never a game.
--players closes the tournament to a list of names.

Limits: connections not logged in have their own share (--max-pending) and --login-timeout;
when the share is full a newcomer takes the place of the oldest connection of the address
holding most of it. An address whose logins keep being refused waits longer for each
answer (1 s, 2 s, 4 s ... up to a minute); other logins from it are never slowed. Chat is
limited per player and in all, and dropped for a client that does not read (with a note),
never a reason to cut a player off.

Leagues (--league FILE, TOML): players who ask for a league's game name wait for its next
round; at each round they are paired (least-difference on ratings with a penalty for meeting
the last opponent again, a round robin of a fixed list, or at random) and their games start;
an odd player out waits for the next round. Colours go to whoever had White more often.
  [[league]]
  game = \"floodgate-300-10F\"
  every = \"30m\"                 # or: at = [\"12:30\", \"Sun 09:00\"] (UTC)
  pairing = \"least-difference\"  # or \"round-robin\" with players = [...], or \"random\"
  [ratings]                       # optional: mk_rate's method and defaults
  half_life_days = 60
  min_games = 15
Ratings are computed from the store at start, after every round and every 5 minutes, by the
method of shogi-server's mk_rate; %%RATING lists them.

Lines up to 8192 bytes are read; a longer one is answered with ##[ERROR] line too long.

Stopping: SIGTERM or SIGINT stops the server gracefully: no new connections, every game in
progress ends as interrupted (#CHUDAN to both players, %CHUDAN in its record and index), then
exit 0; a second signal exits at once (status 1). Records are written as games go: after a
crash each game in progress has a valid record ending in %CHUDAN.";

/// Run a CSA server (protocol 1.2.1, shogi-server compatible) for a local tournament.
///
/// Players log in with `LOGIN <name> <game>[-B|-W][,<password>]` (CSA mode, one game per
/// login) or `LOGIN <name> <password> x1` (then `%%GAME <game> <+|-|*>`); a game name is
/// `<id>-<total seconds>-<byoyomi seconds>`, or `…F` for a Fischer increment
/// (`floodgate-300-10F`). Two players who ask for the same game name are paired. A login
/// that names no game is refused with this syntax.
/// Finished games are written under DIR/YYYY/MM/DD/<Game_ID>.csa and indexed in
/// DIR/kifu.sqlite, with a tally for each player that finished a game. A player is its name
/// and the trip it gives (`<game>,<trip>`, or the x1 password), as in shogi-server: a
/// different trip is a different player. The log (stderr unless --log) tells of logins,
/// games and cut-offs, never passwords.
#[derive(clap::Args)]
#[command(after_help = AFTER_HELP, args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<ServerCommand>,
    /// TCP port to listen on (0 picks a free one; the address is printed).
    #[arg(long, default_value_t = 4081)]
    port: u16,
    /// Address to bind.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Directory for records and the player/game store (none: nothing is kept).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Ply limit announced as Max_Moves (0 = none).
    #[arg(long, default_value_t = 256)]
    max_moves: u32,
    /// Event name, the first part of every Game_ID.
    #[arg(long, default_value = "kifu")]
    event: String,
    /// Seconds both players have to AGREE.
    #[arg(long, default_value_t = 120)]
    agree_timeout: u64,
    /// Seconds a connection may stay without logging in.
    #[arg(long, default_value_t = 30)]
    login_timeout: u64,
    /// A closed tournament: only the names in FILE (one per line, `#` comments) may log in.
    #[arg(long, value_name = "FILE")]
    players: Option<PathBuf>,
    /// Connections held at once; more are refused.
    #[arg(long, default_value_t = 12_000)]
    max_connections: usize,
    /// Connections not logged in yet, from all addresses together (the rest of
    /// --max-connections is kept for players who have logged in).
    #[arg(long, default_value_t = 1_000)]
    max_pending: usize,
    /// Connections from one address not logged in yet; more are refused.
    #[arg(long, default_value_t = 512)]
    max_pending_per_ip: usize,
    /// Players logged in from one address at once; more logins are refused (a league run
    /// from one machine needs two per game).
    #[arg(long, default_value_t = 1_000)]
    max_players_per_ip: usize,
    /// Seconds a logged-in player may stay silent outside a game (waiting for an opponent
    /// or between x1 games) before it is let go; a blank-line keep-alive counts.
    #[arg(long, default_value_t = 1800)]
    lobby_timeout: u64,
    /// Append the log to FILE instead of stderr.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// No log at all.
    #[arg(long, conflicts_with = "log")]
    quiet: bool,
    /// Leagues: game names whose players are paired in scheduled rounds (a TOML file of
    /// `[[league]]` tables: game, every or at, pairing; see `kifu csa-server --help`).
    #[arg(long, value_name = "FILE")]
    league: Option<PathBuf>,
    /// CSA edition of the records written under --data.
    #[arg(long, value_name = "VERSION", default_value = "3.0", value_parser = ["2.2", "3.0"])]
    csa_version: String,
    /// Serve spectators over HTTP on ADDR:PORT (a bare PORT or localhost:PORT is loopback):
    /// a JSON API of the games (/api/games), their event streams, records, and live pages
    /// (/ and /games/ID). Off unless asked.
    #[arg(long, value_name = "ADDR:PORT", value_parser = http_addr)]
    http: Option<SocketAddr>,
    /// Let pages of this one origin read the HTTP API (cross-origin reading is off unless
    /// asked), e.g. `https://example.org`.
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    http_cors: Option<String>,
    /// Event streams open at once on the HTTP side; more are answered 503.
    #[arg(long, value_name = "N", default_value_t = kifu_csa_net::server::HttpConfig::MAX_SPECTATORS, requires = "http")]
    max_spectators: usize,
}

/// `--http`'s address: `ADDR:PORT`, `localhost:PORT` or a bare `PORT` (both loopback).
fn http_addr(text: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if let Some(port) = text.strip_prefix("localhost:") {
        let port = port
            .parse::<u16>()
            .map_err(|_| format!("{port:?} is not a port number"))?;
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    text.parse()
        .map_err(|_| format!("{text:?} is not ADDR:PORT, localhost:PORT or a port number"))
}

#[derive(clap::Subcommand)]
enum ServerCommand {
    Standings(StandingsArgs),
}

/// Print a server's ratings (shogi-server's mk_rate method), results and crosstable from its
/// store.
///
/// Examples:
///   kifu csa-server standings --data tournament
///   kifu csa-server standings --data tournament --league league.toml --json
#[derive(clap::Args)]
struct StandingsArgs {
    /// The server's data directory (the one given to `kifu csa-server --data`).
    #[arg(long, value_name = "DIR")]
    data: PathBuf,
    /// The league file, for its `[ratings]` parameters (mk_rate's defaults without it).
    #[arg(long, value_name = "FILE")]
    league: Option<PathBuf>,
    /// One JSON object: players (id, name, rate or null, group, wins, draws, losses) and the
    /// crosstable (wins, draws, losses of each player against each opponent).
    #[arg(long)]
    json: bool,
}

fn standings(args: StandingsArgs) -> Result<Outcome, String> {
    use kifu_csa_net::server::league::standings::{crosstable, rated_now, standings};
    let path = args.data.join("kifu.sqlite");
    if !path.is_file() {
        return Err(format!(
            "csa-server standings: {} has no store (kifu.sqlite); give the directory the \
             server ran with --data",
            args.data.display()
        ));
    }
    let method = match &args.league {
        Some(file) => {
            kifu_csa_net::server::league::Leagues::load(file)
                .map_err(|e| format!("csa-server standings: --league: {e}"))?
                .method
        }
        None => Default::default(),
    };
    let store = kifu_csa_net::server::store::Store::open(&path)
        .map_err(|e| format!("csa-server standings: {}: {e}", path.display()))?;
    let rows: Vec<_> = store
        .games()
        .map_err(|e| format!("csa-server standings: {}: {e}", path.display()))?
        .into_iter()
        .filter(|r| !r.end_time.is_empty())
        .collect();
    let ratings = rated_now(&rows, &method);
    let table = standings(&rows, &ratings);
    let cross = crosstable(&rows);
    if args.json {
        let players: Vec<_> = table
            .iter()
            .map(|s| {
                serde_json::json!({
                    "id": s.id, "name": s.name, "rate": s.rate, "group": s.group,
                    "wins": s.wins, "draws": s.draws, "losses": s.losses,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({ "games": rows.len(), "players": players, "crosstable": cross })
        );
        return Ok(Outcome::Ok);
    }
    println!("{} finished games", rows.len());
    println!(
        "{:>4}  {:<24} {:>6} {:>5}  {:>4} {:>4} {:>4}",
        "rank", "player", "rating", "games", "W", "D", "L"
    );
    for (i, s) in table.iter().enumerate() {
        let rate = s.rate.map_or("-".to_owned(), |r| r.to_string());
        let rank = if s.rate.is_some() {
            (i + 1).to_string()
        } else {
            "-".to_owned()
        };
        println!(
            "{rank:>4}  {:<24} {rate:>6} {:>5}  {:>4} {:>4} {:>4}",
            s.name,
            s.wins + s.draws + s.losses,
            s.wins,
            s.draws,
            s.losses
        );
    }
    if table.iter().any(|s| s.rate.is_none()) {
        println!(
            "(-: not rated yet: mk_rate rates a player with at least one win, one loss and {} games, weighted by age)",
            method.min_games
        );
    }
    println!();
    println!("crosstable (row against column: wins-draws-losses)");
    let ids: Vec<&str> = table.iter().map(|s| s.id.as_str()).collect();
    print!("{:<24}", "");
    for (i, _) in ids.iter().enumerate() {
        print!(" {:>7}", i + 1);
    }
    println!();
    for (i, id) in ids.iter().enumerate() {
        print!("{:<24}", format!("{} {}", i + 1, table[i].name));
        for other in &ids {
            let cell = if id == other {
                "-".to_owned()
            } else {
                match cross.get(*id).and_then(|row| row.get(*other)) {
                    Some([w, d, l]) => format!("{w}-{d}-{l}"),
                    None => String::new(),
                }
            };
            print!(" {cell:>7}");
        }
        println!();
    }
    Ok(Outcome::Ok)
}

pub fn run(args: Args) -> Result<Outcome, String> {
    if let Some(ServerCommand::Standings(s)) = args.command {
        return standings(s);
    }
    let mut config = Config::new(SocketAddr::new(args.bind, args.port));
    config.data = args.data;
    config.max_moves = args.max_moves;
    config.csa_version = if args.csa_version == "2.2" {
        CsaVersion::V22
    } else {
        CsaVersion::V30
    };
    config.event = args.event;
    config.agree_timeout = Duration::from_secs(args.agree_timeout);
    config.login_timeout = Duration::from_secs(args.login_timeout);
    config.max_connections = args.max_connections;
    config.max_unauthenticated = args.max_pending;
    config.max_unauthenticated_per_ip = args.max_pending_per_ip;
    config.max_logged_in_per_ip = args.max_players_per_ip;
    config.lobby_timeout = Duration::from_secs(args.lobby_timeout);
    if let Some(path) = &args.players {
        let names = read_players(path)
            .map_err(|e| format!("csa-server: --players {}: {e}", path.display()))?;
        config.players = Some(names);
    }
    if let Some(path) = &args.league {
        config.leagues = kifu_csa_net::server::league::Leagues::load(path)
            .map_err(|e| format!("csa-server: --league: {e}"))?;
    }
    if let Some(bind) = args.http {
        let mut http = kifu_csa_net::server::HttpConfig::new(bind);
        http.cors = args.http_cors;
        http.max_spectators = args.max_spectators;
        config.http = Some(http);
    }
    config.log = match (args.log, args.quiet) {
        (_, true) => LogTarget::Off,
        (Some(path), false) => LogTarget::File(path),
        (None, false) => LogTarget::Stderr,
    };
    let http = args.http;
    let stopped = run_blocking(config, |addr| {
        let spectators = http.map_or(String::new(), |http| {
            format!("\nspectators: http://{http}/")
        });
        // One write: a reader that takes the first line and goes does not find the second
        // one failing (a closed stdout is no reason to stop a server).
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stdout(),
            "kifu csa-server listening on {addr}{spectators}"
        );
    })
    .map_err(|e| format!("csa-server: {e}"))?;
    match stopped {
        Stopped::Gracefully => Ok(Outcome::Ok),
        Stopped::AtOnce => Err(
            "csa-server: stopped at once by a second signal; the records of interrupted \
             games may end without their final lines (they still end in %CHUDAN)"
                .to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn http_takes_a_bare_port_or_localhost_as_loopback_and_any_address_with_a_port() {
        let loopback = "127.0.0.1:8080".parse().unwrap();
        assert_eq!(super::http_addr("8080"), Ok(loopback));
        assert_eq!(super::http_addr("localhost:8080"), Ok(loopback));
        assert_eq!(super::http_addr("127.0.0.1:8080"), Ok(loopback));
        assert_eq!(
            super::http_addr("[::1]:8080"),
            Ok("[::1]:8080".parse().unwrap())
        );
        assert!(super::http_addr("localhost").is_err());
        assert!(super::http_addr("example.org:80").is_err());
    }
}
