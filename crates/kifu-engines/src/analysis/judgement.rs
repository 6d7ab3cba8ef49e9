//! How good each move was, against the engine's best.
//!
//! The loss of a move is what the mover gave away: the score of the position before it (the
//! engine's best line) minus the score of the position after it, both from the mover's side,
//! never below zero. It is measured two ways:
//!
//! - in centipawns (a mate counts as ±[`super::MATE_VALUE`]);
//! - in points of winning chance, the score turned into a percentage by the logistic curve
//!   `100 / (1 + e^(−cp / k))` with `k` = 600 — the curve and default coefficient of
//!   ShogiHome's 評価値の勝率換算 (`coefficientInSigmoid`).
//!
//! A move is classed by its loss of winning chance with ShogiHome's default thresholds
//! (`badMoveLevelThreshold1`–`4` in its settings): 5 points 緩手 (inaccuracy), 10 疑問手
//! (dubious), 20 悪手 (mistake), 50 大悪手 (blunder); all four can be set. As in ShogiHome,
//! the move the engine itself chose is never classed, whatever the scores say.
//!
//! The averages per side count each move's centipawn loss up to 1000 (as lichess's average
//! centipawn loss does), so that one missed mate does not hide how the rest was played.

use std::collections::BTreeMap;

use kifu_shogi::Color;
use serde::Serialize;

use super::batch::AnalysedPosition;

/// Where the classes begin, in points of winning chance, and the curve's coefficient.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// 緩手 from this loss.
    pub inaccuracy: f64,
    /// 疑問手 from this loss.
    pub dubious: f64,
    /// 悪手 from this loss.
    pub mistake: f64,
    /// 大悪手 from this loss.
    pub blunder: f64,
    /// Centipawns of the logistic curve's scale (ShogiHome's `coefficientInSigmoid`).
    pub coefficient: f64,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            inaccuracy: 5.0,
            dubious: 10.0,
            mistake: 20.0,
            blunder: 50.0,
            coefficient: 600.0,
        }
    }
}

impl Thresholds {
    /// The winning chance of a score from one side, in percent.
    pub fn win_rate(&self, cp: i64) -> f64 {
        100.0 / (1.0 + (-(cp as f64) / self.coefficient).exp())
    }

    /// The class of a loss of winning chance.
    pub fn class(&self, loss: f64) -> Option<Class> {
        if loss >= self.blunder {
            Some(Class::Blunder)
        } else if loss >= self.mistake {
            Some(Class::Mistake)
        } else if loss >= self.dubious {
            Some(Class::Dubious)
        } else if loss >= self.inaccuracy {
            Some(Class::Inaccuracy)
        } else {
            None
        }
    }
}

/// A move's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// 緩手.
    Inaccuracy,
    /// 疑問手.
    Dubious,
    /// 悪手.
    Mistake,
    /// 大悪手.
    Blunder,
}

impl Class {
    /// Every class, mildest first.
    pub const ALL: [Class; 4] = [
        Class::Inaccuracy,
        Class::Dubious,
        Class::Mistake,
        Class::Blunder,
    ];

    /// The English name reports and JSON use.
    pub fn name(self) -> &'static str {
        match self {
            Class::Inaccuracy => "inaccuracy",
            Class::Dubious => "dubious",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// The Japanese word (ShogiHome's and the players').
    pub fn japanese(self) -> &'static str {
        match self {
            Class::Inaccuracy => "緩手",
            Class::Dubious => "疑問手",
            Class::Mistake => "悪手",
            Class::Blunder => "大悪手",
        }
    }
}

/// One move judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveJudgement {
    /// The move's number, from 1.
    pub ply: u32,
    /// Who played it: `black` or `white`.
    pub side: &'static str,
    /// The move played (USI).
    pub played: String,
    /// The engine's best move in the position before it (USI; `resign`/`win` too).
    pub best: String,
    /// The score before the move (the engine's best line), Black's side.
    pub score_before: i64,
    /// The score after the move, Black's side.
    pub score_after: i64,
    /// Centipawns the mover gave away (0 or more).
    pub loss_cp: i64,
    /// Points of winning chance the mover gave away (0 or more).
    pub loss_win_rate: f64,
    /// Its class, if any.
    pub class: Option<Class>,
}

