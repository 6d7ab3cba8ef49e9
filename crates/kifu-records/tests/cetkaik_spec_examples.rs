//! The six examples of the CKKA specification (the CKKA README), read and replayed.

use kifu_cetkaik::{Rules, Side};
use kifu_record::SourceText;
use kifu_records::cetkaik::game_record::{Event, GameRecord};
use kifu_records::cetkaik::write::write;
use kifu_records::cetkaik::{self as ckka, Notation};

fn check(name: &str, text: &str, rules: Rules) -> GameRecord {
    let (rec, d1) = ckka::parse(text);
    let (game, d2) = ckka::replay(&rec, rules);
    let src = SourceText::new(name, text);
    let diags: Vec<String> = d1.iter().chain(&d2).map(|d| src.render(d)).collect();
    assert!(diags.is_empty(), "{}", diags.join("\n"));
    game
}

fn moves(g: &GameRecord) -> usize {
    g.seasons
        .iter()
        .flat_map(|s| &s.events)
        .filter(|e| matches!(e, Event::Move(_)))
        .count()
}

const EX1: &str = "LAU弓LAILY無{定弓失敗} LE弓LILU{定弓}
LAU弓LAILY無{もう一度失敗} ME弓XEZE{王の守り}
NAI兵LAILY{抗弓①} NI兵NE{皇処之巫狙い}
LAU弓NAU{抗弓②} ZO皇NU{此善}
";

const EX2: &str = "CI兵XIXU LAU弓LAILY
LE弓LILU MAI兵MY
PE巫MECE XAU虎CAIXAU
CE巫CI ZAU王TAUNAU
XI兵XUXY XAU虎ZAIXY
XU兵XY NAI兵NY
CI巫KIALIA 再行 LY弓LU
LIA巫NIANAU 終季 手二十
";

const EX3: &str = "{律:硬皇力}
{:2018年4月8日 18:00頃}
[SY] [補集合]
TE虎NITU TAI兵TY
ZI船ZU TAU虎ZAIXY
ZO皇XICE  XIA将ZAU
LE弓ZE TY兵TU
TI兵TU ZIA王XIA
ME弓MIMU四 XY虎MU
PE巫ME LIA馬TAI
MI兵MU LAU弓LAILY
ZE弓TE LY弓ZY無
TU兵TY ZAI船ZU
TY兵TAI
[SY]為獣而手三
終季
";

const EX6: &str = r#"{黒名:kuai1} {赤名:iei2}
{一位色:赤} {季:夏}
"meAxeze3",
"mauAmaimy1",
"zoMnine",
"ziaKxiacau",
"caCcizo4",
"zaiVzo",
"ziVzo"
"caiPcy",
"BVzi",
"myAmima2",
"paOma",
"pauScaucai",
"zoVto",
"miaHxaito4=tymor",
"tiPto3",
"caiScixe1=taxt=FHCV/HT"
"#;

#[test]
fn example_1_abbreviated_fragment_with_failed_throws_and_comments() {
    let g = check("ex1", EX1, Rules::standard());
    assert_eq!(moves(&g), 8);
    let full = write(&g, Notation::Full);
    assert!(full.contains("LAU弓LAILY橋或此無{定弓失敗}"), "{full}");
    assert!(full.contains("ME弓XEZE橋或{王の守り}"), "{full}");
    assert!(full.contains("NAI兵LAILY無撃裁"), "{full}");
}

#[test]
fn example_2_has_a_slip_that_validation_finds() {
    // The spec's example 2 writes `ZAU王TAUNAU`; the King starts on ZIA (sample1 has
    // `ZIA王TAUNAU`). Exactly that move is flagged, and the replay goes on with the King.
    let (rec, d1) = ckka::parse(EX2);
    assert!(d1.is_empty());
    let (g, d2) = ckka::replay(&rec, Rules::standard());
    let src = SourceText::new("ex2", EX2);
    let errors: Vec<String> = d2
        .iter()
        .filter(|d| d.is_error())
        .map(|d| src.render(d))
        .collect();
    assert_eq!(
        errors,
        ["ex2:4:7: error: ply 8: no piece on ZAU (`ZAU王TAUNAU`)"]
    );
    assert_eq!(g.final_scores[g.first_side().index()], 40);
    let fixed = EX2.replace("ZAU王", "ZIA王");
    let g = check("ex2", &fixed, Rules::standard());
    assert_eq!(moves(&g), 15);
    let first = g.first_side();
    assert_eq!(first, Side::ASide);
    assert_eq!(g.final_scores[first.index()], 40);
}

