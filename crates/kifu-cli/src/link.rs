//! `kifu link`: one game over a CSA 1998 line. Options here; the protocol is in kifu-csa.
//!
//! Every line kind (serial, TCP, stdio) carries the 1998 rules of play. The CSA's later
//! TCP/IP one-to-one protocol (2004) is known to us only in outline, so it is not
//! implemented: a TCP line here is the 1998 protocol over a socket.
//!
//! Exit status: 0 when the game ended (won, lost or drawn), 1 when it was interrupted or
//! failed (the record is saved and can be resumed with `--resume`), 2 for bad usage.

use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::sync::mpsc;

use kifu_csa::driver::{self, DriverError, Output};
use kifu_csa::player::{Human, MoveList, MoveListError, Player, UsiEngine, UsiEngineError};
use kifu_csa::record::{self, Header, ReadError};
use kifu_csa::session::{Config, Event, ResumeError, Session, State};
use kifu_csa::transport::LineSpec;
use kifu_record::TimeControl;
use kifu_shogi::{Color, Position};

use crate::Outcome;
use crate::error::CliError;

/// Why `kifu link` could not play (exit status 1; the record is saved when there is one).
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error("a human player needs the terminal: use a serial or TCP line")]
    HumanOnStdio,
    #[error(transparent)]
    Engine(#[from] UsiEngineError),
    #[error(transparent)]
    Moves(#[from] MoveListError),
    #[error("{}: {source}", path.display())]
    ResumeUnreadable { path: PathBuf, source: io::Error },
    #[error("{}: {source}", path.display())]
    ResumeInvalid { path: PathBuf, source: ReadError },
    #[error("{}: {source}", path.display())]
    ResumeIllegal { path: PathBuf, source: ResumeError },
    #[error("{line}: {source}")]
    Line { line: String, source: io::Error },
    #[error(transparent)]
    Driver(#[from] DriverError),
}

impl From<LinkError> for CliError {
    fn from(e: LinkError) -> CliError {
        CliError::Failed(e.to_string())
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Side {
    Black,
    White,
}

#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  kifu link --line tcp-listen:4081 --player usi:./engine --color black --time 600+10
  kifu link --line tcp-listen:127.0.0.1:4081 --player usi:./engine --color black
  kifu link --line tcp:192.168.0.2:4081 --player human --color white
  kifu link --line serial:/dev/ttyUSB0 --player usi:'sekirei' --color white --confirm
  kifu link --line serial:/dev/ttyS0,baud=9600,flow=none --player moves:game.csa --color black
  kifu link --line tcp:127.0.0.1:4081 --player usi:sekirei --usi-option Threads=1 --time 0+0.5

Every line (serial, TCP, stdio) carries the CSA 1998 rules of play: one LF-terminated
line per move or %-command. The CSA TCP/IP one-to-one protocol of 2004 is not implemented;
a TCP line is the 1998 protocol over a socket.

A moves:FILE player checks that the opponent's moves are the record's; at the first
difference it stops (naming the ply and both moves) and the game is interrupted.

Exit status: 0 the game ended, 1 it was interrupted or failed (the record is saved;
continue it with --resume), 2 bad usage.")]
pub struct Args {
    // The text is `--help`'s, where `[HOST:]` reads as optional, not as a rustdoc link.
    #[allow(rustdoc::broken_intra_doc_links)]
    /// The line to the opponent: serial:DEVICE[,baud=1200,data=8,parity=none,stop=1,flow=xonxoff],
    /// tcp-listen:[HOST:]PORT (without HOST every interface; tcp-listen:127.0.0.1:4081 takes
    /// connections from this machine only), tcp:HOST:PORT or stdio
    #[arg(long, value_name = "LINE", value_parser = LineSpec::parse)]
    line: LineSpec,
    /// Who plays this side: usi:COMMAND (an engine), human (typed at the terminal), or
    /// moves:FILE (a record's moves for this colour, then its ending)
    #[arg(long, value_name = "PLAYER", value_parser = parse_player)]
    player: PlayerSpec,
    /// With usi:COMMAND: an engine option sent as `setoption name NAME value VALUE` before the
    /// game (repeatable), e.g. --usi-option Threads=1 --usi-option Hash=64
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_usi_option)]
    usi_option: Vec<(String, String)>,
    /// This side's colour
    #[arg(long, value_enum, default_value = "black")]
    color: Side,
    /// Time control for both sides: SECONDS[+BYOYOMI[+INCREMENT]], e.g. 600+10 (decimals allowed:
    /// 0+0.5 is half a second a move)
    #[arg(long, value_name = "TIME", value_parser = parse_time)]
    time: Option<TimeControl>,
    /// Where to write the game (CSA with times, after every move); default: the resumed
    /// record, else kifu-link-DATE-TIME.csa in the current directory
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Continue an interrupted game from its record
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// With --resume: take back this many plies first (the side that played more moves
    /// than its opponent received retracts to the common position)
    #[arg(long, value_name = "PLIES", default_value_t = 0, requires = "resume")]
    retract: usize,
    /// The opponent is a person relaying a program without communication: accept its %MATTA
    #[arg(long)]
    opponent_relay: bool,
    /// Wait for Enter before starting, once the operator knows the opponent is ready
    #[arg(long)]
    confirm: bool,
    /// The opponent's name for the record
    #[arg(long, value_name = "NAME")]
    opponent: Option<String>,
}

fn parse_usi_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_owned(), value.trim().to_owned()))
        }
        _ => Err(format!(
            "--usi-option {text}: use NAME=VALUE, e.g. Threads=1"
        )),
    }
}

