//! Ending games the engines would play out to no purpose, on the scores they report (the
//! parameters fastchess and shogitest name `-resign movecount=N score=cp` and
//! `-draw movenumber=M movecount=N score=cp`), sans-IO.
//!
//! Resignation is adjudicated only when both engines agree (shogitest's `twosided`): the
//! last `moves` scores of one side are all at most `−score` and the other side's at least
//! `score`, a mate score counting as beyond any threshold. A draw is adjudicated from ply
//! `after_ply` on when the last `moves` scores of both sides are all within `±score`.

use kifu_shogi::Color;

/// `--resign-adjudication moves=N,score=CP`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of each side.
    pub moves: usize,
    /// The threshold, in centipawns.
    pub score: i64,
}

/// `--draw-adjudication after=M,moves=N,score=CP`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The first ply at which a draw may be adjudicated.
    pub after_ply: u32,
    /// Consecutive moves of each side.
    pub moves: usize,
    /// The band around zero, in centipawns.
    pub score: i64,
}

/// What adjudication decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjudication {
    /// Play on.
    None,
    /// The game is lost by this side.
    Loss(Color),
    /// The game is drawn.
    Draw,
}

/// The scores each side reported, from its own point of view, in order.
#[derive(Clone, Debug, Default)]
pub struct ScoreHistory {
    scores: [Vec<Option<i64>>; 2],
}

impl ScoreHistory {
    /// Notes the score `side` reported for its move (`None` when it gave none).
    pub fn push(&mut self, side: Color, score: Option<i64>) {
        self.scores[side as usize].push(score);
    }

    fn last(&self, side: Color, n: usize) -> Option<&[Option<i64>]> {
        let s = &self.scores[side as usize];
        (n > 0 && s.len() >= n).then(|| &s[s.len() - n..])
    }

    /// The verdict after a move, at `ply` (plies played in the game, opening included).
    pub fn judge(
        &self,
        resign: Option<ResignRule>,
        draw: Option<DrawRule>,
        ply: u32,
    ) -> Adjudication {
        if let Some(r) = resign {
            for loser in [Color::Black, Color::White] {
                let (Some(lost), Some(won)) =
                    (self.last(loser, r.moves), self.last(loser.flip(), r.moves))
                else {
                    continue;
                };
                let all =
                    |v: &[Option<i64>], f: &dyn Fn(i64) -> bool| v.iter().all(|s| s.is_some_and(f));
                if all(lost, &|s| s <= -r.score) && all(won, &|s| s >= r.score) {
                    return Adjudication::Loss(loser);
                }
            }
        }
        if let Some(d) = draw
            && ply >= d.after_ply
            && let (Some(b), Some(w)) = (
                self.last(Color::Black, d.moves),
                self.last(Color::White, d.moves),
            )
            && b.iter()
                .chain(w)
                .all(|s| s.is_some_and(|s| s.abs() <= d.score))
        {
            return Adjudication::Draw;
        }
        Adjudication::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_must_agree_for_long_enough() {
        let rule = Some(ResignRule {
            moves: 2,
            score: 500,
        });
        let mut h = ScoreHistory::default();
        h.push(Color::Black, Some(600));
        h.push(Color::White, Some(-700));
        assert_eq!(h.judge(rule, None, 2), Adjudication::None, "one move each");
        h.push(Color::Black, Some(900));
        h.push(Color::White, Some(-100_000));
        assert_eq!(h.judge(rule, None, 4), Adjudication::Loss(Color::White));
        h.push(Color::Black, Some(300));
        assert_eq!(
            h.judge(rule, None, 5),
            Adjudication::None,
            "Black no longer agrees"
        );
        h.push(Color::White, None);
        assert_eq!(h.judge(rule, None, 6), Adjudication::None);
    }

    #[test]
    fn draws_wait_for_their_ply() {
        let rule = Some(DrawRule {
            after_ply: 6,
            moves: 2,
            score: 10,
        });
        let mut h = ScoreHistory::default();
        for (b, w) in [(5, -3), (0, 8)] {
            h.push(Color::Black, Some(b));
            h.push(Color::White, Some(w));
        }
        assert_eq!(h.judge(None, rule, 4), Adjudication::None);
        assert_eq!(h.judge(None, rule, 6), Adjudication::Draw);
        h.push(Color::Black, Some(11));
        assert_eq!(h.judge(None, rule, 7), Adjudication::None);
    }
}
