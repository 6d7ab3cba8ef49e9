//! Shared by the `kifu link` tests: running `kifu` processes with a time limit, watching
//! their messages, and reading the records they write back with kifu's CSA reader.
#![allow(dead_code)]

use kifu_shogi::ShogiEnding;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use kifu_record::{EndingKind, NodeItem};
use kifu_records::shogi::csa;

pub const LIMIT: Duration = Duration::from_secs(60);

/// A fresh directory for one test's files.
pub fn workdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("link-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// A running `kifu link` (or any process) whose stderr is collected line by line.
pub struct Proc {
    pub child: Child,
    lines: Receiver<String>,
    pub seen: Vec<String>,
    name: String,
}

pub fn kifu(name: &str, args: &[&str], stdin: Option<&str>) -> Proc {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifu"));
    cmd.arg("link")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    spawn(name, cmd, stdin)
}

pub fn spawn(name: &str, mut cmd: Command, stdin: Option<&str>) -> Proc {
    // A command set up with pipes of its own (stdio lines) keeps them.
    if stdin.is_some() {
        cmd.stdin(Stdio::piped());
    }
    cmd.stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start the process");
    if let Some(text) = stdin {
        let mut input = child.stdin.take().unwrap();
        input.write_all(text.as_bytes()).unwrap();
    }
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    Proc {
        child,
        lines: rx,
        seen: Vec::new(),
        name: name.to_owned(),
    }
}

impl Proc {
    /// The next line on stderr, or `None` when the process closed it or `until` passed.
    pub fn next_line(&mut self, until: Instant) -> Option<String> {
        let left = until.saturating_duration_since(Instant::now());
        let line = self.lines.recv_timeout(left).ok()?;
        self.seen.push(line.clone());
        Some(line)
    }

    /// Waits for a line containing `text` and returns it.
    pub fn wait_for(&mut self, text: &str) -> String {
        let deadline = Instant::now() + LIMIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(text) {
                        return line;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!(
                        "{}: no line with `{text}` in time; saw:\n{}",
                        self.name,
                        self.seen.join("\n")
                    );
                }
            }
        }
    }

    /// Waits for the process to end (killing it after the limit) and returns its status and
    /// everything it wrote on stderr.
    pub fn finish(mut self) -> (ExitStatus, String) {
        let deadline = Instant::now() + LIMIT;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                while let Ok(line) = self.lines.try_recv() {
                    self.seen.push(line);
                }
                panic!(
                    "{} did not finish in time; saw:\n{}",
                    self.name,
                    self.seen.join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // The reader thread ends with the pipe.
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(line);
        }
        let log = self.seen.join("\n");
        // Whatever went wrong on the line, kifu reports it; a panic is a bug.
        assert!(!log.contains("panicked"), "{}: {log}", self.name);
        (status, log)
    }
}

/// The port a `tcp-listen:0` side reports.
pub fn listening_port(p: &mut Proc) -> String {
    let line = p.wait_for("listening on ");
    let addr = line
        .split("listening on ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap();
    addr.rsplit(':').next().unwrap().to_owned()
}

/// A record read back with kifu's own CSA reader: moves (CSA), times and the ending.
pub struct Read {
    /// The position after the last move, with its history (for mate and repetition checks).
    pub position: kifu_shogi::Position,
    pub moves: Vec<String>,
    pub times_ms: Vec<u64>,
    pub ending: Option<EndingKind<ShogiEnding>>,
    pub text: String,
}

pub fn read_record(path: &Path) -> Read {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let parsed = csa::read(&text);
    assert!(!parsed.has_errors(), "{:?}\n{text}", parsed.diagnostics);
    let record = &parsed.records[0];
    let mut pos = record.start.position.clone();
    let mut out = Read {
        position: pos.clone(),
        moves: Vec::new(),
        times_ms: Vec::new(),
        ending: None,
        text: text.clone(),
    };
    for id in record.moves.main_line() {
        let node = &record.moves[id];
        match &node.item {
            NodeItem::Move(mv) => {
                out.moves
                    .push(kifu_csa::CsaMove::from_move(&pos, *mv).to_string());
                out.times_ms
                    .push(node.time_ms().expect("every move has a time"));
                pos.play_unchecked(*mv);
            }
            NodeItem::End(kind) => out.ending = Some(kind.clone()),
            NodeItem::Start => {}
        }
    }
    out.position = pos;
    out
}

/// One side's exit code, messages and record.
pub type Outcome = (i32, String, Read);
/// Black's and White's outcomes.
pub type Game = (Outcome, Outcome);

/// Both sides' records agree on the moves and the ending.
pub fn assert_same_game(a: &Read, b: &Read) {
    assert_eq!(a.moves, b.moves, "{}\n---\n{}", a.text, b.text);
    assert_eq!(a.ending, b.ending, "{}\n---\n{}", a.text, b.text);
}

/// A pseudo-terminal pair made by `socat -d -d pty,raw,echo=0 pty,raw,echo=0`: the socat
/// process and the two device paths, each to be opened as a serial line.
pub fn pty_pair() -> (Proc, String, String) {
    let mut cmd = Command::new(kifu_testkit::socat());
    cmd.args(["-d", "-d", "pty,raw,echo=0", "pty,raw,echo=0"]);
    let mut socat = spawn("socat", cmd, None);
    let a = socat.wait_for("PTY is ");
    let b = socat.wait_for("PTY is ");
    // Data flows only once socat has both ends open.
    socat.wait_for("starting data transfer loop");
    let path = |line: &str| line.rsplit("PTY is ").next().unwrap().trim().to_owned();
    (socat, path(&a), path(&b))
}