/// Judges each move of a record's main line whose positions before and after both have a
/// score. `positions` are the record's analysed positions (variations are passed over).
pub fn judge(positions: &[AnalysedPosition], thresholds: &Thresholds) -> Vec<MoveJudgement> {
    let main: Vec<&AnalysedPosition> = positions.iter().filter(|p| p.task.main_line).collect();
    let mut out = Vec::new();
    for pair in main.windows(2) {
        let (before, after) = (pair[0], pair[1]);
        let Some(played) = &before.task.played else {
            continue;
        };
        let (Some(fb), Some(fa)) = (&before.finding, &after.finding) else {
            continue;
        };
        let (Some(sb), Some(sa)) = (fb.score, fa.score) else {
            continue;
        };
        let mover = before.task.position.turn();
        let sign = if mover == Color::Black { 1 } else { -1 };
        let (vb, va) = (sb.value(), sa.value());
        let is_best = fb.bestmove == *played;
        let (loss_cp, loss_win_rate) = if is_best {
            (0, 0.0)
        } else {
            (
                ((vb - va) * sign).max(0),
                (thresholds.win_rate(vb * sign) - thresholds.win_rate(va * sign)).max(0.0),
            )
        };
        out.push(MoveJudgement {
            ply: after.task.ply,
            side: side_name(mover),
            played: played.clone(),
            best: fb.bestmove.clone(),
            score_before: vb,
            score_after: va,
            loss_cp,
            loss_win_rate,
            class: if is_best {
                None
            } else {
                thresholds.class(loss_win_rate)
            },
        });
    }
    out
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A move among the worst of a summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorstMove {
    /// The record's place in the batch.
    pub record: usize,
    /// The move as judged.
    #[serde(flatten)]
    pub judgement: MoveJudgement,
}

/// How many worst moves a summary lists.
pub const WORST_LISTED: usize = 3;

/// The moves of one side (of a game, or of a player over games), summed so that they can be
/// added up.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    /// Moves judged.
    pub moves: u32,
    /// Moves that were the engine's best.
    pub best_moves: u32,
    /// Average centipawn loss, each move's counted up to 1000.
    pub average_loss_cp: f64,
    /// Average loss of winning chance, in points.
    pub average_loss_win_rate: f64,
    /// Moves of each class, by class name.
    pub classes: BTreeMap<&'static str, u32>,
    /// The worst moves, worst first (by loss of winning chance).
    pub worst: Vec<WorstMove>,
    #[serde(skip)]
    capped_loss_sum: i64,
    #[serde(skip)]
    win_rate_loss_sum: f64,
}

impl Tally {
    /// Counts one move of record `record`.
    pub fn add(&mut self, record: usize, judgement: &MoveJudgement) {
        self.moves += 1;
        if judgement.played == judgement.best {
            self.best_moves += 1;
        }
        self.capped_loss_sum += judgement.loss_cp.min(1000);
        self.win_rate_loss_sum += judgement.loss_win_rate;
        if let Some(class) = judgement.class {
            *self.classes.entry(class.name()).or_default() += 1;
        }
        self.worst.push(WorstMove {
            record,
            judgement: judgement.clone(),
        });
        self.worst.sort_by(|a, b| {
            b.judgement
                .loss_win_rate
                .total_cmp(&a.judgement.loss_win_rate)
                .then(b.judgement.loss_cp.cmp(&a.judgement.loss_cp))
        });
        self.worst.truncate(WORST_LISTED);
        self.average_loss_cp = self.capped_loss_sum as f64 / f64::from(self.moves);
        self.average_loss_win_rate = self.win_rate_loss_sum / f64::from(self.moves);
    }

    /// Adds another tally's moves.
    pub fn merge(&mut self, other: &Tally) {
        for worst in &other.worst {
            // Re-added through `add`'s bookkeeping would count them twice: merged by hand.
            self.worst.push(worst.clone());
        }
        self.worst.sort_by(|a, b| {
            b.judgement
                .loss_win_rate
                .total_cmp(&a.judgement.loss_win_rate)
        });
        self.worst.truncate(WORST_LISTED);
        self.moves += other.moves;
        self.best_moves += other.best_moves;
        self.capped_loss_sum += other.capped_loss_sum;
        self.win_rate_loss_sum += other.win_rate_loss_sum;
        for (k, v) in &other.classes {
            *self.classes.entry(k).or_default() += v;
        }
        if self.moves > 0 {
            self.average_loss_cp = self.capped_loss_sum as f64 / f64::from(self.moves);
            self.average_loss_win_rate = self.win_rate_loss_sum / f64::from(self.moves);
        }
    }

