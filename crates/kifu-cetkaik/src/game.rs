//! Cetkaik as a [`kifu_record::Game`]: a `Record<Cetkaik>` is one season of a match.
//!
//! A cetkaik match is several seasons (春 夏 秋 冬, or two under some rules); scores and the
//! first mover carry from one season to the next. The record model's records are single
//! games, so a season is the unit here: its start says who moves first and what the season
//! carries in, its moves are the events the rules judge (a move with its sticks, or the
//! 再行 / 終季 that follows a hand), and the match that groups seasons lives with the files in
//! `kifu-records`.

use std::fmt;

use kifu_record::{Game, GameEnding, Outcome, Side as RecordSide};

pub use crate::match_state::SeasonStart;
use crate::match_state::{Declaration, IllegalEvent, MatchState};
use crate::moves::PureMove;
use crate::notation::full;
use crate::piece::{Piece, Side};
use crate::sticks::Throws;
use crate::yaku::Hand;

/// The game of cetkaik (机戦), for the generic record model.
///
/// ```
/// use kifu_cetkaik::{Cetkaik, Event, SeasonStart, Side, Throws};
/// use kifu_record::{Game, Outcome, Record, Side as RecordSide, Span};
///
/// let start = SeasonStart { first_mover: Side::IASide, ..SeasonStart::default() };
/// let mut record: Record<Cetkaik> = Record::new(start);
/// let position = Cetkaik::start_position(&record.start);
/// let mv = position.legal_moves().into_iter().find(|m| m.to_string() == "KAI-KY").unwrap();
/// // A plain step needs no sticks.
/// let event = Event::mv(mv, Throws::default());
/// assert_eq!(Cetkaik::move_text(&position, &event), "KAI兵KY無撃裁");
/// let root = record.moves.root();
/// record.moves.add_move(root, event, Span::default());
/// let (_, after) = record.positions().last().unwrap();
/// assert_eq!(Cetkaik::turn(&after), RecordSide::Second);
/// assert_eq!(record.outcome(), Outcome::None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cetkaik;

/// One event of a season as the rules play it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A piece moves (or is dropped from hand) with the sticks thrown for it.
    ///
    /// What the record knows of the move, unknowns included, is the event: a throw whose
    /// count the record does not give is [`crate::Throw::UnknownSuccess`] in `throws`, and a
    /// 皇 move whose intermediate square it does not give is `tam_first_unknown`.
    Move {
        /// The move; for 皇 with `tam_first_unknown`, one intermediate square the rules allow.
        mv: PureMove,
        /// The sticks thrown for the move (none for plain steps, drops and 皇).
        throws: Throws,
        /// The record leaves 皇's intermediate square unknown (the CKKA draft's `[或]`, or a
        /// 皇 move written with its destination only): `mv` holds one the rules allow, which a
        /// writer must not present as written. Always false for other moves.
        tam_first_unknown: bool,
    },
    /// 再行 or 終季 by the player who just made a hand. `named` lists the hands the record's
    /// hand line names (under rules where 終季 scores declared hands only, that is what
    /// counts); `None` when the record names none, and every undeclared hand held counts.
    Declare {
        /// 再行 or 終季.
        declaration: Declaration,
        /// The hands the record's hand line names.
        named: Option<Vec<Hand>>,
    },
}

impl Event {
    /// A move as the record gives it in full (every square known).
    pub fn mv(mv: PureMove, throws: Throws) -> Event {
        Event::Move {
            mv,
            throws,
            tam_first_unknown: false,
        }
    }
}

/// The endings of a cetkaik record besides the shared words of [`kifu_record::EndingKind`].
/// A season ends by its 終季 event, not by an ending; what a record can still say is that the
/// whole match is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CetkaikEnding {
    /// 星一周 ("the stars went round"): the match is over; `winner` by the final scores,
    /// `None` when they are equal.
    MatchOver {
        /// The side ahead at the end (`None` on equal scores).
        winner: Option<RecordSide>,
    },
}

