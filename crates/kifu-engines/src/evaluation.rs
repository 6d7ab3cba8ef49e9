//! What an engine said with its move — its score and principal variation — and the two ways
//! a match record keeps it:
//!
//! - CSA V3.0's `'**` line as floodgate writes it: `'** <score> <pv in CSA moves>`;
//! - the comment lines ShogiHome writes into KIF for an engine that plays (its "player"
//!   search comments, keyed with `*` where its analysis engine's are keyed with `#`): the
//!   situation word, `*評価値=<score>` (or `*詰み=先手勝ち` for a mate), `*読み筋=<pv in JSA
//!   notation>` and `*エンジン=<name>`, each a comment line of the move, so `**評価値=…` in
//!   the file.
//!
//! Scores are from Black's (先手's) side in both, as floodgate and ShogiHome write them; the
//! PV is the engine's line after the move it played.

use kifu_csa::usi::{MATE_SCORE, Thought};
use kifu_record::{CommentKind, Score};
use kifu_records::shogi::analysis_comments::{self, CommentDialect, Finding, Searcher, comments};
use kifu_shogi::{Color, Move, Position};

/// An engine's evaluation of the move it played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// Centipawns from Black's side (±[`MATE_SCORE`] for a mate), if the engine said.
    pub score: Option<i64>,
    /// The engine's expected continuation after its move, as far as it is legal.
    pub pv: Vec<Move>,
}

/// How a record writes evaluations: the format the match saves its records in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RecordStyle {
    /// CSA V3.0 with floodgate's `'**` lines.
    #[default]
    Csa,
    /// KIF with ShogiHome's comment lines.
    Kif,
}

impl RecordStyle {
    /// The file extension of a record in this style.
    pub fn extension(self) -> &'static str {
        match self {
            RecordStyle::Csa => "csa",
            RecordStyle::Kif => "kif",
        }
    }

    /// The style of a format name (`csa`, `kif`).
    pub fn from_name(name: &str) -> Option<RecordStyle> {
        match name.to_ascii_lowercase().as_str() {
            "csa" => Some(RecordStyle::Csa),
            "kif" => Some(RecordStyle::Kif),
            _ => None,
        }
    }
}

impl Evaluation {
    /// The evaluation of `best`, played in `position` (before the move), from the engine's
    /// `thought`; `None` when the engine gave neither a score nor a PV beyond its move.
    pub fn new(position: &Position, best: Move, thought: &Thought) -> Option<Evaluation> {
        let pv = match thought.pv.split_first() {
            Some((first, rest)) if *first == best.usi() => rest,
            _ => &thought.pv[..],
        };
        let sign = if position.turn() == Color::Black {
            1
        } else {
            -1
        };
        let mut after = position.clone();
        after.play_unchecked(best);
        let mut moves = Vec::new();
        for text in pv {
            // An engine's PV may run past what is legal (a stale hash move): kept up to there.
            let Ok(mv) = after.parse_usi_move(text) else {
                break;
            };
            moves.push(mv);
            after.play_unchecked(mv);
        }
        let score = thought.score.map(|s| s * sign);
        (score.is_some() || !moves.is_empty()).then_some(Evaluation { score, pv: moves })
    }

    /// The comments of the move in `style`; `after` is the position after the move.
    pub fn comments(
        &self,
        style: RecordStyle,
        after: &Position,
        engine: &str,
    ) -> Vec<(CommentKind, String)> {
        match style {
            RecordStyle::Csa => vec![(CommentKind::Engine, self.csa(after))],
            RecordStyle::Kif => self.shogihome(after, engine),
        }
    }

    /// The score as the comment writers take it: a mate (±[`MATE_SCORE`] or beyond) as a
    /// mate of unknown length, as the engine's USI `score mate` gives it no length here.
    fn score(&self) -> Option<Score> {
        self.score.map(|s| {
            if s.abs() >= MATE_SCORE {
                Score::Mate {
                    winner_first: s > 0,
                    plies: None,
                }
            } else {
                Score::Value(s as i32)
            }
        })
    }

