//! Engine evaluations in record comments: the four dialects programs write them in, told
//! apart and read as one [`Evaluation`] per search, whatever the dialect.
//!
//! | dialect | line inside the comment | KIF / CSA file |
//! |---|---|---|
//! | [`ShogiHome`](CommentDialect::ShogiHome), analysis | `#評価値=158`, `#読み筋=▲７六歩△３四歩`, `#深さ=8`, `#ノード数=…`, `#エンジン=…`, `#詰み=先手勝ち:15手` | `*#評価値=158` / `'*#評価値=158` |
//! | ShogiHome, an engine that plays | `*評価値=158`, `*読み筋=…`, … | `**評価値=158` / `'**評価値=158` |
//! | [`ShogiGui`](CommentDialect::ShogiGui) | `*解析 0 ○ 候補1 深さ 18 ノード数 20000 評価値 207 読み筋 ▲同　歩(87) △同　飛(82)` (`*対局 …` for an engine that plays) | `**解析 …` |
//! | [`Floodgate`](CommentDialect::Floodgate) | `* 116 -8173KE +9796FU` | `** 116 …` / `'** 116 …` |
//! | [`Csa3`](CommentDialect::Csa3) (CSA standard V3.0, `'**`) | `* 210 -5354FU +2533NK #12345678` | `'** 210 … #12345678` |
//!
//! Every score is from the first player's (先手's) side, as all four write it; a comment
//! holds the search of the position after the node's move (before the first move for the
//! record's start), so a principal variation starts with the reply. ShogiHome splits one
//! search into several lines; they are gathered into one [`Evaluation`].
//!
//! ```
//! use kifu_record::{Comment, CommentKind, Score, Span};
//! use kifu_record::evaluation::{self, CommentDialect, Searcher};
//!
//! let lines = [
//!     Comment::new(CommentKind::Text, "互角", Span::default()),
//!     Comment::new(CommentKind::Text, "#評価値=-45", Span::default()),
//!     Comment::new(CommentKind::Text, "#読み筋=△３四歩▲２六歩", Span::default()),
//!     Comment::new(CommentKind::Text, "#深さ=12", Span::default()),
//! ];
//! let found = evaluation::evaluation(&lines).unwrap();
//! assert_eq!(found.dialect, CommentDialect::ShogiHome);
//! assert_eq!(found.searcher, Searcher::Analysis);
//! assert_eq!(found.score, Some(Score::Value(-45)));
//! assert_eq!(found.pv, "△３四歩 ▲２六歩");
//! assert_eq!(found.depth, Some(12));
//! ```

use std::fmt;
use std::str::FromStr;

use crate::comment::{Comment, CommentKind, EngineInfo, Score};

/// A way programs write an engine's findings into record comments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommentDialect {
    /// ShogiHome's keyed lines (`#評価値=…` for its analysis, `*評価値=…` for a player).
    ShogiHome,
    /// ShogiGUI's one-line `*解析 …` (analysis) and `*対局 …` (a player).
    ShogiGui,
    /// floodgate's `'** <score> <pv>`: what shogi-server writes from the comments clients
    /// send with their moves.
    Floodgate,
    /// The CSA standard V3.0's `'** <score> <pv> #<nodes>`.
    Csa3,
}

impl CommentDialect {
    /// Every dialect, in the order of their names.
    pub const ALL: [CommentDialect; 4] = [
        CommentDialect::ShogiHome,
        CommentDialect::ShogiGui,
        CommentDialect::Floodgate,
        CommentDialect::Csa3,
    ];

    /// The dialect's name on command lines: `shogihome`, `shogigui`, `floodgate`, `csa3`.
    pub fn name(self) -> &'static str {
        match self {
            CommentDialect::ShogiHome => "shogihome",
            CommentDialect::ShogiGui => "shogigui",
            CommentDialect::Floodgate => "floodgate",
            CommentDialect::Csa3 => "csa3",
        }
    }
}

impl fmt::Display for CommentDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A comment dialect name that is none of the four.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown comment dialect `{0}` (expected shogihome, shogigui, floodgate or csa3)")]
pub struct UnknownDialect(pub String);

impl FromStr for CommentDialect {
    type Err = UnknownDialect;

    fn from_str(s: &str) -> Result<CommentDialect, UnknownDialect> {
        CommentDialect::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownDialect(s.to_string()))
    }
}

