//! Shogi as a [`kifu_record::Game`]: what records of shogi start from, how their moves are
//! played and judged, and the endings only shogi has.

use std::fmt;
use std::sync::OnceLock;

use kifu_record::{Game, GameEnding, MoveFacts, Outcome as RecordOutcome, Side};

use crate::{Color, Handicap, IllegalMove, Move, Outcome, Position};

/// The game of standard shogi, for the generic record model: `Record<Shogi>` is a shogi
/// record.
///
/// ```
/// use kifu_record::{Game, Outcome, Record, Side, Span};
/// use kifu_shogi::{Position, Shogi, StartPosition};
///
/// let mut record: Record<Shogi> = Record::new(StartPosition::even());
/// let start = Shogi::start_position(&record.start);
/// let mv = start.parse_usi_move("7g7f").unwrap();
/// let root = record.moves.root();
/// record.moves.add_move(root, mv, Span::default());
/// let (_, after) = record.positions().last().unwrap();
/// assert_eq!(Shogi::turn(&after), Side::Second);
/// assert_eq!(Shogi::position_text(&after), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
/// assert_eq!(record.outcome(), Outcome::None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shogi;

impl Game for Shogi {
    const NAME: &'static str = "shogi";
    type Position = Position;
    type Move = Move;
    type Start = StartPosition;
    type Ending = ShogiEnding;
    type IllegalMove = IllegalMove;

    fn start_position(start: &StartPosition) -> Position {
        start.position.clone()
    }

    fn turn(position: &Position) -> Side {
        side_of(position.turn())
    }

    fn check_move(position: &Position, mv: &Move) -> Result<(), IllegalMove> {
        position.check_move(*mv)
    }

    fn play_unchecked(position: &mut Position, mv: &Move) {
        position.play_unchecked(*mv);
    }

    fn reserve_moves(position: &mut Position, moves: usize) {
        position.reserve(moves);
    }

    fn outcome(position: &Position) -> Option<RecordOutcome> {
        position.outcome().map(|outcome| match outcome {
            Outcome::Checkmate { winner }
            | Outcome::NoLegalMoves { winner }
            | Outcome::PerpetualCheck { winner } => RecordOutcome::Win(side_of(winner)),
            Outcome::Repetition => RecordOutcome::Draw,
        })
    }

    fn move_text(_: &Position, mv: &Move) -> String {
        mv.usi()
    }

    fn position_text(position: &Position) -> String {
        position.to_sfen()
    }

    fn position_key(position: &Position) -> Option<u64> {
        Some(position.hash())
    }

    fn move_facts(position: &Position, mv: &Move) -> Option<MoveFacts> {
        let mut after = position.without_history();
        after.play_unchecked(*mv);
        Some(MoveFacts {
            capture: mv.from().is_some() && position.piece_at(mv.to()).is_some(),
            check: after.is_check(),
            promotion: mv.is_promotion(),
        })
    }

    fn start_name(start: &StartPosition) -> Option<String> {
        start.handicap.map(|h| h.kif_name().to_owned())
    }
}

/// The endings of a shogi record that other games of the family do not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShogiEnding {
    /// Impasse by agreement or rule (CSA `%JISHOGI`, KIF `持将棋`): a draw.
    Impasse,
    /// The mover declares a win by entering king (CSA `%KACHI`, KIF `入玉勝ち`).
    DeclareWin,
    /// The mover declares a draw by entering king (CSA `%HIKIWAKE`).
    DeclareDraw,
    /// The mover wins by the try rule (KIF `トライ`): the king reached the opponent's king
    /// square.
    Try,
}

impl GameEnding for ShogiEnding {
    fn outcome(&self, mover: Side) -> RecordOutcome {
        match self {
            ShogiEnding::DeclareWin | ShogiEnding::Try => RecordOutcome::Win(mover),
            ShogiEnding::Impasse | ShogiEnding::DeclareDraw => RecordOutcome::Draw,
        }
    }
}

impl fmt::Display for ShogiEnding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ShogiEnding::Impasse => "impasse (持将棋)",
            ShogiEnding::DeclareWin => "declared win (入玉勝ち)",
            ShogiEnding::DeclareDraw => "declared draw",
            ShogiEnding::Try => "try",
        })
    }
}

/// Where a shogi game starts: a named handicap (平手 included) or a custom position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartPosition {
    /// The position play starts from.
    pub position: Position,
    /// The named start this position is, if any (`None` for a custom board).
    pub handicap: Option<Handicap>,
}

impl StartPosition {
    /// The even game (平手).
    pub fn even() -> StartPosition {
        StartPosition::handicap(Handicap::Even)
    }

    /// The named start `h`.
    pub fn handicap(h: Handicap) -> StartPosition {
        StartPosition {
            position: named_position(h).clone(),
            handicap: Some(h),
        }
    }

    /// A position given piece by piece; recognised as a named start when it is one.
    pub fn custom(position: Position) -> StartPosition {
        let handicap =
            if position.hand(Color::Black).is_empty() && position.hand(Color::White).is_empty() {
                Handicap::of_position(&position)
            } else {
                None
            };
        StartPosition { position, handicap }
    }
}

impl Default for StartPosition {
    fn default() -> Self {
        StartPosition::even()
    }
}

/// The named start positions, set up once (readers need one per record).
pub fn named_position(h: Handicap) -> &'static Position {
    // Each made the first time it is asked for: a reader of even games (nearly all) sets up
    // one position, not all sixteen (about 160,000 instructions, paid by every process that
    // reads a record).
    static POSITIONS: [OnceLock<Position>; Handicap::ALL.len()] =
        [const { OnceLock::new() }; Handicap::ALL.len()];
    POSITIONS[h as usize].get_or_init(|| h.position())
}

/// The record model's side for a shogi colour (先手 moves first).
pub fn side_of(color: Color) -> Side {
    match color {
        Color::Black => Side::First,
        Color::White => Side::Second,
    }
}

/// The shogi colour of a record side.
pub fn color_of(side: Side) -> Color {
    match side {
        Side::First => Color::Black,
        Side::Second => Color::White,
    }
}