    /// `<score> <pv>`: the text of floodgate's `'**` line (0 for a score not given, as
    /// ShogiHome writes a PV without one).
    pub fn csa(&self, after: &Position) -> String {
        let finding = Finding {
            score: Some(self.score().unwrap_or(Score::Value(0))),
            pv: &self.pv,
            ..Finding::default()
        };
        comments(CommentDialect::Floodgate, Searcher::Player, after, &finding)
            .pop()
            .map(|(_, text)| text)
            .unwrap_or_default()
    }

    /// ShogiHome's lines for a player engine, in its order: the mate or the situation word
    /// with the score, the PV, the engine. The situation word is a comment for people (`*`),
    /// the keyed lines engine comments (`**`).
    pub fn shogihome(&self, after: &Position, engine: &str) -> Vec<(CommentKind, String)> {
        let finding = Finding {
            score: self.score(),
            pv: &self.pv,
            engine: Some(engine),
            ..Finding::default()
        };
        comments(CommentDialect::ShogiHome, Searcher::Player, after, &finding)
    }
}

/// ShogiHome's word for a score from Black's side (its thresholds: 200, 400, 600 and 1500
/// centipawns each way).
pub fn situation(score: i64) -> &'static str {
    analysis_comments::situation(score.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thought(score: Option<i64>, pv: &str) -> Thought {
        Thought {
            bestmove: pv.split_whitespace().next().unwrap_or("").to_owned(),
            score,
            pv: pv.split_whitespace().map(str::to_owned).collect(),
            ponder: None,
        }
    }

    #[test]
    fn white_scores_are_turned_to_blacks_side_and_the_pv_follows_the_move() {
        let mut pos = Position::startpos();
        pos.play_unchecked(pos.parse_usi_move("7g7f").unwrap());
        let best = pos.parse_usi_move("3c3d").unwrap();
        let e = Evaluation::new(&pos, best, &thought(Some(45), "3c3d 8h2b+ 3a2b")).unwrap();
        assert_eq!(e.score, Some(-45));
        let mut after = pos.clone();
        after.play_unchecked(best);
        assert_eq!(e.csa(&after), "-45 +8822UM -3122GI");
        let lines = e.shogihome(&after, "weak");
        assert_eq!(
            lines,
            [
                (CommentKind::Text, "互角".to_owned()),
                (CommentKind::Engine, "評価値=-45".to_owned()),
                (CommentKind::Engine, "読み筋=▲２二角成△同　銀".to_owned()),
                (CommentKind::Engine, "エンジン=weak".to_owned()),
            ]
        );
    }

    #[test]
    fn a_mate_is_written_as_shogihome_writes_one_without_its_length() {
        let pos = Position::startpos();
        let best = pos.parse_usi_move("7g7f").unwrap();
        let e = Evaluation::new(&pos, best, &thought(Some(-MATE_SCORE), "7g7f")).unwrap();
        let mut after = pos.clone();
        after.play_unchecked(best);
        assert_eq!(
            e.shogihome(&after, ""),
            [(CommentKind::Engine, "詰み=後手勝ち".to_owned())]
        );
        assert!(Evaluation::new(&pos, best, &thought(None, "7g7f")).is_none());
    }

    #[test]
    fn situation_words_change_at_shogihomes_thresholds() {
        for (score, word) in [
            (1500, "先手勝勢"),
            (1499, "先手優勢"),
            (600, "先手優勢"),
            (400, "先手有利"),
            (200, "先手有望"),
            (199, "互角"),
            (-200, "互角"),
            (-201, "後手有望"),
            (-401, "後手有利"),
            (-601, "後手優勢"),
            (-1501, "後手勝勢"),
        ] {
            assert_eq!(situation(score), word, "{score}");
        }
    }
}