/// Whose search a comment reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Searcher {
    /// An analysis of the record after the game (ShogiHome `#…`, ShogiGUI `解析`).
    Analysis,
    /// The engine that played the move (ShogiHome `*…`, ShogiGUI `対局`, a floodgate client).
    Player,
    /// The dialect does not say (a CSA `'**` line).
    Unknown,
}

/// One engine search as a node's comments report it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The score, from the first player's side.
    pub score: Option<Score>,
    /// The principal variation as written (moves separated by single spaces, in the notation
    /// of the dialect: CSA moves, or KIF/KI2 moves with their side marks).
    pub pv: String,
    /// The search depth, when given.
    pub depth: Option<u32>,
    /// The nodes searched, when given.
    pub nodes: Option<u64>,
    /// The engine's name, when given (ShogiHome `エンジン=`).
    pub engine: Option<String>,
    /// How it was written.
    pub dialect: CommentDialect,
    /// Whose search it is.
    pub searcher: Searcher,
}

impl Evaluation {
    /// The score as one number from the first player's side, a mate counting `±mate`
    /// (CSA recommends ±30000).
    pub fn centipawns(&self, mate: i32) -> Option<i32> {
        self.score.map(|score| match score {
            Score::Value(v) => v,
            Score::Mate {
                winner_first: true, ..
            } => mate,
            Score::Mate { .. } => -mate,
        })
    }

    /// The PV's moves as written.
    pub fn pv_moves(&self) -> impl Iterator<Item = &str> {
        self.pv.split(' ').filter(|m| !m.is_empty())
    }
}

/// What one comment line contributes to an evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvaluationLine {
    /// The dialect the line is in.
    pub dialect: CommentDialect,
    /// Whose search it reports.
    pub searcher: Searcher,
    /// What it says.
    pub info: EngineInfo,
    /// The engine's name, for a ShogiHome `エンジン=` line.
    pub engine: Option<String>,
}

const SHOGIHOME_KEYS: [&str; 6] = [
    "評価値=",
    "読み筋=",
    "深さ=",
    "ノード数=",
    "詰み=",
    "エンジン=",
];

/// Reads one comment line as part of an engine's findings, when it is in one of the four
/// dialects; text people write (`30 手目で悪くなった`, a bare `30`) is not.
pub fn line(comment: &Comment) -> Option<EvaluationLine> {
    let text = comment.text.trim();
    match comment.kind {
        CommentKind::Engine => {
            if SHOGIHOME_KEYS.iter().any(|k| text.starts_with(k)) {
                return shogihome(text, Searcher::Player);
            }
            let info = comment.engine.clone()?;
            // An engine line may be a score alone (a position with no PV).
            let (dialect, searcher) = if csa_shaped(text, true) {
                let dialect = if text.split_whitespace().any(|w| w.starts_with('#')) {
                    CommentDialect::Csa3
                } else {
                    CommentDialect::Floodgate
                };
                (dialect, Searcher::Unknown)
            } else if text.starts_with("解析") {
                (CommentDialect::ShogiGui, Searcher::Analysis)
            } else if text.starts_with("対局") {
                (CommentDialect::ShogiGui, Searcher::Player)
            } else {
                // Other programs' keyword lines (棋神アナリティクス's `* Engine … 評価値 -47
                // 読み筋 …`) follow ShogiGUI's shape.
                (CommentDialect::ShogiGui, Searcher::Unknown)
            };
            Some(EvaluationLine {
                dialect,
                searcher,
                info,
                engine: None,
            })
        }
        CommentKind::Text | CommentKind::Hidden => {
            if let Some(rest) = text.strip_prefix('#')
                && SHOGIHOME_KEYS.iter().any(|k| rest.starts_with(k))
            {
                return shogihome(rest, Searcher::Analysis);
            }
            // A CSA V3.0 `'*` comment a client sent with its move, shaped like an engine
            // line (`'* 30 -3334FU +2625FU`: a score and CSA moves only).
            if comment.kind == CommentKind::Text && csa_shaped(text, false) {
                return Some(EvaluationLine {
                    dialect: CommentDialect::Floodgate,
                    searcher: Searcher::Player,
                    info: EngineInfo::parse(text)?,
                    engine: None,
                });
            }
            None
        }
    }
}

