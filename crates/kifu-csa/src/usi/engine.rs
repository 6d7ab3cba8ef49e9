//! One USI engine's conversation as a state machine, without I/O: commands in, the lines to
//! send out, the engine's lines in, decoded [`EngineEvent`]s out (the USI protocol's public
//! description: `usi`/`usiok`, `setoption`, `isready`/`readyok`, `usinewgame`, `position`,
//! `go` and `go ponder`, `ponderhit`, `stop`, `bestmove`, `gameover`, `quit`).
//!
//! The protocol keeps track of what the engine owes: a search answered by `bestmove` is
//! either the answer to `go` (an [`EngineEvent::BestMove`]), or the answer to a ponder
//! search or a `stop` that is thrown away, so that a late `bestmove` is never taken for the
//! answer to a later `go`.

use super::command::{GameOver, GoTimes, PositionCommand, SearchLimit};
use super::output::{EngineLine, Thought};

/// What the engine is searching.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Search {
    /// Nothing: no `bestmove` is owed.
    #[default]
    Idle,
    /// A `go` for our move; its `bestmove` is the answer.
    Thinking(Thought),
    /// A `go ponder` on the position after `expected`, the reply the engine predicted.
    Pondering {
        /// The predicted reply, in USI notation.
        expected: String,
        /// What the engine said so far.
        thought: Thought,
    },
    /// `stop` was sent (a ponder miss, the end of a game): the `bestmove` that answers it is
    /// thrown away.
    Discarding,
}

/// Where the handshake stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Handshake {
    /// Nothing sent yet.
    #[default]
    New,
    /// `usi` sent, `usiok` awaited.
    AwaitingUsiOk,
    /// `isready` sent, `readyok` awaited.
    AwaitingReadyOk,
    /// Ready for a game.
    Ready,
    /// `quit` sent.
    Quit,
}

/// What a line of engine output meant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    /// `usiok`: the engine's name and options are known.
    UsiOk,
    /// `readyok`.
    ReadyOk,
    /// The answer to `go` (or to a ponder search after `ponderhit`).
    BestMove(Thought),
    /// A `bestmove` thrown away: the answer to `stop`, or a ponder search that ended before
    /// `ponderhit` or `stop` (which says nothing about the real reply).
    Discarded,
}

/// What became of a ponder search when the opponent moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ponder {
    /// The engine was not pondering.
    NotPondering,
    /// The opponent played the expected reply: `ponderhit` sent, the search is now ours.
    Hit,
    /// Another reply: `stop` sent, its answer will be thrown away.
    Miss,
}

/// A command that the conversation's state does not allow.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsiStateError {
    /// `go` while the engine still owes a `bestmove`.
    #[error("the engine is still searching ({0}); `go` would mix up the answers")]
    Searching(&'static str),
}

