//! The words of a picture: the move number at the top right and the caption line under the
//! board (`80手目 △６三銀 羽生善治 評価値 +123`), as Kifu for Windows and ShogiHome caption
//! their board images. Japanese throughout: a picture speaks one language.

use kifu_record::{CommentKind, Game, HeaderField, NodeId, Record, Score, Side};

use crate::Picture;

/// The move number as written at the top right: `80手目`, or `開始局面` (the start position)
/// before the first move.
pub fn move_label(ply: u32) -> String {
    if ply == 0 {
        "開始局面".to_string()
    } else {
        format!("{ply}手目")
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

/// The evaluation an engine comment of `node` gives, from the first player's point of view:
/// `評価値 +123`, `評価値 -45`, `▲詰み 7手` (the first player mates in 7).
pub fn evaluation<G: Game>(record: &Record<G>, node: NodeId) -> Option<String> {
    let score = record.moves[node]
        .comments
        .iter()
        .filter(|c| c.kind == CommentKind::Engine)
        .find_map(|c| c.engine.as_ref().and_then(|e| e.score))?;
    Some(match score {
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
    })
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
    let mut parts = vec![move_label(record.moves[node].ply())];
    if let Some((before, mv)) = played {
        parts.push(G::move_caption(before, mv, previous));
        if let Some(name) = player_name(record, G::turn(before)) {
            parts.push(name.to_string());
        }
    }
    if let Some(value) = evaluation(record, node) {
        parts.push(value);
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_record::{Comment, Span};
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
        record.moves[second].comments.push(Comment::new(
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
}
