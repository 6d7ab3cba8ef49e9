//! The line on standard input and output, for pipes and `socat`-style plumbing.

use std::io::{self, Read, Write};

use super::Transport;

/// Standard input and output as the line.
pub struct StdioTransport;

impl Transport for StdioTransport {
    fn describe(&self) -> String {
        "stdio".into()
    }

    fn split(self: Box<Self>) -> io::Result<(Box<dyn Read + Send>, Box<dyn Write + Send>)> {
        Ok((Box::new(io::stdin()), Box::new(io::stdout())))
    }
}
