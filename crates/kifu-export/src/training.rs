//! The fixed-size entries of engine training files, byte for byte as their programs lay them
//! out (little-endian, packed):
//!
//! - cshogi's `HuffmanCodedPosAndEval` (`.hcpe`, 38 bytes): `hcp` (32), `eval` (i16, for the
//!   side to move), `bestMove16` (u16, cshogi's `move16`), `gameResult` (u8: 0 draw, 1 black
//!   won, 2 white won), `dummy` (u8, 0);
//! - YaneuraOu's `PackedSfenValue` (`.psv`/`.bin`, 40 bytes): `sfen` (32, packed sfen),
//!   `score` (i16, for the side to move), `move` (u16, YaneuraOu's `Move16`), `gamePly`
//!   (u16), `game_result` (i8: 1 the side to move won, −1 lost, 0 draw), `padding` (u8, 0);
//! - dlshogi's `hcpe3`: per game a `HuffmanCodedPosAndEval3` (36 bytes: `hcp` of the start,
//!   `moveNum` u16, `result` u8, `opponent` u8), then per move a `MoveInfo` (6 bytes:
//!   `selectedMove16` u16, `eval` i16, `candidateNum` u16) followed by `candidateNum`
//!   `MoveVisits` (4 bytes: `move16` u16, `visitNum` u16).

/// `gameResult` of an hcpe entry and the low bits of an hcpe3 game's `result`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// A draw, or no result.
    Draw = 0,
    /// Black (先手) won.
    BlackWin = 1,
    /// White (後手) won.
    WhiteWin = 2,
}

/// One position of an hcpe file: cshogi's `HuffmanCodedPosAndEval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hcpe {
    /// The position, Apery-Huffman coded (see [`crate::packed::hcp`]).
    pub hcp: [u8; 32],
    /// The evaluation for the side to move.
    pub eval: i16,
    /// The move played, as cshogi's `move16` (see [`crate::move16::cshogi_move16`]).
    pub best_move16: u16,
    /// How the game ended.
    pub game_result: GameResult,
}

impl Hcpe {
    /// The size of one entry in bytes.
    pub const SIZE: usize = 38;
    /// Where `gameResult` sits in the entry's bytes.
    pub const RESULT_AT: usize = 36;

    /// The entry as it is stored.
    pub fn to_bytes(&self) -> [u8; Hcpe::SIZE] {
        let mut out = [0; Hcpe::SIZE];
        out[..32].copy_from_slice(&self.hcp);
        out[32..34].copy_from_slice(&self.eval.to_le_bytes());
        out[34..36].copy_from_slice(&self.best_move16.to_le_bytes());
        out[Hcpe::RESULT_AT] = self.game_result as u8;
        out
    }

    /// The entry stored in `bytes`; `None` for a `gameResult` other than 0, 1 or 2.
    pub fn from_bytes(bytes: &[u8; Hcpe::SIZE]) -> Option<Hcpe> {
        Some(Hcpe {
            hcp: bytes[..32].try_into().expect("32 bytes"),
            eval: i16::from_le_bytes([bytes[32], bytes[33]]),
            best_move16: u16::from_le_bytes([bytes[34], bytes[35]]),
            game_result: match bytes[36] {
                0 => GameResult::Draw,
                1 => GameResult::BlackWin,
                2 => GameResult::WhiteWin,
                _ => return None,
            },
        })
    }
}

/// One position of a YaneuraOu training file: `PackedSfenValue`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Psv {
    /// The position, packed (see [`crate::packed::packed_sfen`]).
    pub sfen: [u8; 32],
    /// The evaluation for the side to move.
    pub score: i16,
    /// The move played, as YaneuraOu's `Move16` (see [`crate::move16::yaneuraou_move16`]).
    pub mv: u16,
    /// The position's ply number (1 at the start of a game, as in SFEN).
    pub game_ply: u16,
    /// 1 if the side to move went on to win, −1 if it lost, 0 for a draw or no result.
    pub game_result: i8,
}

impl Psv {
    /// The size of one entry in bytes.
    pub const SIZE: usize = 40;
    /// Where `game_result` sits in the entry's bytes.
    pub const RESULT_AT: usize = 38;

    /// The entry as it is stored.
    pub fn to_bytes(&self) -> [u8; Psv::SIZE] {
        let mut out = [0; Psv::SIZE];
        out[..32].copy_from_slice(&self.sfen);
        out[32..34].copy_from_slice(&self.score.to_le_bytes());
        out[34..36].copy_from_slice(&self.mv.to_le_bytes());
        out[36..38].copy_from_slice(&self.game_ply.to_le_bytes());
        out[Psv::RESULT_AT] = self.game_result as u8;
        out
    }

    /// The entry stored in `bytes`.
    pub fn from_bytes(bytes: &[u8; Psv::SIZE]) -> Psv {
        Psv {
            sfen: bytes[..32].try_into().expect("32 bytes"),
            score: i16::from_le_bytes([bytes[32], bytes[33]]),
            mv: u16::from_le_bytes([bytes[34], bytes[35]]),
            game_ply: u16::from_le_bytes([bytes[36], bytes[37]]),
            game_result: bytes[38] as i8,
        }
    }
}

/// A file whose length is no whole number of entries.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{len} bytes is no whole number of {size}-byte entries ({extra} bytes left over)")]
pub struct PartialEntry {
    /// The file's length.
    pub len: usize,
    /// The size of one entry.
    pub size: usize,
    /// The bytes after the last whole entry.
    pub extra: usize,
}

