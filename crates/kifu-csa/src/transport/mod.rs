//! Lines to the opponent: a serial device, TCP (listening or connecting) or stdio, behind
//! one trait. A transport only moves bytes; framing is [`crate::lines`]'s business.

use std::io::{self, Read, Write};
use std::sync::mpsc::Sender;

use crate::lines::LineFramer;
use crate::session::Event;

mod serial;
mod stdio;
mod tcp;

pub use serial::{SerialSettings, SerialSettingsError, SerialTransport};
pub use stdio::StdioTransport;
pub use tcp::TcpTransport;

/// A byte stream to the opponent, split into a reading half (given to a thread of its own)
/// and a writing half.
pub trait Transport: Send {
    /// What the line is, for messages (`tcp 127.0.0.1:4081`, `serial /dev/ttyUSB0 1200 8N1`).
    fn describe(&self) -> String;
    /// The reading and the writing half of the line.
    fn split(self: Box<Self>) -> io::Result<(Box<dyn Read + Send>, Box<dyn Write + Send>)>;
}

/// Which line to open, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineSpec {
    /// `serial:/dev/ttyUSB0[,baud=1200,data=8,parity=none,stop=1,flow=xonxoff]`
    Serial(SerialSettings),
    /// `tcp-listen:PORT` or `tcp-listen:HOST:PORT` (port 0: any free port)
    TcpListen(String),
    /// `tcp:HOST:PORT`
    TcpConnect(String),
    /// `stdio`
    Stdio,
}

/// Why a line's description (`--line`) was not understood.
/// Why a `--line` is not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineSpecError {
    /// A TCP line without a port.
    #[error("`{0}`: give host and port, as in tcp:localhost:4081")]
    NoPort(String),
    /// An unknown kind of line.
    #[error("`{0}` is not a line: use serial:DEVICE, tcp-listen:PORT, tcp:HOST:PORT or stdio")]
    UnknownKind(String),
    /// Serial settings that do not read.
    #[error(transparent)]
    Serial(#[from] SerialSettingsError),
}

impl LineSpec {
    /// Reads `serial:DEVICE[,settings]`, `tcp-listen:[HOST:]PORT`, `tcp:HOST:PORT`, `stdio`
    /// or `-`.
    pub fn parse(text: &str) -> Result<LineSpec, LineSpecError> {
        if text == "stdio" || text == "-" {
            return Ok(LineSpec::Stdio);
        }
        if let Some(rest) = text.strip_prefix("serial:") {
            return Ok(LineSpec::Serial(SerialSettings::parse(rest)?));
        }
        if let Some(rest) = text.strip_prefix("tcp-listen:") {
            let addr = if rest.contains(':') {
                rest.to_owned()
            } else {
                format!("0.0.0.0:{rest}")
            };
            return Ok(LineSpec::TcpListen(addr));
        }
        if let Some(rest) = text.strip_prefix("tcp:") {
            if !rest.contains(':') {
                return Err(LineSpecError::NoPort(text.to_owned()));
            }
            return Ok(LineSpec::TcpConnect(rest.to_owned()));
        }
        Err(LineSpecError::UnknownKind(text.to_owned()))
    }

    /// Opens the line. `on_listening` is told the bound address before a listener waits
    /// for its peer (so that a port 0 can be passed on).
    pub fn open(&self, on_listening: &mut dyn FnMut(&str)) -> io::Result<Box<dyn Transport>> {
        Ok(match self {
            LineSpec::Serial(s) => Box::new(SerialTransport::open(s)?),
            LineSpec::TcpListen(addr) => Box::new(TcpTransport::listen(addr, on_listening)?),
            LineSpec::TcpConnect(addr) => Box::new(TcpTransport::connect(addr)?),
            LineSpec::Stdio => Box::new(StdioTransport),
        })
    }
}

impl std::fmt::Display for LineSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineSpec::Serial(s) => write!(f, "serial:{}", s.path),
            LineSpec::TcpListen(addr) => write!(f, "tcp-listen:{addr}"),
            LineSpec::TcpConnect(addr) => write!(f, "tcp:{addr}"),
            LineSpec::Stdio => f.write_str("stdio"),
        }
    }
}

/// Reads the line until it ends, sending every framed line as [`Event::Received`] and the
/// end (EOF, an error, a line cut in half) as [`Event::Failure`].
pub fn pump_lines(mut read: Box<dyn Read + Send>, events: Sender<Event>) {
    let mut framer = LineFramer::new();
    let mut buf = [0u8; 4096];
    let mut lines = Vec::new();
    let why = loop {
        match read.read(&mut buf) {
            Ok(0) => break "the line was closed by the other side".to_owned(),
            Ok(n) => {
                framer.push(&buf[..n], &mut lines);
                for line in lines.drain(..) {
                    if events.send(Event::Received(line)).is_err() {
                        return;
                    }
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::Interrupted
                        | io::ErrorKind::TimedOut
                        | io::ErrorKind::WouldBlock
                ) => {}
            Err(e) => break format!("the line failed: {e}"),
        }
    };
    let why = match framer.finish() {
        Some(crate::lines::Line::Text(cut)) => format!(
            "{why}, in the middle of a line (`{}`)",
            String::from_utf8_lossy(&cut).escape_debug()
        ),
        Some(crate::lines::Line::TooLong { length, .. }) => {
            format!("{why}, in the middle of a {length}-byte line")
        }
        None => why,
    };
    let _ = events.send(Event::Failure(why));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_specs() {
        assert_eq!(LineSpec::parse("stdio"), Ok(LineSpec::Stdio));
        assert_eq!(
            LineSpec::parse("tcp-listen:4081"),
            Ok(LineSpec::TcpListen("0.0.0.0:4081".into()))
        );
        assert_eq!(
            LineSpec::parse("tcp:localhost:4081"),
            Ok(LineSpec::TcpConnect("localhost:4081".into()))
        );
        assert!(LineSpec::parse("tcp:localhost").is_err());
        assert!(LineSpec::parse("usb").is_err());
        let LineSpec::Serial(s) = LineSpec::parse("serial:/dev/ttyUSB0").unwrap() else {
            panic!()
        };
        assert_eq!(s, SerialSettings::new("/dev/ttyUSB0"));
    }

    #[test]
    fn the_pump_frames_lines_and_reports_a_cut_line() {
        let (tx, rx) = std::sync::mpsc::channel();
        pump_lines(Box::new(&b"+7776FU\r\n-33"[..]), tx);
        let events: Vec<Event> = rx.iter().collect();
        assert_eq!(
            events[0],
            Event::Received(crate::lines::Line::Text(b"+7776FU".to_vec()))
        );
        let Event::Failure(why) = &events[1] else {
            panic!("{events:?}")
        };
        assert!(why.contains("closed") && why.contains("`-33`"), "{why}");
    }
}
