//! One front door (issue 27): every record the tests have reads the same — game, format,
//! records, plies and diagnostics — with its own name, with no extension, renamed `.txt` and
//! on standard input. (As bytes in Python it goes through the same `kifu_records::open`;
//! `crates/kifu-py/tests/test_front_door.py` checks that side.) Then the problems that opened
//! the issue, each as it was met.

mod support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::*;

/// The record files of the corpus and the examples: every one outside the bulk folders, and
/// the first few of each bulk folder (the rest are more of the same programs' output).
fn test_records() -> Vec<PathBuf> {
    let record = |p: &Path| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        !name.ends_with(".md") && !name.ends_with(".tsv")
    };
    let mut files = Vec::new();
    for root in [corpus(""), repo().join("examples/records")] {
        for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
            let entry = entry.unwrap();
            if entry.file_type().is_file() && record(entry.path()) {
                files.push(entry.into_path());
            }
        }
    }
    let mut per_bulk_folder = std::collections::HashMap::new();
    files.retain(|p| {
        let folder = p.parent().unwrap().to_path_buf();
        if !folder.to_string_lossy().contains("/bulk/") {
            return true;
        }
        let seen = per_bulk_folder.entry(folder).or_insert(0);
        *seen += 1;
        *seen <= 5
    });
    assert!(files.len() > 100, "{} files", files.len());
    files
}

/// What `kifu check --json` says of one file, without its name.
fn verdict(file: &Value) -> Value {
    let diagnostics: Vec<Value> = file["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            serde_json::json!([
                d["severity"],
                d["line"],
                d["column"],
                d["message"],
                d["text"]
            ])
        })
        .collect();
    serde_json::json!({
        "game": file["game"],
        "format": file["format"],
        "records": file["records"],
        "plies": file["plies"],
        "errors": file["errors"],
        "warnings": file["warnings"],
        "diagnostics": diagnostics,
    })
}

fn check_json(args: &[&str], stdin: &[u8]) -> Vec<Value> {
    let mut all = vec!["check", "--json", "-j", "1"];
    all.extend_from_slice(args);
    let out = kifu_with(&all, stdin);
    let doc: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(verdict)
        .collect()
}

/// Formats that the content cannot tell from another without the file's name, and why.
fn told_only_by_name(own: &Value, other: &Value) -> Option<&'static str> {
    let pair = (own["format"].as_str()?, other["format"].as_str()?);
    match pair {
        // The same reader and text; the name says which encoding a writer would use.
        ("kif", "kifu") | ("kifu", "kif") | ("ki2", "ki2u") | ("ki2u", "ki2") => {
            Some("KIF and KIFU (KI2 and KI2U) differ only in the encoding the name promises")
        }
        _ => None,
    }
}