#[test]
fn example_3_hard_tam_rule_from_the_header() {
    // The {律:硬皇力} header chooses the rules whatever the default is.
    let g = check("ex3", EX3, Rules::standard());
    assert_eq!(g.rules.name, "硬皇力");
    assert_eq!(g.final_scores[g.first_side().index()], 23);
}

#[test]
fn example_5_drop_of_unknown_colour_and_final_tally() {
    let text =
        kifu_testkit::corpus::text("cetkaik/fedirrgavir/001_jv_sy.txt").replace("無車CI", "或車CI");
    let g = check("ex5", &text, Rules::hard_tam());
    assert_eq!(g.final_scores, [12, 28]);
}

#[test]
fn example_6_mrf_decodes_to_the_full_notation_table() {
    let g = check("ex6", EX6, Rules::standard());
    let full = write(&g, Notation::Full);
    for expected in [
        "ME弓XEZE橋三",
        "MAU弓MAIMY橋一",
        // NI is not next to ZO, so 皇 stepped on NI in its second stage, first stop unknown.
        "ZO皇[或]NINE",
        "ZIA王XIACAU無撃裁",
        "CA車CIZO水四",
        "ZAI船ZO無撃裁 手赤車",
        "ZI船ZO無撃裁 手黒船",
        "CAI兵CY無撃裁",
        "黒船ZI",
        "MY弓MIMA橋二 手赤馬",
        "PA筆MA無撃裁 手赤弓",
        "PAU巫CAUCAI無撃裁",
        "ZO船TO無撃裁",
        "MIA馬XAITO水四 手赤船",
        "TI兵TO水三 手黒馬",
        // The free-text final-hands field is kept as a comment.
        "CAI巫CIXE橋一{=FHCV/HT} 手黒虎",
    ] {
        assert!(full.contains(expected), "{expected} missing in\n{full}");
    }
    // 終季: 同色行行 7 + 獣 3 = 10, at rate 2 after one 再行.
    let Some(Event::Declaration(d)) = g.seasons[0].events.last() else {
        panic!()
    };
    assert_eq!(d.gain, 20);
}

#[test]
fn the_season_header_names_the_season_end() {
    let g = check("ex6", EX6, Rules::standard());
    let full = write(&g, Notation::Full);
    assert!(full.contains("終季    夏終"), "{full}");
    let (_, d) = ckka::check(&full, Rules::standard());
    assert!(d.is_empty(), "{d:?}");
    let (_, d) = ckka::check(&full.replace("夏終", "春終"), Rules::standard());
    assert!(d.iter().any(|x| x.message.contains("春終")), "{d:?}");
}

#[test]
fn the_rule_header_selects_the_preset() {
    let text = kifu_testkit::corpus::text("cetkaik/cerke_online/case1_2022-05-31.ckka");
    let g = check(
        "online",
        &format!("{{律:cerke_online}}\n{text}"),
        Rules::standard(),
    );
    assert_eq!(g.rules, Rules::cerke_online());
    let (g, d) = ckka::check(&format!("{{律:謎}}\n{text}"), Rules::standard());
    assert_eq!(g.rules, Rules::standard());
    assert!(
        d.iter()
            .any(|x| !x.is_error() && x.message.contains("unknown rule"))
    );
}

#[test]
fn hand_lines_are_checked_against_colour_named_players() {
    let text = "{黒名:kuai1} {赤名:iei2}\n{一位色:黒}\nMAU弓MAIMY橋一\tME弓MIMU橋五\nZO皇[ZY]ZAIZAU\tMU弓MYZY橋一此無\nZAI船ZIZA橋三手赤王\n\n[kuai1]為王\n再行\n";
    let g = check("names", text, Rules::standard());
    assert_eq!(g.rules.name, "官定");
    let (_, d) = ckka::check(
        &text.replace("[kuai1]為王", "[iei2]為王"),
        Rules::standard(),
    );
    assert!(
        d.iter().any(|x| x.is_error()
            && x.message
                .contains("[iei2] is named, but [kuai1] made the hand")),
        "{d:?}"
    );
}
