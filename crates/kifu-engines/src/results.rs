//! The statistics of a match, from its ledger: W/D/L per engine and per colour, per pairing
//! the Elo with its interval, LOS, normalised Elo and the pentanomial counts of its complete
//! pairs, the SPRT's state, and for more than two engines the standings and a crosstable.
//! The formulas are `kifu-stats`'.

use std::collections::BTreeMap;
use std::fmt::Write;

use kifu_stats::counts::GameScore;
use kifu_stats::{Estimate, Pentanomial, Sprt, Trinomial, Verdict};
use serde_json::{Value, json};

use crate::ledger::GameRow;

/// One engine's results.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineResults {
    /// Its name.
    pub name: String,
    /// All its games.
    pub total: Trinomial,
    /// Its games as Black.
    pub as_black: Trinomial,
    /// Its games as White.
    pub as_white: Trinomial,
}

/// One pairing's results, from its first engine's side.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingResults {
    /// The first engine.
    pub first: String,
    /// The second engine.
    pub second: String,
    /// The first engine's games.
    pub games: Trinomial,
    /// Complete pairs.
    pub pairs: Pentanomial,
    /// Estimates: on the pairs when there are any, else on the games.
    pub estimate: Option<Estimate>,
    /// The SPRT's log-likelihood ratio and verdict, when one runs.
    pub sprt: Option<(f64, Verdict)>,
}

/// Everything the summary says.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// Per engine, in the match's order.
    pub engines: Vec<EngineResults>,
    /// Per pairing, in the schedule's order.
    pub pairings: Vec<PairingResults>,
    /// How many games ended for each reason.
    pub reasons: BTreeMap<String, u64>,
    /// Points of row engine against column engine.
    pub crosstable: Vec<Vec<f64>>,
}

fn score(s: f64) -> GameScore {
    if s > 0.75 {
        GameScore::Win
    } else if s < 0.25 {
        GameScore::Loss
    } else {
        GameScore::Draw
    }
}

impl Standings {
    /// The standings of `rows`, for `names` meeting in `pairings`, with the SPRT (on the
    /// first pairing) if one runs.
    pub fn new(
        names: &[String],
        pairings: &[(usize, usize)],
        rows: &[GameRow],
        sprt: Option<&Sprt>,
    ) -> Standings {
        let mut engines: Vec<EngineResults> = names
            .iter()
            .map(|n| EngineResults {
                name: n.clone(),
                ..EngineResults::default()
            })
            .collect();
        let index = |name: &str| names.iter().position(|n| n == name);
        let mut crosstable = vec![vec![0.0; names.len()]; names.len()];
        let mut reasons = BTreeMap::new();
        for row in rows {
            *reasons.entry(row.reason.clone()).or_insert(0) += 1;
            let (Some(b), Some(w)) = (index(&row.black), index(&row.white)) else {
                continue;
            };
            let sb = row.score_of(&row.black).unwrap_or(0.5);
            engines[b].total.add(score(sb));
            engines[b].as_black.add(score(sb));
            engines[w].total.add(score(1.0 - sb));
            engines[w].as_white.add(score(1.0 - sb));
            crosstable[b][w] += sb;
            crosstable[w][b] += 1.0 - sb;
        }
        let pairings = pairings
            .iter()
            .enumerate()
            .map(|(p, &(a, b))| {
                let first = &names[a];
                let mut games = Trinomial::default();
                let mut halves: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
                for row in rows.iter().filter(|r| r.pairing == p) {
                    let Some(s) = row.score_of(first) else {
                        continue;
                    };
                    games.add(score(s));
                    halves.entry(row.pair).or_default().push(s);
                }
                let mut pairs = Pentanomial::default();
                for scores in halves.values() {
                    if let [x, y] = scores[..] {
                        pairs.add(score(x), score(y));
                    }
                }
                let distribution = if pairs.pairs() > 0 {
                    pairs.distribution()
                } else {
                    games.distribution()
                };
                let estimate = Estimate::of(&distribution);
                let sprt = (p == 0).then_some(sprt).flatten().map(|t| {
                    let llr = t.llr(&pairs.distribution());
                    (llr, t.verdict(llr))
                });
                PairingResults {
                    first: first.clone(),
                    second: names[b].clone(),
                    games,
                    pairs,
                    estimate,
                    sprt,
                }
            })
            .collect();
        Standings {
            engines,
            pairings,
            reasons,
            crosstable,
        }
    }

    /// The SPRT's verdict, if one runs.
    pub fn verdict(&self) -> Option<Verdict> {
        self.pairings.first()?.sprt.map(|(_, v)| v)
    }

