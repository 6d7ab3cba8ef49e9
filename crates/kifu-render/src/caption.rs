//! The words of a picture: the move number at the top right and the caption line under the
//! board (`80手目 △６三銀 羽生善治 評価値 +123`), as Kifu for Windows and ShogiHome caption
//! their board images. Japanese throughout: a picture speaks one language.

use kifu_record::{Comment, Game, HeaderField, NodeId, Record, Score, Side};

use crate::{Lang, Picture};

/// The move number as written at the top right: `80手目`, or `開始局面` (the start position)
/// before the first move.
pub fn move_label(ply: u32) -> String {
    if ply == 0 {
        "開始局面".to_string()
    } else {
        format!("{ply}手目")
    }
}

/// [`move_label`] in `lang`: `Move 80`, `Start` in English.
pub fn move_label_in(ply: u32, lang: Lang) -> String {
    match (lang, ply) {
        (Lang::Ja, _) => move_label(ply),
        (Lang::En, 0) => "Start".to_string(),
        (Lang::En, _) => format!("Move {ply}"),
    }
}

/// The name of `side` as the record gives it, when it gives one.
fn player_name<G: Game>(record: &Record<G>, side: Side) -> Option<&str> {
    let field = match side {
        Side::First => HeaderField::FirstPlayer,
        Side::Second => HeaderField::SecondPlayer,
    };
    record
        .header
        .get(field)
        .map(str::trim)
        .filter(|n| !n.is_empty())
}

/// What a comment that carries an evaluation says: the score and the line the engine
/// expected (as written, in the record's notation; empty when it gave none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The score, from the first player's point of view.
    pub score: Score,
    /// The principal variation as written.
    pub pv: String,
}

impl Evaluation {
    /// The score in words of `lang`: [`Evaluation::words`], or `eval +123`, `Black mates in
    /// 7` in English.
    pub fn words_in(&self, lang: Lang) -> String {
        match (lang, self.score) {
            (Lang::Ja, _) => self.words(),
            (Lang::En, Score::Value(v)) => format!("eval {v:+}"),
            (
                Lang::En,
                Score::Mate {
                    winner_first,
                    plies,
                },
            ) => {
                let side = if winner_first { "Black" } else { "White" };
                match plies {
                    Some(n) => format!("{side} mates in {n}"),
                    None => format!("{side} mates"),
                }
            }
        }
    }

    /// The score in words: `評価値 +123`, `評価値 -45`, `▲詰み 7手` (the first player mates
    /// in 7).
    pub fn words(&self) -> String {
        match self.score {
            Score::Value(v) => format!("評価値 {v:+}"),
            Score::Mate {
                winner_first,
                plies,
            } => {
                let mark = if winner_first { '▲' } else { '△' };
                match plies {
                    Some(n) => format!("{mark}詰み {n}手"),
                    None => format!("{mark}詰み"),
                }
            }
        }
    }
}

/// The evaluation one comment line gives, when it is a line of one of the four dialects
/// programs write ([`kifu_record::evaluation`]) and gives a score: floodgate's and CSA V3.0's
/// `'**`, ShogiGUI's `**解析 …`, ShogiHome's `*#評価値=123` (its line `*#読み筋=▲７六歩 …`
/// says nothing of the score and is not one), or a CSA V3.0 `'*` comment a client sent with
/// its move and shaped like an engine line (`'* 30 -3334FU +2625FU`).
pub fn comment_evaluation(comment: &Comment) -> Option<Evaluation> {
    let line = kifu_record::evaluation::line(comment)?;
    Some(Evaluation {
        score: line.info.score?,
        pv: line.info.pv,
    })
}

/// The evaluation a node's comments give, its lines gathered (ShogiHome writes the score
/// and the PV on lines of their own): an analysis's when there is one.
pub fn node_evaluation(comments: &[Comment]) -> Option<Evaluation> {
    let found = kifu_record::evaluation::evaluation(comments)?;
    Some(Evaluation {
        score: found.score?,
        pv: found.pv,
    })
}

/// The evaluation the comments of `node` give ([`comment_evaluation`]), from the first
/// player's point of view: `評価値 +123`, `評価値 -45`, `▲詰み 7手`.
pub fn evaluation<G: Game>(record: &Record<G>, node: NodeId) -> Option<String> {
    node_evaluation(record.moves[node].comments()).map(|e| e.words())
}

