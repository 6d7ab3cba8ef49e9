//! Issue 14: a cetkaik match is read season by season through `RecordFormat::records`, each
//! season handed out as soon as it is read and replayed, with the diagnostics placed in it.
//! Reading one season at a time decides what the whole file used to decide from the first
//! season on; the tests at the end pin what that changes.

use kifu_cetkaik::{Cetkaik, Rules};
use kifu_record::{Diagnostic, RecordFormat, RecordRead};
use kifu_records::cetkaik as ckka;
use kifu_records::cetkaik::format::{by_name, records_under};

mod support;

use support::cetkaik::read;

/// cerke_online's record of a whole match: three seasons, each opened by `MAU弓MAIMY橋…`.
fn case1() -> String {
    read("cerke_online/case1_2022-05-31.ckka")
}

fn ckka_format() -> &'static dyn RecordFormat<Cetkaik> {
    by_name("ckka").unwrap()
}

fn messages(read: &RecordRead<Cetkaik>) -> Vec<&str> {
    read.diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect()
}

/// The seasons of `text` read as CKKA, in order.
fn seasons(text: &str) -> Vec<RecordRead<Cetkaik>> {
    ckka_format().records(text).collect()
}

/// A season read without any problem (its diagnostics shown if not).
#[track_caller]
fn assert_clean(read: &RecordRead<Cetkaik>) {
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
}

#[test]
fn a_match_is_handed_out_season_by_season_with_the_whole_files_records() {
    let text = case1();
    let (game, diags) = ckka::check(&text, Rules::standard());
    assert!(diags.is_empty(), "{diags:?}");
    let mut reads = ckka_format().records(&text);
    let mut streamed = Vec::new();
    for expected in ckka::season_records(&game) {
        let read = reads.next().expect("one record per season");
        assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
        assert_eq!(read.record.start, expected.start);
        assert_eq!(read.record.header, expected.header);
        streamed.push(read.record);
    }
    assert!(reads.next().is_none());
    // Grouped again, the seasons are the match the whole-file replay saw.
    assert_eq!(ckka::match_of(&streamed).seasons, game.seasons);
}

#[test]
fn an_error_late_in_the_match_leaves_the_seasons_before_it_clean() {
    // An illegal move in the third season (a 船 for the 車 that made the move).
    let text = case1().replacen("CA車PA無撃裁手黒筆", "CA船PA無撃裁手黒筆", 1);
    let reads = seasons(&text);
    assert_eq!(reads.len(), 3);
    assert_clean(&reads[0]);
    assert_clean(&reads[1]);
    let late = &reads[2].diagnostics;
    assert!(late.iter().any(Diagnostic::is_error), "{late:?}");
    let at = late[0].span;
    assert_eq!(&text[at.range()], "CA船PA無撃裁");
}

#[test]
fn text_after_the_last_season_goes_with_it_and_a_season_end_word_with_the_next() {
    // `春終` after the first 終季 is read before the second season starts: it goes with the
    // second; a tally after the last season goes with the last.
    let text = case1()
        .replacen("終季    春終", "終季    夏終", 1)
        .replace("星一周", "星一周\n[a]一 [b]二");
    let reads = seasons(&text);
    assert_eq!(reads.len(), 3);
    assert_clean(&reads[0]);
    assert_eq!(
        messages(&reads[1]),
        ["`夏終` but season 1 has just ended"],
        "{:?}",
        reads[1].diagnostics
    );
    assert_eq!(
        messages(&reads[2]),
        ["the tally says 1:2, but the game ends 40:0"]
    );
}

#[test]
fn a_text_without_a_record_is_one_empty_record_with_the_error() {
    for text in ["", "春終\n", "\u{3000}\n"] {
        let reads = seasons(text);
        assert_eq!(reads.len(), 1, "{text:?}");
        assert!(reads[0].record.moves.main_line().next().is_none());
        assert!(
            reads[0].has_errors(),
            "{text:?}: {:?}",
            reads[0].diagnostics
        );
    }
}

#[test]
fn a_match_that_names_no_rule_set_is_checked_under_the_one_its_first_season_follows() {
    // A one-season record of the 硬皇力 era: its season fails under the standard rule and
    // passes under 硬皇力, which the match is then checked under, as the whole-file reader
    // did.
    let text = read("fedirrgavir/001_jv_sy.txt");
    let reads = seasons(&text);
    assert_eq!(reads.len(), 1);
    assert_eq!(reads[0].record.start.rules, Rules::hard_tam());
    assert_eq!(
        messages(&reads[0]),
        [
            "not valid under 官定 but valid under 硬皇力; checked with 硬皇力 (add {律:硬皇力} to say so)"
        ]
    );
}

