//! The server's log: logins, games paired, started and ended with their result, and every
//! connection cut off or refused with the reason. Passwords never reach it: callers pass
//! names and reasons only.

use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use crate::plain_text::escape_controls;
use crate::wall_time::Stamp;

/// Where the log goes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LogTarget {
    #[default]
    Off,
    Stderr,
    /// Appended to.
    File(PathBuf),
}

pub(crate) struct ServerLog {
    sink: Option<Mutex<Box<dyn Write + Send>>>,
}

impl ServerLog {
    pub fn open(target: &LogTarget) -> std::io::Result<ServerLog> {
        let sink: Option<Box<dyn Write + Send>> = match target {
            LogTarget::Off => None,
            LogTarget::Stderr => Some(Box::new(std::io::stderr())),
            LogTarget::File(path) => Some(Box::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)?,
            )),
        };
        Ok(ServerLog {
            sink: sink.map(Mutex::new),
        })
    }

    /// One line, stamped with the time; written at once so a crash loses nothing before it.
    /// Whatever a player sent inside it (a bad move's text, a comment) cannot add a line or
    /// an escape sequence: control characters are escaped.
    pub fn line(&self, args: fmt::Arguments<'_>) {
        if let Some(sink) = &self.sink {
            let text = args.to_string();
            let text = escape_controls(&text);
            let mut w = sink.lock().unwrap();
            let _ = writeln!(w, "{} {text}", Stamp::now().csa());
            let _ = w.flush();
        }
    }
}