fn parse_time(text: &str) -> Result<TimeControl, String> {
    let parts = text.split('+').count();
    let padded = match parts {
        1 => format!("{text}+0+0"),
        2 => format!("{text}+0"),
        _ => text.to_owned(),
    };
    TimeControl::parse_csa_time(&padded)
        .ok_or_else(|| format!("--time {text}: use SECONDS[+BYOYOMI[+INCREMENT]], e.g. 600+10"))
}

#[derive(Clone, PartialEq, Eq)]
enum PlayerSpec {
    Human,
    Usi(String),
    Moves(PathBuf),
}

fn parse_player(spec: &str) -> Result<PlayerSpec, String> {
    if spec == "human" {
        return Ok(PlayerSpec::Human);
    }
    if let Some(command) = spec.strip_prefix("usi:").filter(|c| !c.is_empty()) {
        return Ok(PlayerSpec::Usi(command.to_owned()));
    }
    if let Some(path) = spec.strip_prefix("moves:").filter(|p| !p.is_empty()) {
        return Ok(PlayerSpec::Moves(path.into()));
    }
    Err(format!(
        "`{spec}` is not a player: use usi:COMMAND, human or moves:FILE"
    ))
}

fn make_player(
    spec: &PlayerSpec,
    usi_options: &[(String, String)],
) -> Result<(Box<dyn Player>, Option<Position>), LinkError> {
    Ok(match spec {
        PlayerSpec::Human => (
            Box::new(Human::new(BufReader::new(io::stdin()), io::stderr())),
            None,
        ),
        PlayerSpec::Usi(command) => {
            let mut engine = UsiEngine::start(command)?;
            engine.set_options(usi_options);
            (Box::new(engine), None)
        }
        PlayerSpec::Moves(path) => {
            let moves = MoveList::read(path)?;
            let start = moves.start().clone();
            (Box::new(moves), Some(start))
        }
    })
}

