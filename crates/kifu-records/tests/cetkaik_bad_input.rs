//! Records with mistakes: every problem reported with line and column, nothing panics.

use kifu_cetkaik::Rules;
use kifu_record::SourceText;
use kifu_records::cetkaik as ckka;
use proptest::prelude::*;

/// A corpus record, read when the test runs rather than compiled in: the corpus lies outside the
/// crate, and the published package's tests must still build without it.
fn corpus_text(name: &str) -> String {
    kifu_testkit::corpus::text(&format!("cetkaik/{name}"))
}

fn case1() -> String {
    corpus_text("cerke_online/case1_2022-05-31.ckka")
}

fn errors(text: &str) -> Vec<String> {
    let (rec, d1) = ckka::parse(text);
    let (_, d2) = ckka::replay(&rec, Rules::standard());
    let src = SourceText::new("t", text);
    d1.iter()
        .chain(&d2)
        .filter(|d| d.is_error())
        .map(|d| src.render(d))
        .collect()
}

#[test]
fn a_corrupted_cerke_online_record_gets_exactly_its_mistakes_flagged() {
    // Five mistakes in a record that is otherwise legal; none changes where pieces stand,
    // so nothing else may be flagged.
    let text = case1()
        // line 5: a stick throw where none is needed
        .replacen("ME弓CE無撃裁", "ME弓CE橋三", 1)
        // line 8: a capture comment naming the wrong piece
        .replacen("CAI巫CAMA橋一手赤馬", "CAI巫CAMA橋一手赤車", 1)
        // line 9: the wrong profession for the piece on LAU
        .replacen("LAU弓LAILY橋三    TE虎", "LAU馬LAILY橋三    TE虎", 1)
        // line 13: a hand never made
        .replacen("或為馬弓兵而手五", "或為地心而手五", 1)
        // line 25: a wrong score
        .replacen("或為王加獣而手八", "或為王加獣而手九", 1);
    let e = errors(&text);
    assert_eq!(
        e,
        [
            "t:5:15: error: ply 4: this move needs no bridge throw, but one is recorded (`ME弓CE橋三`)",
            "t:8:11: error: `手赤車`: the previous move captured 赤馬 (`手赤車`)",
            "t:9:1: error: ply 11: the piece on LAU is 黒弓, not 馬 (`LAU馬LAILY橋三`)",
            "t:13:1: error: IA side (黒) declares 地心, which it does not hold (holds: 馬弓兵) (`或為地心而手五`)",
            "t:25:1: error: the declared score is 9, but the rules give 8 (`或為王加獣而手九`)",
        ],
        "{e:#?}"
    );
}

#[test]
fn lexical_mistakes_are_reported_where_they_are() {
    let cases: [(&str, &str); 11] = [
        (
            "{律:官定\nCI兵XIXU無撃裁\n",
            "t:1:1: error: unterminated `{`",
        ),
        ("#{a}\nCI兵XIXU無撃裁\n", "t:1:1: error: unterminated `#{`"),
        ("CI犬XIXU無撃裁\n", "t:1:3: error: unknown profession `犬`"),
        ("CI兵XIXQ無撃裁\n", "t:1:1: error: ply 1: "),
        ("CI兵XIXU橋\n", "t:1:9: error: `橋` must be followed by"),
        (
            "[a]二十十 [b]\nCI兵XIXU無撃裁\n",
            "t:1:4: error: not a pekzep numeral",
        ),
        ("CI兵XIXU無撃裁 ★\n", "t:1:12: error: unknown element `★`"),
        (
            "CI兵XIXU無撃裁\n[a]為獣\n",
            "t:2:1: error: hand line for 獣, but the last move made no hand",
        ),
        (
            "CI兵XIXU無撃裁 手兵\n",
            "t:1:12: error: `手兵`: the previous move captured nothing",
        ),
        // A hand line cut off after `為`, at the end of the text (found by fuzzing: the
        // diagnostic pointed one byte past the text) and before a space.
        ("或為", "t:1:3: error: a hand is missing here"),
        ("或為 \n", "t:1:3: error: a hand is missing here"),
    ];
    for (text, expected) in cases {
        let e = errors(text);
        assert!(
            e.iter().any(|x| x.starts_with(expected)),
            "{text:?}: expected {expected}, got {e:#?}"
        );
    }
}

