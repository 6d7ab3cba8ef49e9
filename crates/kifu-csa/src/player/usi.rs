//! A USI engine in a child process, blocking: the conversation itself is
//! [`crate::usi::EngineProtocol`]; this layer starts the process, writes the lines the
//! protocol queues and reads the engine's lines until the event awaited: `usi`, `isready`,
//! `usinewgame`, then `position` and `go` with both clocks for every move, `gameover` and
//! `quit` at the end.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use kifu_shogi::Color;

use super::{Player, PlayerError, ThinkRequest};
use crate::session::{Decision, GameResult};
use crate::usi::{
    BestMove, EngineEvent, EngineProtocol, GameOver, IllegalBestMove, PositionCommand,
    UsiStateError, line_go_times,
};

/// Why a USI engine could not play.
#[derive(Debug, thiserror::Error)]
pub enum UsiEngineError {
    /// The command could not be started.
    #[error("cannot start `{command}`: {source}")]
    Spawn {
        /// The command line, as given.
        command: String,
        /// Why it did not start.
        source: std::io::Error,
    },
    /// Writing to the engine failed (it has probably died).
    #[error("the engine does not listen: {0}")]
    NotListening(std::io::Error),
    /// The engine closed its output.
    #[error("the engine quit")]
    Quit,
    /// Reading the engine's output failed.
    #[error("reading the engine: {0}")]
    Read(std::io::Error),
    /// The engine declared a win again at the same ply, after the declaration was refused:
    /// asking once more would loop forever.
    #[error("the engine declared a win (bestmove win) again after the 27-point rule refused it")]
    RepeatedWin,
    /// The engine's `bestmove` is no legal move.
    #[error(transparent)]
    IllegalBestMove(#[from] IllegalBestMove),
    /// A command the conversation did not allow.
    #[error(transparent)]
    State(#[from] UsiStateError),
}

/// A USI engine in a child process, a [`Player`] for `kifu link`.
pub struct UsiEngine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    usi: EngineProtocol,
    command: String,
    me: Color,
    options: Vec<(String, String)>,
    /// The ply at which the engine last answered `bestmove win`: asked again at the same
    /// ply means the declaration was refused, and asking once more would loop forever.
    declared_at: Option<usize>,
}

impl UsiEngine {
    /// Starts `command` (run by `sh -c`, so it may carry arguments) and waits for `usiok`.
    pub fn start(command: &str) -> Result<UsiEngine, UsiEngineError> {
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
        let spawn_error = |source| UsiEngineError::Spawn {
            command: command.to_owned(),
            source,
        };
        let mut child = cmd.spawn().map_err(spawn_error)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(spawn_error(std::io::Error::other("no pipes to the engine")));
        };
        let mut engine = UsiEngine {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            usi: EngineProtocol::new(),
            command: command.to_owned(),
            me: Color::Black,
            options: Vec::new(),
            declared_at: None,
        };
        engine.usi.usi();
        engine.flush()?;
        engine.wait_for(|e| *e == EngineEvent::UsiOk)?;
        Ok(engine)
    }

    /// Options sent with `setoption` before every game (e.g. `Threads`, `Hash`).
    pub fn set_options(&mut self, options: &[(String, String)]) {
        self.options = options.to_vec();
    }

    /// Writes the lines the protocol queued.
    fn flush(&mut self) -> Result<(), UsiEngineError> {
        for line in self.usi.outgoing() {
            writeln!(self.stdin, "{line}").map_err(UsiEngineError::NotListening)?;
        }
        self.stdin.flush().map_err(UsiEngineError::NotListening)
    }

    /// Reads the engine's lines until an event `wanted` accepts.
    fn wait_for(
        &mut self,
        wanted: impl Fn(&EngineEvent) -> bool,
    ) -> Result<EngineEvent, UsiEngineError> {
        loop {
            let mut line = String::new();
            match self.stdout.read_line(&mut line) {
                Ok(0) => return Err(UsiEngineError::Quit),
                Ok(_) => {}
                Err(e) => return Err(UsiEngineError::Read(e)),
            }
            if let Some(event) = self.usi.receive(line.trim_end())
                && wanted(&event)
            {
                return Ok(event);
            }
        }
    }
}

impl Player for UsiEngine {
    fn name(&self) -> String {
        self.usi.name().unwrap_or(&self.command).to_owned()
    }

    fn new_game(&mut self, me: Color) -> Result<(), PlayerError> {
        self.me = me;
        self.declared_at = None;
        for (name, value) in &self.options {
            self.usi.set_option(name, value);
        }
        self.usi.is_ready();
        self.flush()?;
        self.wait_for(|e| *e == EngineEvent::ReadyOk)?;
        self.usi.new_game();
        Ok(self.flush()?)
    }

    fn think(&mut self, request: &ThinkRequest) -> Result<Decision, PlayerError> {
        let position = PositionCommand::from_game(&request.start, &request.moves);
        let times = line_go_times(request.time, &request.clocks);
        self.usi
            .go(&position, &times)
            .map_err(UsiEngineError::from)?;
        self.flush()?;
        let EngineEvent::BestMove(thought) =
            self.wait_for(|e| matches!(e, EngineEvent::BestMove(_)))?
        else {
            unreachable!("wait_for returns only the event it waits for")
        };
        let ply = request.moves.len();
        let best = thought
            .best(&request.position)
            .map_err(UsiEngineError::from)?;
        Ok(match best {
            BestMove::Resign => Decision::Resign,
            BestMove::Win if self.declared_at == Some(ply) => {
                return Err(UsiEngineError::RepeatedWin.into());
            }
            BestMove::Win => {
                self.declared_at = Some(ply);
                Decision::DeclareWin
            }
            BestMove::Move(mv) => Decision::Move(mv),
        })
    }

    fn game_over(&mut self, result: Option<GameResult>) {
        let word = match result {
            Some(GameResult::Win(c)) if c == self.me => GameOver::Win,
            Some(GameResult::Win(_)) => GameOver::Lose,
            Some(GameResult::Draw) | None => GameOver::Draw,
        };
        self.usi.game_over(word);
        self.usi.quit();
        let _ = self.flush();
    }
}

impl Drop for UsiEngine {
    fn drop(&mut self) {
        self.usi.quit();
        let _ = self.flush();
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

    fn position_command(r: &ThinkRequest) -> String {
        PositionCommand::from_game(&r.start, &r.moves).to_string()
    }

    fn go_command(r: &ThinkRequest) -> String {
        format!("go {}", line_go_times(r.time, &r.clocks))
    }

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
        assert!(
            matches!(err, PlayerError::Engine(UsiEngineError::RepeatedWin)),
            "{err}"
        );
        assert!(err.to_string().contains("bestmove win"), "{err}");
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
        assert!(err.to_string().contains("not legal"), "{err}");
        // The engine quit, or did not even read `usi`.
        assert!(matches!(
            UsiEngine::start("exit 0"),
            Err(UsiEngineError::Quit | UsiEngineError::NotListening(_))
        ));
    }
}