pub fn run(args: Args) -> Result<Outcome, LinkError> {
    if !args.usi_option.is_empty() && !matches!(args.player, PlayerSpec::Usi(_)) {
        // Bad usage, so clap's exit status 2 rather than a failed game's 1.
        clap::Error::raw(
            clap::error::ErrorKind::ArgumentConflict,
            "--usi-option is only for a usi:COMMAND player\n",
        )
        .exit();
    }
    let line = args.line.clone();
    if args.player == PlayerSpec::Human && line == LineSpec::Stdio {
        return Err(LinkError::HumanOnStdio);
    }
    let me = match args.color {
        Side::Black => Color::Black,
        Side::White => Color::White,
    };
    let mut config = Config::new(me);
    config.relay = args.player == PlayerSpec::Human;
    config.peer_relay = args.opponent_relay;
    config.time = args.time;

    let (player, player_start) = make_player(&args.player, &args.usi_option)?;
    let mut header = Header {
        start_time: Some(record::timestamp(std::time::SystemTime::now())),
        ..Header::default()
    };
    let opponent = args
        .opponent
        .clone()
        .unwrap_or_else(|| format!("opponent on {}", args.line));
    let session = match &args.resume {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|source| LinkError::ResumeUnreadable {
                    path: path.clone(),
                    source,
                })?;
            let mut saved = record::read(&text).map_err(|source| LinkError::ResumeInvalid {
                path: path.clone(),
                source,
            })?;
            saved.retract(args.retract);
            header = saved.header.clone();
            // The game goes on under the time control it was saved with, unless told otherwise.
            if config.time.is_none() {
                config.time = saved.time;
            }
            saved
                .into_session(config)
                .map_err(|source| LinkError::ResumeIllegal {
                    path: path.clone(),
                    source,
                })?
        }
        None => Session::new(config, player_start.unwrap_or_else(Position::startpos)),
    };
    let (mine, theirs) = (player.name(), opponent);
    if args.resume.is_none() || header.black.is_empty() {
        (header.black, header.white) = match me {
            Color::Black => (mine, theirs),
            Color::White => (theirs, mine),
        };
    }
    let record_path = args
        .record
        .clone()
        .or_else(|| args.resume.clone())
        .unwrap_or_else(|| {
            let stamp = header.start_time.clone().unwrap_or_default();
            let compact: String = stamp.chars().filter(char::is_ascii_digit).collect();
            PathBuf::from(format!(
                "kifu-link-{}-{}.csa",
                &compact[..8.min(compact.len())],
                &compact[8.min(compact.len())..]
            ))
        });

    let transport = line
        .open(&mut |addr| {
            eprintln!("listening on {addr}{}", reach(addr));
        })
        .map_err(|source| LinkError::Line {
            line: args.line.to_string(),
            source,
        })?;
    if args.confirm {
        eprint!("press Enter when the opponent is ready to receive ");
        let _ = io::stderr().flush();
        let mut answer = String::new();
        let _ = io::stdin().lock().read_line(&mut answer);
    }

    let (tx, rx) = mpsc::channel();
    let interrupt = tx.clone();
    // A second Ctrl-C while the game is being saved still ends the program.
    let _ = ctrlc::set_handler(move || {
        if interrupt.send(Event::OperatorInterrupt).is_err() {
            std::process::exit(1);
        }
    });
    let mut log = |text: &str| eprintln!("{text}");
    let end = driver::play(
        session,
        transport,
        player,
        (tx, rx),
        Output {
            header,
            record: Some(&record_path),
            log: &mut log,
        },
    )?;
    eprintln!("record: {}", record_path.display());
    Ok(match end {
        State::Ended(_) => Outcome::Ok,
        _ => Outcome::Invalid,
    })
}

/// Who can connect to a listening address, said outright: listening on every interface
/// admits other machines, which a user asking for `tcp-listen:PORT` may not expect.
fn reach(addr: &str) -> &'static str {
    match addr.parse::<std::net::SocketAddr>() {
        Ok(a) if a.ip().is_unspecified() => {
            " (every interface: other machines can connect; tcp-listen:127.0.0.1:PORT for this \
             machine only)"
        }
        Ok(a) if a.ip().is_loopback() => " (this machine only)",
        _ => "",
    }
}
