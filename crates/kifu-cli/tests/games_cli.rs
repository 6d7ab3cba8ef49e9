//! Chu shogi and cetkaik through the `kifu` binary: every target kifu writes is read back by
//! kifu, by its extension and by its content (issue 12 case 11); lossy targets warn (case 12);
//! broken input is reported (issue 11).

mod support;

use std::path::PathBuf;
use support::*;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kifu-games-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `check --json` of one file: (game, format, records, plies, errors).
fn checked(args: &[&str], input: &[u8]) -> (String, String, u64, u64, u64) {
    let mut all = vec!["check", "--json"];
    all.extend_from_slice(args);
    let out = kifu_with(&all, input);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    let f = &doc["files"][0];
    (
        f["game"].as_str().unwrap_or("").to_string(),
        f["format"].as_str().unwrap_or("").to_string(),
        f["records"].as_u64().unwrap_or(0),
        f["plies"].as_u64().unwrap_or(0),
        f["errors"].as_u64().unwrap_or(99),
    )
}

#[test]
fn every_cetkaik_target_reads_back_by_extension_and_by_content() {
    let src = corpus("cetkaik/cerke_online/case4_2022-09-08.ckka");
    let src = src.to_str().unwrap();
    let (_, _, _, plies, errors) = checked(&[src], b"");
    assert_eq!(errors, 0);
    let dir = scratch("cetkaik");
    for (to, ext) in [
        ("ckka", "ckka"),
        ("ckka1", "ckka1"),
        ("ckka2", "ckka2"),
        ("ckka3", "ckka3"),
        ("json", "json"),
    ] {
        let out = kifu_with(&["convert", src, "--to", to], b"");
        assert_eq!(out.status.code(), Some(0), "{to}: {}", text(&out.stderr));
        reads_back(
            &dir.join(format!("game.{ext}")),
            &out.stdout,
            "cetkaik",
            plies,
            to,
        );
    }
    // The format named on the command line is the one read.
    let json = kifu_with(&["convert", src, "--to", "json"], b"").stdout;
    let (game, format, _, back, errors) =
        checked(&["-", "--game", "cetkaik", "--format", "json"], &json);
    assert_eq!(
        (game.as_str(), format.as_str(), back, errors),
        ("cetkaik", "json", plies, 0)
    );
    let (_, _, _, _, errors) = checked(&["-", "--game", "cetkaik", "--format", "ckka"], &json);
    assert!(errors > 0, "JSON read as CKKA text is not a record");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Issue 12 case 12: `ZO皇[ZY]ZAIZAU` in notation ③ loses its intermediate square; say so.
#[test]
fn notation_three_warns_what_it_loses() {
    let src = corpus("cetkaik/cerke_online/case4_2022-09-08.ckka");
    let out = kifu_with(&["convert", src.to_str().unwrap(), "--to", "ckka3"], b"");
    assert_eq!(out.status.code(), Some(0));
    let err = text(&out.stderr);
    assert!(
        err.contains("ZO皇[ZY]ZAIZAU") && err.contains("intermediate square"),
        "{err}"
    );
    let out = kifu_with(&["convert", src.to_str().unwrap(), "--to", "ckka"], b"");
    assert_eq!(text(&out.stderr), "", "⓪ holds everything");
}

#[test]
fn every_chu_target_reads_back_by_extension_and_by_content() {
    let games = std::fs::read_to_string(corpus("chu/lishogi-games.ndjson")).unwrap();
    let one = games.lines().next().unwrap().as_bytes().to_vec();
    let (_, _, _, plies, errors) = checked(&["-", "--game", "chu"], &one);
    assert_eq!(errors, 0);
    assert!(plies > 10, "{plies}");
    let dir = scratch("chu");
    for (to, ext) in [
        ("csl", "csl"),
        ("csl-ja", "csl"),
        ("kif", "kif"),
        ("usi", "usi"),
        ("json", "json"),
    ] {
        let out = kifu_with(
            &[
                "convert", "-", "--game", "chu", "--from", "json", "--to", to,
            ],
            &one,
        );
        assert_eq!(out.status.code(), Some(0), "{to}: {}", text(&out.stderr));
        reads_back(
            &dir.join(format!("game.{ext}")),
            &out.stdout,
            "chu",
            plies,
            to,
        );
    }
    // All ten games to JSON: NDJSON that reads back as ten games.
    let out = kifu_with(
        &[
            "convert", "-", "--game", "chu", "--from", "json", "--to", "json",
        ],
        games.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (game, _, records, _, errors) = checked(&["-"], &out.stdout);
    assert_eq!((game.as_str(), records, errors), ("chu", 10, 0));
    // USI cannot hold the lishogi id and result: the conversion says so.
    let out = kifu_with(
        &[
            "convert", "-", "--game", "chu", "--from", "json", "--to", "usi",
        ],
        &one,
    );
    let err = text(&out.stderr);
    assert!(
        err.contains("USI has no headers") && err.contains("USI has no result"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Issue 11: no record, or a mistyped move, is invalid (exit 1) for both games.
#[test]
fn empty_and_broken_chu_and_cetkaik_input_is_invalid() {
    for game in ["chu", "cetkaik"] {
        let out = kifu_with(&["check", "-", "--game", game], b"");
        assert_eq!(out.status.code(), Some(1), "{game}: {}", text(&out.stdout));
        assert!(text(&out.stdout).contains("no ") || text(&out.stderr).contains("no "));
    }
    let out = kifu_with(
        &["check", "-", "--game", "chu"],
        b"1. Ln-7h\n2. Qq-9z\n3. Ln-6g\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let out = kifu_with(
        &["check", "-", "--game", "cetkaik"],
        "MAU弓MAIMY橋一\nQQ弓\n".as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
}

/// Issue 11: UTF-16 without a byte-order mark is never read as an empty record: chu records
/// go through the shared decoder, which recognises it and reads every move; cetkaik refuses it.
#[test]
fn bomless_utf16_is_read_whole_or_refused() {
    let csl: Vec<u8> = "1. Ln-7h\n2. Ln-6e\n"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    let out = kifu_with(&["check", "-", "--game", "chu", "--json"], &csl);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("\"plies\":2"),
        "{}",
        text(&out.stdout)
    );
    let ckka: Vec<u8> = "MAU弓MAIMY橋一\n"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    let out = kifu_with(&["check", "-", "--game", "cetkaik"], &ckka);
    assert_eq!(out.status.code(), Some(1));
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(all.contains("NUL"), "{all}");
}

/// A converted record, written to `file`, reads back as one valid record of `game` with `plies`
/// moves, judged by its extension and, from standard input, by its content alone.
fn reads_back(file: &std::path::Path, bytes: &[u8], game: &str, plies: u64, to: &str) {
    std::fs::write(file, bytes).unwrap();
    let (found, _, records, back, errors) = checked(&[file.to_str().unwrap()], b"");
    assert_eq!(
        (found.as_str(), records, back, errors),
        (game, 1, plies, 0),
        "{to} by extension"
    );
    let (found, _, _, back, errors) = checked(&["-"], bytes);
    assert_eq!(
        (found.as_str(), back, errors),
        (game, plies, 0),
        "{to} by content"
    );
}
