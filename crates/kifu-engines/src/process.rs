//! A USI engine process on tokio: the conversation itself is
//! [`kifu_csa::usi::EngineProtocol`] (shared with `kifu link`); this layer starts the
//! process, writes the lines the protocol queues, feeds it the engine's lines, bounds the
//! waits for `usiok` and `readyok`, and can log every line both ways to a file.
//!
//! `kifu csa-client`'s bridge and `kifu match` both drive their engines through it (it lived
//! in `kifu-csa-net`'s client until `kifu match` needed it too).

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use std::fs::File;
use std::io::Write;

use kifu_csa::usi::{EngineEvent, EngineProtocol, UsiStateError};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

pub use kifu_csa::usi::Thought;

/// A USI engine in a child process, driven through its [`EngineProtocol`].
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    usi: EngineProtocol,
    log: Option<UsiLog>,
}

/// A transcript of the engine's conversation: `> ` lines went to the engine, `< ` lines
/// came from it, each after the milliseconds since the engine started.
struct UsiLog {
    file: File,
    start: Instant,
}

impl UsiLog {
    /// One short unbuffered write per line, so the log is complete even if the bridge dies.
    fn write(&mut self, arrow: char, line: &str) {
        let ms = self.start.elapsed().as_millis();
        // A log that cannot be written must not stop a game.
        let _ = self
            .file
            .write_all(format!("{ms} {arrow} {line}\n").as_bytes());
    }
}

/// Why the engine could not go on.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The process did not start.
    #[error("the engine could not be started: {0}")]
    Spawn(std::io::Error),
    /// The USI log file could not be opened.
    #[error("the USI log cannot be written: {0}")]
    Log(std::io::Error),
    /// The engine closed its output (it quit or died).
    #[error("the engine closed its output")]
    Closed,
    /// The engine did not answer `usi` or `isready` in time.
    #[error("the engine did not answer `{0}` in time")]
    Timeout(&'static str),
    /// Reading or writing the pipes failed.
    #[error("engine I/O: {0}")]
    Io(#[from] std::io::Error),
    /// A command the conversation did not allow.
    #[error(transparent)]
    State(#[from] UsiStateError),
}

impl Engine {
    /// Starts `command` (split on whitespace: program then arguments) and runs the
    /// `usi`/`usiok` handshake, the options, then `isready`/`readyok`.
    ///
    /// `USI_Ponder` is set to `ponder`; an engine that announces an option named `Ponder`
    /// instead gets that set too. `log` receives the whole conversation.
    pub async fn start(
        command: &str,
        options: &[(String, String)],
        ponder: bool,
        log: Option<&Path>,
    ) -> Result<Engine, EngineError> {
        let mut parts = command.split_whitespace();
        let program = parts.next().unwrap_or_default();
        let mut command = Command::new(program);
        command
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        // A process group of its own: Ctrl-C at a terminal signals the whole foreground
        // group, and an engine killed by it would look like a crash to the game it plays,
        // while the caller means to stop cleanly (and quits its engines itself).
        #[cfg(unix)]
        command.process_group(0);
        let mut child = command.spawn().map_err(EngineError::Spawn)?;
        let stdin = child.stdin.take().ok_or(EngineError::Closed)?;
        let stdout = BufReader::new(child.stdout.take().ok_or(EngineError::Closed)?).lines();
        let log = match log {
            Some(path) => Some(UsiLog {
                // Appended to, so that a restarted engine's conversation follows the first.
                file: File::options()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(EngineError::Log)?,
                start: Instant::now(),
            }),
            None => None,
        };
        let mut engine = Engine {
            child,
            stdin,
            stdout,
            usi: EngineProtocol::new(),
            log,
        };
        engine.usi.usi();
        engine.flush().await?;
        engine
            .wait_for(EngineEvent::UsiOk, "usiok", Duration::from_secs(30))
            .await?;
        let flag = if ponder { "true" } else { "false" };
        engine.usi.set_option("USI_Ponder", flag);
        if ponder && engine.usi.has_option("Ponder") {
            engine.usi.set_option("Ponder", flag);
        }
        for (name, value) in options {
            engine.usi.set_option(name, value);
        }
        engine.ready().await?;
        Ok(engine)
    }

    /// The conversation, to queue commands on (sent by [`Engine::flush`]) and to see what
    /// the engine is searching.
    pub fn protocol(&mut self) -> &mut EngineProtocol {
        &mut self.usi
    }

    /// Whether the engine announced an option of this name.
    pub fn has_option(&self, name: &str) -> bool {
        self.usi.has_option(name)
    }

    /// Sends the lines the protocol queued.
    pub async fn flush(&mut self) -> Result<(), EngineError> {
        let lines = self.usi.outgoing();
        if lines.is_empty() {
            return Ok(());
        }
        let mut bytes = Vec::new();
        for line in &lines {
            if let Some(log) = &mut self.log {
                log.write('>', line);
            }
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        self.stdin.write_all(&bytes).await?;
        self.stdin.flush().await?;
        Ok(())
    }

    /// `isready`, then waits (a minute at most) for `readyok`.
    pub async fn ready(&mut self) -> Result<(), EngineError> {
        self.usi.is_ready();
        self.flush().await?;
        self.wait_for(EngineEvent::ReadyOk, "readyok", Duration::from_secs(60))
            .await
    }

    async fn wait_for(
        &mut self,
        wanted: EngineEvent,
        token: &'static str,
        limit: Duration,
    ) -> Result<(), EngineError> {
        let wait = async {
            loop {
                if self.next_event().await? == Some(wanted.clone()) {
                    return Ok(());
                }
            }
        };
        tokio::time::timeout(limit, wait)
            .await
            .map_err(|_| EngineError::Timeout(token))?
    }

    /// Reads one line of engine output and gives it to the protocol: `Some` when it meant
    /// something (cancel-safe, for use in `select!`: the line is handled once read).
    pub async fn next_event(&mut self) -> Result<Option<EngineEvent>, EngineError> {
        Ok(self.next_line().await?.1)
    }

    /// [`Engine::next_event`] with the line itself, for a caller that judges lines the
    /// protocol ignores (a match runner that forfeits an engine talking garbage).
    pub async fn next_line(&mut self) -> Result<(String, Option<EngineEvent>), EngineError> {
        let line = self.stdout.next_line().await?.ok_or(EngineError::Closed)?;
        if let Some(log) = &mut self.log {
            log.write('<', &line);
        }
        let event = self.usi.receive(&line);
        Ok((line, event))
    }

    /// The process id, while the process runs.
    pub fn id(&self) -> Option<u32> {
        self.child.id()
    }

    /// Kills the process and waits for it, so that its CPU time is counted among this
    /// process's children and no zombie is left (for an engine that hung or talked garbage).
    pub async fn kill(mut self) {
        let _ = self.child.kill().await;
    }

    /// Ends whatever the engine searches and waits (five seconds at most) for the
    /// `bestmove` USI owes, so that it is not taken for the answer to a later `go`.
    pub async fn stop(&mut self) {
        if !self.usi.stop() {
            return;
        }
        let _ = self.flush().await;
        let _ = tokio::time::timeout(Duration::from_secs(5), async {
            while self.usi.is_searching() {
                if self.next_event().await.is_err() {
                    break;
                }
            }
        })
        .await;
    }

    /// `quit`, and a moment (two seconds) for the process to leave; then it is killed and
    /// waited for.
    pub async fn quit(mut self) {
        self.usi.quit();
        let _ = self.flush().await;
        if tokio::time::timeout(Duration::from_secs(2), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}
