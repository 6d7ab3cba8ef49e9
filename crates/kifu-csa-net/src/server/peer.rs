//! One connected client as the rest of the server sees it: a socket any task may write
//! lines to, without a hop through another task.
//!
//! A line is written straight to the socket by whichever task produces it (the opponent's
//! reader relaying a move, the game's timer); only what the kernel does not take at once is
//! queued, and the connection's own task flushes the queue when the socket is writable.
//! The queue is bounded: a client that does not read is cut off when it overflows.

use std::io;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::net::TcpStream;
use tokio::sync::Notify;

/// Bytes queued for a client that does not read; beyond this it is cut off. A summary is
/// about 1 KiB, a move line 20 bytes: this is thousands of unread lines.
pub const OUT_LIMIT: usize = 64 * 1024;

#[derive(Default)]
struct Outgoing {
    pending: Vec<u8>,
    /// No more lines are taken; the owner shuts the socket once `pending` is out.
    closing: bool,
    /// The queue overflowed or the socket failed: the owner cuts the client off.
    broken: bool,
}

pub(crate) struct Peer {
    pub stream: TcpStream,
    out: Mutex<Outgoing>,
    /// Wakes the connection's own task: something to flush, a seat, a game over, a cut-off.
    pub wake: Notify,
    /// Set when the player's game has ended and every result line is queued.
    game_over: AtomicBool,
    /// Set when the player logged in again on another connection: this one is let go.
    replaced: AtomicBool,
}

impl Peer {
    pub fn new(stream: TcpStream) -> Peer {
        Peer {
            stream,
            out: Mutex::new(Outgoing::default()),
            wake: Notify::new(),
            game_over: AtomicBool::new(false),
            replaced: AtomicBool::new(false),
        }
    }

    /// Sends one line; `false` when the client is (now) cut off.
    pub fn send(&self, line: &str) -> bool {
        self.send_all([line])
    }

    /// Sends lines in one write.
    pub fn send_all<'a>(&self, lines: impl IntoIterator<Item = &'a str>) -> bool {
        let mut out = self.out.lock().unwrap();
        if out.closing || out.broken {
            return !out.broken;
        }
        let was_empty = out.pending.is_empty();
        for line in lines {
            out.pending.extend_from_slice(line.as_bytes());
            out.pending.push(b'\n');
        }
        if was_empty {
            self.write_now(&mut out);
        }
        if out.pending.len() > OUT_LIMIT {
            out.broken = true;
            out.pending = Vec::new();
        }
        let ok = !out.broken;
        if !out.pending.is_empty() || !ok {
            self.wake.notify_one();
        }
        ok
    }

    /// Writes as much of the queue as the kernel takes now.
    fn write_now(&self, out: &mut Outgoing) {
        while !out.pending.is_empty() {
            match self.stream.try_write(&out.pending) {
                Ok(n) => {
                    out.pending.drain(..n);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    out.broken = true;
                    out.pending = Vec::new();
                    return;
                }
            }
        }
        if out.pending.capacity() > 4096 {
            out.pending = Vec::new();
        }
    }

    /// Sends what is queued and takes no more lines.
    pub fn close(&self) {
        self.out.lock().unwrap().closing = true;
        self.wake.notify_one();
    }

    /// For the owner: flushes; `Ok(true)` once everything is out.
    pub fn flush(&self) -> io::Result<bool> {
        let mut out = self.out.lock().unwrap();
        if !out.broken {
            self.write_now(&mut out);
        }
        if out.broken {
            return Err(io::Error::other("the client does not read"));
        }
        Ok(out.pending.is_empty())
    }

    /// `(broken, closing, pending)` in one look.
    pub fn status(&self) -> (bool, bool, bool) {
        let out = self.out.lock().unwrap();
        (out.broken, out.closing, !out.pending.is_empty())
    }

    /// Sends FIN now, even while a table still holds this peer.
    pub fn shutdown(&self) {
        let _ = socket2::SockRef::from(&self.stream).shutdown(std::net::Shutdown::Both);
    }

    /// A new game begins for this player: an earlier game's end no longer counts.
    pub fn new_game(&self) {
        self.game_over.store(false, Ordering::Release);
    }

    pub fn end_game(&self) {
        self.game_over.store(true, Ordering::Release);
        self.wake.notify_one();
    }

    /// Lets this connection go: its player logged in again elsewhere.
    pub fn replace(&self) {
        self.replaced.store(true, Ordering::Release);
        self.wake.notify_one();
    }

    pub fn is_replaced(&self) -> bool {
        self.replaced.load(Ordering::Acquire)
    }

    pub fn take_game_over(&self) -> bool {
        self.game_over.swap(false, Ordering::AcqRel)
    }
}
