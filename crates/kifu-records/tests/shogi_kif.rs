//! KIF reading and writing against hand-written cases and the corpus.

use kifu_record::{CommentKind, EndingKind, HeaderField, NodeItem};

mod support;

use kifu_records::shogi::csa;
use kifu_records::shogi::kif::{read, write};
use kifu_shogi::{Handicap, Move, PieceKind, Square};
use support::compare::assert_same_game;
use support::corpus;

fn sq(file: u8, rank: u8) -> Square {
    Square::new(file, rank).unwrap()
}

const SPEC_EXAMPLE: &str = "# ---- Kifu for Windows95 V3.53 棋譜ファイル ----
開始日時：1999/07/15(木) 19:07:12
終了日時：1999/07/15(木) 19:07:17
手合割：平手
先手：先手の対局者名
後手：後手の対局者名
手数----指手---------消費時間-- # この行は、なくてもいい
1 ７六歩(77) ( 0:16/00:00:16)
2 ３四歩(33) ( 0:00/00:00:00)
3 中断 ( 0:03/ 0:00:19)
";

#[test]
fn spec_example() {
    let parsed = read(SPEC_EXAMPLE);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let r = &parsed.records[0];
    assert_eq!(
        r.header.get(HeaderField::FirstPlayer),
        Some("先手の対局者名")
    );
    assert_eq!(r.header.start_time().unwrap().time, Some((19, 7, 12)));
    let line: Vec<_> = r.moves.main_line().map(|id| &r.moves[id]).collect();
    assert_eq!(line.len(), 3);
    assert_eq!(line[0].mv(), Some(&Move::normal(sq(7, 7), sq(7, 6), false)));
    assert_eq!(
        (line[0].time_ms(), line[0].total_ms()),
        (Some(16_000), Some(16_000))
    );
    assert_eq!(line[2].item, NodeItem::End(EndingKind::Abort));
    assert_eq!(line[2].total_ms(), Some(19_000));
    assert_eq!(&SPEC_EXAMPLE[line[1].span.range()], "３四歩(33)");
}

#[test]
fn moves_comments_bookmarks() {
    let text = "手合割：平手\n*開始前\n   1 ７六歩(77)\n*一行目\n**対局 評価値 120 読み筋 △３四歩(33)\n&定跡\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ４五角打\n   6 同歩(46)\n";
    let parsed = read(text);
    // 同歩(46): there is no pawn on 46, so this is an error with its ply
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    assert!(
        parsed.diagnostics[0]
            .message
            .starts_with("ply 6 `同歩(46)`"),
        "{:?}",
        parsed.diagnostics
    );
    let r = &parsed.records[0];
    let ids: Vec<_> = r.moves.main_line().collect();
    assert_eq!(ids.len(), 5);
    assert_eq!(r.moves[r.moves.root()].comments()[0].text, "開始前");
    let first = &r.moves[ids[0]];
    assert_eq!(first.comments()[0].kind, CommentKind::Text);
    assert_eq!(first.comments()[1].kind, CommentKind::Engine);
    assert_eq!(
        first.comments()[1].engine.as_ref().unwrap().pv,
        "△３四歩(33)"
    );
    assert_eq!(first.bookmarks()[0].name, "定跡");
    assert_eq!(
        r.moves[ids[2]].mv(),
        Some(&Move::normal(sq(8, 8), sq(2, 2), true))
    );
    assert_eq!(
        r.moves[ids[3]].mv(),
        Some(&Move::normal(sq(3, 1), sq(2, 2), false))
    );
    assert_eq!(
        r.moves[ids[4]].mv(),
        Some(&Move::drop(PieceKind::Bishop, sq(4, 5)))
    );
}

#[test]
fn variations_attach_like_kifu_for_windows() {
    let path = corpus::path("shogi/jkf-suite/kif/fork.kif");
    let text = corpus::text(&path);
    let parsed = read(&text);
    assert!(
        !parsed.has_errors(),
        "{}",
        corpus::render(&path, &text, &parsed.diagnostics)
    );
    // its 詰み and 千日手 lines are not true to the position: warned, still loaded
    let warnings: Vec<_> = parsed
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("has not occurred four times"));
    assert!(warnings[1].contains("is not checkmated"));
    let r = &parsed.records[0];
    let t = &r.moves;
    let main: Vec<_> = t.main_line().collect();
    assert_eq!(main.len(), 4);
    // root has two children: ７六歩 and the 変化：1手 ２六歩
    assert_eq!(t.children(t.root()).count(), 2);
    // after ７六歩: ３四歩 and ８四歩 (the first 変化：2手); the second 変化：2手 comes after
    // the 変化：1手 line, so it is an alternative within that line (the attachment rule)
    assert_eq!(t.children(main[0]).count(), 2);
    let alt_first = t.children(t.root()).nth(1).unwrap();
    assert_eq!(t.children(alt_first).count(), 2);
    // after ３四歩: ２六歩 (main), ７五歩 (変化：3手)
    assert_eq!(t.children(main[1]).count(), 2);
    let endings = t.ids().filter(|&id| t[id].is_ending()).count();
    assert_eq!(endings, 8);
}

