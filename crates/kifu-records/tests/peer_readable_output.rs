//! What kifu writes is what the other record programs need to read it right: one test per
//! writing case of issue 12 (the interop suite checks the same against the real peers).

use kifu_record::RecordFormat;
use kifu_records::read_bytes;
use kifu_records::shogi::csa::{self, CsaFormat, CsaVersion};
use kifu_records::shogi::{jkf, ki2, kif, usi_record};
use kifu_shogi::Shogi;

fn read(format: &'static dyn RecordFormat<Shogi>, text: &str) -> kifu_records::shogi::ShogiRecord {
    let (_, parsed) = read_bytes(text.as_bytes(), format);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    parsed.records.into_iter().next().unwrap()
}

/// CSA standard V2.2, "棋譜ファイルの例": `V2.2`, then `N+`, `N-`, then the `$` lines. A
/// record read from KIF, where the names come after other fields, is written in that order.
#[test]
fn csa_names_come_before_the_dollar_lines() {
    let record = read(
        &kif::KIFU,
        "開始日時：2024/01/06 09:00:00\n棋戦：練習対局\n先手：佐藤\n後手：鈴木\n手合割：平手\n   1 ７六歩(77)\n   2 投了\n",
    );
    for version in [CsaVersion::V22, CsaVersion::V30] {
        let text = csa::write(&record, version).text;
        let n_plus = text.find("\nN+佐藤\n").expect("N+ line");
        let n_minus = text.find("\nN-鈴木\n").expect("N- line");
        let first_dollar = text.find("\n$").expect("a $ line");
        assert!(n_plus < n_minus && n_minus < first_dollar, "{text}");
    }
}

/// `$TIME+:150+00+10` (CSA V3.0, "持ち時間") is written back exactly as read; its meaning is
/// parsed on the side.
#[test]
fn csa_time_values_are_written_back_as_read() {
    let source = "'CSA encoding=UTF-8\nV3.0\nN+a\nN-b\n$TIME+:150+00+10\n$TIME-:600+0+0\nPI\n+\n+7776FU\n%TORYO\n";
    let record = read(&csa::CSA, source);
    let text = csa::write(&record, CsaVersion::V30).text;
    assert!(text.contains("\n$TIME+:150+00+10\n"), "{text}");
    assert!(text.contains("\n$TIME-:600+0+0\n"), "{text}");
}

/// The single move of `sfen moves usi` as kifu writes it in KI2, and the JKF `relative` of it;
/// both KI2 texts (with the words and without them) read back as that move.
fn ki2_and_jkf_relative(sfen: &str, usi: &str) -> (String, Option<String>) {
    let record = read(
        &usi_record::USI,
        &format!("position sfen {sfen} moves {usi}\n"),
    );
    let ki2 = ki2::KI2.write(std::slice::from_ref(&record)).text;
    let line = ki2
        .lines()
        .find(|l| l.starts_with(['▲', '△']))
        .expect("a move line")
        .trim_end()
        .to_owned();
    let jkf = jkf::JKF.write(std::slice::from_ref(&record)).text;
    let json: serde_json::Value = serde_json::from_str(&jkf).unwrap();
    let relative = json["moves"][1]["move"]["relative"]
        .as_str()
        .map(str::to_owned);
    let back = read(&ki2::KI2U, &ki2);
    assert_eq!(
        back.moves
            .main_line()
            .filter_map(|id| back.moves[id].mv().copied())
            .collect::<Vec<_>>(),
        record
            .moves
            .main_line()
            .filter_map(|id| record.moves[id].mv().copied())
            .collect::<Vec<_>>(),
        "{ki2}"
    );
    (line, relative)
}

/// 4八 silver is pinned by the bishop on 6六 against the king on 3九: only 6八 can legally go
/// to 5九, but readers count both silvers, so the move needs 左.
#[test]
fn ki2_relative_word_counts_a_pinned_silver() {
    let (ki2, relative) = ki2_and_jkf_relative("4k4/9/9/9/9/3b5/9/3S1S3/6K2 b - 1", "6h5i");
    assert_eq!(ki2, "▲５九銀左");
    assert_eq!(relative.as_deref(), Some("L"));
}

/// The dragon on 3四 is pinned on the diagonal (bishop 6七, king 1二); the one on 2二 moving
/// sideways to 3二 is 寄 for every reader.
#[test]
fn ki2_relative_word_counts_a_pinned_dragon() {
    let (ki2, relative) = ki2_and_jkf_relative("k8/7+RK/9/6+R2/9/9/3b5/9/9 b - 1", "2b3b");
    assert_eq!(ki2, "▲３二龍寄");
    assert_eq!(relative.as_deref(), Some("M"));
}

