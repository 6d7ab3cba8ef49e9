//! Reader gaps met on real files (issue 27): each failed before its fix.

use kifu_record::{EndingKind, NodeItem, RecordFormat, Side};
use kifu_records::shogi::{csa, format_by_name, kif};

const BOD_AFTER_4: &str = "\
後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂v銀v金v玉v金v銀v桂v香|一
| ・v飛 ・ ・ ・ ・ ・v角 ・|二
|v歩 ・v歩v歩v歩v歩 ・v歩v歩|三
| ・v歩 ・ ・ ・ ・v歩 ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ 歩 ・ ・ ・ ・ 歩 ・|六
| 歩 歩 ・ 歩 歩 歩 歩 ・ 歩|七
| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八
| 香 桂 銀 金 玉 金 銀 桂 香|九
+---------------------------+
先手の持駒：なし
先手番
手数＝4
   1 ２五歩(26)
   2 ８五歩(84)
";

/// `変化：3手目` (tsshogi reads it) is the variation header `変化：3手`.
#[test]
fn a_variation_header_with_me_is_a_variation() {
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n変化：3手目\n   3 ６六歩(67)\n";
    let read = kif::KIFU.records(text).next().unwrap();
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let tree = &read.record.moves;
    let second = tree.main_line().nth(1).unwrap();
    assert_eq!(tree.variations(second).count(), 1);
}

/// 将棋倶楽部24 writes a foul as `2 先手 反則負け`: 先手's illegal-move loss.
#[test]
fn a_foul_of_a_named_side_is_that_sides_loss() {
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 先手 反則負け\n";
    let read = kif::KIFU.records(text).next().unwrap();
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let tree = &read.record.moves;
    let last = tree.main_line().last().unwrap();
    assert!(
        matches!(
            tree[last].item,
            NodeItem::End(EndingKind::IllegalAction(Side::First))
        ),
        "{:?}",
        tree[last].item
    );
}

/// A record that starts at a diagram after 4 moves keeps that number through KIF and KI2, and
/// CSA, which has no place for it, says so.
#[test]
fn the_start_move_number_of_a_diagram_survives_kif_and_ki2() {
    let read = kif::KIFU.records(BOD_AFTER_4).next().unwrap();
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    assert_eq!(read.record.start.position.move_number(), 5);
    for name in ["kifu", "ki2u"] {
        let format = format_by_name(name).unwrap();
        let written = format.write(std::slice::from_ref(&read.record));
        assert!(
            written.text.contains("手数＝4"),
            "{name}:\n{}",
            written.text
        );
        let back = format.records(&written.text).next().unwrap();
        assert!(!back.has_errors(), "{name}: {:?}", back.diagnostics);
        assert_eq!(back.record.start.position.move_number(), 5, "{name}");
    }
    let written = csa::CSA.write(std::slice::from_ref(&read.record));
    assert!(
        written.warnings.iter().any(|w| w.contains("after 4 moves")),
        "{:?}",
        written.warnings
    );
}
