//! Records analysed by USI engines (`kifu analyze`): at every position of a record's main
//! line (and, if asked, of its variations) an engine searches under a [`Budget`]; its score,
//! best move and principal variation are kept as a [`Finding`], and the moves played are
//! judged against the engine's ([`judgement`]).
//!
//! - [`budget`]: `go nodes`, `go depth` or a fixed time a position;
//! - [`search`]: one position searched by one engine, and what counts as the engine failing;
//! - [`tasks`]: the positions of a record, each with what the engine needs to be told;
//! - [`batch`]: many records' positions shared among `--jobs` engine processes, a failed
//!   engine restarted and its position asked once more, the cache consulted first;
//! - [`cache`]: findings on disk (SQLite), keyed by position, engine and budget;
//! - [`judgement`]: the loss of each move, its class (緩手, 疑問手, 悪手, 大悪手), and summaries
//!   per game and per player.
//!
//! Scores are from Black's (先手's) side. A mate is a [`Score::Mate`] with its length where
//! the engine gave one; where one number is wanted ([`Score::value`]) it is ±[`MATE_VALUE`]
//! (30000), the value `kifu export`'s `eval` column gives a mate.

pub mod batch;
pub mod budget;
pub mod cache;
pub mod judgement;
pub mod search;
pub mod tasks;

use std::time::Duration;

use kifu_csa::usi::PositionCommand;
use kifu_records::shogi::ShogiRecord;
use kifu_shogi::{Move, Position};
use serde::{Deserialize, Serialize};

pub use budget::Budget;
pub use search::Fault;

use crate::process::Engine;

/// The value a mate stands for where one number is wanted, from the winner's side: as
/// `kifu export`'s `eval` column and floodgate's records write it.
pub const MATE_VALUE: i64 = 30_000;

/// An engine's score of a position, from Black's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// `score cp N`, turned to Black's side.
    Centipawns(i64),
    /// `score mate N`: who mates, and in how many plies if the engine said.
    Mate {
        /// Black mates (else White does).
        black_wins: bool,
        /// Plies to the mate, as the engine counted them.
        plies: Option<u32>,
    },
}

impl Score {
    /// Centipawns from Black's side, a mate as ±[`MATE_VALUE`].
    pub fn value(self) -> i64 {
        match self {
            Score::Centipawns(cp) => cp.clamp(-MATE_VALUE, MATE_VALUE),
            Score::Mate {
                black_wins: true, ..
            } => MATE_VALUE,
            Score::Mate {
                black_wins: false, ..
            } => -MATE_VALUE,
        }
    }
}

/// What the engine said about one position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// The score of the first line, from Black's side; `None` if the engine gave none.
    pub score: Option<Score>,
    /// `bestmove` as the engine wrote it (`7g7f`, `resign`, `win`), checked legal.
    pub bestmove: String,
    /// The principal variation in USI moves, from this position, as far as it is legal.
    pub pv: Vec<String>,
    /// The depth of the last `info` line.
    pub depth: Option<u32>,
    /// Its selective depth.
    pub seldepth: Option<u32>,
    /// The nodes searched, as the engine last said.
    pub nodes: Option<u64>,
}

impl Finding {
    /// The finding of a position the rules decide without an engine: the side to move has
    /// no legal move and has lost (checkmate, or a position with no move at all).
    pub fn decided(position: &Position) -> Finding {
        Finding {
            score: Some(Score::Mate {
                black_wins: position.turn() != kifu_shogi::Color::Black,
                plies: Some(0),
            }),
            bestmove: "resign".to_owned(),
            pv: Vec::new(),
            depth: None,
            seldepth: None,
            nodes: None,
        }
    }

    /// The best move, decoded in `position` (`None` for `resign` and `win`).
    pub fn best(&self, position: &Position) -> Option<Move> {
        position.parse_usi_move(&self.bestmove).ok()
    }

    /// The PV decoded move by move from `position`.
    pub fn pv_moves(&self, position: &Position) -> Vec<Move> {
        let mut p = position.clone();
        let mut moves = Vec::with_capacity(self.pv.len());
        for text in &self.pv {
            let Ok(mv) = p.parse_usi_move(text) else {
                break;
            };
            moves.push(mv);
            p.play_unchecked(mv);
        }
        moves
    }
}

/// What the engine said about one position of a line, with the move the record played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionAnalysis {
    /// Moves played before this position (0: the record's start).
    pub ply: u32,
    /// The engine's finding.
    pub finding: Finding,
    /// The move the record played here (`None` at the line's last position).
    pub played: Option<Move>,
}

/// Why a one-engine analysis of a line stopped.
#[derive(Debug, thiserror::Error)]
#[error("ply {ply}: {fault}")]
pub struct AnalysisError {
    /// The position being analysed.
    pub ply: u32,
    /// What the engine did.
    pub fault: Fault,
}

/// Analyses every position of `record`'s main line with one engine, in order, `usinewgame`
/// once first (so the engine keeps its hash between the positions of the game); a position
/// where the game is over is decided by the rules ([`Finding::decided`]). `timeout` bounds
/// each search. For many records, many engines and a cache, see [`batch`].
pub async fn analyse_record(
    engine: &mut Engine,
    record: &ShogiRecord,
    budget: Budget,
    timeout: Duration,
) -> Result<Vec<PositionAnalysis>, AnalysisError> {
    let mut moves = Vec::new();
    record.walk_main_line(|_, _, mv| moves.push(*mv));
    analyse_line(engine, &record.start.position, &moves, budget, timeout).await
}

/// [`analyse_record`] for a line given as its start and legal moves.
pub async fn analyse_line(
    engine: &mut Engine,
    start: &Position,
    moves: &[Move],
    budget: Budget,
    timeout: Duration,
) -> Result<Vec<PositionAnalysis>, AnalysisError> {
    engine.protocol().new_game();
    engine.flush().await.map_err(|e| AnalysisError {
        ply: 0,
        fault: e.into(),
    })?;
    let mut out = Vec::with_capacity(moves.len() + 1);
    let mut position = start.clone();
    for ply in 0..=moves.len() {
        let finding = if position.legal_moves().is_empty() {
            Finding::decided(&position)
        } else {
            let command = PositionCommand::from_game(start, &moves[..ply]);
            search::search(engine, &position, &command, budget, timeout)
                .await
                .map_err(|fault| AnalysisError {
                    ply: ply as u32,
                    fault,
                })?
        };
        out.push(PositionAnalysis {
            ply: ply as u32,
            finding,
            played: moves.get(ply).copied(),
        });
        if let Some(&mv) = moves.get(ply) {
            position.play_unchecked(mv);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mate_is_thirty_thousand_from_the_winners_side() {
        let white_mates = Score::Mate {
            black_wins: false,
            plies: Some(3),
        };
        assert_eq!(white_mates.value(), -MATE_VALUE);
        assert_eq!(Score::Centipawns(-45).value(), -45);
        assert_eq!(Score::Centipawns(99_999).value(), MATE_VALUE);
    }

    #[test]
    fn findings_round_trip_through_json_for_the_cache() {
        let f = Finding {
            score: Some(Score::Mate {
                black_wins: true,
                plies: None,
            }),
            bestmove: "7g7f".to_owned(),
            pv: vec!["7g7f".to_owned(), "3c3d".to_owned()],
            depth: Some(9),
            seldepth: None,
            nodes: Some(20000),
        };
        let text = serde_json::to_string(&f).unwrap();
        assert_eq!(serde_json::from_str::<Finding>(&text).unwrap(), f);
    }
}
