//! How a line of play ends: resignation, repetition, a declared win, an illegal move …
//!
//! The shared kinds are what every game of the family can end with (resignation, time,
//! repetition …); each game adds its own through [`GameEnding`] (shogi's 持将棋 and 入玉宣言). Whatever a reader does not recognise is kept verbatim as [`EndingKind::Unknown`]
//! rather than rejected: records with `封じ手` or app-specific words must still load.

use std::fmt;

use crate::Span;

/// One of the two players: the one who moves first and the other. Each game has its own words
/// for them (shogi's 先手/下手 and 後手/上手, chu's black and white, cetkaik's 先手 and 後手 of a season).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The player who moves first.
    First,
    /// The other player.
    Second,
}

impl Side {
    /// Both sides, the first player first.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// `first` or `second`.
    pub fn name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names neither side.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a side (expected `first` or `second`)")]
pub struct UnknownSide(pub String);

impl std::str::FromStr for Side {
    type Err = UnknownSide;

    fn from_str(s: &str) -> Result<Side, UnknownSide> {
        Side::BOTH
            .into_iter()
            .find(|side| side.name() == s)
            .ok_or_else(|| UnknownSide(s.to_owned()))
    }
}

/// The result a record states, independent of who is to move.
///
/// ```
/// use kifu_record::{Outcome, Side};
///
/// assert_eq!("0-1".parse::<Outcome>().unwrap(), Outcome::Win(Side::Second));
/// assert_eq!(Outcome::Draw.to_string(), "1/2-1/2");
/// assert!("2-0".parse::<Outcome>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The given side won.
    Win(Side),
    /// Neither side won.
    Draw,
    /// No result (interrupted, sealed, a take-back, an error, a tsume statement).
    None,
}

impl fmt::Display for Outcome {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`, as result tags write them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Win(Side::First) => "1-0",
            Outcome::Win(Side::Second) => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::None => "*",
        })
    }
}

/// A text that is not a result tag.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a result (expected `1-0`, `0-1`, `1/2-1/2` or `*`)")]
pub struct UnknownOutcome(pub String);

impl std::str::FromStr for Outcome {
    type Err = UnknownOutcome;

    fn from_str(s: &str) -> Result<Outcome, UnknownOutcome> {
        Ok(match s {
            "1-0" => Outcome::Win(Side::First),
            "0-1" => Outcome::Win(Side::Second),
            "1/2-1/2" | "½-½" => Outcome::Draw,
            "*" => Outcome::None,
            _ => return Err(UnknownOutcome(s.to_owned())),
        })
    }
}

/// The endings only one game has, beside the shared words of [`EndingKind`]: shogi's
/// 持将棋 and 入玉宣言, for example. A game without any uses [`NoEnding`].
pub trait GameEnding: Clone + fmt::Debug + PartialEq + Eq + std::hash::Hash + fmt::Display {
    /// The result this ending states, given the side to move when it occurred.
    fn outcome(&self, mover: Side) -> Outcome;
}

/// The per-game ending words of a game that has none of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoEnding {}

impl GameEnding for NoEnding {
    fn outcome(&self, _: Side) -> Outcome {
        match *self {}
    }
}

impl fmt::Display for NoEnding {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

/// What ended the line: a word every game of the family shares, or one of the game's own
/// (`E`, see [`GameEnding`]). "Mover" below means the side whose turn it is at the ending.
///
/// ```
/// use kifu_record::{EndingKind, NoEnding, Outcome, Side};
///
/// let resign: EndingKind<NoEnding> = EndingKind::Resign;
/// assert_eq!(resign.outcome(Side::First), Outcome::Win(Side::Second));
/// assert_eq!(resign.to_string(), "resignation");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndingKind<E> {
    /// The mover resigns (CSA `%TORYO`, KIF `投了`, USI `resign`).
    Resign,
    /// The game was interrupted (`%CHUDAN`, `中断`).
    Abort,
    /// The same position came back often enough to end the game (`%SENNICHITE`, `千日手`).
    Repetition,
    /// The mover is checkmated (`%TSUMI`, `詰み`, `詰`).
    Checkmate,
    /// A problem statement that there is no mate (`%FUZUMI`, `不詰`).
    NoCheckmate,
    /// The mover lost on time (`%TIME_UP`, `切れ負け`).
    TimeLoss,
    /// The previous move was illegal, so the mover wins (`反則勝ち`).
    IllegalMoveWin,
    /// The mover loses by a foul (`%ILLEGAL_MOVE`, `反則負け`).
    IllegalMoveLoss,
    /// The given side committed an illegal action and loses, whoever is to move
    /// (`%+ILLEGAL_ACTION`, `%-ILLEGAL_ACTION`).
    IllegalAction(Side),
    /// The maximum number of moves was reached (`%MAX_MOVES`, `最大手数`).
    MaxMoves,
    /// A take-back (`%MATTA`, removed in CSA V3.0).
    TakeBack,
    /// `%ERROR`: a malformed or forbidden move ended the game.
    Error,
    /// A sealed move (`封じ手`): the game continues another day.
    Sealed,
    /// The mover wins by default (`不戦勝`).
    DefaultWin,
    /// The mover loses by default (`不戦敗`).
    DefaultLoss,
    /// A result stated without its cause (`1-0`, `0-1`, `1/2-1/2`, as lishogi and PGN-style
    /// records write it).
    Result(Outcome),
    /// An ending only this game has.
    Game(E),
    /// Anything else, kept exactly as written (without a CSA `%`).
    Unknown(String),
}