/// The silver on 2一 is pinned (rook 5一, king 1一) but its movement reaches 2二, so a silver
/// dropped there is `打`: without it tsshogi reads the board move.
#[test]
fn ki2_drop_mark_counts_a_pinned_silver() {
    let (ki2, relative) = ki2_and_jkf_relative("4R2sk/9/9/9/9/9/9/9/4K4 w s 1", "S*2b");
    assert_eq!(ki2, "△２二銀打");
    assert_eq!(relative.as_deref(), Some("H"));
}

/// kifu's reader keeps accepting the words a legal-moves-only writer left out.
#[test]
fn ki2_reader_accepts_moves_without_the_pinned_piece_words() {
    for (sfen, bare, usi) in [
        ("4k4/9/9/9/9/3b5/9/3S1S3/6K2 b - 1", "▲５九銀", "6h5i"),
        ("k8/7+RK/9/6+R2/9/9/3b5/9/9 b - 1", "▲３二龍", "2b3b"),
        ("4R2sk/9/9/9/9/9/9/9/4K4 w s 1", "△２二銀", "S*2b"),
    ] {
        let bod = kifu_records::shogi::kif::write_bod(
            &kifu_shogi::Position::from_sfen(sfen).unwrap(),
            None,
        );
        let record = read(&ki2::KI2U, &format!("{bod}{bare}\n"));
        let mv = record
            .moves
            .main_line()
            .find_map(|id| record.moves[id].mv().copied());
        assert_eq!(mv.map(|m| m.usi()), Some(usi.to_owned()), "{bare}");
    }
}

/// `%-ILLEGAL_ACTION` with 先手 to move: 後手 fouled, 先手 wins. Readers take `Xの反則負け` as
/// the loss of the side to move whoever X is, so the line names the winner:
/// `まで2手で先手の反則勝ち` (jkf-suite's illegal_win.csa is such a game).
#[test]
fn foul_by_the_side_not_to_move_names_the_winner() {
    let record = read(
        &csa::CSA,
        "V2.2\nPI\n+\n+7776FU\n-3334FU\n%-ILLEGAL_ACTION\n",
    );
    for format in [&kif::KIFU as &dyn RecordFormat<Shogi>, &ki2::KI2U] {
        let text = format.write(std::slice::from_ref(&record)).text;
        assert!(text.contains("まで2手で先手の反則勝ち\n"), "{text}");
        let back = read(format, &text);
        let last = back.moves.main_line().last().unwrap();
        let kifu_record::NodeItem::End(kind) = &back.moves[last].item else {
            panic!("no ending: {text}");
        };
        assert_eq!(
            kind.outcome(kifu_record::Side::First),
            kifu_record::Outcome::Win(kifu_record::Side::First)
        );
    }
    // The side to move fouling keeps 反則負け, which every reader takes as meant.
    let record = read(
        &csa::CSA,
        "V2.2\nPI\n+\n+7776FU\n-3334FU\n%+ILLEGAL_ACTION\n",
    );
    let text = ki2::KI2U.write(std::slice::from_ref(&record)).text;
    assert!(text.contains("まで2手で先手の反則負け\n"), "{text}");
}

/// A KI2 variation's first move names its square: Kifu for JS cannot resolve `同` there.
#[test]
fn ki2_variation_starts_with_a_square_not_doh() {
    let record = read(
        &kif::KIFU,
        "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)+\n\n変化：4手\n   4 同　飛(82)\n",
    );
    let text = ki2::KI2U.write(std::slice::from_ref(&record)).text;
    assert!(text.contains("▲２二角成  △同　銀"), "{text}");
    assert!(text.contains("変化：4手\n△２二飛\n"), "{text}");
}

/// A 香落ち board with 下手 (Black) to move, as a board diagram after `手合割：香落ち`.
pub const LANCE_HANDICAP_BLACK_TO_MOVE: &str = "手合割：香落ち
上手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂v銀v金v玉v金v銀v桂 ・|一
| ・v飛 ・ ・ ・ ・ ・v角 ・|二
|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七
| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八
| 香 桂 銀 金 玉 金 銀 桂 香|九
+---------------------------+
下手の持駒：なし
下手番
手数----指手---------消費時間--
   1 ７六歩(77)
";

