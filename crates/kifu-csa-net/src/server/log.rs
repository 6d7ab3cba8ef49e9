//! The server's log: logins, games paired, started and ended with their result, and every
//! connection cut off or refused with the reason. Passwords never reach it: callers pass
//! names and reasons only.
//!
//! Each line is a [`tracing`] event (`tracing::info!`) emitted by one of the server's tasks
//! or its record keeper's thread. A server has a dispatcher of its own, built here from its
//! [`LogTarget`] and attached to every task it spawns (never the process's global
//! default), so several servers in one process each log to their own sink.

use std::fmt::{self, Write as _};
use std::path::PathBuf;
use std::sync::Mutex;

use tracing::field::{Field, Visit};
use tracing::{Dispatch, Event, Level, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::writer::BoxMakeWriter;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

use crate::plain_text::escape_controls;
use crate::wall_time::Stamp;

/// Where the log goes.
///
/// ```
/// use kifu_csa_net::server::{Config, LogTarget};
///
/// let mut config = Config::new("127.0.0.1:4081".parse().unwrap());
/// config.log = LogTarget::File("tournament/server.log".into());
/// assert_ne!(config.log, LogTarget::Off);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LogTarget {
    /// No log (`--quiet`).
    #[default]
    Off,
    /// Standard error.
    Stderr,
    /// Appended to (`--log FILE`).
    File(PathBuf),
}

/// The dispatcher a server's tasks log through: one line per event, stamped with the
/// time, written at once (one `write` per line, no buffer) so a crash loses nothing before
/// it.
pub(crate) fn dispatch(target: &LogTarget) -> std::io::Result<Dispatch> {
    let writer = match target {
        LogTarget::Off => return Ok(Dispatch::none()),
        LogTarget::Stderr => BoxMakeWriter::new(std::io::stderr),
        LogTarget::File(path) => BoxMakeWriter::new(Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?,
        )),
    };
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(Level::INFO)
        .with_writer(writer)
        .event_format(Line)
        .finish();
    Ok(Dispatch::new(subscriber))
}

/// `YYYY/MM/DD HH:MM:SS <message>`. Whatever a player sent inside the message (a bad
/// move's text, a comment) cannot add a line or an escape sequence: control characters
/// are escaped.
struct Line;

impl<S, N> FormatEvent<S, N> for Line
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        _: &FmtContext<'_, S, N>,
        mut out: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let mut text = Text(String::new());
        event.record(&mut text);
        writeln!(out, "{} {}", Stamp::now().csa(), escape_controls(&text.0))
    }
}

/// An event's message, then any other fields as ` name=value`.
struct Text(String);

impl Visit for Text {
    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "message" => self.0.push_str(value),
            name => {
                let _ = write!(self.0, " {name}={value}");
            }
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        let _ = match field.name() {
            "message" => write!(self.0, "{value:?}"),
            name => write!(self.0, " {name}={value:?}"),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_dispatcher_writes_its_own_file_with_controls_escaped() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.log"), dir.path().join("b.log"));
        let log_a = dispatch(&LogTarget::File(a.clone())).unwrap();
        let log_b = dispatch(&LogTarget::File(b.clone())).unwrap();
        tracing::dispatcher::with_default(&log_a, || {
            tracing::info!("to a: {}", "+7776FU\r%TORYO");
        });
        tracing::dispatcher::with_default(&log_b, || {
            tracing::info!(game = "g1", "to b");
        });
        // Nobody's: no dispatcher of ours is current.
        tracing::info!("to neither");
        let a = std::fs::read_to_string(a).unwrap();
        let b = std::fs::read_to_string(b).unwrap();
        assert_eq!(a.lines().count(), 1, "{a}");
        assert!(a.ends_with(" to a: +7776FU\\x0D%TORYO\n"), "{a}");
        assert!(a.starts_with("20"), "{a}");
        assert!(b.ends_with(" to b game=g1\n"), "{b}");
    }
}