    /// The summary as one JSON object.
    pub fn to_json(&self, sprt: Option<&Sprt>) -> Value {
        let tri = |t: &Trinomial| json!({"wins": t.wins, "draws": t.draws, "losses": t.losses});
        let engines: Vec<Value> = self
            .engines
            .iter()
            .map(|e| {
                json!({
                    "name": e.name,
                    "games": e.total.games(),
                    "wins": e.total.wins,
                    "draws": e.total.draws,
                    "losses": e.total.losses,
                    "points": e.total.points(),
                    "as_black": tri(&e.as_black),
                    "as_white": tri(&e.as_white),
                })
            })
            .collect();
        let pairings: Vec<Value> = self
            .pairings
            .iter()
            .map(|p| {
                let mut v = json!({
                    "engines": [p.first, p.second],
                    "games": p.games.games(),
                    "wins": p.games.wins,
                    "draws": p.games.draws,
                    "losses": p.games.losses,
                    "pentanomial": p.pairs.0,
                });
                if let Some(e) = p.estimate {
                    v["elo"] = json!(e.elo);
                    v["elo_margin"] = json!(e.elo_margin);
                    v["los"] = json!(e.los);
                    v["nelo"] = json!(e.nelo);
                    v["nelo_margin"] = json!(e.nelo_margin);
                }
                v
            })
            .collect();
        let mut out = json!({
            "games": self.engines.iter().map(|e| e.total.games()).sum::<u64>() / 2,
            "engines": engines,
            "pairings": pairings,
            "reasons": self.reasons,
        });
        if let (Some(t), Some(p)) = (sprt, self.pairings.first())
            && let Some((llr, verdict)) = p.sprt
        {
            let (lower, upper) = t.bounds();
            out["sprt"] = json!({
                "model": t.model.to_string(),
                "elo0": t.elo0, "elo1": t.elo1, "alpha": t.alpha, "beta": t.beta,
                "llr": llr, "lower": lower, "upper": upper,
                "verdict": verdict.to_string(),
            });
        }
        if self.engines.len() > 2 {
            out["crosstable"] = json!(self.crosstable);
            out["standings"] = json!(
                self.ranking()
                    .into_iter()
                    .map(|i| &self.engines[i].name)
                    .collect::<Vec<_>>()
            );
        }
        out
    }

    /// The engines' indices, most points first (the engines' order among equals).
    fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.engines.len()).collect();
        order.sort_by(|&a, &b| {
            self.engines[b]
                .total
                .points()
                .total_cmp(&self.engines[a].total.points())
        });
        order
    }

    /// The one-line progress a terminal shows: the first pairing's score, Elo and SPRT.
    pub fn progress_line(&self, done: u64, total: u64) -> String {
        let mut s = format!("{done}/{total}");
        if let Some(p) = self.pairings.first() {
            let _ = write!(s, "  {} vs {}: {}", p.first, p.second, p.games);
            if let Some(e) = p.estimate {
                let _ = write!(
                    s,
                    "  Elo {:+.1} ± {:.1}  LOS {:.1}%",
                    e.elo,
                    e.elo_margin,
                    100.0 * e.los
                );
            }
            if let Some((llr, _)) = p.sprt {
                let _ = write!(s, "  LLR {llr:.2}");
            }
        }
        s
    }

    /// The summary a person reads at the end.
    pub fn to_text(&self, sprt: Option<&Sprt>) -> String {
        let mut s = String::new();
        for p in &self.pairings {
            let _ = writeln!(
                s,
                "{} vs {}: {} games, {} (W-D-L), pairs [LL, LD, DD+WL, WD, WW] {}",
                p.first,
                p.second,
                p.games.games(),
                p.games,
                p.pairs
            );
            if let Some(e) = p.estimate {
                // Every game (or pair) scoring the same leaves no spread to normalise by.
                let nelo = if e.nelo.is_finite() {
                    format!("{:+.1} ± {:.1}", e.nelo, e.nelo_margin)
                } else {
                    "n/a (every result the same)".to_string()
                };
                let _ = writeln!(
                    s,
                    "  Elo {:+.1} ± {:.1} (95%), LOS {:.1}%, nElo {nelo}",
                    e.elo,
                    e.elo_margin,
                    100.0 * e.los,
                );
            }
        }
        if let (Some(t), Some((llr, verdict))) = (sprt, self.pairings.first().and_then(|p| p.sprt))
        {
            let (lower, upper) = t.bounds();
            let _ = writeln!(
                s,
                "SPRT ({} Elo, elo0 {} elo1 {}, alpha {} beta {}): LLR {:.3} [{:.3}, {:.3}] {}",
                t.model,
                t.elo0,
                t.elo1,
                t.alpha,
                t.beta,
                llr,
                lower,
                upper,
                match verdict {
                    Verdict::AcceptH1 => "H1 accepted",
                    Verdict::AcceptH0 => "H0 accepted",
                    Verdict::Continue => "no verdict yet",
                }
            );
        }
        for e in &self.engines {
            let _ = writeln!(
                s,
                "{}: {} (W-D-L), {} points; as Black {}, as White {}",
                e.name,
                e.total,
                e.total.points(),
                e.as_black,
                e.as_white
            );
        }
        if self.engines.len() > 2 {
            let order = self.ranking();
            let width = self
                .engines
                .iter()
                .map(|e| e.name.len())
                .max()
                .unwrap_or(4)
                .max(4);
            let _ = write!(s, "\n{:width$}", "");
            for &j in &order {
                let _ = write!(s, " {:>width$}", self.engines[j].name);
            }
            let _ = writeln!(s, " {:>width$}", "total");
            for &i in &order {
                let _ = write!(s, "{:width$}", self.engines[i].name);
                for &j in &order {
                    if i == j {
                        let _ = write!(s, " {:>width$}", "-");
                    } else {
                        let _ = write!(s, " {:>width$}", self.crosstable[i][j]);
                    }
                }
                let _ = writeln!(s, " {:>width$}", self.engines[i].total.points());
            }
        }
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        let _ = writeln!(s, "endings: {}", reasons.join(", "));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_of_draws_says_its_normalised_elo_has_no_meaning_instead_of_nan() {
        let mut games = Trinomial::default();
        for _ in 0..4 {
            games.add(GameScore::Draw);
        }
        let standings = Standings {
            engines: Vec::new(),
            pairings: vec![PairingResults {
                first: "a".into(),
                second: "b".into(),
                games,
                pairs: Pentanomial::default(),
                estimate: Estimate::of(&games.distribution()),
                sprt: None,
            }],
            reasons: BTreeMap::new(),
            crosstable: Vec::new(),
        };
        let text = standings.to_text(None);
        assert!(!text.contains("NaN"), "{text}");
        assert!(text.contains("nElo n/a (every result the same)"), "{text}");
    }
}