/// What changed when the reader stopped reading the whole match first: under `--rules
/// 硬皇力`, case1's first season is valid, so the match is held to 硬皇力 and its later seasons'
/// moves that 硬皇力 forbids are errors. The whole-file reader, having seen them, checked the
/// match under 官定 instead. A reader that hands out the first season before reading the
/// second cannot take it back; it reads the match again under the other presets and says, on
/// the first season that breaks 硬皇力, that `{律:官定}` (or `--rules 官定`) reads it all.
#[test]
fn the_rule_set_is_decided_by_the_first_season_not_the_whole_match() {
    let text = case1();
    let reads: Vec<_> = records_under(ckka_format(), &text, Rules::hard_tam()).collect();
    assert_eq!(reads.len(), 3);
    assert!(
        reads
            .iter()
            .all(|r| r.record.start.rules == Rules::hard_tam())
    );
    assert_clean(&reads[0]);
    let broken = reads
        .iter()
        .position(|r| r.has_errors())
        .expect("a season breaks 硬皇力");
    let hint = "this season is not valid under 硬皇力, which the match follows from its first \
                season, but the whole match is valid under 官定 (add {律:官定} to read it so)";
    let hints = |r: &RecordRead<Cetkaik>| messages(r).iter().filter(|m| **m == hint).count();
    assert_eq!(hints(&reads[broken]), 1, "{:?}", messages(&reads[broken]));
    // Once, on the first season that breaks it; the hint points at that season's first error.
    assert_eq!(reads.iter().map(hints).sum::<usize>(), 1);
    let first_error = reads[broken]
        .diagnostics
        .iter()
        .find(|d| d.is_error())
        .expect("an error");
    let on_hint = reads[broken]
        .diagnostics
        .iter()
        .find(|d| d.message == hint)
        .expect("the hint");
    assert_eq!(on_hint.span, first_error.span);
    assert!(!on_hint.is_error());
    // Whole, the match still validates under 官定 only (what the old reader fell back to).
    let (game, diags) = ckka::check_detecting_rules(&text, Rules::hard_tam());
    assert_eq!(game.rules, Rules::standard());
    assert!(!diags.iter().any(Diagnostic::is_error));
    // Named, the rule set is the match's, as before.
    let named = format!("{{律:官定}}\n{text}");
    let reads: Vec<_> = records_under(ckka_format(), &named, Rules::hard_tam()).collect();
    assert!(reads.iter().all(|r| r.diagnostics.is_empty()));
}

/// A 終季 that ends nothing (no hand was made) is an error and the season goes on: what
/// follows it up to the season's real end is that season's, not the next one's (the
/// whole-file reader cut seasons at every 終季 written).
#[test]
fn diagnostics_after_a_stray_declaration_stay_with_the_season_being_played() {
    let text = case1().replacen(
        "PAU巫CAUCAI無撃裁    ZA王ZE無撃裁",
        "PAU巫CAUCAI無撃裁 終季    ZA王ZE無撃裁 手赤馬",
        1,
    );
    let reads = seasons(&text);
    assert_eq!(reads.len(), 3);
    assert_eq!(
        messages(&reads[0]),
        [
            "終季, but the last move made no hand",
            "`手赤馬`: the previous move captured nothing"
        ]
    );
    assert_clean(&reads[1]);
}

/// Notation ⓪ names the hand before 再行 or 終季 (`或為…`); a record in another notation
/// need not. Whether a record is ⓪ is now known from what is read up to the declaration, not
/// from the whole file: a ⓪ move in the last season no longer makes the declarations of the
/// seasons before it wrong.
#[test]
fn the_hand_line_warning_follows_the_notation_read_so_far() {
    let written = by_name("ckka1")
        .unwrap()
        .write(
            &seasons(&case1())
                .into_iter()
                .map(|r| r.record)
                .collect::<Vec<_>>(),
        )
        .text;
    // Without its hand lines (`或為…`), which notation ① may leave out.
    let abbreviated: String = written
        .split_inclusive('\n')
        .filter(|line| !line.starts_with("或為"))
        .collect();
    assert!(
        seasons(&abbreviated)
            .iter()
            .all(|r| r.diagnostics.is_empty())
    );
    // One move of the third season written in ⓪ (its throw written `橋二`, not `二`).
    assert_eq!(abbreviated.matches("PY筆PIPA二").count(), 1);
    let mixed = abbreviated.replacen("PY筆PIPA二", "PY筆PIPA橋二", 1);
    let reads = seasons(&mixed);
    assert_eq!(reads.len(), 3);
    let warning = "a hand line (`…為…`) should name the hand before 再行 or 終季";
    assert_clean(&reads[0]);
    assert_clean(&reads[1]);
    assert_eq!(messages(&reads[2]), [warning]);
    // The whole-file replay, which knows the notation of the whole file, warns at all three.
    let (_, whole) = ckka::check(&mixed, Rules::standard());
    assert_eq!(whole.iter().filter(|d| d.message == warning).count(), 3);
}