impl GameEnding for CetkaikEnding {
    fn outcome(&self, _mover: RecordSide) -> Outcome {
        match self {
            CetkaikEnding::MatchOver {
                winner: Some(winner),
            } => Outcome::Win(*winner),
            CetkaikEnding::MatchOver { winner: None } => Outcome::Draw,
        }
    }
}

impl fmt::Display for CetkaikEnding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CetkaikEnding::MatchOver { .. } => f.write_str("end of the match (星一周)"),
        }
    }
}

/// The record side of a board side in the season `state` plays: the season's first mover is
/// [`RecordSide::First`].
pub fn record_side(state: &MatchState, side: Side) -> RecordSide {
    if side == state.season_first() {
        RecordSide::First
    } else {
        RecordSide::Second
    }
}

impl MatchState {
    /// Plays one event, or leaves the state as it was and says why it cannot happen.
    pub fn play_event(&mut self, event: &Event) -> Result<(), IllegalEvent> {
        let mut next = self.clone();
        match event {
            Event::Move { mv, throws, .. } => {
                next.play(*mv, *throws)?;
            }
            Event::Declare { declaration, named } => {
                let points = next.named_points(named.as_deref());
                next.declare_hands(*declaration, points)?;
            }
        }
        *self = next;
        Ok(())
    }
}

impl Game for Cetkaik {
    const NAME: &'static str = "cetkaik";
    type Position = MatchState;
    type Move = Event;
    type Start = SeasonStart;
    type Ending = CetkaikEnding;
    type IllegalMove = IllegalEvent;

    fn start_position(start: &SeasonStart) -> MatchState {
        MatchState::at(start)
    }

    fn turn(state: &MatchState) -> RecordSide {
        record_side(state, state.turn())
    }

    fn check_move(state: &MatchState, event: &Event) -> Result<(), IllegalEvent> {
        state.clone().play_event(event)
    }

    fn play_unchecked(state: &mut MatchState, event: &Event) {
        // Known legal: nothing can fail, and a state is left as it was if it did.
        let _ = state.play_event(event);
    }

    fn play(state: &mut MatchState, event: &Event) -> Result<(), IllegalEvent> {
        // One pass instead of the provided check-then-play (two).
        state.play_event(event)
    }

    fn outcome(state: &MatchState) -> Option<Outcome> {
        state.outcome().map(|winner| match winner {
            Some(side) => Outcome::Win(record_side(state, side)),
            None => Outcome::Draw,
        })
    }

    /// Notation ⓪ of the event: `MAU兵MAI無撃裁`, `ZO皇[ZU]TUZY`, `ZO皇[或]TUZY`, `再行`,
    /// `終季`.
    fn move_text(state: &MatchState, event: &Event) -> String {
        match event {
            Event::Move {
                mv,
                throws,
                tam_first_unknown,
            } => {
                let prof = mv
                    .src()
                    .and_then(|src| state.position().get(src))
                    .and_then(Piece::prof)
                    .or(match mv {
                        PureMove::Drop { prof, .. } => Some(*prof),
                        _ => None,
                    });
                full::move_text(*mv, prof, *throws, !tam_first_unknown)
            }
            Event::Declare { declaration, .. } => declaration.to_string(),
        }
    }

    /// The board as [`crate::Position`]'s diagram draws it (notation ⓪'s piece words `黒筆`,
    /// `皇`, `・`, with `^`/`v` for the IA and A sides, the pieces in hand and the side to
    /// move), then the scores and the rate: CKKA has no board notation of its own.
    fn position_text(state: &MatchState) -> String {
        format!(
            "{}\nscores: {} {}, {} {}; rate ×{}",
            state.position(),
            Side::IASide,
            state.score(Side::IASide),
            Side::ASide,
            state.score(Side::ASide),
            state.rate()
        )
    }
}
