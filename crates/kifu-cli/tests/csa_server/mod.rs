//! `kifu csa-server` as a child process and a line client for it, shared by the server's
//! command-line tests.
#![allow(dead_code)] // each test file uses its own part of this

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A running `kifu csa-server`; it is killed when the guard is dropped.
pub struct ServerProcess(Child);

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl ServerProcess {
    /// Runs `cmd` (a `kifu csa-server` command line) and reads the address from its banner.
    pub fn start(mut cmd: Command) -> (ServerProcess, String) {
        let mut child = cmd.stdout(Stdio::piped()).spawn().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let server = ServerProcess(child);
        let mut banner = String::new();
        out.read_line(&mut banner).unwrap();
        let addr = banner
            .trim()
            .strip_prefix("kifu csa-server listening on ")
            .expect("the address banner")
            .to_owned();
        (server, addr)
    }

    /// The server's process id.
    pub fn id(&self) -> u32 {
        self.0.id()
    }

    /// Sends the signal `name` (`TERM`, `INT`, `KILL`) with kill(1).
    pub fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args([format!("-{name}"), self.0.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    pub fn exit_within(&mut self, patience: Duration) -> ExitStatus {
        // Real time: the server is a `kifu csa-server` process of its own, whose clock no test can
        // drive; this polls for what it does, with a deadline, and asserts no duration.
        let until = Instant::now() + patience;
        loop {
            if let Some(status) = self.0.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < until, "still running after {patience:?}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// A scripted player on a blocking socket; a line must come within 10 s.
pub struct Client {
    rd: BufReader<TcpStream>,
    wr: TcpStream,
}

impl Client {
    pub fn connect(addr: &str) -> Client {
        let s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        Client {
            rd: BufReader::new(s.try_clone().unwrap()),
            wr: s,
        }
    }

    pub fn send(&mut self, line: &str) {
        self.wr.write_all(format!("{line}\n").as_bytes()).unwrap();
    }

    pub fn line(&mut self) -> String {
        let mut s = String::new();
        self.rd.read_line(&mut s).unwrap();
        s.trim_end_matches('\n').to_owned()
    }

    /// Every line up to and including `last`.
    pub fn until(&mut self, last: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.line();
            out.push(l.clone());
            if l == last {
                return out;
            }
        }
    }
}
