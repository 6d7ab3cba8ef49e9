//! Issue 11, case 2: text shaped like a move is a move or an error at its line and column,
//! never an "unknown termination" that silently ends the game; an unknown ending word is kept
//! only where nothing follows it; moves after an ending are an error; later problems are
//! reported too.

use kifu_record::RecordFormat;
use kifu_record::{EndingKind, NodeItem, SourceText};
use kifu_records::read_bytes;
use kifu_records::shogi::{Parsed, ShogiRecord, csa, jkf, ki2, kif, usi_record};
use kifu_shogi::Shogi;

/// A file of the corpus folder `shogi/bulk`.
fn bulk(rel: &str) -> std::path::PathBuf {
    kifu_testkit::corpus::path(&format!("shogi/bulk/{rel}"))
}

fn plies(r: &ShogiRecord) -> usize {
    r.moves
        .main_line()
        .filter(|&id| matches!(r.moves[id].item, NodeItem::Move(_)))
        .count()
}

fn sjis(text: &str) -> Vec<u8> {
    let (bytes, lost) = kifu_record::encode(text, kifu_record::TextEncoding::ShiftJis);
    assert!(lost.is_empty());
    bytes.into_owned()
}

/// The real KIF game_0001 (Shift_JIS) as text.
fn real_kif() -> String {
    let bytes = std::fs::read(bulk("kif/game_0001.kif")).unwrap();
    let (text, parsed) = read_bytes(&bytes, &kif::KIF);
    assert!(parsed.diagnostics.is_empty());
    text.into_owned()
}

/// The text with the move of `ply` replaced by `body`.
fn with_move(text: &str, ply: u32, body: &str) -> String {
    let prefix = format!("{ply:>4} ");
    let line_start = text.find(&format!("\n{prefix}")).unwrap() + 1;
    let body_start = line_start + prefix.len();
    let body_end = body_start + text[body_start..].find(' ').unwrap();
    format!("{}{body}{}", &text[..body_start], &text[body_end..])
}

/// The rendered errors (`input:line:column: error: …`).
fn errors(text: &str, parsed: &Parsed) -> Vec<String> {
    let source = SourceText::new("input", text);
    parsed
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| source.render(d))
        .collect()
}

#[test]
fn a_mistyped_fifth_move_in_a_real_kif_is_an_error_at_its_line() {
    let original = real_kif();
    let line_of_move_5 = original[..original.find("\n   5 ").unwrap()]
        .lines()
        .count()
        + 1;
    for (body, reason) in [
        ("二五歩(26)", "digit"),
        ("xyz", "neither a move nor a termination word"),
        ("Resign", "neither a move nor a termination word"),
        ("２五ぬ(26)", "unknown piece name"),
        ("歩(26)", "a move is a square"),
    ] {
        let text = with_move(&original, 5, body);
        let bytes = sjis(&text);
        let (decoded, parsed) = read_bytes(&bytes, &kif::KIF);
        assert_eq!(decoded, text);
        let errors = errors(&text, &parsed);
        assert!(
            errors.first().is_some_and(|e| e
                .starts_with(&format!("input:{line_of_move_5}:6: error:"))
                && e.contains(reason)),
            "{body}: {errors:?}"
        );
        assert_eq!(errors.len(), 1, "{body}: {errors:?}");
        let record = &parsed.records[0];
        assert_eq!(plies(record), 4, "{body}: the moves before it are kept");
        assert!(
            record.moves.ending().is_none(),
            "{body}: not read as an ending"
        );
    }
}

#[test]
fn later_problems_are_reported_too() {
    let text = with_move(&with_move(&real_kif(), 5, "二五歩(26)"), 20, "Ｘ三歩(24)");
    let (_, parsed) = read_bytes(&sjis(&text), &kif::KIF);
    let errors = errors(&text, &parsed);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[1].contains("Ｘ三歩(24)"), "{errors:?}");
}