/// The caption of the position after `node`: its move number, the move that led to it
/// (`played`: the position before it and the move) in the game's notation for players, the
/// mover's name when the record has one, and the evaluation when an engine comment gives one.
pub fn caption<G: Picture>(
    record: &Record<G>,
    node: NodeId,
    played: Option<(&G::Position, &G::Move)>,
    previous: Option<&G::Move>,
) -> String {
    caption_in(record, node, played, previous, Lang::Ja)
}

/// [`caption`] in `lang`: in English `Move 80 ☖ S7b-6c Habu eval +123`, the move in the
/// game's Western notation ([`Picture::move_caption_western`]).
pub fn caption_in<G: Picture>(
    record: &Record<G>,
    node: NodeId,
    played: Option<(&G::Position, &G::Move)>,
    previous: Option<&G::Move>,
    lang: Lang,
) -> String {
    let mut parts = vec![move_label_in(record.moves[node].ply(), lang)];
    if let Some((before, mv)) = played {
        parts.push(match lang {
            Lang::Ja => G::move_caption(before, mv, previous),
            Lang::En => G::move_caption_western(before, mv),
        });
        if let Some(name) = player_name(record, G::turn(before)) {
            parts.push(name.to_string());
        }
    }
    if let Some(value) = node_evaluation(record.moves[node].comments()) {
        parts.push(value.words_in(lang));
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_record::CommentKind;
    use kifu_record::Span;
    use kifu_shogi::{Move, Shogi, Square};

    #[test]
    fn a_caption_names_the_move_the_mover_and_the_evaluation() {
        let mut record: Record<Shogi> = Record::new(Default::default());
        record
            .header
            .set(HeaderField::SecondPlayer, "後手", "羽生善治");
        let sq = |f, r| Square::new(f, r).unwrap();
        let first = record.moves.add_move(
            record.moves.root(),
            Move::normal(sq(7, 7), sq(7, 6), false),
            Span::default(),
        );
        let second = record.moves.add_move(
            first,
            Move::normal(sq(3, 3), sq(3, 4), false),
            Span::default(),
        );
        record.moves[second].comments_mut().push(Comment::new(
            CommentKind::Engine,
            "-123 +2726FU",
            Span::default(),
        ));
        let start = record.position_at(record.moves.root());
        let after_first = record.position_at(first);
        let first_move = Move::normal(sq(7, 7), sq(7, 6), false);
        let second_move = Move::normal(sq(3, 3), sq(3, 4), false);
        assert_eq!(
            caption(&record, first, Some((&start, &first_move)), None),
            "1手目 ▲７六歩"
        );
        assert_eq!(
            caption(
                &record,
                second,
                Some((&after_first, &second_move)),
                Some(&first_move)
            ),
            "2手目 △３四歩 羽生善治 評価値 -123"
        );
        assert_eq!(
            caption(&record, record.moves.root(), None, None),
            "開始局面"
        );
        for text in ["開始局面", "▲７六歩 △３四歩 評価値 +-", "詰み 7手"] {
            assert!(crate::font::covers(text), "{text}");
        }
    }

    #[test]
    fn evaluations_in_the_shapes_programs_write_them() {
        let read = |kind, text: &str| {
            comment_evaluation(&Comment::new(kind, text, Span::default())).map(|e| e.words())
        };
        // floodgate's CSA engine line and ShogiGUI's KIF one
        assert_eq!(
            read(CommentKind::Engine, "30 -3334FU +2625FU #1234").as_deref(),
            Some("評価値 +30")
        );
        assert_eq!(
            read(CommentKind::Engine, "対局 評価値 -120 読み筋 △３四歩(33)").as_deref(),
            Some("評価値 -120")
        );
        // ShogiHome's lines in an ordinary comment
        assert_eq!(
            read(CommentKind::Text, "#評価値=-85").as_deref(),
            Some("評価値 -85")
        );
        assert_eq!(read(CommentKind::Text, "#読み筋=▲７六歩"), None);
        // a CSA V3.0 `'*` comment a client sent with its move
        let sent = comment_evaluation(&Comment::new(
            CommentKind::Text,
            "-512 +2726FU -8384FU",
            Span::default(),
        ))
        .unwrap();
        assert_eq!(sent.score, Score::Value(-512));
        assert_eq!(sent.pv, "+2726FU -8384FU");
        // what people write stays a comment
        for text in [
            "30",
            "30 手目で悪くなった",
            "5 +7776FU and more",
            "https://example.com/",
        ] {
            assert_eq!(read(CommentKind::Text, text), None, "{text}");
        }
        assert_eq!(read(CommentKind::Engine, "詰み なし"), None);
    }
}
