//! What is said to a USI engine: the `position` and `go` commands and the word of `gameover`
//! (the USI protocol's public description, "Commands from the GUI to the engine").

use std::fmt;

use kifu_shogi::{Move, Position};

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`: the standard starting position, Black to move.
    Startpos,
    /// `sfen <SFEN>`: any position.
    Sfen(String),
}

/// A `position` command: a start and the moves since, in USI move notation.
///
/// ```
/// use kifu_csa::usi::PositionCommand;
/// use kifu_shogi::Position;
///
/// let start = Position::startpos();
/// let mv = start.parse_usi_move("7g7f").unwrap();
/// let command = PositionCommand::from_game(&start, &[mv]);
/// assert_eq!(command.to_string(), "position startpos moves 7g7f");
/// // The same game told as an SFEN, with the reply an engine may ponder on.
/// let told = PositionCommand::sfen(&start, ["7g7f".to_owned()]).then("3c3d");
/// assert_eq!(
///     told.to_string(),
///     "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The set-up position.
    pub start: Start,
    /// The moves played since, in USI notation (`7g7f`, `8h2b+`, `P*5e`).
    pub moves: Vec<String>,
}

impl PositionCommand {
    /// The game from `start` through `moves`: `startpos` when `start` is the standard start.
    pub fn from_game(start: &Position, moves: &[Move]) -> PositionCommand {
        let start = if *start == Position::startpos() {
            Start::Startpos
        } else {
            Start::Sfen(start.to_sfen())
        };
        PositionCommand {
            start,
            moves: moves.iter().map(|m| m.usi()).collect(),
        }
    }

    /// The game from `start` through `moves`, the start always told as an SFEN.
    pub fn sfen(start: &Position, moves: impl IntoIterator<Item = String>) -> PositionCommand {
        PositionCommand {
            start: Start::Sfen(start.to_sfen()),
            moves: moves.into_iter().collect(),
        }
    }

    /// The same command with one more move (the reply to ponder on).
    pub fn then(mut self, usi_move: &str) -> PositionCommand {
        self.moves.push(usi_move.to_owned());
        self
    }
}

impl fmt::Display for PositionCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.start {
            Start::Startpos => f.write_str("position startpos")?,
            Start::Sfen(sfen) => write!(f, "position sfen {sfen}")?,
        }
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            for m in &self.moves {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

/// The per-move part of a `go` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerMove {
    /// `byoyomi <ms>` for the side to move.
    Byoyomi(u64),
    /// `binc <ms> winc <ms>`: each side's Fischer increment.
    Increment {
        /// Black's increment, in ms.
        black: u64,
        /// White's increment, in ms.
        white: u64,
    },
}

/// The times of a `go` (or `go ponder`) command, in milliseconds.
///
/// ```
/// use kifu_csa::usi::{GoTimes, PerMove};
///
/// let times = GoTimes { btime: 60_000, wtime: 58_000, per_move: PerMove::Byoyomi(10_000) };
/// assert_eq!(times.to_string(), "btime 60000 wtime 58000 byoyomi 10000");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoTimes {
    /// Black's main time left.
    pub btime: u64,
    /// White's main time left.
    pub wtime: u64,
    /// Byoyomi or increments.
    pub per_move: PerMove,
}

impl fmt::Display for GoTimes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "btime {} wtime {}", self.btime, self.wtime)?;
        match self.per_move {
            PerMove::Byoyomi(ms) => write!(f, " byoyomi {ms}"),
            PerMove::Increment { black, white } => write!(f, " binc {black} winc {white}"),
        }
    }
}

/// What bounds a search: the clocks, or a node or depth limit (`go nodes N`, `go depth N`,
/// which the USI description does not list but YaneuraOu-family engines and shogitest use).
///
/// ```
/// use kifu_csa::usi::{GoTimes, PerMove, SearchLimit};
///
/// assert_eq!(SearchLimit::Nodes(20_000).to_string(), "nodes 20000");
/// let clock = GoTimes { btime: 0, wtime: 0, per_move: PerMove::Byoyomi(100) };
/// assert_eq!(SearchLimit::Clock(clock).to_string(), "btime 0 wtime 0 byoyomi 100");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// The clocks' times.
    Clock(GoTimes),
    /// At most this many nodes.
    Nodes(u64),
    /// At most this depth.
    Depth(u32),
}

impl fmt::Display for SearchLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchLimit::Clock(times) => times.fmt(f),
            SearchLimit::Nodes(n) => write!(f, "nodes {n}"),
            SearchLimit::Depth(d) => write!(f, "depth {d}"),
        }
    }
}

/// How the game ended for the engine, as `gameover` tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOver {
    /// `gameover win`.
    Win,
    /// `gameover lose`.
    Lose,
    /// `gameover draw` (also said when a game is interrupted or its result withheld).
    Draw,
}

impl GameOver {
    /// The word after `gameover`.
    pub fn word(self) -> &'static str {
        match self {
            GameOver::Win => "win",
            GameOver::Lose => "lose",
            GameOver::Draw => "draw",
        }
    }
}

impl fmt::Display for GameOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}