impl<E: GameEnding> EndingKind<E> {
    /// The result this ending states, given the side to move when it occurred.
    pub fn outcome(&self, mover: Side) -> Outcome {
        use EndingKind::*;
        match self {
            Resign | Checkmate | TimeLoss | IllegalMoveLoss | DefaultLoss => {
                Outcome::Win(mover.opponent())
            }
            IllegalMoveWin | DefaultWin => Outcome::Win(mover),
            IllegalAction(offender) => Outcome::Win(offender.opponent()),
            Repetition | MaxMoves => Outcome::Draw,
            Result(outcome) => *outcome,
            Game(own) => own.outcome(mover),
            Abort | NoCheckmate | TakeBack | Error | Sealed | Unknown(_) => Outcome::None,
        }
    }
}

impl<E> EndingKind<E> {
    /// True when this ending says the move before it was illegal, so that a reader
    /// should keep that move without reporting it as an error.
    pub fn excuses_illegal_last_move(&self) -> bool {
        matches!(
            self,
            EndingKind::IllegalMoveWin
                | EndingKind::IllegalMoveLoss
                | EndingKind::IllegalAction(_)
                | EndingKind::Error
        )
    }

    /// The game's own ending, if this is one.
    pub fn game(&self) -> Option<&E> {
        match self {
            EndingKind::Game(own) => Some(own),
            _ => None,
        }
    }
}

impl<E: fmt::Display> fmt::Display for EndingKind<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use EndingKind::*;
        let s = match self {
            Resign => "resignation",
            Abort => "abort",
            Repetition => "repetition",
            Checkmate => "checkmate",
            NoCheckmate => "no checkmate (不詰)",
            TimeLoss => "loss on time",
            IllegalMoveWin => "win by the opponent's illegal move",
            IllegalMoveLoss => "loss by an illegal move",
            IllegalAction(Side::First) => "illegal action by the first player",
            IllegalAction(Side::Second) => "illegal action by the second player",
            MaxMoves => "maximum number of moves",
            TakeBack => "take-back",
            Error => "error",
            Sealed => "sealed move (封じ手)",
            DefaultWin => "win by default",
            DefaultLoss => "loss by default",
            Result(Outcome::Win(Side::First)) => "first player wins",
            Result(Outcome::Win(Side::Second)) => "second player wins",
            Result(Outcome::Draw) => "draw",
            Result(Outcome::None) => "no result",
            Game(own) => return own.fmt(f),
            Unknown(word) => return write!(f, "`{word}`"),
        };
        f.write_str(s)
    }
}

/// An ending with where it was written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ending<E> {
    /// What ended the line.
    pub kind: EndingKind<E>,
    /// Where the ending was written.
    pub span: Span,
}

impl<E> Ending<E> {
    /// An ending written at `span`.
    pub fn new(kind: EndingKind<E>, span: Span) -> Ending<E> {
        Ending { kind, span }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Kind = EndingKind<NoEnding>;

    #[test]
    fn outcomes_follow_the_mover() {
        assert_eq!(
            Kind::Resign.outcome(Side::First),
            Outcome::Win(Side::Second)
        );
        assert_eq!(
            Kind::IllegalMoveWin.outcome(Side::First),
            Outcome::Win(Side::First)
        );
        assert_eq!(Kind::Repetition.outcome(Side::First), Outcome::Draw);
        assert_eq!(Kind::Sealed.outcome(Side::First), Outcome::None);
        assert_eq!(
            Kind::Result(Outcome::Draw).outcome(Side::Second),
            Outcome::Draw
        );
    }

    #[test]
    fn illegal_action_ignores_the_mover() {
        let k = Kind::IllegalAction(Side::First);
        assert_eq!(k.outcome(Side::First), Outcome::Win(Side::Second));
        assert_eq!(k.outcome(Side::Second), Outcome::Win(Side::Second));
        assert!(k.excuses_illegal_last_move());
        assert!(!Kind::Resign.excuses_illegal_last_move());
    }

    #[test]
    fn unknown_words_display_verbatim() {
        assert_eq!(Kind::Unknown("封じ手?".into()).to_string(), "`封じ手?`");
    }
}
