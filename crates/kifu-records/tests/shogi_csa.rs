//! CSA reading against hand-written cases and the corpus.

use kifu_record::{CommentKind, EndingKind, HeaderField, NodeItem, Side};
use kifu_shogi::ShogiEnding;

mod support;

use kifu_records::shogi::csa::read;
use kifu_shogi::{Color, Handicap, Move, PieceKind, Square};
use support::corpus;

fn sq(file: u8, rank: u8) -> Square {
    Square::new(file, rank).unwrap()
}

fn messages(text: &str) -> Vec<String> {
    read(text)
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect()
}

#[test]
fn spec_example_1997() {
    let text = "'----------\"example.csa\"----------\n'Player names\nN+Tanigawa\nN-Habu\n'Hirate\n\
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n\
P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n\
'Sente's turn\n+\n'Move and time spent\n+2726FU\nT12\n-3334FU\nT6\n%CHUDAN\n";
    let parsed = read(text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let r = &parsed.records[0];
    assert_eq!(r.header.get(HeaderField::FirstPlayer), Some("Tanigawa"));
    assert_eq!(r.header.get(HeaderField::SecondPlayer), Some("Habu"));
    assert_eq!(r.start.handicap, Some(Handicap::Even));
    let line: Vec<_> = r.moves.main_line().map(|id| &r.moves[id]).collect();
    assert_eq!(line.len(), 3);
    assert_eq!(line[0].mv(), Some(&Move::normal(sq(2, 7), sq(2, 6), false)));
    assert_eq!(line[0].time_ms(), Some(12_000));
    assert_eq!(line[1].time_ms(), Some(6_000));
    assert_eq!(line[1].comments().len(), 0);
    assert_eq!(r.moves.ending().unwrap().kind, EndingKind::Abort);
    assert_eq!(&text[line[0].span.range()], "+2726FU");
    // comments before the moves belong to the start position
    let root = &r.moves[r.moves.root()];
    assert_eq!(root.comments().len(), 5);
    assert!(
        root.comments()
            .iter()
            .all(|c| c.kind == CommentKind::Hidden)
    );
}

#[test]
fn v3_elements() {
    let text = "'CSA encoding=UTF-8\nV3.0\nN+先手\nN-後手\n$EVENT:第1回, 大会\n$START_TIME:2024/05/05 15:05:40\n\
$TIME:900+0+5\n$MAX_MOVES:320\n$JISHOGI:27\n$NOTE:a\\nb\n$CUSTOM:x\nPI\n+\n'*開始前\n\
+2726FU,T0\n'** 30 -8384FU +7776FU #1234\n-3334FU\nT6.123\n'*好手\n'*二行目\n%CHUDAN\nT1.5\n";
    let parsed = read(text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let r = &parsed.records[0];
    let h = &r.header;
    assert_eq!(h.get(HeaderField::Event), Some("第1回, 大会"));
    assert_eq!(h.time_control().unwrap().increment_ms, 5000);
    assert_eq!(h.get(HeaderField::MaxMoves), Some("320"));
    assert_eq!(h.get(HeaderField::Rules), Some("27"));
    assert_eq!(h.get_key("CUSTOM"), Some("x"));
    assert_eq!(h.entries().len(), 9);
    let ids: Vec<_> = r.moves.main_line().collect();
    let first = &r.moves[ids[0]];
    assert_eq!(first.time_ms(), Some(0));
    let engine = first.comments()[0].engine.as_ref().unwrap();
    assert_eq!(engine.nodes, Some(1234));
    assert_eq!(engine.pv, "-8384FU +7776FU");
    let second = &r.moves[ids[1]];
    assert_eq!(second.time_ms(), Some(6123));
    let texts: Vec<_> = second.comments().iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, ["好手", "二行目"]);
    let end = &r.moves[ids[2]];
    assert_eq!(end.item, NodeItem::End(EndingKind::Abort));
    assert_eq!(end.time_ms(), Some(1500));
    assert_eq!(r.moves[r.moves.root()].comments()[0].text, "開始前");
}

#[test]
fn v2_times_drop_fractions() {
    let parsed = read("V2.2\nPI\n+\n+7776FU\nT6.9\n");
    let r = &parsed.records[0];
    let first = r.moves.main_line().next().unwrap();
    assert_eq!(r.moves[first].time_ms(), Some(6000));
}

#[test]
fn every_special() {
    let cases = [
        ("TORYO", EndingKind::Resign),
        ("CHUDAN", EndingKind::Abort),
        ("SENNICHITE", EndingKind::Repetition),
        ("JISHOGI", EndingKind::Game(ShogiEnding::Impasse)),
        ("TSUMI", EndingKind::Checkmate),
        ("FUZUMI", EndingKind::NoCheckmate),
        ("ERROR", EndingKind::Error),
        ("MATTA", EndingKind::TakeBack),
        ("KACHI", EndingKind::Game(ShogiEnding::DeclareWin)),
        ("HIKIWAKE", EndingKind::Game(ShogiEnding::DeclareDraw)),
        ("TIME_UP", EndingKind::TimeLoss),
        ("ILLEGAL_MOVE", EndingKind::IllegalMoveLoss),
        ("+ILLEGAL_ACTION", EndingKind::IllegalAction(Side::First)),
        ("-ILLEGAL_ACTION", EndingKind::IllegalAction(Side::Second)),
        ("MAX_MOVES", EndingKind::MaxMoves),
    ];
    for (token, kind) in cases {
        let parsed = read(&format!("PI\n+\n+7776FU\n%{token}\n"));
        // the rules check what they can: no mate, no repetition, no valid declaration here
        let checked = matches!(
            kind,
            EndingKind::Checkmate
                | EndingKind::Repetition
                | EndingKind::Game(ShogiEnding::DeclareWin)
        );
        assert!(!parsed.has_errors(), "{token}: {:?}", parsed.diagnostics);
        assert_eq!(
            parsed.diagnostics.len(),
            usize::from(checked),
            "{token}: {:?}",
            parsed.diagnostics
        );
        assert_eq!(parsed.records[0].moves.ending().unwrap().kind, kind);
    }
    let parsed = read("PI\n+\n%FOO_BAR\n");
    assert_eq!(
        parsed.records[0].moves.ending().unwrap().kind,
        EndingKind::Unknown("FOO_BAR".into())
    );
    assert!(
        parsed.diagnostics[0]
            .message
            .contains("unknown termination `FOO_BAR`")
    );
    assert!(!parsed.has_errors());
}

#[test]
fn illegal_moves_are_reported_with_ply_and_rule() {
    let text = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+7675FU\n-3435FU\n+7574FU\n-3536FU\n+7473FU\n-3637FU\n+7372TO\n-3738FU\n";
    // -3738FU: 38 holds Black's rook? No: 38 is empty in the start position, so the pawn
    // simply advances; make a real error instead: a pawn that does not exist.
    let mut bad = text.to_owned();
    bad.push_str("+5554FU\n-0055KA\n");
    let parsed = read(&bad);
    let errors: Vec<_> = parsed.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{:?}", parsed.diagnostics);
    assert!(
        errors[0].message.starts_with("ply 11 `+5554FU`: "),
        "{}",
        errors[0].message
    );
    assert_eq!(&bad[errors[0].span.range()], "+5554FU");
    // what was valid is kept, the rest is reported as not replayed
    assert_eq!(parsed.records[0].moves.main_line().count(), 10);
    assert!(
        parsed
            .diagnostics
            .iter()
            .any(|d| d.message.contains("1 move(s) after"))
    );
}

#[test]
fn rules_broken_are_named() {
    let m = messages("PI\n+\n+7776FU\n-3334FU\n+8822KA\n-3122GI\n+0055KA\n-0056HI\n");
    assert!(
        m[0].starts_with("ply 6 `-0056HI`: ") && m[0].contains("has no"),
        "{m:?}"
    );
    let m = messages("PI\n+\n-3334FU\n");
    assert!(m[0].contains("turn"), "{m:?}");
    let m = messages("PI\n+\n+7776KA\n");
    assert!(m[0].contains("is FU, not KA"), "{m:?}");
    let m = messages("PI\n+\n+7775FU\n");
    assert!(m[0].starts_with("ply 1 `+7775FU`: "), "{m:?}");
}

#[test]
fn last_illegal_move_excused_by_the_ending() {
    for ending in ["%ILLEGAL_MOVE", "%+ILLEGAL_ACTION", "%-ILLEGAL_ACTION"] {
        let text = format!("PI\n+\n+7776FU\n-3334FU\n+7674FU\nT3\n{ending}\n");
        let parsed = read(&text);
        assert!(!parsed.has_errors(), "{ending}: {:?}", parsed.diagnostics);
        let r = &parsed.records[0];
        let line: Vec<_> = r.moves.main_line().collect();
        assert_eq!(line.len(), 4);
        assert!(r.moves[line[2]].illegal);
        assert_eq!(r.moves[line[2]].time_ms(), Some(3000));
        assert!(r.moves[line[3]].is_ending());
    }
    // a move from an empty square is kept too
    let parsed = read("PI\n+\n+5554FU\n%-ILLEGAL_ACTION\n");
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    // but not by a resignation
    let parsed = read("PI\n+\n+7775FU\n%TORYO\n");
    assert!(parsed.has_errors());
}

#[test]
fn handicap_and_custom_positions() {
    let r = &read("PI82HI22KA\n-\n-5142OU\n").records[0];
    assert_eq!(r.start.handicap, Some(Handicap::TwoPieces));
    assert_eq!(r.moves.main_line().count(), 1);
    let parsed = read("P-11OU\nP+13KI00KI\nP-00AL\n+\n+0012KI\n%TSUMI\n");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let r = &parsed.records[0];
    assert_eq!(r.start.handicap, None);
    assert_eq!(
        r.start.position.hand(Color::White).count(PieceKind::Pawn),
        18
    );
}

#[test]
fn multiple_records() {
    let parsed = read("N+a\nPI\n+\n+7776FU\n%TORYO\n/\nN+b\nPI\n+\n+2726FU\n/\n");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    assert_eq!(parsed.records.len(), 2);
    assert_eq!(
        parsed.records[1].header.get(HeaderField::FirstPlayer),
        Some("b")
    );
}

#[test]
fn structure_problems() {
    let m = messages("N+a\n+7776FU\n");
    assert_eq!(m, ["no start position; assumed the even-game start"]);
    let m = messages("PI\n+7776FU\n");
    assert!(m[0].contains("missing before the moves"), "{m:?}");
    let m = messages("PI\n+\nP+00FU\n");
    assert!(m[0].contains("after the side to move"), "{m:?}");
    let m = messages("PI\n+\nT5\n+7776FU\nT1\nT2\nXYZ\n");
    assert_eq!(m.len(), 3, "{m:?}");
    assert!(m[2].contains("not a CSA statement"));
    let m = messages("PI\n+\n%TORYO\n+7776FU\n");
    assert!(m[0].contains("after the end"), "{m:?}");
}

#[test]
fn junk_never_panics() {
    for text in [
        "",
        "\n",
        "/",
        "+",
        "P",
        "PI82",
        "P1",
        "P+",
        "P+0",
        "P-00AL00AL",
        "%",
        "T",
        "T-1",
        "$",
        "V",
        "N",
        "\u{feff}",
        "+0000FU",
        "PI\n+\n+0055OU",
        "PI\n-\n",
        "P1+OU+OU+OU",
        "\u{0}\u{1}\u{2}",
        "P+99KY89KE,P-11OU,+,+9998KY",
    ] {
        let _ = read(text);
    }
}

#[test]
fn corpus_csa_versions_check_clean() {
    for path in corpus::files("shogi/csa-versions", "csa") {
        let text = corpus::text(&path);
        let parsed = read(&text);
        assert!(
            parsed.diagnostics.is_empty(),
            "{}",
            corpus::render(&path, &text, &parsed.diagnostics)
        );
        let r = &parsed.records[0];
        assert_eq!(r.moves.main_line().count(), 3, "{}", path.display());
        assert_eq!(r.moves.ending().unwrap().kind, EndingKind::Abort);
    }
}

#[test]
fn corpus_bulk_csa_checks_clean() {
    let mut plies = 0;
    for path in corpus::files("shogi/bulk/csa", "csa") {
        let text = corpus::text(&path);
        let parsed = read(&text);
        assert!(
            parsed.diagnostics.is_empty(),
            "{}",
            corpus::render(&path, &text, &parsed.diagnostics)
        );
        assert_eq!(parsed.records.len(), 1);
        let r = &parsed.records[0];
        assert_eq!(r.moves.ending().unwrap().kind, EndingKind::Resign);
        plies += r
            .moves
            .main_line()
            .filter(|&id| r.moves[id].mv().is_some())
            .count();
    }
    assert_eq!(plies, 38_654);
}

#[test]
fn corpus_all_games_multi_record() {
    let parsed = corpus::read_clean("shogi/bulk/all_games.csa", read);
    assert_eq!(parsed.records.len(), 500);
    let single = read(&corpus::text(&corpus::path("shogi/bulk/csa/game_0500.csa")));
    assert_eq!(
        parsed.records[499].moves.main_line().count(),
        single.records[0].moves.main_line().count()
    );
}

/// Files of the peer suites that are not legal shogi, and the first error they must give.
/// (9fu.csa, a "nine pawns" joke game with 二歩 on the start board, loads with warnings.)
const EXPECTED_ERRORS: &[(&str, &str)] = &[];

#[test]
fn corpus_peer_suites_check_clean() {
    for sub in ["shogi/jkf-suite/csa", "shogi/converter-suite/csa"] {
        for path in corpus::files(sub, "csa") {
            let text = corpus::text(&path);
            let parsed = read(&text);
            let name = path.file_name().unwrap().to_str().unwrap();
            let rendered = corpus::render(&path, &text, &parsed.diagnostics);
            match EXPECTED_ERRORS.iter().find(|e| e.0 == name) {
                Some((_, expected)) => {
                    let first = parsed.diagnostics.iter().find(|d| d.is_error());
                    assert!(
                        first.is_some_and(|d| d.message.contains(expected)),
                        "{rendered}"
                    );
                }
                None => assert!(!parsed.has_errors(), "{rendered}"),
            }
        }
    }
}

mod writing {
    use super::*;
    use crate::support::compare::{assert_same_game, header_of};
    use kifu_records::shogi::csa::{CsaVersion, write, write_all};

    #[test]
    fn bulk_files_are_rewritten_byte_for_byte_as_v22() {
        for path in corpus::files("shogi/bulk/csa", "csa")
            .into_iter()
            .step_by(7)
        {
            let text = corpus::text(&path);
            let parsed = read(&text);
            let written = write(&parsed.records[0], CsaVersion::V22);
            assert!(written.warnings.is_empty(), "{:?}", written.warnings);
            assert_eq!(written.text, text, "{}", path.display());
        }
    }

    #[test]
    fn round_trip_through_v3_and_v22() {
        let mut paths = corpus::files("shogi/csa-versions", "csa");
        paths.extend(corpus::files("shogi/jkf-suite/csa", "csa"));
        paths.extend(corpus::files("shogi/converter-suite/csa", "csa"));
        for path in paths {
            let text = corpus::text(&path);
            let original = read(&text);
            if original.has_errors() {
                continue;
            }
            for version in [CsaVersion::V30, CsaVersion::V22] {
                let written = write_all(&original.records, version);
                let again = read(&written.text);
                let what = format!("{} as {version:?}", path.display());
                // Warnings about the start position (9fu.csa's 二歩) come back; errors must not.
                assert!(
                    !again.has_errors() && again.diagnostics.len() == original.diagnostics.len(),
                    "{what}: {:?}\n{}",
                    again.diagnostics,
                    written.text
                );
                assert_eq!(again.records.len(), original.records.len());
                for (a, b) in original.records.iter().zip(&again.records) {
                    // V2.2 truncates times to seconds; all the corpus times are whole.
                    assert_same_game(a, b, true, &what);
                    if version == CsaVersion::V30 {
                        assert_eq!(header_of(a), header_of(b), "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn v3_specific_output() {
        let text = "V3.0\nN+a\n$TIME:900+0+5\n$NOTE:x\\ny\nPI82HI\n-\n-5142OU\nT1.25\n'** 30 +7776FU\n%+ILLEGAL_ACTION\n";
        let r = &read(text).records[0];
        let v3 = write(r, CsaVersion::V30);
        assert_eq!(
            v3.text,
            "'CSA encoding=UTF-8\nV3.0\nN+a\n$TIME:900+0+5\n$NOTE:x\\ny\nPI82HI\n-\n-5142OU\nT1.25\n'** 30 +7776FU\n%+ILLEGAL_ACTION\n"
        );
        assert_eq!(r.header.get(HeaderField::Note), Some("x\ny"));
        let v2 = write(r, CsaVersion::V22);
        assert_eq!(
            v2.text,
            "V2.2\nN+a\n'TIME:900+0+5\n'NOTE:x y\nPI82HI\n-\n-5142OU\nT1\n'** 30 +7776FU\n%+ILLEGAL_ACTION\n"
        );
        // The time control kept as a comment, and T1.25 written as T1.
        assert_eq!(v2.warnings.len(), 2, "{:?}", v2.warnings);
    }

    #[test]
    fn custom_positions_are_written_as_a_board() {
        let text = "P-11OU\nP+13KI00KI00FU00FU\nP-00AL\n+\n+0012KI\n%TSUMI\n";
        let r = &read(text).records[0];
        let out = write(r, CsaVersion::V22).text;
        assert!(out.contains("P1 *  *  *  *  *  *  *  * -OU\n"), "{out}");
        assert!(out.contains("P+00FU00FU00KI\n"), "{out}");
        let again = read(&out);
        assert!(again.diagnostics.is_empty(), "{:?}", again.diagnostics);
        assert_same_game(r, &again.records[0], true, "tsume");
    }
}
