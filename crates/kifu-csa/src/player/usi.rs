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
    options: Vec<(String, String)>,
    /// The ply at which the engine last answered `bestmove win`: asked again at the same
    /// ply means the declaration was refused, and asking once more would loop forever.
    declared_at: Option<usize>,
}

impl UsiEngine {
    /// Starts `command` (run by `sh -c`, so it may carry arguments) and waits for `usiok`.
    pub fn start(command: &str) -> Result<UsiEngine, String> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        // The operator's Ctrl-C is meant for kifu (which interrupts and saves the game),
        // not for the engine: keep it out of the terminal's foreground process group.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
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
            options: Vec::new(),
            declared_at: None,
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

    /// Options sent with `setoption` before every game (e.g. `Threads`, `Hash`).
    pub fn set_options(&mut self, options: &[(String, String)]) {
        self.options = options.to_vec();
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
        self.declared_at = None;
        for (name, value) in self.options.clone() {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
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
            let ply = request.moves.len();
            return match best {
                "resign" => Ok(Decision::Resign),
                "win" if self.declared_at == Some(ply) => Err(
                    "the engine declared a win (bestmove win) again after the 27-point rule refused it"
                        .into(),
                ),
                "win" => {
                    self.declared_at = Some(ply);
                    Ok(Decision::DeclareWin)
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_record::TimeControl;
    use kifu_shogi::Position;

    fn request(moves: &[&str], time: Option<TimeControl>) -> ThinkRequest {
        let start = Position::startpos();
        let mut position = start.clone();
        let mut played = Vec::new();
        for m in moves {
            let mv = position.parse_usi_move(m).unwrap();
            position.play_unchecked(mv);
            played.push(mv);
        }
        let times = vec![1_000; played.len()];
        ThinkRequest {
            clocks: crate::clock::clocks(time, Color::Black, &times),
            start,
            moves: played,
            position,
            time,
            relay: false,
        }
    }

    #[test]
    fn position_and_go_carry_the_game_and_the_clocks() {
        let tc = TimeControl {
            initial_ms: 60_000,
            byoyomi_ms: 10_000,
            increment_ms: 0,
        };
        let r = request(&["7g7f", "3c3d", "8h2b+"], Some(tc));
        assert_eq!(
            position_command(&r),
            "position startpos moves 7g7f 3c3d 8h2b+"
        );
        assert_eq!(go_command(&r), "go btime 58000 wtime 59000 byoyomi 10000");
        let fischer = TimeControl {
            increment_ms: 2_000,
            ..tc
        };
        let r = request(&["7g7f"], Some(fischer));
        assert_eq!(
            go_command(&r),
            "go btime 61000 wtime 60000 binc 2000 winc 2000"
        );
        let mut r = request(&[], None);
        r.start = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap();
        assert_eq!(
            position_command(&r),
            "position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1"
        );
        assert_eq!(go_command(&r), "go btime 0 wtime 0 byoyomi 1000");
    }

    /// A scripted engine in a real child process, logging what it was told.
    #[test]
    fn a_scripted_engine_plays_and_resigns() {
        let dir = std::env::temp_dir().join(format!("kifu-csa-usi-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("told.txt");
        let script = format!(
            "while read -r cmd rest; do echo \"$cmd $rest\" >> '{}'; case \"$cmd\" in \
             usi) echo 'id name scripted 1.0'; echo usiok;; \
             isready) echo readyok;; \
             go) if [ -e '{}' ]; then echo 'bestmove resign'; else touch '{}'; echo 'info depth 1 score cp 0'; echo 'bestmove 3c3d'; fi;; \
             quit) exit 0;; esac; done",
            log.display(),
            dir.join("moved").display(),
            dir.join("moved").display(),
        );
        let _ = std::fs::remove_file(dir.join("moved"));
        let _ = std::fs::remove_file(&log);
        let mut engine = UsiEngine::start(&script).unwrap();
        assert_eq!(engine.name(), "scripted 1.0");
        engine.new_game(Color::White).unwrap();
        let r = request(&["7g7f"], None);
        let d = engine.think(&r).unwrap();
        assert!(matches!(d, Decision::Move(m) if m.usi() == "3c3d"));
        assert_eq!(engine.think(&r).unwrap(), Decision::Resign);
        engine.game_over(Some(GameResult::Win(Color::Black)));
        drop(engine);
        let told = std::fs::read_to_string(&log).unwrap();
        assert!(told.contains("usinewgame"), "{told}");
        assert!(told.contains("position startpos moves 7g7f"), "{told}");
        assert!(told.contains("gameover lose"), "{told}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn options_are_set_and_a_refused_win_is_not_asked_for_again() {
        let dir = std::env::temp_dir().join(format!("kifu-csa-usi-win-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("told.txt");
        let _ = std::fs::remove_file(&log);
        let script = format!(
            "while read -r cmd rest; do echo \"$cmd $rest\" >> '{}'; case \"$cmd\" in \
             usi) echo usiok;; isready) echo readyok;; go) echo 'bestmove win';; \
             quit) exit 0;; esac; done",
            log.display()
        );
        let mut engine = UsiEngine::start(&script).unwrap();
        engine.set_options(&[("Threads".into(), "1".into()), ("Hash".into(), "16".into())]);
        engine.new_game(Color::Black).unwrap();
        let r = request(&[], None);
        assert_eq!(engine.think(&r).unwrap(), Decision::DeclareWin);
        let err = engine.think(&r).unwrap_err();
        assert!(err.contains("bestmove win"), "{err}");
        // A later ply is a new question.
        let r = request(&["7g7f", "3c3d"], None);
        assert_eq!(engine.think(&r).unwrap(), Decision::DeclareWin);
        drop(engine);
        let told = std::fs::read_to_string(&log).unwrap();
        let set = told.find("setoption name Threads value 1").expect(&told);
        assert!(told.contains("setoption name Hash value 16"), "{told}");
        assert!(set < told.find("isready").unwrap(), "{told}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_illegal_bestmove_is_an_error() {
        let script = "while read -r cmd rest; do case \"$cmd\" in usi) echo usiok;; \
                      isready) echo readyok;; go) echo 'bestmove 7g7e';; quit) exit 0;; esac; done";
        let mut engine = UsiEngine::start(script).unwrap();
        engine.new_game(Color::Black).unwrap();
        let err = engine.think(&request(&[], None)).unwrap_err();
        assert!(err.contains("not legal"), "{err}");
        assert!(UsiEngine::start("exit 0").is_err());
    }
}
