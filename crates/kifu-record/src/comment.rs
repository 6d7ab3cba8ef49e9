//! Comments, engine analysis lines and bookmarks attached to a node.

use crate::Span;

/// Who a comment is meant for, which decides how writers put it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// A comment programs skip: CSA `'text`.
    Hidden,
    /// A comment for people and programs: CSA V3.0 `'*text`, KIF `*text`, JKF `comments`.
    Text,
    /// Engine output: CSA `'**…`, KIF `**…`. Its analysis is in [`Comment::engine`].
    Engine,
}

/// One comment line (without its marker), attached to the node it follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// What the comment is for, which decides how writers put it back.
    pub kind: CommentKind,
    /// The comment without its marker (`'`, `'*`, `*`, `**`).
    pub text: String,
    /// Where it was written.
    pub span: Span,
    /// The structured reading of an [`CommentKind::Engine`] line, when it has one.
    pub engine: Option<EngineInfo>,
}

impl Comment {
    /// What goes between an engine line's marker (CSA `'**`, KIF `**`, JKF `*`) and its
    /// text: a space before a score (`** 30 -3334FU`, as floodgate and CSA V3.0 write it and
    /// ShogiHome reads it), nothing before a keyword (`**評価値=30`, `**解析 …`, as ShogiHome
    /// and ShogiGUI write them).
    pub fn engine_gap(text: &str) -> &'static str {
        if text.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-')) {
            " "
        } else {
            ""
        }
    }

    /// A comment; an engine line is also read for its score and principal variation.
    pub fn new(kind: CommentKind, text: impl Into<String>, span: Span) -> Comment {
        let text = text.into();
        let engine = match kind {
            CommentKind::Engine => EngineInfo::parse(&text),
            _ => None,
        };
        Comment {
            kind,
            text,
            span,
            engine,
        }
    }
}

/// An evaluation, always from the first player's (先手's) point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// In the engine's unit, normally centipawns (CSA recommends ±30000 for a won game).
    Value(i32),
    /// A forced mate; `winner_first` says for whom, `plies` how far away if known.
    Mate {
        /// True when the first player mates.
        winner_first: bool,
        /// How many plies to the mate, if the engine said.
        plies: Option<u32>,
    },
}

/// What an engine line says: score, principal variation and search statistics.
///
/// Two shapes are understood: CSA V3.0 `<score> <pv moves…> #<nodes>` and the
/// keyword shape GUIs write into KIF (`評価値 120 読み筋 ▲７六歩(77) …`, `評価値=30`).
///
/// ```
/// use kifu_record::{Comment, CommentKind, Score, Span};
///
/// let line = Comment::new(CommentKind::Engine, "-120 -3334FU +2726FU #1234", Span::default());
/// let info = line.engine.unwrap();
/// assert_eq!(info.score, Some(Score::Value(-120)));
/// assert_eq!(info.pv, "-3334FU +2726FU");
/// assert_eq!(info.nodes, Some(1234));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    /// The evaluation, from the first player's point of view.
    pub score: Option<Score>,
    /// The PV as written, moves separated by single spaces (game notation, not parsed here).
    pub pv: String,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Search depth.
    pub depth: Option<u32>,
}

impl EngineInfo {
    /// The PV moves as written. Split on ASCII spaces only: a JSA move may hold an
    /// ideographic space (`△同　銀`).
    pub fn pv_moves(&self) -> impl Iterator<Item = &str> {
        self.pv.split(' ').filter(|m| !m.is_empty())
    }

    /// Reads the text after the `**` marker; `None` if nothing in it is recognisable.
    pub fn parse(text: &str) -> Option<EngineInfo> {
        let text = text.trim();
        let first = text.split_whitespace().next()?;
        let info = if parse_signed(first).is_some() {
            Self::parse_csa(text)
        } else if let Some(info) = Self::parse_shogihome(text) {
            info
        } else {
            Self::parse_keywords(text)
        };
        (info.score.is_some()
            || !info.pv.is_empty()
            || info.nodes.is_some()
            || info.depth.is_some())
        .then_some(info)
    }

