//! A USI engine process: the handshake, positions, `go`, and the last `info` before
//! `bestmove` (score and principal variation, for floodgate-style comments, and the
//! expected reply to ponder on). Every line both ways can be logged to a file.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use std::fs::File;
use std::io::Write;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// What the engine said for one `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thought {
    /// `7g7f`, `resign` or `win`.
    pub bestmove: String,
    /// `score cp N`, or ±100000 for `score mate`, from the engine's side.
    pub score: Option<i64>,
    pub pv: Vec<String>,
    /// The reply the engine expects (`bestmove … ponder <move>`, else the PV's second move).
    pub ponder: Option<String>,
}

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    /// The option names the engine announced between `usi` and `usiok`.
    options: Vec<String>,
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

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("the engine could not be started: {0}")]
    Spawn(std::io::Error),
    #[error("the USI log cannot be written: {0}")]
    Log(std::io::Error),
    #[error("the engine closed its output")]
    Closed,
    #[error("the engine did not answer `{0}` in time")]
    Timeout(&'static str),
    #[error("engine I/O: {0}")]
    Io(#[from] std::io::Error),
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
        let mut child = Command::new(program)
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(EngineError::Spawn)?;
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
            options: Vec::new(),
            log,
        };
        engine.send("usi").await?;
        engine.wait_for("usiok", Duration::from_secs(30)).await?;
        let mut settings: Vec<(String, String)> = Vec::new();
        let flag = if ponder { "true" } else { "false" };
        settings.push(("USI_Ponder".to_owned(), flag.to_owned()));
        if ponder && engine.has_option("Ponder") {
            settings.push(("Ponder".to_owned(), flag.to_owned()));
        }
        settings.extend(options.iter().cloned());
        for (name, value) in settings {
            engine
                .send(&format!("setoption name {name} value {value}"))
                .await?;
        }
        engine.ready().await?;
        Ok(engine)
    }

    /// Whether the engine announced an option of this name.
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o == name)
    }

    pub async fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(log) = &mut self.log {
            log.write('>', line);
        }
        self.stdin.write_all(line.as_bytes()).await?;
        self.stdin.write_all(b"\n").await?;
        self.stdin.flush().await?;
        Ok(())
    }

    pub async fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready").await?;
        self.wait_for("readyok", Duration::from_secs(60)).await
    }

    async fn wait_for(&mut self, token: &'static str, limit: Duration) -> Result<(), EngineError> {
        let wait = async {
            loop {
                let line = self.next_line().await?;
                let words: Vec<&str> = line.split_whitespace().collect();
                match words.as_slice() {
                    [t] if *t == token => return Ok(()),
                    ["option", "name", name, ..] => self.options.push((*name).to_owned()),
                    _ => {}
                }
            }
        };
        tokio::time::timeout(limit, wait)
            .await
            .map_err(|_| EngineError::Timeout(token))?
    }

    /// One line of engine output (cancel-safe, for use in `select!`).
    pub async fn next_line(&mut self) -> Result<String, EngineError> {
        let line = self.stdout.next_line().await?.ok_or(EngineError::Closed)?;
        if let Some(log) = &mut self.log {
            log.write('<', &line);
        }
        Ok(line)
    }

    pub async fn quit(mut self) {
        let _ = self.send("quit").await;
        let _ = tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await;
    }
}

/// Folds one line of engine output into `thought`; `true` once `bestmove` arrived.
pub fn absorb(thought: &mut Thought, line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.first().copied() {
        Some("bestmove") => {
            thought.bestmove = words.get(1).copied().unwrap_or("resign").to_owned();
            thought.ponder = match words.get(2..4) {
                Some(["ponder", reply]) => Some((*reply).to_owned()),
                _ => match thought.pv.as_slice() {
                    [first, reply, ..] if *first == thought.bestmove => Some(reply.clone()),
                    _ => None,
                },
            };
            true
        }
        Some("info") => {
            let mut i = 1;
            while i < words.len() {
                match words[i] {
                    "score" if i + 2 < words.len() => {
                        let n = words[i + 2].trim_start_matches('+');
                        thought.score = match words[i + 1] {
                            "cp" => n.parse().ok(),
                            "mate" if n.starts_with('-') => Some(-100_000),
                            "mate" => Some(100_000),
                            _ => thought.score,
                        };
                        i += 3;
                    }
                    "pv" => {
                        thought.pv = words[i + 1..].iter().map(|s| (*s).to_owned()).collect();
                        break;
                    }
                    _ => i += 1,
                }
            }
            false
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_and_bestmove() {
        let mut t = Thought::default();
        assert!(!absorb(
            &mut t,
            "info depth 10 seldepth 12 score cp -35 nodes 1000 pv 7g7f 3c3d 2g2f"
        ));
        assert_eq!(t.score, Some(-35));
        assert_eq!(t.pv, ["7g7f", "3c3d", "2g2f"]);
        assert!(!absorb(&mut t, "info score mate -3 pv 8h2b+"));
        assert_eq!(t.score, Some(-100_000));
        assert!(!absorb(&mut t, "info string hello"));
        assert!(absorb(&mut t, "bestmove 7g7f ponder 3c3d"));
        assert_eq!(t.bestmove, "7g7f");
        assert_eq!(t.ponder.as_deref(), Some("3c3d"));
        assert!(absorb(&mut t, "bestmove"));
        assert_eq!(t.bestmove, "resign");
        assert_eq!(t.ponder, None);
    }

    #[test]
    fn the_expected_reply_falls_back_on_the_pv() {
        let mut t = Thought::default();
        absorb(&mut t, "info depth 3 score cp 12 pv 2g2f 8c8d 2f2e");
        assert!(absorb(&mut t, "bestmove 2g2f"));
        assert_eq!(t.ponder.as_deref(), Some("8c8d"));
        // A PV that does not start with the best move says nothing about the reply.
        absorb(&mut t, "info depth 4 score cp 12 pv 7g7f 3c3d");
        assert!(absorb(&mut t, "bestmove 2g2f"));
        assert_eq!(t.ponder, None);
    }
}
