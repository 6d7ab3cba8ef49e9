//! A record's main line analysed by one USI engine at a node budget: for every position of the
//! line, the engine's best move, its score from Black's side and its principal variation,
//! beside the move the record played there — the core `kifu analyze` (issue 31) builds on.
//!
//! The engine is asked position by position, in the order of the game, as GUIs' batch
//! analysis does (ShogiHome's 棋譜解析), with `usinewgame` once before the first: an engine
//! keeps its hash between the positions of one game, which makes the later ones cheaper.

use std::time::Duration;

use kifu_csa::usi::{BestMove, EngineEvent, PositionCommand, SearchLimit, Thought};
use kifu_records::shogi::ShogiRecord;
use kifu_shogi::{Color, Move, Position};

use crate::process::{Engine, EngineError};

/// What the engine said about one position of the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionAnalysis {
    /// Moves played before this position (0: the record's start).
    pub ply: u32,
    /// The engine's move: a legal move, or `None` when it resigned or declared.
    pub best: Option<Move>,
    /// `bestmove` as the engine wrote it (`7g7f`, `resign`, `win`).
    pub bestmove: String,
    /// Centipawns from Black's side (±[`kifu_csa::usi::MATE_SCORE`] for a mate), if given.
    pub score: Option<i64>,
    /// The principal variation from this position, as far as it is legal.
    pub pv: Vec<Move>,
    /// The move the record played here (`None` at the line's last position).
    pub played: Option<Move>,
}

/// Why an analysis stopped.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The engine failed (died, closed its output, refused a command).
    #[error("ply {ply}: {source}")]
    Engine {
        /// The position being analysed.
        ply: u32,
        /// Why.
        source: EngineError,
    },
    /// No `bestmove` within the time allowed.
    #[error("ply {ply}: no bestmove in {timeout:?}")]
    Timeout {
        /// The position being analysed.
        ply: u32,
        /// The time allowed.
        timeout: Duration,
    },
    /// The engine's `bestmove` is not legal in the position.
    #[error("ply {ply}: {reason}")]
    IllegalMove {
        /// The position being analysed.
        ply: u32,
        /// The move and the rule it breaks.
        reason: String,
    },
}

/// Analyses every position of `record`'s main line (the start, and after each legal move),
/// `nodes` nodes each; a position with no legal move (the game is over) is not asked about.
/// `timeout` bounds each search.
pub async fn analyse_record(
    engine: &mut Engine,
    record: &ShogiRecord,
    nodes: u64,
    timeout: Duration,
) -> Result<Vec<PositionAnalysis>, AnalysisError> {
    let mut moves = Vec::new();
    record.walk_main_line(|_, _, mv| moves.push(*mv));
    analyse_line(engine, &record.start.position, &moves, nodes, timeout).await
}

/// [`analyse_record`] for a line given as its start and legal moves.
pub async fn analyse_line(
    engine: &mut Engine,
    start: &Position,
    moves: &[Move],
    nodes: u64,
    timeout: Duration,
) -> Result<Vec<PositionAnalysis>, AnalysisError> {
    engine.protocol().new_game();
    engine
        .flush()
        .await
        .map_err(|source| AnalysisError::Engine { ply: 0, source })?;
    let mut out = Vec::with_capacity(moves.len() + 1);
    let mut position = start.clone();
    for ply in 0..=moves.len() {
        let ply_u32 = ply as u32;
        if position.legal_moves().is_empty() {
            break;
        }
        let command = PositionCommand::from_game(start, &moves[..ply]);
        let thought = think(engine, &command, nodes, timeout, ply_u32).await?;
        out.push(read_thought(
            &position,
            ply_u32,
            &thought,
            moves.get(ply).copied(),
        )?);
        if let Some(&mv) = moves.get(ply) {
            position.play_unchecked(mv);
        }
    }
    Ok(out)
}

async fn think(
    engine: &mut Engine,
    command: &PositionCommand,
    nodes: u64,
    timeout: Duration,
    ply: u32,
) -> Result<Thought, AnalysisError> {
    let failed = |source: EngineError| AnalysisError::Engine { ply, source };
    engine
        .protocol()
        .go_limited(command, &SearchLimit::Nodes(nodes))
        .map_err(|e| failed(e.into()))?;
    engine.flush().await.map_err(failed)?;
    let answer = tokio::time::timeout(timeout, async {
        loop {
            if let Some(EngineEvent::BestMove(thought)) = engine.next_event().await? {
                return Ok::<Thought, EngineError>(thought);
            }
        }
    })
    .await;
    match answer {
        Ok(Ok(thought)) => Ok(thought),
        Ok(Err(source)) => Err(failed(source)),
        Err(_) => {
            engine.stop().await;
            Err(AnalysisError::Timeout { ply, timeout })
        }
    }
}

fn read_thought(
    position: &Position,
    ply: u32,
    thought: &Thought,
    played: Option<Move>,
) -> Result<PositionAnalysis, AnalysisError> {
    let best = match thought.best(position) {
        Ok(BestMove::Move(mv)) => Some(mv),
        Ok(BestMove::Resign | BestMove::Win) => None,
        Err(e) => {
            return Err(AnalysisError::IllegalMove {
                ply,
                reason: e.to_string(),
            });
        }
    };
    let sign = if position.turn() == Color::Black {
        1
    } else {
        -1
    };
    let mut pv = Vec::new();
    let mut p = position.clone();
    for text in &thought.pv {
        let Ok(mv) = p.parse_usi_move(text) else {
            break;
        };
        pv.push(mv);
        p.play_unchecked(mv);
    }
    Ok(PositionAnalysis {
        ply,
        best,
        bestmove: thought.bestmove.clone(),
        score: thought.score.map(|s| s * sign),
        pv,
        played,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thought_at_whites_turn_is_scored_from_blacks_side_with_its_pv_kept_while_legal() {
        let mut pos = Position::startpos();
        pos.play_unchecked(pos.parse_usi_move("7g7f").unwrap());
        let thought = Thought {
            bestmove: "3c3d".to_owned(),
            score: Some(45),
            pv: ["3c3d", "8h2b+", "9i9h+"].map(str::to_owned).to_vec(),
            ponder: None,
        };
        let played = pos.parse_usi_move("8c8d").ok();
        let a = read_thought(&pos, 1, &thought, played).unwrap();
        assert_eq!(a.score, Some(-45));
        assert_eq!(a.best.map(|m| m.usi()), Some("3c3d".to_owned()));
        let pv: Vec<String> = a.pv.iter().map(|m| m.usi()).collect();
        assert_eq!(
            pv,
            ["3c3d", "8h2b+"],
            "the PV stops at its first illegal move"
        );
        assert_eq!(a.played, played);
        let illegal = Thought {
            bestmove: "7g7f".to_owned(),
            ..thought
        };
        assert!(matches!(
            read_thought(&pos, 1, &illegal, None),
            Err(AnalysisError::IllegalMove { ply: 1, .. })
        ));
    }
}