fn shogihome(text: &str, searcher: Searcher) -> Option<EvaluationLine> {
    let (info, engine) = match text.strip_prefix("エンジン=") {
        Some(name) => (EngineInfo::default(), Some(name.trim().to_string())),
        None => (EngineInfo::parse(text)?, None),
    };
    Some(EvaluationLine {
        dialect: CommentDialect::ShogiHome,
        searcher,
        info,
        engine,
    })
}

/// `30 -3334FU +2625FU`: a signed or plain number, then CSA moves (and the special moves
/// CSA V3.0 allows in a PV) and a `#nodes` count only. A lone score counts when a PV or a
/// count follows it, unless `lone_score` (an engine line): in a comment, `30` alone is what a
/// person writes.
fn csa_shaped(text: &str, lone_score: bool) -> bool {
    let mut words = text.split_whitespace();
    let score = words.next().unwrap_or("");
    let digits = score.strip_prefix(['+', '-']).unwrap_or(score);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let mut others = 0;
    for word in words {
        let b = word.as_bytes();
        let is_move = b.len() == 7
            && matches!(b[0], b'+' | b'-')
            && b[1..5].iter().all(u8::is_ascii_digit)
            && b[5..].iter().all(u8::is_ascii_uppercase);
        let is_special = matches!(
            word,
            "+PASS"
                | "-PASS"
                | "%TORYO"
                | "%KACHI"
                | "%SENNICHITE"
                | "%MAX_MOVES"
                | "%REP_SUP"
                | "%REP_INF"
        );
        let is_count = word
            .strip_prefix('#')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !(is_move || is_special || is_count) {
            return false;
        }
        others += 1;
    }
    others > 0 || lone_score
}

/// Every search a node's comments report, in order. Lines of one dialect and searcher that
/// follow each other make one search (ShogiHome writes a search as several lines); a line
/// repeating what the search already has starts the next one.
pub fn evaluations(comments: &[Comment]) -> Vec<Evaluation> {
    let mut found: Vec<Evaluation> = Vec::new();
    let mut open = false;
    for comment in comments {
        let Some(line) = line(comment) else {
            // A line of people's words between ShogiHome's (its situation word, a 【悪手】
            // header) does not end the search; another dialect's line does.
            continue;
        };
        let joins = open
            && found.last().is_some_and(|last| {
                last.dialect == line.dialect
                    && last.searcher == line.searcher
                    && line.dialect == CommentDialect::ShogiHome
                    && !(line.info.score.is_some() && last.score.is_some())
                    && !(!line.info.pv.is_empty() && !last.pv.is_empty())
                    && !(line.info.depth.is_some() && last.depth.is_some())
                    && !(line.info.nodes.is_some() && last.nodes.is_some())
                    && !(line.engine.is_some() && last.engine.is_some())
            });
        if joins {
            let last = found.last_mut().expect("an open search");
            last.score = last.score.or(line.info.score);
            if last.pv.is_empty() {
                last.pv = line.info.pv;
            }
            last.depth = last.depth.or(line.info.depth);
            last.nodes = last.nodes.or(line.info.nodes);
            last.engine = last.engine.take().or(line.engine);
        } else {
            found.push(Evaluation {
                score: line.info.score,
                pv: line.info.pv,
                depth: line.info.depth,
                nodes: line.info.nodes,
                engine: line.engine,
                dialect: line.dialect,
                searcher: line.searcher,
            });
        }
        open = true;
    }
    found
}

/// The search to show for a node: its analysis when it has one (an analysis is what a reader
/// asked for after the game), else the last one the comments report.
pub fn evaluation(comments: &[Comment]) -> Option<Evaluation> {
    // Most moves have no comment; exporters ask this of every one.
    if comments.is_empty() {
        return None;
    }
    let mut all = evaluations(comments);
    let at = all
        .iter()
        .rposition(|e| e.searcher == Searcher::Analysis && e.score.is_some())
        .or_else(|| all.iter().rposition(|e| e.score.is_some()))
        .or_else(|| all.len().checked_sub(1))?;
    Some(all.swap_remove(at))
}

