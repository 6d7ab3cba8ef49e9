//! What a game must provide for its records to be read, replayed and written generically.
//!
//! Each rules crate implements [`Game`] for a marker type (`kifu_shogi::Shogi`,
//! `kifu_chu::Chu`, `kifu_cetkaik::Cetkaik`); [`crate::Record`] and the record formats are then
//! written once for all of them.

use std::fmt;

use crate::{GameEnding, Outcome, Side};

/// The rules of one game of the family, seen from its records.
///
/// A record stores a start ([`Game::Start`]) and moves ([`Game::Move`]); replaying it means
/// setting up [`Game::start_position`] and calling [`Game::play`] move by move. The rules
/// themselves stay in the game's crate: this trait only names them.
///
/// ```
/// use kifu_record::{Game, NoEnding, Outcome, Side};
///
/// /// Nim with one heap: take 1–3 stones; whoever takes the last stone wins.
/// #[derive(Debug)]
/// struct Nim;
///
/// #[derive(Debug, thiserror::Error)]
/// #[error("take 1 to 3 stones, at most what is left")]
/// struct BadTake;
///
/// impl Game for Nim {
///     const NAME: &'static str = "nim";
///     type Position = (u32, Side);
///     type Move = u32;
///     type Start = u32;
///     type Ending = NoEnding;
///     type IllegalMove = BadTake;
///
///     fn start_position(heap: &u32) -> (u32, Side) { (*heap, Side::First) }
///     fn turn(position: &(u32, Side)) -> Side { position.1 }
///     fn check_move(position: &(u32, Side), take: &u32) -> Result<(), BadTake> {
///         if (1..=3).contains(take) && *take <= position.0 { Ok(()) } else { Err(BadTake) }
///     }
///     fn play_unchecked(position: &mut (u32, Side), take: &u32) {
///         *position = (position.0 - take, position.1.opponent());
///     }
///     fn outcome(position: &(u32, Side)) -> Option<Outcome> {
///         (position.0 == 0).then(|| Outcome::Win(position.1.opponent()))
///     }
///     fn move_text(_: &(u32, Side), take: &u32) -> String { take.to_string() }
///     fn position_text(position: &(u32, Side)) -> String { position.0.to_string() }
/// }
///
/// let mut position = Nim::start_position(&5);
/// Nim::play(&mut position, &3).unwrap();
/// assert!(Nim::play(&mut position, &3).is_err());
/// Nim::play(&mut position, &2).unwrap();
/// assert_eq!(Nim::outcome(&position), Some(Outcome::Win(Side::Second)));
/// ```
pub trait Game: Sized + 'static {
    /// The game's name as users type it (`shogi`, `chu`, `cetkaik`).
    const NAME: &'static str;
    /// Everything the rules need to judge the next move.
    type Position: Clone + fmt::Debug;
    /// One move as the rules play it (for cetkaik, a move with its stick throws, or a
    /// declaration).
    type Move: Clone + fmt::Debug + PartialEq;
    /// How a record says its game starts: a named setup (shogi's handicaps) or a position.
    type Start: Clone + fmt::Debug + PartialEq + Default;
    /// The endings only this game has, beside the shared words of [`crate::EndingKind`].
    type Ending: GameEnding;
    /// Why a move cannot be played, worded as players of the game would say it.
    type IllegalMove: std::error::Error + Send + Sync + 'static;

    /// The position a record's start stands for.
    fn start_position(start: &Self::Start) -> Self::Position;

    /// Whose turn it is.
    fn turn(position: &Self::Position) -> Side;

    /// Whether `mv` may be played here, and if not, which rule it breaks.
    fn check_move(position: &Self::Position, mv: &Self::Move) -> Result<(), Self::IllegalMove>;

    /// Plays a move already known to be legal (what [`Game::check_move`] accepted).
    fn play_unchecked(position: &mut Self::Position, mv: &Self::Move);

    /// Makes room in `position` for the history of `moves` more moves, for a game whose
    /// position keeps one (shogi's, for repetition): a replay that knows its length grows it
    /// once. Nothing by default.
    fn reserve_moves(_position: &mut Self::Position, _moves: usize) {}

    /// Checks a move and plays it; a position is left as it was when the move is illegal.
    fn play(position: &mut Self::Position, mv: &Self::Move) -> Result<(), Self::IllegalMove> {
        Self::check_move(position, mv)?;
        Self::play_unchecked(position, mv);
        Ok(())
    }

    /// How the game stands decided on the board (checkmate, a captured king, no moves …),
    /// or `None` while it goes on.
    fn outcome(position: &Self::Position) -> Option<Outcome>;

    /// The move in the game's machine notation (USI for shogi and chu, CKKA notation ⓪ for
    /// cetkaik), played from `position`.
    fn move_text(position: &Self::Position, mv: &Self::Move) -> String;

    /// The position in the game's machine notation (SFEN for shogi and chu; notation ⓪'s board
    /// words for cetkaik).
    fn position_text(position: &Self::Position) -> String;

    /// The position's 64-bit key (board, hands, side to move; not the move number), for a
    /// game that defines one (shogi: `docs/position-key.md`); `None` otherwise. Tables and
    /// archives join and group positions by it.
    fn position_key(_position: &Self::Position) -> Option<u64> {
        None
    }

    /// What `mv` does beyond where it goes, played from `position`: for a game that tells
    /// (shogi); `None` otherwise.
    fn move_facts(_position: &Self::Position, _mv: &Self::Move) -> Option<MoveFacts> {
        None
    }

    /// The name of a named start (shogi's 平手, 香落ち …); `None` for a position given piece by
    /// piece or a game without named starts.
    fn start_name(_start: &Self::Start) -> Option<String> {
        None
    }
}

/// One step of a game's canonical key: the key of its first `n + 1` moves from the key of its
/// first `n` and the [`Game::position_key`] of the position after move `n + 1`
/// (`docs/position-key.md`). Two different moves from one position never lead to the same
/// position, so the positions stand for the moves; splitmix64's finaliser mixes every bit of
/// both into the result, so their order matters.
pub fn fold_game_key(key: u64, next_position: u64) -> u64 {
    let mut z = (key ^ next_position).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The canonical key of a game from its position keys: the start's first, then the position
/// after each move. Records of one game in any format have the same key.
///
/// ```
/// use kifu_record::game::{fold_game_key, game_key};
/// assert_eq!(game_key(&[1, 2, 3]), fold_game_key(fold_game_key(1, 2), 3));
/// assert_ne!(game_key(&[1, 2, 3]), game_key(&[1, 3, 2]));
/// ```
pub fn game_key(keys: &[u64]) -> u64 {
    match keys.split_first() {
        Some((&start, rest)) => rest
            .iter()
            .fold(start, |key, &next| fold_game_key(key, next)),
        None => 0,
    }
}

/// What a move does beyond where it goes ([`Game::move_facts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveFacts {
    /// It takes a piece.
    pub capture: bool,
    /// It gives check.
    pub check: bool,
    /// It promotes the piece moved.
    pub promotion: bool,
}