#[test]
fn encoding_is_checked() {
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice("CI兵XIXU無撃裁".as_bytes());
    assert!(
        ckka::parse_bytes(&bom)
            .unwrap_err()
            .message
            .contains("byte-order mark")
    );
    let bad = b"CI\xff";
    assert!(
        ckka::parse_bytes(bad)
            .unwrap_err()
            .message
            .contains("UTF-8")
    );
    assert!(ckka::parse_bytes("CI兵XIXU無撃裁\r\n".as_bytes()).is_ok_and(|(_, d)| d.is_empty()));
}

#[test]
fn drop_of_undecidable_colour_is_an_error() {
    // Both sides capture ... simplest: a fresh season has nothing in hand.
    let e = errors("CI兵XIXU無撃裁\n或車CI\n");
    assert!(e.iter().any(|x| x.contains("has no 車 in hand")), "{e:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Cutting, splicing and corrupting real records never panics the reader or the replay.
    #[test]
    fn mangled_records_never_panic(cut in 0usize..2000, len in 0usize..40, junk in "\\PC{0,12}", pick in 0usize..3) {
        let base = &corpus_text(["cerke_online/case1_2022-05-31.ckka", "ckka-samples/sample1.txt",
                                 "fedirrgavir/004_complement_jv.txt"][pick]);
        let mut at = cut.min(base.len());
        while !base.is_char_boundary(at) { at -= 1; }
        let mut end = (at + len).min(base.len());
        while !base.is_char_boundary(end) { end -= 1; }
        let text = format!("{}{}{}", &base[..at], junk, &base[end..]);
        let (rec, _) = ckka::parse(&text);
        let (game, _) = ckka::replay(&rec, Rules::standard());
        for n in [ckka::Notation::Full, ckka::Notation::Abbreviated, ckka::Notation::Phonetic, ckka::Notation::Mrf] {
            let _ = ckka::write::write(&game, n);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let (rec, _) = ckka::parse(&text);
        let _ = ckka::replay(&rec, Rules::cerke_online());
    }
}

#[test]
fn after_a_flagged_move_the_replay_follows_the_record() {
    // The wrong profession on a capturing move that makes a hand: only the move is flagged;
    // its capture comment and the hand line after it still check out.
    let text = case1().replacen("MY弓MU無撃裁手黒兵", "MY車MU無撃裁手黒兵", 1);
    assert_eq!(
        errors(&text),
        ["t:11:1: error: ply 15: the piece on MY is 赤弓, not 車 (`MY車MU無撃裁`)"]
    );
}

/// Issue 11: a text with no record in it is an error, not a valid empty game.
#[test]
fn no_record_is_an_error() {
    for text in ["", "  \n\n", "\u{3000}\n"] {
        let (_, d) = kifu_records::cetkaik::check(text, kifu_cetkaik::Rules::standard());
        assert!(
            d.iter()
                .any(|d| d.is_error() && d.message.contains("no cetkaik record")),
            "{text:?}: {d:?}"
        );
    }
    let (_, d) = kifu_records::cetkaik::check("hello world\n", kifu_cetkaik::Rules::standard());
    assert!(d.iter().any(|d| d.is_error()), "{d:?}");
}

/// Issue 11: a move after `星一周` is an error at the move, and the reader goes on.
#[test]
fn a_move_after_the_game_end_marker_is_an_error() {
    let text = "MAU弓MAIMY橋一\tME弓MIMU橋五\n星一周\nMAI弓MAU無撃裁\n";
    let (game, d) = kifu_records::cetkaik::check(text, kifu_cetkaik::Rules::standard());
    let err = d.iter().find(|d| d.is_error()).expect("an error");
    assert_eq!(&text[err.span.range()], "MAI弓MAU無撃裁");
    assert!(err.message.contains("星一周"), "{}", err.message);
    assert_eq!(game.seasons[0].events.len(), 2);
}

/// Found by the fuzzer: a lone `終季` (no move, no header) passed as a clean record under the
/// rules where a declaration may stand without a hand, and wrote as an empty file.
#[test]
fn progress_words_alone_are_no_record() {
    for text in ["\n終季", "春終", "星一周\n"] {
        for rules in [
            kifu_cetkaik::Rules::standard(),
            kifu_cetkaik::Rules::cerke_online(),
            kifu_cetkaik::Rules::hard_tam(),
        ] {
            let (_, d) = kifu_records::cetkaik::check(text, rules);
            assert!(
                d.iter()
                    .any(|d| d.is_error() && d.message.contains("no cetkaik record")),
                "{text:?}: {d:?}"
            );
        }
    }
}
