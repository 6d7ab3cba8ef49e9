//! Issue 12, the reading cases: records the peers (tsshogi, json-kifu-format, Shogi DB2 …)
//! read and kifu rejected or misread. One test per case.

use kifu_record::RecordFormat;
use kifu_record::{Comment, EndingKind, NodeItem, Outcome, Side};
use kifu_records::read_bytes;
use kifu_records::shogi::{Parsed, ShogiRecord, csa, ki2, kif};
use kifu_shogi::Shogi;
use kifu_shogi::ShogiEnding;

fn read(format: &'static dyn RecordFormat<Shogi>, text: &str) -> Parsed {
    read_bytes(text.as_bytes(), format).1
}

fn plies(r: &ShogiRecord) -> usize {
    r.moves
        .main_line()
        .filter(|&id| matches!(r.moves[id].item, NodeItem::Move(_)))
        .count()
}

/// The ending of the main line and the result it states (even-game start).
fn result(r: &ShogiRecord) -> (EndingKind<ShogiEnding>, Outcome) {
    let end = r.moves.main_line_end();
    let kind = r.moves[end].ending().expect("an ending").kind;
    let mover = if r.moves[end].ply() % 2 == 1 {
        Side::First
    } else {
        Side::Second
    };
    let outcome = kind.outcome(mover);
    (kind, outcome)
}

/// Case 3: a foul stated from either side names the same winner, after a legal last move
/// (a foul by the side that did not move, e.g. a time violation declared by the arbiter)
/// and after an illegal one (which the statement excuses).
#[test]
fn case_3_fouls_read_with_the_right_winner_whichever_side_states_them() {
    let moves = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
    for summary in ["まで2手で後手の反則負け", "まで2手で先手の反則勝ち"] {
        let parsed = read(&kif::KIFU, &format!("{moves}{summary}\n"));
        assert!(
            parsed.diagnostics.is_empty(),
            "{summary}: {:?}",
            parsed.diagnostics
        );
        let (_, outcome) = result(&parsed.records[0]);
        assert_eq!(outcome, Outcome::Win(Side::First), "{summary}");
    }
    // White's second move is a 二歩: both wordings keep it, marked illegal, Black winning.
    let nifu = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 ３五歩打\n";
    for summary in ["まで4手で後手の反則負け", "まで4手で先手の反則勝ち"] {
        let parsed = read(&kif::KIFU, &format!("{nifu}{summary}\n"));
        assert!(!parsed.has_errors(), "{summary}: {:?}", parsed.diagnostics);
        let record = &parsed.records[0];
        assert_eq!(plies(record), 4, "{summary}: the illegal move is kept");
        let last_move = record.moves.parent(record.moves.main_line_end()).unwrap();
        assert!(record.moves[last_move].illegal);
        assert_eq!(result(record).1, Outcome::Win(Side::First), "{summary}");
    }
}

/// Case 7: a full-width space between the piece and its origin.
#[test]
fn case_7_a_full_width_space_before_the_origin() {
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７八銀　(79)   ( 0:01/00:00:01)\n   4 同　角成　(88)\n";
    let parsed = read(&kif::KIFU, text);
    // Move 4 is an illegal move of White's bishop: the point is that it is read as a move.
    let errors: Vec<_> = parsed.diagnostics.iter().map(|d| &d.message).collect();
    assert_eq!(plies(&parsed.records[0]), 3, "{errors:?}");
    assert!(errors.iter().all(|e| !e.contains("time")), "{errors:?}");
    let record = &parsed.records[0];
    let third = record.moves.main_line().nth(2).unwrap();
    assert_eq!(record.moves[third].time_ms(), Some(1000));
    let text =
        "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成　(88)\n   4 同銀　(31)\n";
    let parsed = read(&kif::KIFU, text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    assert_eq!(plies(&parsed.records[0]), 4);
}

/// Case 8: Shogi DB2 writes the result inline in KI2, as the mover's "move".
#[test]
fn case_8_ki2_inline_endings() {
    let parsed = read(&ki2::KI2U, "手合割：平手\n▲７六歩　△投了\n");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    assert_eq!(
        result(&parsed.records[0]),
        (EndingKind::Resign, Outcome::Win(Side::First))
    );
    let shuffle = "▲５八玉　△５二玉　▲５九玉　△５一玉\n".repeat(3);
    let parsed = read(&ki2::KI2U, &format!("手合割：平手\n{shuffle}▲千日手\n"));
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    assert_eq!(result(&parsed.records[0]).0, EndingKind::Repetition);
    assert_eq!(plies(&parsed.records[0]), 12);
}

/// Case 9: `まで13手で投了`, a game that ends at ply 0, and a variation that is only an ending.
#[test]
fn case_9_summary_lines_peers_write() {
    let moves = "▲７六歩　△３四歩　▲２六歩　△８四歩　▲２五歩　△８五歩　▲７八金　\
                 △３二金　▲２四歩　△同　歩　▲同　飛　△８六歩　▲同　歩\n";
    let parsed = read(
        &ki2::KI2U,
        &format!("手合割：平手\n{moves}まで13手で投了\n"),
    );
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    assert_eq!(plies(&parsed.records[0]), 13);
    // White, to move after 13 moves, resigned.
    assert_eq!(
        result(&parsed.records[0]),
        (EndingKind::Resign, Outcome::Win(Side::First))
    );

    let parsed = read(&kif::KIFU, "手合割：平手\nまで0手で中断\n");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let record = &parsed.records[0];
    assert_eq!(record.moves.ending().unwrap().kind, EndingKind::Abort);
    assert_eq!(record.moves[record.moves.main_line_end()].ply(), 1);

    let text =
        "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n\n変化：3手\nまで2手で中断\n";
    let parsed = read(&kif::KIFU, text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let tree = &parsed.records[0].moves;
    let after_two = tree.main_line().nth(1).unwrap();
    let endings: Vec<_> = tree
        .children(after_two)
        .filter_map(|id| tree[id].ending())
        .map(|e| e.kind)
        .collect();
    assert_eq!(endings, [EndingKind::Resign, EndingKind::Abort]);
}

/// Case 10: a CSA `'` comment runs to the end of its physical line, commas included, with
/// its leading spaces.
#[test]
fn case_10_csa_comments_run_to_the_end_of_the_line() {
    let parsed = read(
        &csa::CSA,
        "PI\n+\n+7776FU,T0,'T0 ,'7776 ,'1手目\n-3334FU\n'  two spaces, then text\n",
    );
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let tree = &parsed.records[0].moves;
    let texts = |n: usize| -> Vec<String> {
        let id = tree.main_line().nth(n).unwrap();
        tree[id]
            .comments()
            .iter()
            .map(|c: &Comment| c.text.clone())
            .collect()
    };
    assert_eq!(texts(0), ["T0 ,'7776 ,'1手目"]);
    assert_eq!(texts(1), ["  two spaces, then text"]);
    assert_eq!(tree[tree.main_line().next().unwrap()].time_ms(), Some(0));
}
