//! A USI engine in a child process: `usi`, `isready`, `usinewgame`, then `position` and
//! `go` with both clocks for every move, `gameover` and `quit` at the end.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use kifu_shogi::Color;

use super::{Player, ThinkRequest};
use crate::session::{Decision, GameResult};

pub struct UsiEngine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    name: String,
    me: Color,
}

impl UsiEngine {
    /// Starts `command` (run by `sh -c`, so it may carry arguments) and waits for `usiok`.
    pub fn start(command: &str) -> Result<UsiEngine, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no engine stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no engine stdout")?);
        let mut engine = UsiEngine {
            child,
            stdin,
            stdout,
            name: command.to_owned(),
            me: Color::Black,
        };
        engine.send("usi")?;
        loop {
            let line = engine.read_line()?;
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.trim().to_owned();
            }
            if line.trim() == "usiok" {
                break;
            }
        }
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("the engine does not listen: {e}"))
    }

    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(0) => Err("the engine quit".into()),
            Ok(_) => Ok(line.trim_end().to_owned()),
            Err(e) => Err(format!("reading the engine: {e}")),
        }
    }
}

/// The `go` command for the clocks in `request`.
pub fn go_command(request: &ThinkRequest) -> String {
    // Without a time control an engine still needs a limit: a second a move.
    let Some(tc) = request.time else {
        return "go btime 0 wtime 0 byoyomi 1000".into();
    };
    let left = |c: Color| request.clocks.remaining_ms[c.index()].unwrap_or(0);
    let mut go = format!(
        "go btime {} wtime {}",
        left(Color::Black),
        left(Color::White)
    );
    if tc.increment_ms > 0 {
        go.push_str(&format!(
            " binc {} winc {}",
            tc.increment_ms, tc.increment_ms
        ));
    } else {
        go.push_str(&format!(" byoyomi {}", tc.byoyomi_ms));
    }
    go
}

/// `position` for the request: the set-up position and the moves since.
pub fn position_command(request: &ThinkRequest) -> String {
    let mut cmd = if request.start == kifu_shogi::Position::startpos() {
        "position startpos".to_owned()
    } else {
        format!("position sfen {}", request.start.to_sfen())
    };
    if !request.moves.is_empty() {
        cmd.push_str(" moves");
        for m in &request.moves {
            cmd.push(' ');
            cmd.push_str(&m.usi());
        }
    }
    cmd
}

impl Player for UsiEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, me: Color) -> Result<(), String> {
        self.me = me;
        self.send("isready")?;
        while self.read_line()?.trim() != "readyok" {}
        self.send("usinewgame")
    }

    fn think(&mut self, request: &ThinkRequest) -> Result<Decision, String> {
        self.send(&position_command(request))?;
        self.send(&go_command(request))?;
        loop {
            let line = self.read_line()?;
            let Some(rest) = line.strip_prefix("bestmove ") else {
                continue;
            };
            let best = rest.split_whitespace().next().unwrap_or("");
            return match best {
                "resign" => Ok(Decision::Resign),
                "win" => Ok(Decision::DeclareWin),
                text => request
                    .position
                    .parse_usi_move(text)
                    .map(Decision::Move)
                    .map_err(|e| format!("the engine's bestmove is not legal: {e}")),
            };
        }
    }

    fn game_over(&mut self, result: Option<GameResult>) {
        let word = match result {
            Some(GameResult::Win(c)) if c == self.me => "win",
            Some(GameResult::Win(_)) => "lose",
            Some(GameResult::Draw) => "draw",
            None => "draw",
        };
        let _ = self.send(&format!("gameover {word}"));
        let _ = self.send("quit");
    }
}

impl Drop for UsiEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // Give it a moment to leave by itself, then make sure it is gone.
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