    fn parse_csa(text: &str) -> EngineInfo {
        let mut info = EngineInfo::default();
        let mut tokens = text.split_whitespace();
        info.score = tokens.next().and_then(parse_signed).map(Score::Value);
        for token in tokens {
            if let Some(nodes) = token.strip_prefix('#') {
                info.nodes = nodes.parse().ok();
            } else {
                push_word(&mut info.pv, token);
            }
        }
        info
    }

    /// ShogiHome's one-key lines (`評価値=-45`, `読み筋=▲２二角成△同　銀`, `深さ=8`,
    /// `ノード数=123456`, `詰み=先手勝ち:15手`): the PV's moves, written without a separator,
    /// are split at their side marks.
    fn parse_shogihome(text: &str) -> Option<EngineInfo> {
        let (key, value) = text.split_once('=')?;
        let mut info = EngineInfo::default();
        match key {
            "読み筋" => {
                let mut from = 0;
                for (at, c) in value.char_indices() {
                    if matches!(c, '▲' | '△') && at > from {
                        push_word(&mut info.pv, value[from..at].trim());
                        from = at;
                    }
                }
                push_word(&mut info.pv, value[from..].trim());
            }
            "深さ" => info.depth = value.trim().parse().ok(),
            "ノード数" => info.nodes = value.trim().parse().ok(),
            "詰み" => {
                let (winner, plies) = match value.split_once(':') {
                    Some((w, p)) => (w, p.trim_end_matches('手').parse().ok()),
                    None => (value, None),
                };
                let winner_first = match winner {
                    "先手勝ち" => true,
                    "後手勝ち" => false,
                    _ => return None,
                };
                info.score = Some(Score::Mate {
                    winner_first,
                    plies,
                });
            }
            _ => return None,
        }
        Some(info)
    }

    fn parse_keywords(text: &str) -> EngineInfo {
        let mut info = EngineInfo::default();
        // The PV runs to the end of the line, its moves split by ASCII spaces only: a move
        // may hold an ideographic space (`▲同　歩(87)`).
        let (text, pv) = match text.find("読み筋") {
            Some(at) if text[..at].is_empty() || text[..at].ends_with([' ', '\u{3000}']) => {
                (&text[..at], Some(&text[at + "読み筋".len()..]))
            }
            _ => (text, None),
        };
        if let Some(pv) = pv {
            for word in pv.split([' ', '\t']) {
                push_word(&mut info.pv, word.trim_matches('\u{3000}'));
            }
        }
        let mut tokens = text
            .split(|c: char| c.is_whitespace() || c == '\u{3000}')
            .filter(|t| !t.is_empty())
            .peekable();
        while let Some(token) = tokens.next() {
            if let Some(rest) = token.strip_prefix("評価値") {
                let value = match rest.strip_prefix('=') {
                    Some(v) if !v.is_empty() => Some(v),
                    _ if rest.is_empty() => tokens.next(),
                    _ => None,
                };
                info.score = value.and_then(|v| parse_score_word(v, tokens.peek().copied()));
            } else if token == "ノード数" {
                info.nodes = tokens.next().and_then(|n| n.parse().ok());
            } else if token == "深さ" {
                info.depth = tokens
                    .next()
                    .and_then(|d| d.split('/').next())
                    .and_then(|d| d.parse().ok());
            }
        }
        info
    }
}

fn push_word(out: &mut String, word: &str) {
    if word.is_empty() {
        return;
    }
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(word);
}

fn parse_signed(s: &str) -> Option<i32> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

