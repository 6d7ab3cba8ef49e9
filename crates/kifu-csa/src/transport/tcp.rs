//! TCP one-to-one: one side listens, the other connects (the 2004 TCP/IP variant's shape).

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};

use super::Transport;

/// A TCP connection as the line.
pub struct TcpTransport {
    stream: TcpStream,
}

impl TcpTransport {
    /// Connects to `addr` (`host:port`).
    pub fn connect(addr: &str) -> io::Result<TcpTransport> {
        let stream = TcpStream::connect(addr)?;
        TcpTransport::from_stream(stream)
    }

    /// Waits for one peer on `addr`, telling `on_listening` the bound address first.
    pub fn listen(addr: &str, on_listening: &mut dyn FnMut(&str)) -> io::Result<TcpTransport> {
        let listener = TcpListener::bind(addr)?;
        on_listening(&listener.local_addr()?.to_string());
        let (stream, _) = listener.accept()?;
        TcpTransport::from_stream(stream)
    }

    fn from_stream(stream: TcpStream) -> io::Result<TcpTransport> {
        // A move is a few bytes: send it now rather than wait to fill a segment.
        stream.set_nodelay(true)?;
        Ok(TcpTransport { stream })
    }
}

impl Transport for TcpTransport {
    fn describe(&self) -> String {
        match self.stream.peer_addr() {
            Ok(a) => format!("tcp {a}"),
            Err(_) => "tcp".into(),
        }
    }

    fn split(self: Box<Self>) -> io::Result<(Box<dyn Read + Send>, Box<dyn Write + Send>)> {
        let read = self.stream.try_clone()?;
        Ok((Box::new(read), Box::new(self.stream)))
    }
}
