//! The three games as the Python module needs them: their endings' words and how a position
//! becomes a Python object.
//!
//! A file's game and format are chosen by the records layer's front door
//! (`kifu_records::open`), as the command line's are, and formats are looked up in the
//! records layer's tables: the module keeps no table of its own.

use kifu_cetkaik::Cetkaik;
use kifu_chu::Chu;
use kifu_record::{EndingKind, Game, NodeItem, Record, RecordFormat};
use kifu_records::GameRecords;
use kifu_records::detect::GameKind;
use kifu_shogi::{Shogi, ShogiEnding};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// A game of the family, as the Python module handles it: its formats are the records
/// layer's table ([`GameRecords`]), looked up as [`format_named`] looks them up.
pub trait PyGame:
    GameRecords
    + Game<Position: Send + Sync, Move: Send + Sync, Start: Send + Sync, Ending: Send + Sync>
{
    /// The word for one of this game's own endings, in the style of CSA's `%` words.
    fn ending_word(ending: &Self::Ending) -> String;

    /// A position as a Python object of the game's submodule (`kifu.shogi.Position` …).
    fn position_object(py: Python<'_>, position: Self::Position) -> PyResult<Py<PyAny>>;

    /// The moves of the main line as Python strings in the game's machine notation, up to
    /// the first move the rules refuse. The default replays the line; a game whose readers
    /// put on the tree only moves their replay accepted (and mark the rest `illegal`) may
    /// read the tree directly when its notation needs no position.
    fn main_line_texts<'py>(py: Python<'py>, record: &Record<Self>) -> Vec<Bound<'py, PyString>> {
        let mut texts = Vec::with_capacity(record.moves.len());
        record.walk_main_line(|_, position, mv| {
            texts.push(PyString::new(py, &Self::move_text(position, mv)));
        });
        texts
    }
}

impl PyGame for Shogi {
    fn ending_word(ending: &ShogiEnding) -> String {
        match ending {
            ShogiEnding::Impasse => "JISHOGI",
            ShogiEnding::DeclareWin => "KACHI",
            ShogiEnding::DeclareDraw => "HIKIWAKE",
            ShogiEnding::Try => "TRY",
        }
        .to_string()
    }
    fn position_object(py: Python<'_>, position: kifu_shogi::Position) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, crate::shogi::ShogiPosition::from_position(position))?.into_any())
    }

    /// Every shogi reader adds moves through the records layer's replay, which puts a move
    /// on the tree only once the rules accepted it (or marks it `illegal` when the record's
    /// ending excuses it), and USI needs no position: the line is read without replaying it
    /// again, which halves the time of `Record.moves` (tests compare it with the replay).
    fn main_line_texts<'py>(py: Python<'py>, record: &Record<Self>) -> Vec<Bound<'py, PyString>> {
        let tree = &record.moves;
        let usi = crate::shogi::UsiStrings::get(py);
        // Room for every node: the main line is at most all of them, and the list is
        // handed to Python as it is.
        let mut texts = Vec::with_capacity(tree.len());
        for id in tree.main_line() {
            let node = &tree[id];
            match node.item {
                NodeItem::Move(mv) if !node.illegal => texts.push(usi.string(py, mv)),
                _ => break,
            }
        }
        texts
    }
}

impl PyGame for Chu {
    fn ending_word(ending: &kifu_chu::Outcome) -> String {
        use kifu_chu::EndReason;
        match ending.reason {
            EndReason::RoyalsCaptured => "ROYALS_CAPTURED",
            EndReason::NoLegalMoves => "NO_LEGAL_MOVES",
            EndReason::BareKing => "BARE_KING",
            EndReason::OnlyRoyals => "ONLY_ROYALS",
            EndReason::Repetition => "SENNICHITE",
            EndReason::PerpetualCheck => "PERPETUAL_CHECK",
            EndReason::Checkmate => "TSUMI",
        }
        .to_string()
    }
    fn position_object(py: Python<'_>, position: kifu_chu::GameState) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, crate::chu::ChuPosition::from_state(position))?.into_any())
    }
}

impl PyGame for Cetkaik {
    fn ending_word(ending: &kifu_cetkaik::CetkaikEnding) -> String {
        match ending {
            kifu_cetkaik::CetkaikEnding::MatchOver { .. } => "MATCH_OVER".to_string(),
        }
    }
    fn position_object(py: Python<'_>, position: kifu_cetkaik::MatchState) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, crate::cetkaik::CetkaikPosition::from_state(position))?.into_any())
    }
}

/// Whether `format` names one of `game`'s formats, looked up as [`format_named`] looks it up.
pub fn knows_format(game: GameKind, format: &str) -> bool {
    game.format_names()
        .contains(&format.to_ascii_lowercase().as_str())
}

/// The format of game `G` a user names, in any case, from the records layer's table.
pub fn format_named<G: PyGame>(name: &str) -> Option<&'static dyn RecordFormat<G>> {
    G::format_by_name(&name.to_ascii_lowercase())
}

/// The word for how a line ends, in the style of CSA's `%` words (`TORYO`, `SENNICHITE` …);
/// a word the record wrote that kifu does not know is given as written.
pub fn ending_word<G: PyGame>(kind: &EndingKind<G::Ending>) -> String {
    use kifu_record::{Outcome, Side};
    match kind {
        EndingKind::Resign => "TORYO".into(),
        EndingKind::Abort => "CHUDAN".into(),
        EndingKind::Repetition => "SENNICHITE".into(),
        EndingKind::Checkmate => "TSUMI".into(),
        EndingKind::NoCheckmate => "FUZUMI".into(),
        EndingKind::TimeLoss => "TIME_UP".into(),
        EndingKind::IllegalMoveWin => "ILLEGAL_MOVE_WIN".into(),
        EndingKind::IllegalMoveLoss => "ILLEGAL_MOVE".into(),
        EndingKind::IllegalAction(Side::First) => "+ILLEGAL_ACTION".into(),
        EndingKind::IllegalAction(Side::Second) => "-ILLEGAL_ACTION".into(),
        EndingKind::MaxMoves => "MAX_MOVES".into(),
        EndingKind::TakeBack => "MATTA".into(),
        EndingKind::Error => "ERROR".into(),
        EndingKind::Sealed => "FUUJITE".into(),
        EndingKind::DefaultWin => "DEFAULT_WIN".into(),
        EndingKind::DefaultLoss => "DEFAULT_LOSS".into(),
        EndingKind::Result(Outcome::Win(Side::First)) => "FIRST_WINS".into(),
        EndingKind::Result(Outcome::Win(Side::Second)) => "SECOND_WINS".into(),
        EndingKind::Result(Outcome::Draw) => "DRAW".into(),
        EndingKind::Result(Outcome::None) => "NO_RESULT".into(),
        EndingKind::Game(own) => G::ending_word(own),
        EndingKind::Unknown(word) => word.clone(),
    }
}