/// Whether a comment line is part of an engine's findings (a viewer shows those as a value,
/// not as text).
pub fn is_evaluation_line(comment: &Comment) -> bool {
    line(comment).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Span;

    fn c(kind: CommentKind, text: &str) -> Comment {
        Comment::new(kind, text, Span::default())
    }

    #[test]
    fn each_dialect_is_told_apart_and_read() {
        let cases = [
            (
                vec![
                    c(CommentKind::Text, "【悪手】"),
                    c(CommentKind::Text, "後手有望"),
                    c(CommentKind::Text, "#評価値=-250"),
                    c(CommentKind::Text, "#読み筋=▲２六歩△８四歩"),
                    c(CommentKind::Text, "#深さ=14"),
                    c(CommentKind::Text, "#ノード数=20000"),
                    c(CommentKind::Text, "#エンジン=sekirei"),
                ],
                CommentDialect::ShogiHome,
                Searcher::Analysis,
                Some(Score::Value(-250)),
                "▲２六歩 △８四歩",
                Some(14),
                Some(20000),
            ),
            (
                vec![c(
                    CommentKind::Engine,
                    "解析 0 ○ 候補1 深さ 18 ノード数 20000 評価値 207 読み筋 ▲同　歩(87) △同　飛(82)",
                )],
                CommentDialect::ShogiGui,
                Searcher::Analysis,
                Some(Score::Value(207)),
                "▲同　歩(87) △同　飛(82)",
                Some(18),
                Some(20000),
            ),
            (
                vec![c(CommentKind::Engine, "116 -8173KE +9796FU")],
                CommentDialect::Floodgate,
                Searcher::Unknown,
                Some(Score::Value(116)),
                "-8173KE +9796FU",
                None,
                None,
            ),
            (
                vec![c(CommentKind::Engine, "-30000 +5354FU #1234")],
                CommentDialect::Csa3,
                Searcher::Unknown,
                Some(Score::Value(-30000)),
                "+5354FU",
                None,
                Some(1234),
            ),
        ];
        for (lines, dialect, searcher, score, pv, depth, nodes) in cases {
            let all = evaluations(&lines);
            assert_eq!(all.len(), 1, "{lines:?}");
            let e = &all[0];
            assert_eq!(
                (
                    e.dialect,
                    e.searcher,
                    e.score,
                    e.pv.as_str(),
                    e.depth,
                    e.nodes
                ),
                (dialect, searcher, score, pv, depth, nodes)
            );
        }
    }

    #[test]
    fn an_analysis_is_preferred_to_the_players_search_beside_it() {
        let lines = [
            c(CommentKind::Engine, "評価値=120"),
            c(CommentKind::Engine, "読み筋=△３四歩"),
            c(CommentKind::Text, "#評価値=95"),
            c(CommentKind::Text, "#読み筋=△８四歩"),
        ];
        let all = evaluations(&lines);
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].searcher, Searcher::Player);
        let shown = evaluation(&lines).unwrap();
        assert_eq!(shown.score, Some(Score::Value(95)));
        assert_eq!(shown.pv, "△８四歩");
    }

    #[test]
    fn a_mate_and_a_second_search_of_the_same_dialect() {
        let lines = [
            c(CommentKind::Text, "#詰み=後手勝ち:7手"),
            c(CommentKind::Text, "#評価値=10"),
        ];
        let all = evaluations(&lines);
        assert_eq!(all.len(), 2);
        assert_eq!(
            all[0].score,
            Some(Score::Mate {
                winner_first: false,
                plies: Some(7)
            })
        );
        assert_eq!(all[0].centipawns(30000), Some(-30000));
    }

    #[test]
    fn what_people_write_is_no_evaluation() {
        for text in [
            "30",
            "30 手目で悪くなった",
            "5 +7776FU and more",
            "https://example.com/",
            "#タグ",
            "互角",
        ] {
            assert!(!is_evaluation_line(&c(CommentKind::Text, text)), "{text}");
        }
        // a client's `'*` comment shaped like an engine line is one
        assert!(is_evaluation_line(&c(CommentKind::Text, "-512 +2726FU")));
        assert!(!is_evaluation_line(&c(CommentKind::Hidden, "-512 +2726FU")));
    }

    #[test]
    fn dialect_names_round_trip() {
        for d in CommentDialect::ALL {
            assert_eq!(d.name().parse::<CommentDialect>(), Ok(d));
        }
        assert!("kif".parse::<CommentDialect>().is_err());
    }
}