#[test]
fn a_line_cut_inside_a_shift_jis_character_is_an_error() {
    let text = real_kif();
    let bytes = sjis(&text);
    // Drop the second byte of `歩` in move 5: the line now holds a broken character.
    let move_5 = sjis(&text[..text.find("\n   5 ").unwrap() + 1]).len();
    let pawn = sjis("歩");
    let at = move_5 + bytes[move_5..].windows(2).position(|w| w == pawn).unwrap();
    let mut cut = bytes.clone();
    cut.remove(at + 1);
    let (_, parsed) = read_bytes(&cut, &kif::KIF);
    assert!(parsed.has_errors(), "{:?}", parsed.diagnostics);
    // The cut `歩` is the first in or after move 5; the moves before it are kept.
    assert!(plies(&parsed.records[0]) <= 5, "{:?}", parsed.diagnostics);
}

#[test]
fn an_unknown_word_at_the_end_is_kept_as_an_ending_with_a_warning() {
    let text = real_kif();
    let last = text.rfind("投了").unwrap();
    let text = format!("{}Resign{}", &text[..last], &text[last + "投了".len()..]);
    let (_, parsed) = read_bytes(text.as_bytes(), &kif::KIFU);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    assert_eq!(parsed.diagnostics.len(), 1);
    assert!(
        parsed.diagnostics[0]
            .message
            .contains("unknown termination")
    );
    assert_eq!(
        parsed.records[0].moves.ending().unwrap().kind,
        EndingKind::Unknown("Resign".into())
    );
}

#[test]
fn csa_unknown_special_in_the_middle_is_an_error_and_at_the_end_a_warning() {
    let game = std::fs::read_to_string(bulk("csa/game_0001.csa")).unwrap();
    // `\n+` the side to move, then plies 1, 3, 5.
    let fifth = game.match_indices("\n+").nth(3).unwrap().0 + 1;
    let text = format!("{}%FOO{}", &game[..fifth], &game[fifth + 7..]);
    let (_, parsed) = read_bytes(text.as_bytes(), &csa::CSA);
    let errors = errors(&text, &parsed);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("`%FOO`"), "{errors:?}");
    assert_eq!(plies(&parsed.records[0]), 4);

    let last = game.find("%TORYO").unwrap();
    let text = format!("{}%FOO{}", &game[..last], &game[last + 6..]);
    let (_, parsed) = read_bytes(text.as_bytes(), &csa::CSA);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    assert_eq!(
        parsed.records[0].moves.ending().unwrap().kind,
        EndingKind::Unknown("FOO".into())
    );
}

#[test]
fn moves_after_an_ending_are_one_error() {
    for (format, text) in [
        (
            &csa::CSA as &dyn RecordFormat<Shogi>,
            "PI\n+\n+7776FU\n%TORYO\n-3334FU\n+2726FU\n",
        ),
        (
            &kif::KIFU,
            "1 ７六歩(77)\n2 投了\n3 ３四歩(33)\n4 ２六歩(27)\n",
        ),
        (&usi_record::USI, "startpos moves 7g7f resign 3c3d 2g2f\n"),
        (&ki2::KI2U, "▲７六歩　△投了　▲２六歩\n"),
    ] {
        let format_name = format.name();
        let (_, parsed) = read_bytes(text.as_bytes(), format);
        let errors = errors(text, &parsed);
        assert_eq!(errors.len(), 1, "{format_name}: {errors:?}");
        assert!(
            errors[0].contains("after the end of the game"),
            "{errors:?}"
        );
        assert_eq!(plies(&parsed.records[0]), 1);
        assert_eq!(
            parsed.records[0].moves.ending().unwrap().kind,
            EndingKind::Resign
        );
    }
}

#[test]
fn moves_after_a_fourfold_repetition_are_an_error() {
    let shuffle = "5i5h 5a5b 5h5i 5b5a ".repeat(3);
    let ended = format!("startpos moves {shuffle}\n");
    let (_, parsed) = read_bytes(ended.as_bytes(), &usi_record::USI);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let more = format!("startpos moves {shuffle}7g7f 3c3d\n");
    let (_, parsed) = read_bytes(more.as_bytes(), &usi_record::USI);
    let errors = errors(&more, &parsed);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("千日手") && errors[0].contains("ply 12"),
        "{errors:?}"
    );
    assert_eq!(plies(&parsed.records[0]), 12);
    // The repetition's own ending after it is fine.
    let csa: String =
        "PI\n+\n".to_owned() + &"+5958OU\n-5152OU\n+5859OU\n-5251OU\n".repeat(3) + "%SENNICHITE\n";
    let (_, parsed) = read_bytes(csa.as_bytes(), &csa::CSA);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
}

