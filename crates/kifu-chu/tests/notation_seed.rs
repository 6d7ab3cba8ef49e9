//! Every example of the CSL move-notation post, and its tolerance rules.

use kifu_chu::notation::{Dialect, NotationError, japanese, parse_move, western};
use kifu_chu::{Color, Move, Position, parse_usi};

/// A position with Black to move, kings out of the way, and the given pieces (`("7d", "G")`,
/// SFEN letters, upper case Black, `+` for promoted).
fn board(pieces: &[(&str, &str)]) -> Position {
    let mut p = Position::empty();
    let mut put = |sq: &str, tok: &str| {
        let row = format!("{tok}11/12/12/12/12/12/12/12/12/12/12/12 b -");
        let piece = Position::from_sfen(&row)
            .unwrap()
            .piece_at("12a".parse().unwrap());
        p.set_piece(sq.parse().unwrap(), piece);
    };
    put("12a", "k");
    put("1l", "K");
    for (sq, tok) in pieces {
        put(sq, tok);
    }
    p.set_turn(Color::Black);
    p
}

fn read(p: &Position, text: &str) -> Result<Move, NotationError> {
    parse_move(p, text, Dialect::Csl, None).map(|r| r.mv)
}

fn usi(p: &Position, text: &str) -> String {
    match read(p, text) {
        Ok(m) => m.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn the_same_move_written_four_ways() {
    let p = Position::startpos();
    for text in [
        "Ln-7h",
        "78Ln",
        "7八獅",
        "78-獅",
        "７八獅",
        "Ln7h",
        "7h Ln",
        "獅7八",
    ] {
        assert_eq!(usi(&p, text), "7j7h", "{text}");
    }
    assert_eq!(western(&p, parse_usi("7j7h").unwrap()), "Ln-7h");
    assert_eq!(japanese(&p, parse_usi("7j7h").unwrap()), "7八獅");
}

#[test]
fn origin_file_disambiguates() {
    let p = board(&[("8d", "R"), ("2d", "R")]);
    assert_eq!(usi(&p, "R8-5d"), "8d5d");
    assert!(matches!(
        read(&p, "R-5d"),
        Err(NotationError::Ambiguous { .. })
    ));
    assert_eq!(western(&p, parse_usi("8d5d").unwrap()), "R8-5d");
}

#[test]
fn origin_rank_disambiguates_when_the_file_does_not() {
    let p = board(&[("7d", "G"), ("7b", "G")]);
    assert_eq!(usi(&p, "Gd-7c"), "7d7c");
    assert_eq!(usi(&p, "Gb-7c"), "7b7c");
    assert!(matches!(
        read(&p, "G7-7c"),
        Err(NotationError::Ambiguous { .. })
    ));
    assert_eq!(western(&p, parse_usi("7d7c").unwrap()), "Gd-7c");
}

#[test]
fn promotion_marks() {
    let p = board(&[("10f", "V"), ("10d", "p")]);
    assert_eq!(usi(&p, "VMx10d+"), "10f10d+");
    assert_eq!(usi(&p, "VMx10d="), "10f10d");
    // Without a mark both choices fit: the reader lists them.
    match read(&p, "VMx10d") {
        Err(NotationError::Ambiguous { candidates }) => {
            let texts: Vec<&str> = candidates.iter().map(|(_, s)| s.as_str()).collect();
            assert_eq!(candidates.len(), 2, "{texts:?}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(western(&p, parse_usi("10f10d+").unwrap()), "VMx10d+");
    assert_eq!(japanese(&p, parse_usi("10f10d+").unwrap()), "10四竪成");
}

#[test]
fn double_move_igui_and_pass() {
    let p = board(&[("5f", "N"), ("4e", "p")]);
    assert_eq!(usi(&p, "Lnx4e-4f"), "5f4e4f");
    assert_eq!(usi(&p, "Lnx!4e"), "5f4e5f");
    assert_eq!(usi(&p, "Lnx4e-5f"), "5f4e5f", "the long form of igui");
    let pass = read(&p, "pass").unwrap();
    assert!(pass.returns_to_start() && p.piece_at(pass.mid().unwrap()).is_none());
    assert_eq!(western(&p, parse_usi("5f4e4f").unwrap()), "Lnx4e-4f");
    assert_eq!(western(&p, parse_usi("5f4e5f").unwrap()), "Lnx!4e");
    assert_eq!(western(&p, pass), "pass");
    assert_eq!(japanese(&p, parse_usi("5f4e5f").unwrap()), "4五獅居喰い");
    assert_eq!(japanese(&p, parse_usi("5f4e4f").unwrap()), "4五・4六獅");
}

#[test]
fn gd_rule_a_gold_on_the_named_rank_is_meant_even_if_it_cannot_move() {
    // Gold on 9d cannot reach 7c; the gold on 7b can. `Gd-7c` names the gold on rank d: invalid.
    let p = board(&[("9d", "G"), ("7b", "G")]);
    assert!(matches!(
        read(&p, "Gd-7c"),
        Err(NotationError::NoMove { .. })
    ));
    // With no gold on rank d, `Gd` is read as `G` (the `d` a typo) and any gold may move.
    let q = board(&[("9e", "G"), ("7b", "G")]);
    let r = parse_move(&q, "Gd-7c", Dialect::Csl, None).unwrap();
    assert_eq!(r.mv.to_string(), "7b7c");
    assert!(!r.warnings.is_empty());
}

#[test]
fn second_word_initial_is_allowed() {
    // Silver on 6g cannot reach 4e; the silver on 4f can: `SG-4e` and `Sg-4e` are valid.
    let p = board(&[("6g", "S"), ("4f", "S")]);
    assert_eq!(usi(&p, "SG-4e"), "4f4e");
    assert_eq!(usi(&p, "Sg-4e"), "4f4e");
}

#[test]
fn extra_letters_from_the_left() {
    let p = board(&[("5h", "R")]);
    assert_eq!(usi(&p, "rB-5e"), "5h5e");
    let r = parse_move(&p, "Rook-5e", Dialect::Csl, None).unwrap();
    assert_eq!(r.mv.to_string(), "5h5e");
    assert!(
        r.warnings.iter().any(|w| w.contains("typo")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn upper_case_first_gb_versus_gold_on_b() {
    // Go-between on 4c and gold on 4a can both step to 4b.
    let p = board(&[("4c", "I"), ("4a", "G")]);
    assert_eq!(usi(&p, "GB-4b"), "4c4b");
    assert_eq!(usi(&p, "Gb-4b"), "4a4b");
    assert!(matches!(
        read(&p, "gb-4b"),
        Err(NotationError::Ambiguous { .. })
    ));
    assert!(matches!(
        read(&p, "gB-4b"),
        Err(NotationError::Ambiguous { .. })
    ));
    // When only one reading can move, any spelling finds it.
    let only_gold = board(&[("4a", "G")]);
    assert_eq!(usi(&only_gold, "gb-4b"), "4a4b");
    let only_gb = board(&[("4c", "I")]);
    assert_eq!(usi(&only_gb, "Gb-4b"), "4c4b");
    // `GB` when only the gold can move: accepted as the gold, with a warning.
    let r = parse_move(&only_gold, "GB-4b", Dialect::Csl, None).unwrap();
    assert_eq!(r.mv.to_string(), "4a4b");
    assert!(
        r.warnings.iter().any(|w| w.contains("no go-between")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn upper_case_first_other_pairs() {
    // DE elephant vs De dragon on rank e, both to 5d.
    let p = board(&[("5f", "E"), ("7e", "D")]);
    assert_eq!(usi(&p, "DE-5e"), "5f5e");
    assert_eq!(usi(&p, "De-5e"), "7e5e");
    // HF horned falcon vs Hf horse on rank f, both to 3f.
    let p = board(&[("3g", "+H"), ("4f", "H")]);
    assert_eq!(usi(&p, "HF-3f"), "3g3f");
    assert_eq!(usi(&p, "Hf-3f"), "4f3f");
    // SE soaring eagle vs Se silver on rank e, both to 6f.
    let p = board(&[("6g", "+D"), ("7e", "S")]);
    assert_eq!(usi(&p, "SE-6f"), "6g6f");
    assert_eq!(usi(&p, "Se-6f"), "7e6f");
    // FK free king vs Fk falcon on rank k, both to 2j.
    let p = board(&[("2h", "Q"), ("2k", "+H")]);
    assert_eq!(usi(&p, "FK-2j"), "2h2j");
    assert_eq!(usi(&p, "Fk-2j"), "2k2j");
    // WH white horse vs Wh whale on rank h, both to 9g.
    let p = board(&[("10h", "+L"), ("9h", "+A")]);
    assert_eq!(usi(&p, "WH-9g"), "10h9g");
    assert_eq!(usi(&p, "Wh-9g"), "9h9g");
    // BG copper vs Bg bishop on rank g, both to 8f.
    let p = board(&[("8g", "C"), ("9g", "B")]);
    assert_eq!(usi(&p, "BG-8f"), "8g8f");
    assert_eq!(usi(&p, "Bg-8f"), "9g8f");
    // GC golden chariot (promoted gold) vs Gc gold on rank c, both to 5b.
    let p = board(&[("5e", "+G"), ("6c", "G")]);
    assert_eq!(usi(&p, "GC-5b"), "5e5b");
    assert_eq!(usi(&p, "Gc-5b"), "6c5b");
}

#[test]
fn ph_is_always_the_phoenix() {
    // A pawn on rank h could go to 5g, the phoenix cannot: `Ph-5g` is still the phoenix.
    let p = board(&[("5h", "P"), ("9j", "X")]);
    assert!(matches!(
        read(&p, "Ph-5g"),
        Err(NotationError::NoMove { .. })
    ));
    assert_eq!(usi(&p, "P-5g"), "5h5g");
}

#[test]
fn alternates_and_japanese_names() {
    let p = Position::startpos();
    for (text, want) in [
        ("T-9k", "8k9k"),
        ("V-11k", "11j11k"),
        ("Kn-9k", "7k9k"),
        ("Ki-9k", "7k9k"),
        ("U-9k", "7k9k"),
        ("Kr-9k", "7k9k"),
        ("M-9g", "9h9g"),
        ("仲-9g", "9h9g"),
        ("9七仲人", "9h9g"),
        ("Br-11k", "10l11k"),
        ("Bz-11k", "10l11k"),
        ("DH-9k", "9j9k"),
        ("H-9k", "9j9k"),
        ("師-7h", "7j7h"),
        ("獅子7八", "7j7h"),
    ] {
        assert_eq!(usi(&p, text), want, "{text}");
    }
    // A promoted pawn is also と or tokin; a promoted leopard 小角; a promoted gold 金飛車.
    let q = board(&[("5e", "+P"), ("3e", "+F"), ("8f", "+G")]);
    assert_eq!(usi(&q, "tokin-5d"), "5e5d");
    assert_eq!(usi(&q, "と-5d"), "5e5d");
    assert_eq!(usi(&q, "5四金"), "5e5d");
    assert_eq!(usi(&q, "小角-2d"), "3e2d");
    assert_eq!(usi(&q, "金飛車-8c"), "8f8c");
    let f = board(&[("6j", "Q")]);
    assert_eq!(usi(&f, "Q-6h"), "6j6h");
    assert_eq!(usi(&f, "FK-6h"), "6j6h");
}

#[test]
fn squares_in_every_form() {
    let p = board(&[("10f", "R")]);
    for text in ["R-10d=", "R10四不成", "R-104=", "R１０四不成", "10dR="] {
        assert!(
            usi(&p, text).starts_with("10f10d"),
            "{text}: {}",
            usi(&p, text)
        );
    }
    // Digit strings that name two squares are read by legality: 111 is 11a or 1k.
    let q = board(&[("1h", "R")]);
    assert_eq!(usi(&q, "R-111"), "1h1k");
}

#[test]
fn bad_input_is_reported_not_panicked() {
    let p = Position::startpos();
    for text in [
        "",
        "Zz-7h",
        "Ln-13a",
        "Ln-7m",
        "Ln-7h-6g-5f-4e",
        "7八獅★",
        "x",
        "+",
        "Ln-7h+",
        "獅獅",
        "((",
        "同歩",
    ] {
        assert!(read(&p, text).is_err(), "{text}");
    }
}

#[test]
fn capture_marks_are_optional_but_checked() {
    let p = board(&[("5f", "N"), ("4e", "p")]);
    let plain = parse_move(&p, "Ln-4e", Dialect::Csl, None).unwrap();
    assert_eq!(plain.mv.to_string(), "5f4e");
    assert!(
        plain.warnings.iter().any(|w| w.contains("captures on 4e")),
        "{:?}",
        plain.warnings
    );
    let bare = parse_move(&p, "Ln4e", Dialect::Csl, None).unwrap();
    assert!(bare.warnings.is_empty(), "{:?}", bare.warnings);
    let wrong = parse_move(&p, "Lnx5e", Dialect::Csl, None).unwrap();
    assert!(
        wrong
            .warnings
            .iter()
            .any(|w| w.contains("nothing is captured")),
        "{:?}",
        wrong.warnings
    );
    let right = parse_move(&p, "Lnx4e", Dialect::Csl, None).unwrap();
    assert!(right.warnings.is_empty(), "{:?}", right.warnings);
}
