//! An engine's findings about a position written as record comments in the dialect asked
//! for, and a principal variation written in any of them read back as moves.
//!
//! The dialects and how each is read are in [`kifu_record::evaluation`]; this module adds
//! what needs the rules: writing the PV in the dialect's move notation (CSA moves for
//! floodgate and CSA V3.0, KI2-style moves run together for ShogiHome as its `formatPV`
//! writes them, KIF moves with their origin for ShogiGUI); [`pv_moves`] reads a PV back.
//!
//! The comments belong to the node whose position was searched: the record's start for the
//! first position, the move that led there for the others.
//!
//! ```
//! use kifu_record::Score;
//! use kifu_records::shogi::analysis_comments::{CommentDialect, Finding, Searcher, comments};
//! use kifu_shogi::Position;
//!
//! let start = Position::startpos();
//! let pv = [start.parse_usi_move("7g7f").unwrap()];
//! let finding = Finding { score: Some(Score::Value(45)), pv: &pv, depth: Some(10), nodes: Some(20000), ..Finding::default() };
//! let lines: Vec<String> = comments(CommentDialect::ShogiHome, Searcher::Analysis, &start, &finding)
//!     .into_iter().map(|(_, text)| text).collect();
//! assert_eq!(lines, ["互角", "#評価値=45", "#読み筋=▲７六歩", "#深さ=10", "#ノード数=20000"]);
//! let csa = comments(CommentDialect::Csa3, Searcher::Analysis, &start, &finding);
//! assert_eq!(csa[0].1, "45 +7776FU #20000");
//! ```

use kifu_record::{CommentKind, Score};
use kifu_shogi::notation::csa::CsaMove;
use kifu_shogi::notation::{ki2, kif};
use kifu_shogi::{Color, Move, Position};

pub use kifu_shogi::notation::pv::moves as pv_moves;

pub use kifu_record::evaluation::{CommentDialect, Evaluation, Searcher, UnknownDialect};

/// The score a won position is written as where a dialect has no word for a mate (CSA
/// V3.0 recommends ±30000; ShogiHome writes ShogiGUI's mates so).
pub const MATE_SCORE: i32 = 30000;

/// What an engine found in one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Finding<'a> {
    /// The score, from the first player's side.
    pub score: Option<Score>,
    /// The principal variation from the position, legal move after legal move.
    pub pv: &'a [Move],
    /// The search depth.
    pub depth: Option<u32>,
    /// The nodes searched.
    pub nodes: Option<u64>,
    /// The engine's name (ShogiHome writes it).
    pub engine: Option<&'a str>,
    /// A judgement of the move that led to the position, as ShogiHome heads its analysis
    /// comment with it (`悪手` → `【悪手】`).
    pub judgement: Option<&'a str>,
}

/// The comment lines (kind and text without the marker) that say `finding` about
/// `position` in `dialect`. Empty when the dialect cannot say it: floodgate's and CSA
/// V3.0's lines need a score.
pub fn comments(
    dialect: CommentDialect,
    searcher: Searcher,
    position: &Position,
    finding: &Finding<'_>,
) -> Vec<(CommentKind, String)> {
    match dialect {
        CommentDialect::ShogiHome => shogihome(searcher, position, finding),
        CommentDialect::ShogiGui => {
            vec![(CommentKind::Engine, shogigui(searcher, position, finding))]
        }
        CommentDialect::Floodgate | CommentDialect::Csa3 => {
            let Some(score) = finding.score else {
                return Vec::new();
            };
            let mut text = centipawns(score).to_string();
            let mut p = position.clone();
            for &mv in finding.pv {
                text.push(' ');
                text.push_str(&CsaMove::from_move(&p, mv).to_string());
                p.play_unchecked(mv);
            }
            if dialect == CommentDialect::Csa3
                && let Some(nodes) = finding.nodes
            {
                text.push_str(&format!(" #{nodes}"));
            }
            vec![(CommentKind::Engine, text)]
        }
    }
}

fn centipawns(score: Score) -> i32 {
    match score {
        Score::Value(v) => v,
        Score::Mate {
            winner_first: true, ..
        } => MATE_SCORE,
        Score::Mate { .. } => -MATE_SCORE,
    }
}

fn mark(color: Color) -> char {
    match color {
        Color::Black => '▲',
        Color::White => '△',
    }
}

/// ShogiHome's block, in its order: the judgement header, a mate or the situation word and
/// the score, the PV, depth, nodes, engine. An analysis's keyed lines are people's comments
/// beginning with `#` (`*#評価値=…` in KIF); a player's are engine lines (`**評価値=…`).
fn shogihome(
    searcher: Searcher,
    position: &Position,
    finding: &Finding<'_>,
) -> Vec<(CommentKind, String)> {
    let analysis = searcher != Searcher::Player;
    let keyed = |text: String| {
        if analysis {
            (CommentKind::Text, format!("#{text}"))
        } else {
            (CommentKind::Engine, text)
        }
    };
    let mut lines = Vec::new();
    if let (true, Some(judgement)) = (analysis, finding.judgement) {
        lines.push((CommentKind::Text, format!("【{judgement}】")));
    }
    match finding.score {
        Some(Score::Mate {
            winner_first,
            plies,
        }) => {
            let winner = if winner_first {
                "先手勝ち"
            } else {
                "後手勝ち"
            };
            lines.push(keyed(match plies {
                Some(n) => format!("詰み={winner}:{n}手"),
                None => format!("詰み={winner}"),
            }));
        }
        Some(Score::Value(v)) => {
            lines.push((CommentKind::Text, situation(v).to_string()));
            lines.push(keyed(format!("評価値={v}")));
        }
        None => {}
    }
    if !finding.pv.is_empty() {
        let mut text = String::from("読み筋=");
        let mut p = position.clone();
        let mut prev_to = None;
        for &mv in finding.pv {
            text.push(mark(p.turn()));
            text.push_str(&ki2::write(&p, mv, prev_to));
            prev_to = Some(mv.to());
            p.play_unchecked(mv);
        }
        lines.push(keyed(text));
    }
    if let Some(depth) = finding.depth {
        lines.push(keyed(format!("深さ={depth}")));
    }
    if let Some(nodes) = finding.nodes {
        lines.push(keyed(format!("ノード数={nodes}")));
    }
    if let Some(engine) = finding.engine.filter(|e| !e.trim().is_empty()) {
        lines.push(keyed(format!("エンジン={}", engine.trim())));
    }
    lines
}