// `120`, `-35`, `+詰` / `-詰` optionally followed by a ply count (`+詰 7`, `-詰7`).
fn parse_score_word(word: &str, next: Option<&str>) -> Option<Score> {
    if let Some(v) = parse_signed(word) {
        return Some(Score::Value(v));
    }
    let (winner_first, rest) = if let Some(r) = word.strip_prefix('-') {
        (false, r)
    } else {
        (true, word.strip_prefix('+').unwrap_or(word))
    };
    let after = rest.strip_prefix('詰')?;
    let plies = if after.is_empty() {
        next.and_then(|n| n.parse().ok())
    } else {
        after.trim_end_matches('手').parse().ok()
    };
    Some(Score::Mate {
        winner_first,
        plies,
    })
}

/// A named bookmark (KIF `&name`) on the position after the node's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bookmark {
    /// The bookmark's name (KIF `&name`).
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shogihome_player_lines() {
        let pv = EngineInfo::parse("読み筋=▲２二角成△同　銀▲７六歩").unwrap();
        assert_eq!(
            pv.pv_moves().collect::<Vec<_>>(),
            ["▲２二角成", "△同　銀", "▲７六歩"]
        );
        assert_eq!(pv.score, None);
        let score = EngineInfo::parse("評価値=-45").unwrap();
        assert_eq!(score.score, Some(Score::Value(-45)));
        assert_eq!(EngineInfo::parse("深さ=8").unwrap().depth, Some(8));
        assert_eq!(
            EngineInfo::parse("ノード数=123456").unwrap().nodes,
            Some(123456)
        );
        assert_eq!(
            EngineInfo::parse("詰み=後手勝ち:15手").unwrap().score,
            Some(Score::Mate {
                winner_first: false,
                plies: Some(15)
            })
        );
        assert_eq!(
            EngineInfo::parse("詰み=先手勝ち").unwrap().score,
            Some(Score::Mate {
                winner_first: true,
                plies: None
            })
        );
        // The engine's name says nothing about the position.
        assert_eq!(EngineInfo::parse("エンジン=sekirei"), None);
    }

    #[test]
    fn csa_engine_line() {
        let info = EngineInfo::parse("30 -3334FU +2625FU #1234").unwrap();
        assert_eq!(info.score, Some(Score::Value(30)));
        assert_eq!(info.pv_moves().collect::<Vec<_>>(), ["-3334FU", "+2625FU"]);
        assert_eq!(info.nodes, Some(1234));
    }

    #[test]
    fn csa_engine_line_with_negative_score_and_special() {
        let info = EngineInfo::parse("-30000 +0055KA %TORYO").unwrap();
        assert_eq!(info.score, Some(Score::Value(-30000)));
        assert_eq!(info.pv, "+0055KA %TORYO");
        assert_eq!(info.nodes, None);
    }

    #[test]
    fn gui_keyword_lines() {
        let info = EngineInfo::parse("評価値=30").unwrap();
        assert_eq!(info.score, Some(Score::Value(30)));
        let info = EngineInfo::parse("対局 評価値 120 読み筋 ▲７六歩(77) △３四歩(33) 深さ 12/20 ")
            .unwrap();
        assert_eq!(info.score, Some(Score::Value(120)));
        // everything after 読み筋 is PV text, whatever it looks like
        assert_eq!(info.pv, "▲７六歩(77) △３四歩(33) 深さ 12/20");
        let info =
            EngineInfo::parse("解析 深さ 8/14 ノード数 4567 評価値 -詰 5 読み筋 △同　玉").unwrap();
        assert_eq!(info.depth, Some(8));
        assert_eq!(info.nodes, Some(4567));
        assert_eq!(
            info.score,
            Some(Score::Mate {
                winner_first: false,
                plies: Some(5)
            })
        );
    }

    #[test]
    fn plain_text_is_not_engine_info() {
        assert_eq!(EngineInfo::parse("良い手"), None);
        assert_eq!(EngineInfo::parse(""), None);
        let c = Comment::new(CommentKind::Text, "30 -3334FU", Span::default());
        assert_eq!(c.engine, None);
        let c = Comment::new(CommentKind::Engine, "30 -3334FU", Span::default());
        assert_eq!(c.engine.unwrap().score, Some(Score::Value(30)));
    }
}
