//! How a line of play ends: resignation, repetition, a declared win, an illegal move …
//!
//! The kinds are the union of what CSA (`%TORYO` …), KIF (`投了` …) and JKF (`TORYO` …)
//! can say. Whatever a reader does not recognise is kept verbatim as [`EndingKind::Unknown`]
//! rather than rejected: records with `封じ手` or app-specific words must still load.

use std::fmt;

use crate::Span;

/// One of the two players. Shogi calls them 先手/下手 (`First`) and 後手/上手 (`Second`);
/// cetkaik and chu shogi have the same two roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// The result a record states, independent of who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Side),
    Draw,
    /// No result (interrupted, sealed, a take-back, an error, a tsume statement).
    None,
}

/// What ended the line. "Mover" below means the side whose turn it is at the ending.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndingKind {
    /// The mover resigns (`%TORYO`, `投了`).
    Resign,
    /// The game was interrupted (`%CHUDAN`, `中断`).
    Abort,
    /// Fourfold repetition (`%SENNICHITE`, `千日手`).
    Repetition,
    /// Impasse (`%JISHOGI`, `持将棋`).
    Impasse,
    /// The mover is checkmated (`%TSUMI`, `詰み`, `詰`).
    Checkmate,
    /// A tsume statement that there is no mate (`%FUZUMI`, `不詰`).
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
    /// The mover declares a win by entering king (`%KACHI`, `入玉勝ち`).
    DeclareWin,
    /// The mover declares a draw by entering king (`%HIKIWAKE`).
    DeclareDraw,
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
    /// The mover wins by the try rule (`トライ`).
    Try,
    /// Anything else, kept exactly as written (without a CSA `%`).
    Unknown(String),
}

impl EndingKind {
    /// The result this ending states, given the side to move when it occurred.
    pub fn outcome(&self, mover: Side) -> Outcome {
        use EndingKind::*;
        match self {
            Resign | Checkmate | TimeLoss | IllegalMoveLoss | DefaultLoss => {
                Outcome::Win(mover.opponent())
            }
            IllegalMoveWin | DeclareWin | DefaultWin | Try => Outcome::Win(mover),
            IllegalAction(offender) => Outcome::Win(offender.opponent()),
            Repetition | Impasse | DeclareDraw | MaxMoves => Outcome::Draw,
            Abort | NoCheckmate | TakeBack | Error | Sealed | Unknown(_) => Outcome::None,
        }
    }

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
}

impl fmt::Display for EndingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use EndingKind::*;
        let s = match self {
            Resign => "resignation",
            Abort => "abort",
            Repetition => "repetition (千日手)",
            Impasse => "impasse (持将棋)",
            Checkmate => "checkmate",
            NoCheckmate => "no checkmate (不詰)",
            TimeLoss => "loss on time",
            IllegalMoveWin => "win by the opponent's illegal move",
            IllegalMoveLoss => "loss by an illegal move",
            IllegalAction(Side::First) => "illegal action by the first player",
            IllegalAction(Side::Second) => "illegal action by the second player",
            DeclareWin => "declared win (入玉勝ち)",
            DeclareDraw => "declared draw",
            MaxMoves => "maximum number of moves",
            TakeBack => "take-back",
            Error => "error",
            Sealed => "sealed move (封じ手)",
            DefaultWin => "win by default",
            DefaultLoss => "loss by default",
            Try => "try",
            Unknown(word) => return write!(f, "`{word}`"),
        };
        f.write_str(s)
    }
}

/// An ending with where it was written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    pub kind: EndingKind,
    pub span: Span,
}

impl Ending {
    pub fn new(kind: EndingKind, span: Span) -> Ending {
        Ending { kind, span }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_follow_the_mover() {
        assert_eq!(
            EndingKind::Resign.outcome(Side::First),
            Outcome::Win(Side::Second)
        );
        assert_eq!(
            EndingKind::DeclareWin.outcome(Side::Second),
            Outcome::Win(Side::Second)
        );
        assert_eq!(
            EndingKind::IllegalMoveWin.outcome(Side::First),
            Outcome::Win(Side::First)
        );
        assert_eq!(EndingKind::Repetition.outcome(Side::First), Outcome::Draw);
        assert_eq!(EndingKind::Sealed.outcome(Side::First), Outcome::None);
    }

    #[test]
    fn illegal_action_ignores_the_mover() {
        let k = EndingKind::IllegalAction(Side::First);
        assert_eq!(k.outcome(Side::First), Outcome::Win(Side::Second));
        assert_eq!(k.outcome(Side::Second), Outcome::Win(Side::Second));
        assert!(k.excuses_illegal_last_move());
        assert!(!EndingKind::Resign.excuses_illegal_last_move());
    }

    #[test]
    fn unknown_words_display_verbatim() {
        assert_eq!(
            EndingKind::Unknown("封じ手?".into()).to_string(),
            "`封じ手?`"
        );
    }
}