fn chunks<const N: usize>(bytes: &[u8]) -> Result<impl Iterator<Item = &[u8; N]>, PartialEntry> {
    if !bytes.len().is_multiple_of(N) {
        return Err(PartialEntry {
            len: bytes.len(),
            size: N,
            extra: bytes.len() % N,
        });
    }
    Ok(bytes
        .chunks_exact(N)
        .map(|c| c.try_into().expect("chunks_exact gives N bytes")))
}

/// The entries of an hcpe file's bytes. An entry whose `gameResult` is not 0–2 reads as
/// `None`.
///
/// ```
/// use kifu_export::training::{read_hcpe, GameResult, Hcpe};
///
/// let entry = Hcpe { hcp: [0; 32], eval: -12, best_move16: 7, game_result: GameResult::WhiteWin };
/// let bytes = entry.to_bytes();
/// assert_eq!(read_hcpe(&bytes).unwrap().collect::<Vec<_>>(), [Some(entry)]);
/// ```
pub fn read_hcpe(bytes: &[u8]) -> Result<impl Iterator<Item = Option<Hcpe>> + '_, PartialEntry> {
    Ok(chunks::<{ Hcpe::SIZE }>(bytes)?.map(Hcpe::from_bytes))
}

/// The entries of a psv file's bytes.
pub fn read_psv(bytes: &[u8]) -> Result<impl Iterator<Item = Psv> + '_, PartialEntry> {
    Ok(chunks::<{ Psv::SIZE }>(bytes)?.map(Psv::from_bytes))
}

/// One move of an hcpe3 game: dlshogi's `MoveInfo` with its candidates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hcpe3Move {
    /// The move played, as cshogi's `move16`.
    pub selected_move16: u16,
    /// The evaluation for the side to move.
    pub eval: i16,
    /// Candidate moves with their visit counts (`MoveVisits`).
    pub candidates: Vec<(u16, u16)>,
}

/// dlshogi's `result` flags beside the winner: how the game ended.
pub mod hcpe3_result {
    /// The game ended by repetition (千日手).
    pub const REPETITION: u8 = 0b100;
    /// The game ended by an entering-king declaration (入玉宣言).
    pub const DECLARATION: u8 = 0b1000;
    /// The game reached its move limit.
    pub const MAX_MOVES: u8 = 0b1_0000;
}

/// One game of an hcpe3 file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hcpe3Game {
    /// The start position, Apery-Huffman coded.
    pub hcp: [u8; 32],
    /// The winner ([`GameResult`] as a number) or'ed with [`hcpe3_result`] flags.
    pub result: u8,
    /// Who played: 0 self-play, 1 the USI engine was black, 2 white (kifu writes 0: a
    /// record does not say).
    pub opponent: u8,
    /// The moves played.
    pub moves: Vec<Hcpe3Move>,
}

impl Hcpe3Game {
    /// Appends the game as stored to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.hcp);
        out.extend_from_slice(&(self.moves.len() as u16).to_le_bytes());
        out.push(self.result);
        out.push(self.opponent);
        for mv in &self.moves {
            out.extend_from_slice(&mv.selected_move16.to_le_bytes());
            out.extend_from_slice(&mv.eval.to_le_bytes());
            out.extend_from_slice(&(mv.candidates.len() as u16).to_le_bytes());
            for (move16, visits) in &mv.candidates {
                out.extend_from_slice(&move16.to_le_bytes());
                out.extend_from_slice(&visits.to_le_bytes());
            }
        }
    }
}

/// An hcpe3 file that ends inside a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the hcpe3 data ends inside a game, at byte {at}")]
pub struct TruncatedHcpe3 {
    /// Where the unfinished game starts.
    pub at: usize,
}

/// Every game of an hcpe3 file's bytes.
///
/// ```
/// use kifu_export::training::{read_hcpe3, Hcpe3Game, Hcpe3Move};
///
/// let game = Hcpe3Game {
///     hcp: [0; 32],
///     result: 1,
///     opponent: 0,
///     moves: vec![Hcpe3Move { selected_move16: 5, eval: 30, candidates: vec![(5, 1)] }],
/// };
/// let mut bytes = Vec::new();
/// game.write_to(&mut bytes);
/// assert_eq!(read_hcpe3(&bytes).unwrap(), [game]);
/// ```
pub fn read_hcpe3(bytes: &[u8]) -> Result<Vec<Hcpe3Game>, TruncatedHcpe3> {
    let mut games = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let start = at;
        let err = TruncatedHcpe3 { at: start };
        let take = |at: &mut usize, n: usize| -> Result<&[u8], TruncatedHcpe3> {
            let slice = bytes.get(*at..*at + n).ok_or(err.clone())?;
            *at += n;
            Ok(slice)
        };
        let u16_at = |s: &[u8], i: usize| u16::from_le_bytes([s[i], s[i + 1]]);
        let head = take(&mut at, 36)?;
        let mut game = Hcpe3Game {
            hcp: head[..32].try_into().expect("32 bytes"),
            result: head[34],
            opponent: head[35],
            moves: Vec::new(),
        };
        for _ in 0..u16_at(head, 32) {
            let info = take(&mut at, 6)?;
            let count = u16_at(info, 4);
            let mut mv = Hcpe3Move {
                selected_move16: u16_at(info, 0),
                eval: u16_at(info, 2) as i16,
                candidates: Vec::with_capacity(usize::from(count)),
            };
            for _ in 0..count {
                let visit = take(&mut at, 4)?;
                mv.candidates.push((u16_at(visit, 0), u16_at(visit, 2)));
            }
            game.moves.push(mv);
        }
        games.push(game);
    }
    Ok(games)
}