/// The conversation with one USI engine, sans-IO.
///
/// Command methods queue lines for the engine ([`EngineProtocol::outgoing`]);
/// [`EngineProtocol::receive`] takes each line the engine prints.
///
/// ```
/// use kifu_csa::usi::{EngineEvent, EngineProtocol, GoTimes, PerMove, PositionCommand, Ponder};
/// use kifu_shogi::Position;
///
/// let mut usi = EngineProtocol::new();
/// usi.usi();
/// assert_eq!(usi.outgoing(), ["usi"]);
/// assert_eq!(usi.receive("id name Example 1.0"), None);
/// assert_eq!(usi.receive("option name USI_Ponder type check default false"), None);
/// assert_eq!(usi.receive("usiok"), Some(EngineEvent::UsiOk));
/// assert_eq!(usi.name(), Some("Example 1.0"));
/// assert!(usi.has_option("USI_Ponder"));
///
/// usi.set_option("USI_Ponder", "true");
/// usi.is_ready();
/// assert_eq!(usi.receive("readyok"), Some(EngineEvent::ReadyOk));
/// usi.new_game();
/// let start = Position::startpos();
/// let times = GoTimes { btime: 0, wtime: 0, per_move: PerMove::Byoyomi(1000) };
/// usi.go(&PositionCommand::from_game(&start, &[]), &times).unwrap();
/// usi.receive("info depth 2 score cp 40 pv 7g7f 3c3d");
/// let Some(EngineEvent::BestMove(thought)) = usi.receive("bestmove 7g7f") else { panic!() };
/// assert_eq!(thought.ponder.as_deref(), Some("3c3d"));
///
/// // Think on the opponent's time about the reply the engine expects.
/// let after = PositionCommand::from_game(&start, &[]).then("7g7f").then("3c3d");
/// usi.go_ponder(&after, "3c3d", &times).unwrap();
/// assert_eq!(usi.opponent_moved("3c3d"), Ponder::Hit);
/// assert!(matches!(usi.receive("bestmove 2g2f"), Some(EngineEvent::BestMove(_))));
/// assert_eq!(
///     usi.outgoing(),
///     [
///         "setoption name USI_Ponder value true",
///         "isready",
///         "usinewgame",
///         "position startpos",
///         "go btime 0 wtime 0 byoyomi 1000",
///         "position startpos moves 7g7f 3c3d",
///         "go ponder btime 0 wtime 0 byoyomi 1000",
///         "ponderhit",
///     ]
/// );
/// ```
#[derive(Clone, Debug, Default)]
pub struct EngineProtocol {
    handshake: Handshake,
    search: Search,
    name: Option<String>,
    options: Vec<String>,
    outgoing: Vec<String>,
}

impl EngineProtocol {
    /// A conversation not yet begun.
    pub fn new() -> EngineProtocol {
        EngineProtocol::default()
    }

    /// The lines to send to the engine, in order; taking them empties the queue.
    pub fn outgoing(&mut self) -> Vec<String> {
        std::mem::take(&mut self.outgoing)
    }

    fn send(&mut self, line: String) {
        self.outgoing.push(line);
    }