/// The diagnostics as comparable text, without the ⓪ hand-line warning (which the streaming
/// reader gives from the first ⓪ move on, the whole-file replay everywhere in a file with
/// one), sorted: where a diagnostic goes is the streaming reader's to say.
fn comparable<'d>(diags: impl IntoIterator<Item = &'d Diagnostic>) -> Vec<String> {
    let mut out: Vec<String> = diags
        .into_iter()
        .filter(|d| !d.message.starts_with("a hand line (`…為…`) should name"))
        .map(|d| format!("{d:?}"))
        .collect();
    out.sort();
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, ..Default::default() })]

    /// On mangled real records that name their rule set, reading season by season gives the
    /// records and the diagnostics of the whole-file replay.
    #[test]
    fn season_by_season_reads_what_the_whole_file_replay_reads(
        cut in 0usize..2500,
        len in 0usize..40,
        junk in "(終季|再行|手二十|春終|星一周|或為王|\\{c\\}|MY弓MU無撃裁|CAI兵CAU|\n|\\PC{0,6}){0,3}",
        pick in 0usize..4,
    ) {
        let base = read([
            "cerke_online/case1_2022-05-31.ckka",
            "ckka-samples/sample1.txt",
            "fedirrgavir/004_complement_jv.txt",
            "cerke_online/case4_2022-09-08.ckka",
        ][pick]);
        let mut at = cut.min(base.len());
        while !base.is_char_boundary(at) { at -= 1; }
        let mut end = (at + len).min(base.len());
        while !base.is_char_boundary(end) { end -= 1; }
        // The rule set named first, out of the mangler's reach: the first season decides no
        // fallback here.
        let text = format!("{{律:官定}}\n{}{}{}", &base[..at], junk, &base[end..]);

        let streamed: Vec<_> = seasons(&text);
        let (parsed, parse_diags) = ckka::parse(&text);
        let (game, replay_diags) = ckka::replay(&parsed, Rules::standard());
        let whole = ckka::season_records(&game);
        proptest::prop_assert_eq!(streamed.len(), whole.len());
        for (read, record) in streamed.iter().zip(&whole) {
            proptest::prop_assert!(read.record == *record, "{:?}\n{:?}", read.record, record);
        }
        proptest::prop_assert_eq!(
            comparable(streamed.iter().flat_map(|r| &r.diagnostics)),
            comparable(parse_diags.iter().chain(&replay_diags))
        );
    }

    /// Any text, under any default rule set, is read season by season without a panic, into
    /// at least one record.
    #[test]
    fn any_text_is_read_season_by_season(
        text in "(\\PC|\n|終季|再行|MAU弓MAIMY橋一|ME弓MIMU橋五|或為王|星一周|\\{律:硬皇力\\}){0,60}",
        pick in 0usize..3,
    ) {
        let rules = [Rules::standard(), Rules::cerke_online(), Rules::hard_tam()][pick];
        for format in ckka::FORMATS {
            let reads = records_under(format, &text, rules).count();
            proptest::prop_assert!(reads >= 1);
        }
    }
}

/// A later season that breaks every preset gets no hint: no rule set reads the whole match.
#[test]
fn no_preset_is_named_when_none_takes_the_whole_match() {
    let text = case1();
    // A second season's move that no rule set allows: a 兵 stepping three squares.
    let broken = break_a_later_season(&text);
    let reads = seasons(&broken);
    assert!(
        reads.iter().skip(1).any(RecordRead::has_errors),
        "{reads:?}"
    );
    assert!(
        reads
            .iter()
            .flat_map(|r| messages(r))
            .all(|m| !m.contains("the whole match is valid under")),
    );
}

/// case1 with its second season's second move made one no preset allows (a 兵 stepping two
/// squares).
fn break_a_later_season(text: &str) -> String {
    let written = "XAI兵XY無撃裁    XU虎MY無撃裁手赤弓";
    assert_eq!(text.matches(written).count(), 1);
    text.replacen(written, "XAI兵XO無撃裁    XU虎MY無撃裁手赤弓", 1)
}
