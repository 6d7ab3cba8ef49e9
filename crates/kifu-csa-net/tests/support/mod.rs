//! A scripted CSA client on a real socket, shared by the server's socket tests.

// Each test binary compiles this module on its own and uses only some of it.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use kifu_csa_net::server::{Config, LogTarget, Server};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

/// How long any expected line may take before the test fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(10);

/// The halves are open to tests that misbehave on purpose (raw bytes, a reader never read).
pub struct Client {
    pub rd: BufReader<OwnedReadHalf>,
    pub wr: OwnedWriteHalf,
}

impl Client {
    pub async fn connect(addr: SocketAddr) -> Client {
        Client::from(TcpStream::connect(addr).await.unwrap())
    }

    pub fn from(stream: TcpStream) -> Client {
        let (rd, wr) = stream.into_split();
        Client {
            rd: BufReader::new(rd),
            wr,
        }
    }

    pub async fn send(&mut self, line: &str) {
        self.wr
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }

    /// The next line, or `None` when the server closed the connection.
    pub async fn next_line(&mut self) -> Option<String> {
        let mut s = String::new();
        let n = tokio::time::timeout(PATIENCE, self.rd.read_line(&mut s))
            .await
            .expect("a line within 10 s")
            .unwrap();
        (n > 0).then(|| s.trim_end_matches('\n').to_owned())
    }

    /// The next line; the connection must still be open.
    pub async fn line(&mut self) -> String {
        self.next_line()
            .await
            .expect("a line, but the server closed the connection")
    }

    pub async fn lines(&mut self, n: usize) -> Vec<String> {
        let mut out = Vec::new();
        for _ in 0..n {
            out.push(self.line().await);
        }
        out
    }

    /// Every line up to and including `last`.
    pub async fn until(&mut self, last: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.line().await;
            let done = l == last;
            out.push(l);
            if done {
                return out;
            }
        }
    }

    /// Logs in and reads the summary; returns the Game_ID and `Your_Turn`.
    pub async fn login_and_summary(&mut self, name: &str, password: &str) -> (String, String) {
        self.send(&format!("LOGIN {name} {password}")).await;
        assert_eq!(self.line().await, format!("LOGIN:{name} OK"));
        let mut id = String::new();
        let mut turn = String::new();
        loop {
            let l = self.line().await;
            if let Some(v) = l.strip_prefix("Game_ID:") {
                id = v.to_owned();
            }
            if let Some(v) = l.strip_prefix("Your_Turn:") {
                turn = v.to_owned();
            }
            if l == "END Game_Summary" {
                return (id, turn);
            }
        }
    }

    /// The server tells why (an `##[ERROR] …` line) and closes; returns the reason.
    pub async fn refused(&mut self) -> String {
        let why = self.line().await;
        assert!(why.starts_with("##[ERROR] "), "{why}");
        self.closed_within(5).await;
        why
    }

    /// The server closes (or resets) without sending another byte.
    pub async fn closed_within(&mut self, secs: u64) {
        let mut rest = Vec::new();
        let r = tokio::time::timeout(Duration::from_secs(secs), self.rd.read_to_end(&mut rest))
            .await
            .expect("the server closes the connection in time");
        if r.is_ok() {
            assert_eq!(String::from_utf8_lossy(&rest), "", "nothing more is sent");
        }
    }
}

/// Logs two clients in for one game with whole `LOGIN …` lines (Black's first; an empty
/// line for a client logged in already), reads both summaries, agrees, and returns the
/// Game_ID both `START` lines name.
pub async fn start_game(
    black: &mut Client,
    white: &mut Client,
    black_login: &str,
    white_login: &str,
) -> String {
    for (client, login) in [(&mut *black, black_login), (&mut *white, white_login)] {
        if login.is_empty() {
            continue;
        }
        client.send(login).await;
        let name = login.split_whitespace().nth(1).unwrap_or_default();
        assert_eq!(client.line().await, format!("LOGIN:{name} OK"));
    }
    black.until("END Game_Summary").await;
    white.until("END Game_Summary").await;
    black.send("AGREE").await;
    white.send("AGREE").await;
    let start = black.line().await;
    assert_eq!(white.line().await, start);
    start
        .strip_prefix("START:")
        .unwrap_or_else(|| panic!("START expected, got {start}"))
        .to_owned()
}

/// Every `.csa` file below `dir` (a server's or client's record folder), in path order.
pub fn csa_records(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "csa") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A server on 127.0.0.1 (any free port); with `dir`, its records and store go there and
/// its log to `dir/server.log`.
pub fn config(dir: Option<&Path>) -> Config {
    let mut c = Config::new("127.0.0.1:0".parse().unwrap());
    if let Some(dir) = dir {
        c.data = Some(dir.to_owned());
        c.log = LogTarget::File(dir.join("server.log"));
    }
    c
}

/// Binds and runs a server on the test's runtime; its address.
pub async fn start(config: Config) -> SocketAddr {
    start_with_handle(config).await.0
}

/// [`start`], with the server's task, for tests that stop a server and start another.
pub async fn start_with_handle(
    config: Config,
) -> (SocketAddr, tokio::task::JoinHandle<std::io::Result<()>>) {
    let server = Server::bind(config).await.unwrap();
    let addr = server.local_addr().unwrap();
    (addr, tokio::spawn(server.run()))
}