    /// Moves of a class.
    pub fn count(&self, class: Class) -> u32 {
        self.classes.get(class.name()).copied().unwrap_or(0)
    }
}

/// Both sides of one game.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GameSummary {
    /// Black's (先手's) moves.
    pub black: Tally,
    /// White's (後手's) moves.
    pub white: Tally,
}

/// Sums the judgements of record `record` per side.
pub fn summarise(record: usize, judgements: &[MoveJudgement]) -> GameSummary {
    let mut summary = GameSummary::default();
    for j in judgements {
        match j.side {
            "black" => summary.black.add(record, j),
            _ => summary.white.add(record, j),
        }
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::tasks::positions;
    use crate::analysis::{Finding, Score};

    fn finding(best: &str, cp: i64) -> Finding {
        Finding {
            score: Some(Score::Centipawns(cp)),
            bestmove: best.to_owned(),
            pv: vec![best.to_owned()],
            depth: None,
            seldepth: None,
            nodes: None,
        }
    }

    fn analysed(scores: &[(&str, i64)]) -> Vec<AnalysedPosition> {
        let kif = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n";
        let format = kifu_records::shogi::format_by_name("kif").unwrap();
        let (_, parsed) = kifu_records::read_bytes(kif.as_bytes(), format);
        let record = parsed.records.into_iter().next().unwrap();
        positions(&record, 0, false)
            .into_iter()
            .zip(scores)
            .map(|(task, (best, cp))| AnalysedPosition {
                task,
                finding: Some(finding(best, *cp)),
            })
            .collect()
    }

    #[test]
    fn the_loss_is_taken_from_the_movers_side_and_classed_by_winning_chance() {
        // Black's 7g7f (engine preferred 2g2f) drops 50 → -500: a loss of 550 for Black.
        // White's 3c3d is the engine's move: never classed. Black's 2g2f gains: no loss.
        let positions = analysed(&[("2g2f", 50), ("3c3d", -500), ("2g2f", -380), ("8c8d", 0)]);
        let t = Thresholds::default();
        let j = judge(&positions, &t);
        assert_eq!(j.len(), 3);
        assert_eq!((j[0].ply, j[0].side, j[0].loss_cp), (1, "black", 550));
        let expected = t.win_rate(50) - t.win_rate(-500);
        assert!((j[0].loss_win_rate - expected).abs() < 1e-9);
        assert_eq!(j[0].class, Some(Class::Mistake), "{expected:.1} points");
        assert_eq!((j[1].loss_cp, j[1].class), (0, None));
        assert_eq!(j[1].best, "3c3d");
        assert_eq!((j[2].loss_cp, j[2].class), (0, None));
        let summary = summarise(0, &j);
        assert_eq!(summary.black.moves, 2);
        assert_eq!(summary.black.count(Class::Mistake), 1);
        assert_eq!(summary.black.average_loss_cp, 275.0);
        assert_eq!(summary.white.best_moves, 1);
        assert_eq!(summary.black.worst[0].judgement.ply, 1);
    }

    #[test]
    fn shogihomes_thresholds_are_the_defaults_and_can_be_moved() {
        let t = Thresholds::default();
        assert_eq!(t.class(4.9), None);
        assert_eq!(t.class(5.0), Some(Class::Inaccuracy));
        assert_eq!(t.class(10.0), Some(Class::Dubious));
        assert_eq!(t.class(20.0), Some(Class::Mistake));
        assert_eq!(t.class(50.0), Some(Class::Blunder));
        assert!((t.win_rate(0) - 50.0).abs() < 1e-9);
        let strict = Thresholds { mistake: 8.0, ..t };
        assert_eq!(strict.class(8.0), Some(Class::Mistake));
    }

    #[test]
    fn a_missed_mate_counts_at_most_a_thousand_in_the_average() {
        let positions = analysed(&[("2g2f", 30_000), ("3c3d", 0), ("2g2f", 0), ("8c8d", 0)]);
        let j = judge(&positions, &Thresholds::default());
        assert_eq!(j[0].loss_cp, 30_000);
        assert_eq!(j[0].class, Some(Class::Blunder));
        let s = summarise(0, &j);
        assert_eq!(s.black.average_loss_cp, 500.0);
        let mut player = Tally::default();
        player.merge(&s.black);
        player.merge(&s.black);
        assert_eq!(player.moves, 4);
        assert_eq!(player.average_loss_cp, 500.0);
        assert_eq!(player.count(Class::Blunder), 2);
    }
}