    /// The engine's `id name`, once it said it.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Whether the engine announced an option of this name before `usiok`.
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o == name)
    }

    /// Where the handshake stands.
    pub fn handshake(&self) -> Handshake {
        self.handshake
    }

    /// What the engine is searching.
    pub fn search(&self) -> &Search {
        &self.search
    }

    /// Whether the engine owes a `bestmove`.
    pub fn is_searching(&self) -> bool {
        self.search != Search::Idle
    }

    /// `usi`: begins the handshake, answered by [`EngineEvent::UsiOk`].
    pub fn usi(&mut self) {
        self.handshake = Handshake::AwaitingUsiOk;
        self.send("usi".to_owned());
    }

    /// `setoption name <name> value <value>`.
    pub fn set_option(&mut self, name: &str, value: &str) {
        self.send(format!("setoption name {name} value {value}"));
    }

    /// `isready`, answered by [`EngineEvent::ReadyOk`].
    pub fn is_ready(&mut self) {
        self.handshake = Handshake::AwaitingReadyOk;
        self.send("isready".to_owned());
    }

    /// `usinewgame`.
    pub fn new_game(&mut self) {
        self.send("usinewgame".to_owned());
    }

    fn refuse_if_searching(&self) -> Result<(), UsiStateError> {
        match self.search {
            Search::Idle => Ok(()),
            Search::Thinking(_) => Err(UsiStateError::Searching("thinking")),
            Search::Pondering { .. } => Err(UsiStateError::Searching("pondering")),
            Search::Discarding => Err(UsiStateError::Searching("stopping")),
        }
    }

    /// `position …` then `go <times>`: the engine thinks about our move.
    pub fn go(&mut self, position: &PositionCommand, times: &GoTimes) -> Result<(), UsiStateError> {
        self.go_limited(position, &SearchLimit::Clock(*times))
    }

    /// `position …` then `go <limit>`: the clocks' times, or a node or depth limit.
    pub fn go_limited(
        &mut self,
        position: &PositionCommand,
        limit: &SearchLimit,
    ) -> Result<(), UsiStateError> {
        self.refuse_if_searching()?;
        self.send(position.to_string());
        self.send(format!("go {limit}"));
        self.search = Search::Thinking(Thought::default());
        Ok(())
    }

    /// `position …` (ending with `expected`) then `go ponder <times>`: the engine thinks on
    /// the opponent's time about the reply it expects. Our clock only changes when we move,
    /// so the times of our next turn are already known.
    pub fn go_ponder(
        &mut self,
        position: &PositionCommand,
        expected: &str,
        times: &GoTimes,
    ) -> Result<(), UsiStateError> {
        self.refuse_if_searching()?;
        self.send(position.to_string());
        self.send(format!("go ponder {times}"));
        self.search = Search::Pondering {
            expected: expected.to_owned(),
            thought: Thought::default(),
        };
        Ok(())
    }

    /// The opponent played `usi_move`: `ponderhit` when the engine pondered on it, `stop`
    /// (the answer thrown away) when it pondered on another.
    pub fn opponent_moved(&mut self, usi_move: &str) -> Ponder {
        match std::mem::take(&mut self.search) {
            Search::Pondering { expected, thought } if expected == usi_move => {
                self.send("ponderhit".to_owned());
                self.search = Search::Thinking(thought);
                Ponder::Hit
            }
            Search::Pondering { .. } => {
                self.send("stop".to_owned());
                self.search = Search::Discarding;
                Ponder::Miss
            }
            other => {
                self.search = other;
                Ponder::NotPondering
            }
        }
    }

    /// Ends whatever the engine searches (`stop` unless it is already stopping); `true` when
    /// a `bestmove` is still owed, which [`EngineProtocol::receive`] will throw away.
    pub fn stop(&mut self) -> bool {
        match self.search {
            Search::Idle => false,
            Search::Discarding => true,
            Search::Thinking(_) | Search::Pondering { .. } => {
                self.send("stop".to_owned());
                self.search = Search::Discarding;
                true
            }
        }
    }

    /// `gameover win|lose|draw`.
    pub fn game_over(&mut self, result: GameOver) {
        self.send(format!("gameover {result}"));
    }

    /// `quit`.
    pub fn quit(&mut self) {
        self.handshake = Handshake::Quit;
        self.send("quit".to_owned());
    }

    /// Takes one line the engine printed; `Some` when it means something to the caller.
    pub fn receive(&mut self, line: &str) -> Option<EngineEvent> {
        match EngineLine::parse(line) {
            EngineLine::IdName(name) => {
                self.name = Some(name);
                None
            }
            EngineLine::Option(name) => {
                self.options.push(name);
                None
            }
            EngineLine::UsiOk => {
                if self.handshake == Handshake::AwaitingUsiOk {
                    self.handshake = Handshake::Ready;
                }
                Some(EngineEvent::UsiOk)
            }
            EngineLine::ReadyOk => {
                if self.handshake == Handshake::AwaitingReadyOk {
                    self.handshake = Handshake::Ready;
                }
                Some(EngineEvent::ReadyOk)
            }
            EngineLine::Info(info) => {
                match &mut self.search {
                    Search::Thinking(thought) | Search::Pondering { thought, .. } => {
                        thought.note(info)
                    }
                    Search::Idle | Search::Discarding => {}
                }
                None
            }
            EngineLine::BestMove { best, ponder } => match std::mem::take(&mut self.search) {
                Search::Thinking(mut thought) => {
                    thought.finish(best, ponder);
                    Some(EngineEvent::BestMove(thought))
                }
                // An engine must not answer a ponder search before `ponderhit` or `stop`;
                // one that does has nothing to say about the real reply.
                Search::Pondering { .. } | Search::Discarding => Some(EngineEvent::Discarded),
                // Owed to nothing: a stray line, ignored.
                Search::Idle => None,
            },
            EngineLine::Other => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usi::PerMove;
    use kifu_shogi::Position;

    const TIMES: GoTimes = GoTimes {
        btime: 1000,
        wtime: 2000,
        per_move: PerMove::Byoyomi(100),
    };

    fn ready() -> EngineProtocol {
        let mut usi = EngineProtocol::new();
        usi.usi();
        usi.receive("usiok");
        usi.is_ready();
        usi.receive("readyok");
        usi.outgoing();
        usi
    }

    fn start() -> PositionCommand {
        PositionCommand::sfen(&Position::startpos(), [])
    }

    #[test]
    fn a_ponder_miss_stops_and_throws_the_answer_away() {
        let mut usi = ready();
        usi.go_ponder(&start().then("7g7f"), "7g7f", &TIMES)
            .unwrap();
        usi.receive("info depth 1 score cp 5 pv 3c3d");
        assert_eq!(usi.opponent_moved("2g2f"), Ponder::Miss);
        assert_eq!(usi.search(), &Search::Discarding);
        assert_eq!(
            usi.go(&start(), &TIMES),
            Err(UsiStateError::Searching("stopping"))
        );
        assert_eq!(usi.receive("bestmove 3c3d"), Some(EngineEvent::Discarded));
        usi.go(&start().then("2g2f"), &TIMES).unwrap();
        let out = usi.outgoing();
        assert_eq!(out[2], "stop");
        assert_eq!(out[4], "go btime 1000 wtime 2000 byoyomi 100");
        let Some(EngineEvent::BestMove(t)) = usi.receive("bestmove 8c8d") else {
            panic!()
        };
        assert_eq!(t.bestmove, "8c8d");
        assert_eq!(t.score, None, "nothing of the stopped search is kept");
    }

    #[test]
    fn a_hit_keeps_what_the_ponder_search_found() {
        let mut usi = ready();
        usi.go_ponder(&start().then("7g7f"), "7g7f", &TIMES)
            .unwrap();
        usi.receive("info depth 9 score cp 77 pv 3c3d 2g2f");
        assert_eq!(usi.opponent_moved("7g7f"), Ponder::Hit);
        let Some(EngineEvent::BestMove(t)) = usi.receive("bestmove 3c3d") else {
            panic!()
        };
        assert_eq!((t.score, t.ponder.as_deref()), (Some(77), Some("2g2f")));
        assert_eq!(usi.opponent_moved("3c3d"), Ponder::NotPondering);
    }

    #[test]
    fn an_early_ponder_answer_and_a_stray_bestmove_are_not_answers() {
        let mut usi = ready();
        usi.go_ponder(&start().then("7g7f"), "7g7f", &TIMES)
            .unwrap();
        assert_eq!(usi.receive("bestmove 3c3d"), Some(EngineEvent::Discarded));
        assert!(!usi.is_searching());
        assert_eq!(usi.receive("bestmove 3c3d"), None);
        assert!(!usi.stop(), "nothing to stop");
        usi.go(&start(), &TIMES).unwrap();
        assert!(usi.stop());
        assert!(usi.stop(), "still owed after a second stop");
        assert_eq!(
            usi.outgoing().iter().filter(|l| *l == "stop").count(),
            1,
            "one stop is enough"
        );
    }

    #[test]
    fn the_handshake_follows_the_answers() {
        let mut usi = EngineProtocol::new();
        assert_eq!(usi.handshake(), Handshake::New);
        usi.usi();
        assert_eq!(usi.handshake(), Handshake::AwaitingUsiOk);
        assert_eq!(usi.receive("readyok"), Some(EngineEvent::ReadyOk));
        assert_eq!(usi.handshake(), Handshake::AwaitingUsiOk);
        usi.receive("usiok");
        usi.is_ready();
        assert_eq!(usi.handshake(), Handshake::AwaitingReadyOk);
        usi.receive("readyok");
        usi.game_over(GameOver::Lose);
        usi.quit();
        assert_eq!(usi.handshake(), Handshake::Quit);
        assert_eq!(usi.outgoing(), ["usi", "isready", "gameover lose", "quit"]);
    }
}