#[test]
fn jkf_unknown_special_followed_by_moves_and_entries_without_a_move_are_errors() {
    let text = r#"{"header":{},"moves":[{},
        {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},
        {"special":"FOO"},
        {"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"}}]}"#;
    let (_, parsed) = read_bytes(text.as_bytes(), &jkf::JKF);
    assert!(parsed.has_errors(), "{:?}", parsed.diagnostics);
    assert!(
        parsed
            .diagnostics
            .iter()
            .any(|d| d.message.contains("neither a move"))
    );
    let text = r#"{"header":{},"moves":[{},
        {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},
        {"mvoe":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"}}]}"#;
    let (_, parsed) = read_bytes(text.as_bytes(), &jkf::JKF);
    assert!(
        parsed
            .diagnostics
            .iter()
            .any(|d| d.is_error() && d.message.contains("neither `move`")),
        "{:?}",
        parsed.diagnostics
    );
}

#[test]
fn ki2_and_usi_mistyped_moves_are_errors() {
    let (_, parsed) = read_bytes("▲７六歩　△xyz　▲２六歩\n".as_bytes(), &ki2::KI2U);
    assert!(parsed.has_errors(), "{:?}", parsed.diagnostics);
    let (_, parsed) = read_bytes(b"startpos moves 7g7f xyz 2g2f\n", &usi_record::USI);
    assert!(parsed.has_errors(), "{:?}", parsed.diagnostics);
    assert_eq!(plies(&parsed.records[0]), 1);
}

/// Issue 11: one bad variation gave hundreds of follow-on diagnostics. Its cause is
/// reported once; what follows from it is summed up, and the rest of the record is read.
#[test]
fn one_bad_variation_is_reported_once() {
    let text = real_kif();
    let main_plies = text.lines().filter(|l| l.starts_with("  ")).count() - 1;
    // A variation at ply 5 whose first move is illegal (a pawn from an empty square),
    // with more moves and variations nested in it, then a good variation at ply 3.
    let mut bad = String::from("\n変化：5手\n   5 ５五歩(56)\n");
    for ply in 6..40 {
        bad.push_str(&format!("{ply:>4} ９九香(98)\n"));
    }
    for ply in (8..40).step_by(3) {
        bad.push_str(&format!("\n変化：{ply}手\n{ply:>4} ９九香(98)\n"));
    }
    bad.push_str("\n変化：3手\n   3 ２六歩(27)\n");
    let full = format!("{text}{bad}");
    let (_, parsed) = read_bytes(full.as_bytes(), &kif::KIFU);
    let rendered: Vec<_> = {
        let source = SourceText::new("input", &full);
        parsed
            .diagnostics
            .iter()
            .map(|d| source.render(d))
            .collect()
    };
    assert_eq!(rendered.len(), 3, "{rendered:#?}");
    assert!(rendered[0].contains("error") && rendered[0].contains("５五歩(56)"));
    assert!(rendered[1].contains("34 move(s) after the illegal move"));
    assert!(rendered[2].contains("11 variation(s)"), "{rendered:#?}");
    let tree = &parsed.records[0].moves;
    assert_eq!(plies(&parsed.records[0]), main_plies);
    let after_two = tree.main_line().nth(1).unwrap();
    assert_eq!(
        tree.children(after_two).count(),
        2,
        "the good variation is read"
    );

    // A variation numbered wrongly throughout: one warning, not one per move.
    let misnumbered =
        format!("{text}\n変化：3手\n   4 ２六歩(27)\n   5 ３四歩(33)\n   6 ２五歩(26)\n");
    let (_, parsed) = read_bytes(misnumbered.as_bytes(), &kif::KIFU);
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    assert!(!parsed.has_errors());
}
