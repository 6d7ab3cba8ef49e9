//! The cetkaik corpus (the corpus's `cetkaik/`): every record parses; legal ones validate.

use kifu_cetkaik::Rules;
use kifu_record::SourceText;
use kifu_records::cetkaik::{self as ckka, ElementKind, GameRecord};

mod support;

use support::cetkaik::{FILES, read};

#[test]
fn every_corpus_record_parses_without_errors() {
    for name in FILES {
        let text = read(name);
        let (rec, diags) = ckka::parse(&text);
        let src = SourceText::new(name, &text);
        let rendered: Vec<String> = diags.iter().map(|d| src.render(d)).collect();
        assert!(rendered.is_empty(), "{name}:\n{}", rendered.join("\n"));
        let moves = rec
            .body
            .iter()
            .filter(|e| matches!(e.kind, ElementKind::Move { .. }))
            .count();
        assert!(moves >= 5, "{name}: {moves} moves");
    }
}

fn rules_for(name: &str) -> Rules {
    // The 2018 records predate the standardized rule; they carry no {律:…} header.
    if name.starts_with("fedirrgavir") {
        Rules::hard_tam()
    } else {
        Rules::standard()
    }
}

fn replay(name: &str, rules: Rules) -> (GameRecord, Vec<String>) {
    let text = read(name);
    let (rec, _) = ckka::parse(&text);
    let (game, diags) = ckka::replay(&rec, rules);
    let src = SourceText::new(name, &text);
    (game, diags.iter().map(|d| src.render(d)).collect())
}

#[test]
fn legal_corpus_records_validate_with_final_scores() {
    // (file, seasons, final score of the IA side, of the A side, game over)
    let expected = [
        ("ckka-samples/sample1.txt", 1, 0, 40, true),
        ("ckka-samples/sample2.txt", 1, 0, 40, true),
        ("cerke_online/case1_2022-05-31.ckka", 3, 40, 0, true),
        ("cerke_online/case4_2022-09-08.ckka", 1, 0, 40, true),
        ("fedirrgavir/001_jv_sy.txt", 1, 12, 28, false),
        ("fedirrgavir/004_complement_jv.txt", 1, 17, 23, false),
    ];
    for (name, seasons, ia, a, over) in expected {
        let (game, diags) = replay(name, rules_for(name));
        assert!(diags.is_empty(), "{name}:\n{}", diags.join("\n"));
        assert_eq!(game.seasons.len(), seasons, "{name}");
        assert_eq!(game.final_scores, [ia, a], "{name}");
        assert_eq!(game.over, over, "{name}");
    }
}

#[test]
fn under_the_standard_rule_001_flags_exactly_its_three_old_style_chariot_moves() {
    let (_, diags) = replay("fedirrgavir/001_jv_sy.txt", Rules::standard());
    let illegal: Vec<&String> = diags.iter().filter(|d| d.contains("cannot move")).collect();
    assert_eq!(illegal.len(), 3, "{diags:#?}");
    assert!(
        illegal[0].contains("001_jv_sy.txt:12:1: error: ply 19: 黒車 on CIA cannot move to MAU")
    );
    assert!(illegal[1].contains(":18:1: error: ply 31: 赤車 on NIA cannot move to ZAI"));
    assert!(illegal[2].contains(":18:10: error: ply 32: 黒車 on NA cannot move to XU"));
}

#[test]
fn corpus_records_are_detected_and_other_text_is_not() {
    for name in FILES {
        assert!(ckka::sniff(&read(name)), "{name}");
    }
    assert!(!ckka::sniff("V2.2\nN+sente\nPI\n+\n+7776FU\n"));
    assert!(!ckka::sniff("# KIF\n手合割：平手\n"));
}

#[test]
fn wildcard_professions_resolve_from_the_board() {
    // cerke_online wrote some 2021 records with 片 for every profession.
    let text = read("cerke_online/case1_2022-05-31.ckka");
    let mut wild = String::new();
    let mut prev = ' ';
    for ch in text.chars() {
        let on_board_move =
            prev.is_ascii_uppercase() && kifu_cetkaik::Profession::from_kanji(ch).is_some();
        wild.push(if on_board_move { '片' } else { ch });
        prev = ch;
    }
    assert!(
        wild.matches('片').count() > 40,
        "{}",
        wild.matches('片').count()
    );
    let (rec, d1) = ckka::parse(&wild);
    let (game, d2) = ckka::replay(&rec, Rules::standard());
    assert!(d1.is_empty() && d2.is_empty(), "{d1:?} {d2:?}");
    let (original, _) = replay("cerke_online/case1_2022-05-31.ckka", Rules::standard());
    assert_eq!(game.seasons, original.seasons);
    // Written back, the professions are named.
    let full = ckka::write::write(&game, ckka::Notation::Full);
    assert!(!full.contains('片') && full.contains("CAI巫CAMA橋一"));
}

#[test]
fn crlf_and_every_listed_space_and_punctuation_separate_elements() {
    let text = read("cerke_online/case1_2022-05-31.ckka");
    let (original, _) = replay("cerke_online/case1_2022-05-31.ckka", Rules::standard());
    let seps = [
        "\u{A0}", "\u{3000}", "、", "。", "，", "．", "｡", "､", ",", ".", " \t ",
    ];
    let mut k = 0;
    let respaced: String = text
        .replace('\n', "\r\n")
        .split("    ")
        .map(|part| part.to_string())
        .collect::<Vec<_>>()
        .into_iter()
        .reduce(|a, b| {
            k += 1;
            format!("{a}{}{b}", seps[k % seps.len()])
        })
        .unwrap();
    let (rec, d1) = ckka::parse(&respaced);
    let (game, d2) = ckka::replay(&rec, Rules::standard());
    assert!(d1.is_empty() && d2.is_empty(), "{d1:?} {d2:?}");
    assert_eq!(game.seasons, original.seasons);
}

#[test]
fn records_without_a_rule_header_are_checked_under_the_rule_they_follow() {
    for name in FILES {
        let (game, diags) = ckka::check_detecting_rules(&read(name), Rules::standard());
        assert!(diags.iter().all(|d| !d.is_error()), "{name}: {diags:?}");
        let expected = if name.starts_with("fedirrgavir") {
            "硬皇力"
        } else {
            "官定"
        };
        assert_eq!(game.rules.name, expected, "{name}");
        assert_eq!(
            diags.len(),
            usize::from(expected == "硬皇力"),
            "{name}: {diags:?}"
        );
    }
    // A record that names its rule is held to it.
    let (_, diags) = ckka::check_detecting_rules(
        &format!("{{律:官定}}\n{}", read("fedirrgavir/001_jv_sy.txt")),
        Rules::standard(),
    );
    assert!(diags.iter().any(|d| d.is_error()));
}

#[test]
fn replayed_positions_follow_the_record() {
    use kifu_cetkaik::{Color, Piece, Profession, Side, Square};
    let sq = |s: &str| s.parse::<Square>().unwrap();
    let owned = |color, prof, side| Some(Piece::Owned { color, prof, side });
    let text = kifu_testkit::corpus::text("cetkaik/cerke_online/case4_2022-09-08.ckka");
    let (game, diags) = ckka::check(&text, Rules::standard());
    assert!(diags.is_empty());
    let positions = game.positions();
    assert_eq!(positions.len(), 10);
    let last = game.final_position();
    assert_eq!(
        last.get(sq("ZIA")),
        owned(Color::Red, Profession::Vessel, Side::ASide)
    );
    assert_eq!(last.get(sq("TY")), Some(Piece::Tam));
}