#[test]
fn doh_in_nested_variation() {
    let parsed = corpus::read_clean("shogi/jkf-suite/kif/doh_branch.kifu", read);
    let t = &parsed.records[0].moves;
    let dragon_takes = t
        .ids()
        .find(|&id| t[id].mv() == Some(&Move::normal(sq(8, 2), sq(2, 2), false)));
    assert!(
        dragon_takes.is_some(),
        "同　飛(82) resolved against the variation's previous move"
    );
}

#[test]
fn board_diagram_start() {
    let parsed = corpus::read_clean("shogi/jkf-suite/kif/shogidokoro.kifu", read);
    let r = &parsed.records[0];
    assert_eq!(r.start.handicap, None);
    assert_eq!(
        r.start
            .position
            .hand(kifu_shogi::Color::White)
            .count(PieceKind::Pawn),
        13
    );
    assert!(r.moves.main_line().count() > 10);
}

#[test]
fn handicap_game() {
    let parsed = corpus::read_clean("shogi/jkf-suite/kif/8mai.kif", read);
    let r = &parsed.records[0];
    assert_eq!(r.start.handicap, Some(Handicap::EightPieces));
    assert_eq!(r.header.get(HeaderField::FirstPlayer), Some("shitate"));
    assert_eq!(r.moves.ending().unwrap().kind, EndingKind::Abort);
}

#[test]
fn last_illegal_move_then_hansoku() {
    let text = "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７四歩(76)\n   4 反則勝ち\n";
    let parsed = read(text);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let t = &parsed.records[0].moves;
    let ids: Vec<_> = t.main_line().collect();
    assert!(t[ids[2]].illegal);
    assert_eq!(t[ids[3]].item, NodeItem::End(EndingKind::IllegalMoveWin));
    let parsed = read("   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７四歩(76)\n   4 投了\n");
    assert!(parsed.has_errors());
}