/// The `下手番` line survives: a handicap name makes readers start with 上手 otherwise.
#[test]
fn handicap_diagram_with_black_to_move_keeps_the_side() {
    let record = read(&kif::KIFU, LANCE_HANDICAP_BLACK_TO_MOVE);
    assert_eq!(record.start.position.turn(), kifu_shogi::Color::Black);
    for format in [&kif::KIFU as &dyn RecordFormat<Shogi>, &ki2::KI2U] {
        let text = format.write(std::slice::from_ref(&record)).text;
        assert!(text.contains("\n先手番\n"), "{text}");
        let back = read(format, &text);
        assert_eq!(
            back.start.position.to_sfen(),
            record.start.position.to_sfen(),
            "{text}"
        );
    }
}

/// 左七枚落ち is a name tsshogi ignores and cshogi and python-shogi refuse: the board alone
/// says it, and kifu reads the board back as 左七枚落ち.
#[test]
fn rare_handicap_names_get_their_board() {
    let record = read(
        &csa::CSA,
        "V2.2\nPI82HI22KA11KY91KY81KE21KE31GI\n-\n-5142OU\n",
    );
    assert_eq!(
        record.start.handicap,
        Some(kifu_shogi::Handicap::LeftSevenPieces)
    );
    for format in [&kif::KIFU as &dyn RecordFormat<Shogi>, &ki2::KI2U] {
        let text = format.write(std::slice::from_ref(&record)).text;
        assert!(!text.contains("手合割"), "{text}");
        assert!(text.contains("| ・ ・v銀v金v玉v金 ・ ・ ・|一\n"), "{text}");
        assert!(text.contains("\n後手番\n"), "{text}");
        let back = read(format, &text);
        assert_eq!(back.start, record.start, "{text}");
    }
    // 三枚落ち: tsshogi ignores the name, the others know it: name and board.
    let record = read(&csa::CSA, "V2.2\nPI82HI22KA11KY\n-\n-5142OU\n");
    let text = kif::KIFU.write(std::slice::from_ref(&record)).text;
    assert!(
        text.contains("手合割：三枚落ち\n") && text.contains("|一"),
        "{text}"
    );
    // The names every reader knows are still written alone, as Kakinoki does.
    let record = read(&csa::CSA, "V2.2\nPI82HI22KA\n-\n-5142OU\n");
    let text = kif::KIFU.write(std::slice::from_ref(&record)).text;
    assert!(
        text.contains("手合割：二枚落ち\n") && !text.contains("|一"),
        "{text}"
    );
}

/// CSA V3.0 holds milliseconds (`T1.25`); KIF and CSA V2.2 hold whole seconds, and the
/// truncation is reported like every other drop.
#[test]
fn truncated_milliseconds_are_warned() {
    let record = read(
        &csa::CSA,
        "'CSA encoding=UTF-8\nV3.0\nPI\n+\n+7776FU\nT1.25\n-3334FU\nT2\n%TORYO\n",
    );
    let warned = |format: &dyn RecordFormat<Shogi>| {
        format
            .write(std::slice::from_ref(&record))
            .warnings
            .iter()
            .any(|w| w.contains("1 time(s) had milliseconds"))
    };
    assert!(warned(&kif::KIFU));
    assert!(warned(&kif::KIF));
    assert!(warned(&CsaFormat::new(CsaVersion::V22)));
    assert!(!warned(&csa::CSA));
    let whole = read(&csa::CSA, "V2.2\nPI\n+\n+7776FU\nT1\n%TORYO\n");
    assert!(kif::KIFU.write(&[whole]).warnings.is_empty());
}

/// USI has no header, but a `手合割` naming the start its SFEN gives loses nothing.
#[test]
fn usi_drops_no_header_when_it_only_names_the_start() {
    let only_handicap = read(&kif::KIFU, "手合割：平手　\n   1 ７六歩(77)\n");
    let written = usi_record::USI.write(&[only_handicap]);
    assert_eq!(written.text, "position startpos moves 7g7f\n");
    assert!(written.warnings.is_empty(), "{:?}", written.warnings);
    let handicap = read(&kif::KIFU, "手合割：香落ち\n   1 ５二玉(51)\n");
    assert!(usi_record::USI.write(&[handicap]).warnings.is_empty());
    let named = read(&kif::KIFU, "手合割：平手\n先手：佐藤\n   1 ７六歩(77)\n");
    let written = usi_record::USI.write(&[named]);
    assert!(
        written.warnings.iter().any(|w| w.contains("the header")),
        "{:?}",
        written.warnings
    );
}
