//! KI2 notation, reading and writing.

use kifu_record::{EndingKind, Side};

mod support;

use kifu_records::shogi::ki2::{read, write};
use kifu_records::shogi::kif;
use kifu_shogi::notation::ki2::{parse, resolve, write as notation};
use kifu_shogi::{Move, Position, Square};
use support::compare::assert_same_game;
use support::corpus;

fn sq(file: u8, rank: u8) -> Square {
    Square::new(file, rank).unwrap()
}

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap()
}

fn resolve_text(p: &Position, text: &str) -> Result<Move, String> {
    let (m, len) = parse(text).unwrap();
    assert_eq!(len, text.len(), "{text}");
    resolve(p, None, &m).map_err(|e| e.to_string())
}

#[test]
fn jsa_gold_examples() {
    // Black golds on 6九 and 4九 can both go to 5八; 5九 is empty.
    let p = pos("4k4/9/9/9/9/9/9/9/3G1G2K b - 1");
    let right = Move::normal(sq(4, 9), sq(5, 8), false);
    let left = Move::normal(sq(6, 9), sq(5, 8), false);
    assert_eq!(resolve_text(&p, "▲５八金右"), Ok(right));
    assert_eq!(resolve_text(&p, "▲５八金左"), Ok(left));
    assert!(resolve_text(&p, "▲５八金").is_err());
    assert_eq!(notation(&p, right, None), "５八金右");
    assert_eq!(notation(&p, left, None), "５八金左");
    // Golds on 5九 and 4八 going to 5八: 寄 (sideways) vs 上 (forward).
    let p = pos("4k4/9/9/9/9/9/9/5G3/4G3K b - 1");
    let straight = Move::normal(sq(5, 9), sq(5, 8), false);
    let sideways = Move::normal(sq(4, 8), sq(5, 8), false);
    assert_eq!(notation(&p, straight, None), "５八金上");
    assert_eq!(notation(&p, sideways, None), "５八金寄");
    assert_eq!(resolve_text(&p, "▲５八金上"), Ok(straight));
    assert_eq!(resolve_text(&p, "▲５八金寄"), Ok(sideways));
}

#[test]
fn straight_and_three_pieces() {
    // Golds on 6八, 5八, 4八 all able to go to 5七.
    let p = pos("4k4/9/9/9/9/9/9/3GGG3/8K b - 1");
    let cases = [
        ((6, 8), "５七金左"),
        ((5, 8), "５七金直"),
        ((4, 8), "５七金右"),
    ];
    for ((f, r), text) in cases {
        let mv = Move::normal(sq(f, r), sq(5, 7), false);
        assert_eq!(notation(&p, mv, None), text);
        assert_eq!(resolve_text(&p, &format!("▲{text}")), Ok(mv));
    }
    // White sees left and right the other way round.
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 w 2g 1");
    let _ = p;
    let p = pos("8k/3ggg3/9/9/9/9/9/9/4K4 w - 1");
    let mv = Move::normal(sq(6, 2), sq(5, 3), false);
    assert_eq!(notation(&p, mv, None), "５三金右");
}

#[test]
fn drops_promotions_and_same() {
    // A silver in hand and one on the board that can reach 4八.
    let p = pos("4k4/9/9/9/9/9/9/9/4KS3 b S 1");
    let drop = Move::drop(kifu_shogi::PieceKind::Silver, sq(4, 8));
    assert_eq!(notation(&p, drop, None), "４八銀打");
    assert_eq!(resolve_text(&p, "▲４八銀打"), Ok(drop));
    assert_eq!(
        resolve_text(&p, "▲４八銀"),
        Ok(Move::normal(sq(4, 9), sq(4, 8), false))
    );
    // optional promotion is always stated
    let p = pos("4k4/9/9/4S4/9/9/9/9/4K4 b - 1");
    let up = Move::normal(sq(5, 4), sq(5, 3), false);
    assert_eq!(notation(&p, up, None), "５三銀不成");
    assert_eq!(
        notation(&p, Move::normal(sq(5, 4), sq(5, 3), true), None),
        "５三銀成"
    );
    // `同` is padded with U+3000 only when one character follows (`同　銀`, `同銀不成`)
    assert_eq!(notation(&p, up, Some(sq(5, 3))), "同銀不成");
    let p = pos("4k4/9/9/9/4S4/9/9/9/4K4 b - 1");
    assert_eq!(
        notation(&p, Move::normal(sq(5, 5), sq(5, 4), false), Some(sq(5, 4))),
        "同　銀"
    );
}

#[test]
fn corpus_ki2_check_clean() {
    for (sub, ext) in [
        ("shogi/jkf-suite/ki2", "ki2"),
        ("shogi/jkf-suite/ki2", "ki2u"),
        ("shogi/converter-suite/ki2", "ki2"),
        ("shogi/converter-suite/ki2", "ki2u"),
    ] {
        for path in corpus::files(sub, ext) {
            let text = corpus::text(&path);
            let parsed = read(&text);
            assert!(
                !parsed.has_errors(),
                "{}",
                corpus::render(&path, &text, &parsed.diagnostics)
            );
            assert!(parsed.records[0].moves.main_line().count() > 0);
        }
    }
}

#[test]
fn results_from_the_summary_line() {
    let path = corpus::path("shogi/jkf-suite/ki2/illegal.ki2");
    let parsed = read(&corpus::text(&path));
    let t = &parsed.records[0].moves;
    assert_eq!(t.ending().unwrap().kind, EndingKind::IllegalMoveLoss);
    let alt = t.children(t.root()).nth(1).unwrap();
    let end = t.line_from(alt).last().unwrap();
    assert_eq!(t[end].ending().unwrap().kind, EndingKind::IllegalMoveWin);
    let parsed = read("▲７六歩　△３四歩\nまで2手で後手の反則負け\n");
    let kind = parsed.records[0].moves.ending().unwrap().kind;
    assert_eq!(kind, EndingKind::IllegalAction(Side::Second));
}

#[test]
fn bulk_games_round_trip_through_ki2() {
    for path in corpus::files("shogi/bulk/kifu", "kifu")
        .into_iter()
        .step_by(5)
    {
        let original = &kif::read(&corpus::text(&path)).records[0];
        let written = write(original);
        assert_eq!(written.warnings, ["KI2 cannot hold times; dropped"]);
        let back = read(&written.text);
        assert!(
            back.diagnostics.is_empty(),
            "{}: {:?}\n{}",
            path.display(),
            back.diagnostics,
            written.text
        );
        let moves = |r: &kifu_records::shogi::ShogiRecord| -> Vec<_> {
            r.moves
                .main_line()
                .map(|id| r.moves[id].item.clone())
                .collect()
        };
        assert_eq!(
            moves(original),
            moves(&back.records[0]),
            "{}",
            path.display()
        );
    }
}

#[test]
fn corpus_ki2_round_trip() {
    for path in corpus::files("shogi/jkf-suite/ki2", "ki2") {
        let original = &read(&corpus::text(&path)).records[0];
        let written = write(original);
        let back = read(&written.text);
        assert!(
            !back.has_errors(),
            "{}: {:?}\n{}",
            path.display(),
            back.diagnostics,
            written.text
        );
        assert_same_game(
            original,
            &back.records[0],
            true,
            &path.display().to_string(),
        );
    }
}
