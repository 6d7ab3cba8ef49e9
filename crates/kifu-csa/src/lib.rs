//! The CSA communication protocol of 1998 for kifu: two shogi programs playing over a line.
//!
//! The protocol is one line per message: a move (`+7776FU`, `-0034KA`, `+2423TO`) or one of
//! seven `%` commands. This crate is built sans-IO first:
//!
//! - [`message`] parses and formats a line; [`lines`] frames a byte stream into lines;
//! - [`session`] is the state machine of one side: events in, actions out, no I/O;
//! - [`clock`] derives both clocks from per-ply times;
//! - [`record`] writes the game as a CSA file (times, `%CHUDAN` when interrupted) and reads
//!   it back to resume; [`record::RecordBuilder`] builds any game's record as it goes;
//! - [`plain_text`] keeps what players send from shaping the files it is written to;
//! - [`transport`] opens the line (serial, TCP listen/connect, stdio) behind one trait;
//! - [`player`] decides this side's moves (USI engine, a person, a record's moves);
//! - [`driver`] runs a session with a transport and a player, saving after every ply.
//!
//! [`server_protocol`] is the codec of the later CSA server protocol (1.2.1), with the
//! clock arithmetic of a server game. [`usi`] is the USI engine protocol, sans-IO too: the
//! one conversation with an engine that `kifu link` and the CSA server client bridge share.
//!
//! ```
//! use kifu_csa::session::{Action, Config, Decision, Event, Session};
//! use kifu_csa::lines::Line;
//! use kifu_shogi::{Color, Position};
//!
//! let mut black = Session::new(Config::new(Color::Black), Position::startpos());
//! let mut out = Vec::new();
//! black.handle(Event::OpponentReady, 0, &mut out);
//! assert_eq!(out, [Action::Think]);
//! out.clear();
//! let mv = black.position().parse_usi_move("7g7f").unwrap();
//! black.handle(Event::Local(Decision::Move(mv)), 1500, &mut out);
//! assert!(out.iter().any(|a| matches!(a, Action::Send(m) if m.to_string() == "+7776FU")));
//! out.clear();
//! black.handle(Event::Received(Line::Text(b"%TORYO".to_vec())), 4000, &mut out);
//! assert!(matches!(out[0], Action::GameOver(_)));
//! ```

#![warn(missing_docs)]

pub mod clock;
pub mod driver;
pub mod lines;
pub mod message;
pub mod plain_text;
pub mod player;
pub mod record;
pub mod server_protocol;
pub mod session;
pub mod transport;
pub mod usi;

pub use message::{Command, CsaMove, Message, MoveError, SyntaxError};
pub use session::{Action, Config, Decision, Event, GameEnd, GameResult, Session, State};
