//! One position searched by one engine: the `position`/`go` lines, the engine's `info`
//! lines read as far as an analysis needs them (score with the mate's length, depth, nodes,
//! PV of the first line), its `bestmove` checked against the position, and what counts as
//! the engine failing — so that the batch can restart it and ask again.

use std::time::Duration;

use kifu_csa::usi::{EngineEvent, PositionCommand};
use kifu_shogi::{Color, Position};

use super::budget::Budget;
use super::{Finding, Score};
use crate::game::is_garbage;
use crate::process::{Engine, EngineError};

/// How an engine failed on a position.
#[derive(Debug, thiserror::Error)]
pub enum Fault {
    /// The process died, closed its output or refused a command.
    #[error("the engine failed: {0}")]
    Engine(#[from] EngineError),
    /// No `bestmove` in the time allowed.
    #[error("no bestmove in {0:?}")]
    Timeout(Duration),
    /// A `bestmove` that is not legal in the position.
    #[error("the engine's bestmove `{0}` is not legal here")]
    Illegal(String),
    /// A line that is not USI.
    #[error("the engine printed `{0}`, which is not USI")]
    Garbage(String),
}

impl Fault {
    /// A short name for reports and JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Engine(_) => "crash",
            Fault::Timeout(_) => "timeout",
            Fault::Illegal(_) => "illegal-move",
            Fault::Garbage(_) => "garbage",
        }
    }
}

/// The first line's figures of the engine's last `info` lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Heard {
    /// From the side to move's view, as USI gives it.
    score: Option<Score>,
    depth: Option<u32>,
    seldepth: Option<u32>,
    nodes: Option<u64>,
    pv: Vec<String>,
}

impl Heard {
    /// Notes one `info` line (its words after `info`), from an engine whose side to move is
    /// `turn`. Lines of other MultiPV lines than the first and `info string` say nothing here.
    fn note(&mut self, words: &[&str], turn: Color) {
        if words.windows(2).any(|w| w[0] == "multipv" && w[1] != "1") {
            return;
        }
        let mut i = 0;
        while i < words.len() {
            let next = words.get(i + 1).copied().unwrap_or("");
            match words[i] {
                "string" => return,
                "depth" => self.depth = next.parse().ok().or(self.depth),
                "seldepth" => self.seldepth = next.parse().ok().or(self.seldepth),
                "nodes" => self.nodes = next.parse().ok().or(self.nodes),
                "score" => {
                    let value = words.get(i + 2).copied().unwrap_or("");
                    self.score = engine_score(next, value, turn).or(self.score);
                    i += 1;
                }
                "pv" => {
                    self.pv = words[i + 1..].iter().map(|w| (*w).to_owned()).collect();
                    return;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

/// `score cp N` or `score mate N` (`+`/`-` without a length too) from the side to move's
/// view, turned to Black's.
fn engine_score(kind: &str, value: &str, turn: Color) -> Option<Score> {
    let sign = if turn == Color::Black { 1 } else { -1 };
    match kind {
        "cp" => value
            .trim_start_matches('+')
            .parse::<i64>()
            .ok()
            .map(|cp| Score::Centipawns(cp * sign)),
        "mate" => {
            let mover_wins = !value.starts_with('-');
            let plies = value.trim_start_matches(['+', '-']).parse::<u32>().ok();
            Some(Score::Mate {
                black_wins: mover_wins == (turn == Color::Black),
                plies,
            })
        }
        _ => None,
    }
}

/// Searches `position` (reached as `command` says, so that the engine knows the history
/// repetitions are judged on) within `budget`, `timeout` at most.
///
/// After a fault the engine is in no state to be asked again (it may still owe a
/// `bestmove`, or be dead): the caller kills it.
pub async fn search(
    engine: &mut Engine,
    position: &Position,
    command: &PositionCommand,
    budget: Budget,
    timeout: Duration,
) -> Result<Finding, Fault> {
    engine
        .protocol()
        .go_limited(command, &budget.limit())
        .map_err(EngineError::from)?;
    engine.flush().await?;
    let turn = position.turn();
    let mut heard = Heard::default();
    let answer = tokio::time::timeout(timeout, async {
        loop {
            let (line, event) = engine.next_line().await?;
            if let Some(EngineEvent::BestMove(thought)) = event {
                return Ok(thought);
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.split_first() {
                Some((&"info", rest)) => heard.note(rest, turn),
                _ if event.is_none() && is_garbage(&line) => {
                    return Err(Fault::Garbage(line.trim().to_owned()));
                }
                _ => {}
            }
        }
    })
    .await;
    let thought = match answer {
        Ok(Ok(thought)) => thought,
        Ok(Err(fault)) => return Err(fault),
        Err(_) => return Err(Fault::Timeout(timeout)),
    };
    if thought.best(position).is_err() {
        return Err(Fault::Illegal(thought.bestmove));
    }
    Ok(Finding {
        score: heard.score,
        bestmove: thought.bestmove,
        pv: legal_prefix(position, &heard.pv),
        depth: heard.depth,
        seldepth: heard.seldepth,
        nodes: heard.nodes,
    })
}

/// The PV up to its first move that is not legal where it is played (an engine's PV may run
/// on from a stale hash entry).
fn legal_prefix(position: &Position, pv: &[String]) -> Vec<String> {
    let mut p = position.clone();
    let mut kept = Vec::new();
    for text in pv {
        let Ok(mv) = p.parse_usi_move(text) else {
            break;
        };
        kept.push(text.clone());
        p.play_unchecked(mv);
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heard(lines: &[&str], turn: Color) -> Heard {
        let mut h = Heard::default();
        for line in lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            h.note(&words[1..], turn);
        }
        h
    }

    #[test]
    fn info_lines_give_the_first_lines_figures_from_blacks_side() {
        let h = heard(
            &[
                "info depth 3 seldepth 5 nodes 1200 score cp 40 pv 3c3d 2g2f",
                "info multipv 2 depth 3 score cp -300 pv 8c8d",
                "info string hash 50%",
                "info depth 4 nodes 3000 score cp 55 lowerbound pv 3c3d 7g7f 4c4d",
            ],
            Color::White,
        );
        assert_eq!(h.score, Some(Score::Centipawns(-55)));
        assert_eq!(
            (h.depth, h.seldepth, h.nodes),
            (Some(4), Some(5), Some(3000))
        );
        assert_eq!(h.pv, ["3c3d", "7g7f", "4c4d"]);
    }

    #[test]
    fn a_mate_keeps_its_length_and_its_winner() {
        let h = heard(&["info score mate 5 pv 2b3c"], Color::White);
        assert_eq!(
            h.score,
            Some(Score::Mate {
                black_wins: false,
                plies: Some(5)
            })
        );
        let h = heard(&["info score mate -"], Color::White);
        assert_eq!(
            h.score,
            Some(Score::Mate {
                black_wins: true,
                plies: None
            })
        );
    }

    #[test]
    fn a_pv_is_kept_up_to_its_first_illegal_move() {
        let pos = Position::startpos();
        let pv = ["7g7f", "3c3d", "7f7e", "9i9h+"].map(str::to_owned);
        assert_eq!(legal_prefix(&pos, &pv), ["7g7f", "3c3d", "7f7e"]);
    }
}