#[test]
fn quirks_load() {
    let text = "#KIF version=2.0 encoding=UTF-8\n手合割：平手　　\n先手:a\n後手：b　\n記録係：c\n盤面回転\n\
手数----指手---------消費時間--\n1 ▲７六歩(77) (0:4/0:0:4)\n2 △３四歩(33)   (00:00/00:00:00)+\n3 ２六歩(27)\n4 封じ手\n";
    let parsed = read(text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let r = &parsed.records[0];
    assert_eq!(r.header.get(HeaderField::FirstPlayer), Some("a"));
    assert_eq!(r.header.get_key("記録係"), Some("c"));
    assert_eq!(r.moves.ending().unwrap().kind, EndingKind::Sealed);
    let parsed = read("1 ７六歩(77)\n2 ほげ\n");
    assert!(!parsed.has_errors());
    assert_eq!(
        parsed.records[0].moves.ending().unwrap().kind,
        EndingKind::Unknown("ほげ".into())
    );
}

#[test]
fn junk_never_panics() {
    for text in [
        "",
        "1",
        "1 ",
        "変化：1手",
        "1 ７六歩(77)\n変化：9手\n9 ２六歩(27)",
        "|",
        "| ・",
        "先手の持駒：歩百",
        "1 同",
        "1 ７",
        "1 ７六",
        "1 ７六歩(",
        "1 ７六歩(77",
        "1 ７六歩(77) (",
        "*",
        "&",
        "：",
        "変化：0手",
        "1 ７六歩(77)\n変化：1手\n変化：1手\n1 ７六歩(77)",
        "後手番\n1 ３四歩(33)",
    ] {
        let _ = read(text);
    }
}

#[test]
fn corpus_bulk_kif_and_kifu_check_clean_and_match_csa() {
    for sub in ["shogi/bulk/kif", "shogi/bulk/kifu"] {
        let ext = if sub.ends_with("kifu") { "kifu" } else { "kif" };
        let paths = corpus::files(sub, ext);
        assert_eq!(paths.len(), 500);
        for path in paths {
            let text = corpus::text(&path);
            let parsed = read(&text);
            assert!(
                parsed.diagnostics.is_empty(),
                "{}",
                corpus::render(&path, &text, &parsed.diagnostics)
            );
            let stem = path.file_stem().unwrap().to_str().unwrap();
            let csa_path = corpus::path(&format!("shogi/bulk/csa/{stem}.csa"));
            let from_csa = csa::read(&corpus::text(&csa_path));
            // same moves, times and ending as the CSA twin (KIF adds cumulative times)
            let strip = |r: &kifu_records::shogi::ShogiRecord| -> Vec<_> {
                r.moves
                    .main_line()
                    .map(|id| (r.moves[id].item.clone(), r.moves[id].time_ms()))
                    .collect()
            };
            assert_eq!(
                strip(&parsed.records[0]),
                strip(&from_csa.records[0]),
                "{}",
                path.display()
            );
        }
    }
}

#[test]
fn corpus_peer_suites_check_clean() {
    for sub in ["shogi/jkf-suite/kif", "shogi/converter-suite/kif"] {
        for ext in ["kif", "kifu"] {
            for path in corpus::files(sub, ext) {
                let text = corpus::text(&path);
                let parsed = read(&text);
                assert!(
                    !parsed.has_errors(),
                    "{}",
                    corpus::render(&path, &text, &parsed.diagnostics)
                );
            }
        }
    }
}

mod writing {
    use super::*;

    #[test]
    fn bulk_files_are_rewritten_as_written_plus_the_summary() {
        for path in corpus::files("shogi/bulk/kifu", "kifu")
            .into_iter()
            .step_by(9)
        {
            let text = corpus::text(&path);
            let parsed = read(&text);
            let written = write(&parsed.records[0]);
            assert!(written.warnings.is_empty(), "{:?}", written.warnings);
            let without_summary: String = written
                .text
                .lines()
                .filter(|l| !l.starts_with("まで"))
                .map(|l| format!("{l}\n"))
                .collect();
            assert_eq!(without_summary, text, "{}", path.display());
        }
    }

    #[test]
    fn round_trip_corpus_kif() {
        let mut paths = corpus::files("shogi/jkf-suite/kif", "kif");
        paths.extend(corpus::files("shogi/jkf-suite/kif", "kifu"));
        paths.extend(corpus::files("shogi/converter-suite/kif", "kif"));
        for path in paths {
            let text = corpus::text(&path);
            let original = read(&text);
            let written = write(&original.records[0]);
            let again = read(&written.text);
            let what = path.display().to_string();
            if std::env::var_os("SHOW").is_some() {
                eprintln!("{}", written.text);
            }
            assert!(
                !again.has_errors(),
                "{what}: {:?}\n{}",
                again.diagnostics,
                written.text
            );
            assert_same_game(&original.records[0], &again.records[0], true, &what);
        }
    }

    #[test]
    fn csa_to_kif_to_csa() {
        for path in corpus::files("shogi/csa-versions", "csa") {
            let text = corpus::text(&path);
            let original = &csa::read(&text).records[0];
            let kif = write(original);
            let back = read(&kif.text);
            assert!(
                back.diagnostics.is_empty(),
                "{:?}\n{}",
                back.diagnostics,
                kif.text
            );
            assert_same_game(
                original,
                &back.records[0],
                false,
                &path.display().to_string(),
            );
            assert_eq!(
                back.records[0].header.get(HeaderField::Event),
                original.header.get(HeaderField::Event)
            );
        }
    }

    #[test]
    fn custom_position_diagram_round_trips() {
        let path = corpus::path("shogi/converter-suite/csa/tsumeshogi.csa");
        let original = &csa::read(&corpus::text(&path)).records[0];
        let kif = write(original);
        assert!(
            kif.text
                .contains("後手の持駒：金四　銀四　桂四　香三　歩十四　\n"),
            "{}",
            kif.text
        );
        let back = read(&kif.text);
        assert!(
            back.diagnostics.is_empty(),
            "{:?}\n{}",
            back.diagnostics,
            kif.text
        );
        assert_same_game(original, &back.records[0], false, "tsume");
    }
}

#[test]
fn a_wrong_encoding_line_is_warned_and_the_file_still_reads() {
    let path = corpus::path("shogi/jkf-suite/kif/no_henka.kif");
    let bytes = std::fs::read(&path).unwrap();
    let decoded = kifu_record::decode(&bytes, kifu_record::TextEncoding::for_path(&path));
    assert_eq!(decoded.encoding, kifu_record::TextEncoding::ShiftJis);
    assert!(decoded.diagnostics[0].message.contains("declares UTF-8"));
    let parsed = read(&decoded.text);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    assert!(parsed.records[0].moves.main_line().count() > 0);
}