/// ShogiHome's word for a score from the first player's side (its thresholds: 200, 400,
/// 600 and 1500 centipawns each way).
pub fn situation(score: i32) -> &'static str {
    match score {
        1500.. => "先手勝勢",
        600..=1499 => "先手優勢",
        400..=599 => "先手有利",
        200..=399 => "先手有望",
        -200..=199 => "互角",
        -400..=-201 => "後手有望",
        -600..=-401 => "後手有利",
        -1500..=-601 => "後手優勢",
        _ => "後手勝勢",
    }
}

/// ShogiGUI's one line: `解析 0 ○ 候補1 深さ 18 ノード数 20000 評価値 207 読み筋 ▲同　歩(87)
/// △同　飛(82)` (the `0 ○` of the files ShogiGUI writes kept as they are), `対局 …` for a
/// player. A mate is written ±30000, as ShogiHome writes ShogiGUI's lines.
fn shogigui(searcher: Searcher, position: &Position, finding: &Finding<'_>) -> String {
    let mut text = String::from(match searcher {
        Searcher::Player => "対局",
        Searcher::Analysis | Searcher::Unknown => "解析 0 ○ 候補1",
    });
    if let Some(depth) = finding.depth {
        text.push_str(&format!(" 深さ {depth}"));
    }
    if let Some(nodes) = finding.nodes {
        text.push_str(&format!(" ノード数 {nodes}"));
    }
    if let Some(score) = finding.score {
        text.push_str(&format!(" 評価値 {}", centipawns(score)));
    }
    if !finding.pv.is_empty() {
        text.push_str(" 読み筋");
        let mut p = position.clone();
        let mut prev_to = None;
        for &mv in finding.pv {
            text.push(' ');
            text.push(mark(p.turn()));
            text.push_str(&kif::write(&p, mv, prev_to));
            prev_to = Some(mv.to());
            p.play_unchecked(mv);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_record::{Comment, Span, evaluation};

    fn line(usi: &[&str]) -> (Position, Vec<Move>) {
        let start = Position::startpos();
        let mut p = start.clone();
        let mut moves = Vec::new();
        for text in usi {
            let mv = p.parse_usi_move(text).unwrap();
            moves.push(mv);
            p.play_unchecked(mv);
        }
        (start, moves)
    }

    #[test]
    fn each_dialect_reads_back_as_it_was_written() {
        // a recapture (同), a drop and a promotion in the PV
        let (start, pv) = line(&["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
        for score in [
            Score::Value(-123),
            Score::Mate {
                winner_first: true,
                plies: Some(9),
            },
        ] {
            let finding = Finding {
                score: Some(score),
                pv: &pv,
                depth: Some(12),
                nodes: Some(20000),
                engine: Some("sekirei"),
                judgement: Some("悪手"),
            };
            for dialect in CommentDialect::ALL {
                for searcher in [Searcher::Analysis, Searcher::Player] {
                    let lines: Vec<Comment> = comments(dialect, searcher, &start, &finding)
                        .into_iter()
                        .map(|(kind, text)| Comment::new(kind, text, Span::default()))
                        .collect();
                    let read = evaluation::evaluation(&lines)
                        .unwrap_or_else(|| panic!("{dialect} {searcher:?}: {lines:?}"));
                    assert_eq!(read.dialect, dialect, "{lines:?}");
                    let expected = match (dialect, score) {
                        (CommentDialect::ShogiHome, s) => s,
                        (_, s) => Score::Value(centipawns(s)),
                    };
                    assert_eq!(read.score, Some(expected), "{dialect} {lines:?}");
                    assert_eq!(pv_moves(&start, &read.pv), pv, "{dialect} {lines:?}");
                    if dialect != CommentDialect::Floodgate {
                        assert_eq!(read.nodes, Some(20000), "{dialect}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_pv_that_begins_with_the_move_played_is_read_from_the_reply() {
        let (start, moves) = line(&["7g7f", "3c3d", "2g2f"]);
        let mut after = start.clone();
        after.play_unchecked(moves[0]);
        assert_eq!(pv_moves(&after, "+7776FU -3334FU +2726FU"), moves[1..]);
        assert_eq!(
            pv_moves(&after, "▲７六歩(77) △３四歩(33) ▲２六歩(27)"),
            moves[1..]
        );
        // stops at the first move that is not legal
        assert_eq!(pv_moves(&after, "-3334FU +2726FU +2625FU"), moves[1..]);
        assert_eq!(pv_moves(&after, "nonsense"), []);
    }

    #[test]
    fn situation_words_change_at_shogihomes_thresholds() {
        assert_eq!(situation(199), "互角");
        assert_eq!(situation(200), "先手有望");
        assert_eq!(situation(-200), "互角");
        assert_eq!(situation(-201), "後手有望");
        assert_eq!(situation(1500), "先手勝勢");
        assert_eq!(situation(-1501), "後手勝勢");
    }
}
