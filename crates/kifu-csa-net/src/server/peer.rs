//! One connected client as the rest of the server sees it: a socket any task may write
//! lines to, without a hop through another task.
//!
//! A line is written straight to the socket by whichever task produces it (the opponent's
//! reader relaying a move, the game's timer); only what the kernel does not take at once is
//! queued, and the connection's own task flushes the queue when the socket is writable.
//! The queue is bounded: a client that does not read is cut off when it overflows. Lines
//! that fan out from other players (chat, `%%MONITOR2` relays) are dropped long before
//! that, with a note once the client reads again, so no crowd of chatters can cost a
//! player its game.

use std::io;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::net::TcpStream;
use tokio::sync::Notify;

/// Bytes queued for a client that does not read; beyond this it is cut off. A summary is
/// about 1 KiB, a move line 20 bytes: this is thousands of unread lines.
pub const OUT_LIMIT: usize = 64 * 1024;

/// Bytes queued beyond which a fanned-out line (chat, a watched game's move) is dropped
/// rather than queued: a quarter of [`OUT_LIMIT`], so the game's own lines always have the
/// rest.
pub const FAN_OUT_LIMIT: usize = OUT_LIMIT / 4;

#[derive(Default)]
struct Outgoing {
    pending: Vec<u8>,
    /// No more lines are taken; the owner shuts the socket once `pending` is out.
    closing: bool,
    /// The queue overflowed or the socket failed: the owner cuts the client off.
    broken: bool,
    /// Fanned-out lines dropped since the client last caught up.
    dropped: u64,
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
    /// Logged in with x1: a rejected game sends it back to the lobby, connected.
    x1: AtomicBool,
}

impl Peer {
    pub fn new(stream: TcpStream) -> Peer {
        Peer {
            stream,
            out: Mutex::new(Outgoing::default()),
            wake: Notify::new(),
            game_over: AtomicBool::new(false),
            replaced: AtomicBool::new(false),
            x1: AtomicBool::new(false),
        }
    }

    pub fn set_x1(&self) {
        self.x1.store(true, Ordering::Release);
    }

    pub fn is_x1(&self) -> bool {
        self.x1.load(Ordering::Acquire)
    }

    /// Sends a line that fans out from someone else (chat, a watched game): dropped, and
    /// counted for a note, while more than [`FAN_OUT_LIMIT`] bytes wait for this client.
    pub fn send_fan_out<'a>(&self, lines: impl IntoIterator<Item = &'a str>) {
        {
            let mut out = self.out.lock().unwrap();
            if out.pending.len() > FAN_OUT_LIMIT {
                out.dropped += lines.into_iter().count() as u64;
                return;
            }
        }
        self.send_all(lines);
    }

    /// After the queue has drained: tells the client how many fanned-out lines it missed.
    fn note_dropped(&self, out: &mut Outgoing) {
        if out.dropped == 0 || !out.pending.is_empty() || out.closing || out.broken {
            return;
        }
        let n = std::mem::take(&mut out.dropped);
        let note = format!(
            "##[CHAT][(server)] {n} line(s) of chat or of a watched game were dropped: they came faster than you read\n"
        );
        out.pending.extend_from_slice(note.as_bytes());
        self.write_now(out);
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
            self.note_dropped(&mut out);
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

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt as _;

    #[tokio::test]
    async fn fanned_out_lines_are_dropped_for_a_client_that_does_not_read_with_a_note_later() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap())
            .await
            .unwrap();
        let (server, _) = listener.accept().await.unwrap();
        let peer = Peer::new(server);
        let chat = "c".repeat(1000);
        // The client does not read: the kernel's buffers fill, then the queue, then chat
        // is dropped (bounded: the kernel holds a few MiB at most).
        let mut sent = 0;
        while peer.out.lock().unwrap().dropped == 0 {
            peer.send_fan_out([chat.as_str()]);
            sent += 1;
            assert!(sent < 100_000, "nothing was ever dropped");
        }
        for _ in 0..100 {
            peer.send_fan_out([chat.as_str()]);
        }
        let (broken, _, pending) = peer.status();
        assert!(!broken && pending);
        assert!(peer.out.lock().unwrap().pending.len() <= FAN_OUT_LIMIT + 1001);
        // A line of the game still goes, past the share chat may take.
        assert!(peer.send("+7776FU,T1"));
        // The client reads everything; the owner flushes as the socket takes it.
        let reader = tokio::spawn(async move {
            let mut all = Vec::new();
            let mut buf = vec![0u8; 1 << 16];
            loop {
                let n = client.read(&mut buf).await.unwrap();
                all.extend_from_slice(&buf[..n]);
                if all.ends_with(b"they came faster than you read\n") {
                    return String::from_utf8(all).unwrap();
                }
            }
        });
        while !peer.flush().unwrap() {
            peer.stream.writable().await.unwrap();
        }
        let text = tokio::time::timeout(std::time::Duration::from_secs(10), reader)
            .await
            .unwrap()
            .unwrap();
        let last: Vec<&str> = text.lines().rev().take(2).collect();
        assert_eq!(last[1], "+7776FU,T1");
        assert!(
            last[0].starts_with("##[CHAT][(server)] ") && last[0].contains(" were dropped"),
            "{}",
            last[0]
        );
    }
}
