//! The acceptance bound of the replay viewer: a 300-ply shogi record with 50 variations makes a
//! page under 300 KB (the browser test measures that it opens in under a second).

use kifu_record::{Game, NodeId, Record, Span};
use kifu_shogi::{Position, Shogi};

/// A real 300-ply game from the corpus with 50 variations of four moves each, every one a
/// legal alternative to the main-line move at its ply.
pub fn long_record_with_variations() -> Record<Shogi> {
    let games = kifu_testkit::corpus::text("shogi/lishogi-usi/games.txt");
    let longest = games
        .lines()
        .max_by_key(|l| l.split_whitespace().count())
        .expect("games");
    let moves: Vec<&str> = longest.split_whitespace().take(300).collect();
    assert_eq!(moves.len(), 300, "the longest corpus game has 300 plies");
    let mut record: Record<Shogi> = Record::new(Default::default());
    let mut position = Shogi::start_position(&record.start);
    let mut node = record.moves.root();
    let mut main: Vec<(NodeId, Position)> = Vec::new();
    for text in moves {
        let mv = kifu_shogi::usi::parse_move(text).expect("USI move");
        main.push((node, position.clone()));
        Shogi::play(&mut position, &mv).expect("legal");
        node = record.moves.add_move(node, mv, Span::default());
    }
    let mut added = 0;
    for (parent, before) in main.iter().step_by(6) {
        if added == 50 {
            break;
        }
        let played = record.moves[record.moves.main_child(*parent).unwrap()]
            .mv()
            .copied();
        let Some(alternative) = before
            .legal_moves()
            .into_iter()
            .copied()
            .find(|m| Some(*m) != played)
        else {
            continue;
        };
        let mut position = before.clone();
        let mut at = *parent;
        let mut mv = alternative;
        for _ in 0..4 {
            Shogi::play(&mut position, &mv).expect("legal");
            at = record.moves.add_move(at, mv, Span::default());
            let Some(next) = position.legal_moves().into_iter().next().copied() else {
                break;
            };
            mv = next;
        }
        added += 1;
    }
    assert_eq!(added, 50);
    record
}

#[test]
fn a_long_record_with_fifty_variations_makes_a_page_under_300_kb() {
    let record = long_record_with_variations();
    let page = kifu_render::html::page(&record, None, "long game");
    println!(
        "page of a 300-ply record with 50 variations: {} bytes",
        page.len()
    );
    assert!(page.len() < 300_000, "{} bytes", page.len());
}
