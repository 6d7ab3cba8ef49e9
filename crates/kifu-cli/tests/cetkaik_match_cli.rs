//! A cetkaik match through the `kifu` binary: the records layer hands its seasons out one at
//! a time (issue 14), and commands still count the match as one record, with every season's
//! problems reported at their place.

mod support;

use support::*;

fn case1() -> String {
    std::fs::read_to_string(corpus("cetkaik/cerke_online/case1_2022-05-31.ckka")).unwrap()
}

/// `kifu check --json` of `input` on standard input, read as cetkaik: the file's report.
fn check(input: &str, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let mut args = vec!["check", "--json", "-", "--game", "cetkaik"];
    args.extend_from_slice(extra);
    let out = kifu_with(&args, input);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    (out.status.code(), doc["files"][0].clone())
}

#[test]
fn a_match_is_one_record_and_a_late_error_is_reported_at_its_line() {
    let (code, file) = check(&case1(), &[]);
    assert_eq!(code, Some(0), "{file}");
    assert_eq!(
        (file["records"].as_u64(), file["plies"].as_u64()),
        (Some(1), Some(62))
    );

    // The third season's 車 written as a 船: one error, on its line, in a one-record file.
    let input = case1().replacen("CA車PA無撃裁手黒筆", "CA船PA無撃裁手黒筆", 1);
    let line = 1 + input[..input.find("CA船PA").unwrap()].matches('\n').count();
    let (code, file) = check(&input, &[]);
    assert_eq!(code, Some(1), "{file}");
    assert_eq!(file["records"].as_u64(), Some(1));
    assert_eq!(file["errors"].as_u64(), Some(1), "{file}");
    let error = &file["diagnostics"][0];
    assert_eq!(error["line"].as_u64(), Some(line as u64), "{file}");
    assert_eq!(error["text"].as_str(), Some("CA船PA無撃裁"));
    // `--record 2` names no record: the match is the only one.
    let out = kifu_with(&["show", "-", "--game", "cetkaik", "--record", "2"], &input);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("holds 1 record"),
        "{}",
        text(&out.stderr)
    );
}

/// `--rules` names the rule set of a match that names none. The seasons are read one at a
/// time, so the first season decides whether another preset is tried: case1's first season
/// is valid under 硬皇力, and its later seasons are then held to it (a whole-file reader once
/// fell back to 官定 here, having seen them all). The first later season that breaks it says
/// which preset reads the whole match.
#[test]
fn rules_on_the_command_line_hold_the_match_once_its_first_season_passes() {
    let (code, file) = check(&case1(), &["--rules", "硬皇力"]);
    assert_eq!(code, Some(1), "{file}");
    let diagnostics = file["diagnostics"].as_array().unwrap();
    let hints: Vec<_> = diagnostics
        .iter()
        .filter(|d| d["message"].as_str().unwrap().contains("not valid under"))
        .collect();
    assert_eq!(hints.len(), 1, "{file}");
    assert_eq!(hints[0]["severity"], "warning");
    assert!(
        hints[0]["message"]
            .as_str()
            .unwrap()
            .contains("the whole match is valid under 官定 (add {律:官定} to read it so)"),
        "{file}"
    );
    assert_eq!(hints[0]["line"], diagnostics[0]["line"], "{file}");
    // As the hint says.
    let (code, file) = check(&case1(), &["--rules", "官定"]);
    assert_eq!(code, Some(0), "{file}");
    // Every error lies after the first season's 終季.
    let first_season_end = 1 + case1()[..case1().find("春終").unwrap()]
        .matches('\n')
        .count();
    for d in diagnostics {
        assert!(d["line"].as_u64().unwrap() > first_season_end as u64, "{d}");
    }
    // The rule set the match follows, named, is checked without a fallback.
    let named = format!("{{律:官定}}\n{}", case1());
    let (code, _) = check(&named, &["--rules", "硬皇力"]);
    assert_eq!(code, Some(0));
}
