//! Chu shogi as a [`kifu_record::Game`]: what `kifu_record::Record<Chu>` and the record formats
//! of `kifu-records` need to replay a chu game.

use kifu_record::{Game, GameEnding, Outcome as RecordOutcome, Side};

use crate::game_state::{GameState, PlayError};
use crate::moves::Move;
use crate::outcome::{EndReason, Outcome};
use crate::piece::Color;
use crate::position::Position;

/// Chu shogi (中将棋), for records: a record starts from a [`Position`] (the standard one or
/// an SFEN, with its [`crate::RuleSet`]) and is replayed on a [`GameState`], which keeps the
/// history that the repetition rules need.
///
/// ```
/// use kifu_chu::{Chu, GameState, Position, parse_usi};
/// use kifu_record::Game;
///
/// let mut game: GameState = Chu::start_position(&Position::startpos());
/// let lion = parse_usi("7j7h").unwrap();
/// Chu::play(&mut game, &lion).unwrap();
/// assert!(Chu::play(&mut game, &lion).is_err()); // White to move now
/// assert_eq!(Chu::move_text(&game, &parse_usi("6c6e").unwrap()), "6c6e");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chu;

impl Game for Chu {
    const NAME: &'static str = "chu";
    type Position = GameState;
    type Move = Move;
    type Start = Position;
    /// The endings lishogi states as a game's status that only chu has (a captured royal, a
    /// bare king, no legal move, only the royals left, perpetual check), with their winner.
    type Ending = Outcome;
    type IllegalMove = PlayError;

    fn start_position(start: &Position) -> GameState {
        GameState::new(start.clone())
    }

    fn turn(game: &GameState) -> Side {
        side_of(game.position().turn())
    }

    fn check_move(game: &GameState, mv: &Move) -> Result<(), PlayError> {
        game.check_move(*mv)
    }

    fn play_unchecked(game: &mut GameState, mv: &Move) {
        game.play_unchecked(*mv);
    }

    fn outcome(game: &GameState) -> Option<RecordOutcome> {
        game.outcome().map(|o| o.to_record_outcome())
    }

    fn move_text(_: &GameState, mv: &Move) -> String {
        mv.to_string()
    }

    fn position_text(game: &GameState) -> String {
        game.position().to_sfen()
    }
}

/// The record's side of a chu colour: Black moves first.
pub fn side_of(color: Color) -> Side {
    match color {
        Color::Black => Side::First,
        Color::White => Side::Second,
    }
}

/// The chu colour of a record's side.
pub fn color_of(side: Side) -> Color {
    match side {
        Side::First => Color::Black,
        Side::Second => Color::White,
    }
}

impl Outcome {
    /// The result alone, as records state it.
    pub fn to_record_outcome(self) -> RecordOutcome {
        match self.winner {
            Some(color) => RecordOutcome::Win(side_of(color)),
            None => RecordOutcome::Draw,
        }
    }

    /// The ending a record stores for this outcome: the shared word where there is one
    /// (repetition, checkmate), else chu's own.
    pub fn to_ending_kind(self) -> kifu_record::EndingKind<Outcome> {
        match self.reason {
            EndReason::Repetition => kifu_record::EndingKind::Repetition,
            EndReason::Checkmate => kifu_record::EndingKind::Checkmate,
            _ => kifu_record::EndingKind::Game(self),
        }
    }
}

impl GameEnding for Outcome {
    /// A chu ending carries its winner, so the mover does not matter.
    fn outcome(&self, _mover: Side) -> RecordOutcome {
        self.to_record_outcome()
    }
}