#[test]
fn every_test_record_reads_the_same_five_ways() {
    let files = test_records();
    let tmp = tempfile::tempdir().unwrap();
    let mut bare = Vec::new();
    let mut txt = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let bytes = std::fs::read(file).unwrap();
        let b = tmp.path().join(format!("record{i}"));
        let t = tmp.path().join(format!("record{i}.txt"));
        std::fs::write(&b, &bytes).unwrap();
        std::fs::write(&t, &bytes).unwrap();
        bare.push(b);
        txt.push(t);
    }
    let strs = |paths: &[PathBuf]| -> Vec<String> {
        paths
            .iter()
            .map(|p| p.to_str().unwrap().to_string())
            .collect()
    };
    let run = |paths: &[PathBuf]| {
        let names = strs(paths);
        let args: Vec<&str> = names.iter().map(String::as_str).collect();
        check_json(&args, b"")
    };
    let own = run(&files);
    let ways = [("no extension", run(&bare)), (".txt", run(&txt))];
    let mut failures = Vec::new();
    let mut by_name_only = 0;
    for (i, file) in files.iter().enumerate() {
        let stdin = check_json(&["-"], &std::fs::read(file).unwrap());
        let others = ways
            .iter()
            .map(|(way, verdicts)| (*way, verdicts[i].clone()))
            .chain([("standard input", stdin[0].clone())]);
        for (way, other) in others {
            if other == own[i] {
                continue;
            }
            let mut without_format = other.clone();
            without_format["format"] = own[i]["format"].clone();
            if without_format == own[i] && told_only_by_name(&own[i], &other).is_some() {
                by_name_only += 1;
                continue;
            }
            failures.push(format!(
                "{} {way}:\n  own name: {}\n  {way}: {}",
                file.display(),
                own[i],
                other
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files read otherwise ({by_name_only} told apart only by name):\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// A Shift_JIS KI2, and a Shift_JIS KIF whose first move comes after 2 KB of commentary (every
/// JSA relay), from standard input: read as themselves, not as USI lists full of errors.
#[test]
fn shift_jis_kif_and_ki2_on_standard_input_are_not_usi() {
    let mut kif = String::from("開始日時：2024/05/01 10:00\n棋戦：名人戦\n手合割：平手\n");
    for i in 0..60 {
        kif += &format!("*解説その{i}、序盤の駆け引きについて長い説明が続きます。\n");
    }
    kif += "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
    let ki2 = "先手：甲\n後手：乙\n\n▲７六歩　△３四歩　▲２六歩\nまで3手で後手の勝ち\n";
    // Plies count moves: the resignation is not one.
    for (text, format, plies) in [(kif.as_str(), "kif", 2), (ki2, "ki2", 3)] {
        let (sjis, _) = kifu_record::encode(text, kifu_record::TextEncoding::ShiftJis);
        let files = check_json(&["-"], &sjis);
        assert_eq!(files[0]["format"], format, "{}", files[0]);
        assert_eq!(files[0]["errors"], 0, "{}", files[0]);
        assert_eq!(files[0]["plies"], plies, "{}", files[0]);
    }
}

/// A CSA record named `.txt` is CSA (it was read as USI, with an error per line).
#[test]
fn csa_named_txt_is_csa() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("game.txt");
    std::fs::copy(repo().join("examples/records/random-game.csa"), &path).unwrap();
    let files = check_json(&[path.to_str().unwrap()], b"");
    assert_eq!(files[0]["format"], "csa", "{}", files[0]);
    assert_eq!(files[0]["errors"], 0, "{}", files[0]);
}

/// Text shaped like no format: one line saying so, exit 1, not a flood of a reader's errors.
#[test]
fn text_of_no_format_is_one_line() {
    let prose = "これは棋譜ではありません。\n明日は雨が降るでしょう。\n".repeat(50);
    let out = kifu_with(&["check", "-"], prose.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stdout);
    let errors: Vec<&str> = said.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(errors.len(), 1, "{said}");
    assert!(
        errors[0].contains("cannot tell the format") && errors[0].contains("give --format"),
        "{said}"
    );
}

/// `--json` says which game and format were chosen, and why.
#[test]
fn json_says_why_the_game_and_format_were_chosen() {
    let out = kifu_with(
        &["check", "--json", "-"],
        b"'a comment\nV2.2\nPI\n+\n+7776FU\n%TORYO\n",
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let chosen = &doc["files"][0]["chosen"];
    assert_eq!(chosen["format_by"], "by line 2 (a CSA line)", "{doc}");
    assert_eq!(chosen["encoding"], "UTF-8", "{doc}");
    assert!(
        chosen["game_by"].as_str().unwrap().contains("content"),
        "{doc}"
    );
}

/// What `kifu show --sfen` writes reads back as a record that starts there, and `kifu show`
/// of it draws that position.
#[test]
fn a_position_written_by_show_reads_back() {
    let out = kifu(&[
        "show",
        "examples/records/random-game.csa",
        "--ply",
        "10",
        "--sfen",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let sfen = text(&out.stdout);
    let back = kifu_with(&["show", "-", "--sfen"], sfen.as_bytes());
    assert_eq!(back.status.code(), Some(0), "{}", text(&back.stderr));
    assert_eq!(text(&back.stdout), sfen);
    let check = kifu_with(&["check", "-"], format!("position sfen {sfen}").as_bytes());
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
}

/// No picture, page or board for an input kifu reported invalid.
#[test]
fn nothing_is_drawn_for_an_invalid_record() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.csa");
    std::fs::write(&bad, "PI\n+\n+7776FU\n-0000FU\n%TORYO\n").unwrap();
    let bad = bad.to_str().unwrap();
    let show = kifu(&["show", bad]);
    assert_eq!(show.status.code(), Some(1));
    assert!(show.stdout.is_empty(), "{}", text(&show.stdout));
    let svg = kifu(&["show", bad, "--svg"]);
    assert_eq!(svg.status.code(), Some(1));
    assert!(svg.stdout.is_empty());
    let png = tmp.path().join("bad.png");
    let render = kifu(&["render", bad, "-o", png.to_str().unwrap()]);
    assert_eq!(render.status.code(), Some(1), "{}", text(&render.stderr));
    assert!(!png.exists());
    let page = tmp.path().join("bad.html");
    let html = kifu(&["html", bad, "-o", page.to_str().unwrap()]);
    assert_eq!(html.status.code(), Some(1), "{}", text(&html.stderr));
    assert!(!page.exists());
}
