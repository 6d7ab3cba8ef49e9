//! `kifu index`, `explore`, `find` and `dedup` as a user types them, and their answers checked
//! against cshogi's replay of the same files.

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use support::{kifu, text};

fn json(out: &std::process::Output) -> Value {
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A directory of copies of the 500 bulk games in CSA (a directory walk does not follow links).
fn csa_dir(root: &Path) -> std::path::PathBuf {
    let dir = root.join("records");
    std::fs::create_dir_all(&dir).unwrap();
    for f in kifu_testkit::corpus::files("shogi/bulk/csa", "csa") {
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    dir
}

#[test]
fn index_explore_and_find_work_as_written() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = csa_dir(tmp.path());
    let archive = tmp.path().join("games.kidx");
    let (dir_s, archive_s) = (dir.to_str().unwrap(), archive.to_str().unwrap());
    let built = kifu(&["index", dir_s, "-o", archive_s, "--json"]);
    let summary = json(&built);
    assert_eq!(summary["games_in_archive"], 500);
    assert_eq!(summary["bytes_per_position"], 16.0);
    // Writing over an archive is refused; adding the same files again adds nothing.
    let again = kifu(&["index", dir_s, "-o", archive_s]);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again.stderr));
    let appended = json(&kifu(&[
        "index", dir_s, "-o", archive_s, "--append", "--json",
    ]));
    assert_eq!(
        (
            appended["games"].as_u64(),
            appended["files_already_indexed"].as_u64()
        ),
        (Some(0), Some(500))
    );

    let explored = json(&kifu(&["explore", archive_s, "startpos", "--json"]));
    assert_eq!(explored["games"], 500);
    let moves = explored["moves"].as_array().unwrap();
    let total: u64 = moves.iter().map(|m| m["games"].as_u64().unwrap()).sum();
    assert_eq!(total, 500);
    assert!(moves.iter().all(|m| m["move"].as_str().unwrap().len() >= 4));

    // 7g7f 7c7d 2g2f reaches what 2g2f 7c7d 7g7f does.
    let sfen = "lnsgkgsnl/1r5b1/pp1pppppp/2p6/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4";
    let found = json(&kifu(&["find", archive_s, sfen, "--json"]));
    let found = found.as_array().unwrap();
    assert!(!found.is_empty());
    for g in found {
        assert_eq!(g["ply"], 3);
        assert!(g["record"].as_u64().unwrap() >= 1);
        assert!(g["file"].as_str().unwrap().ends_with(".csa"));
    }
    let via_moves = json(&kifu(&[
        "find",
        archive_s,
        "startpos moves 2g2f 7c7d 7g7f",
        "--json",
    ]));
    assert_eq!(via_moves.as_array().unwrap(), found);
    // A record and --ply name a position too.
    let first = &found[0];
    let file = first["file"].as_str().unwrap();
    let by_record = json(&kifu(&["find", archive_s, file, "--ply", "3", "--json"]));
    assert_eq!(by_record.as_array().unwrap(), found);
    // Usage mistakes are exit 2.
    for bad in [
        vec!["explore", archive_s, "nonsense"],
        vec!["explore", "no-such.kidx"],
        vec!["find", archive_s, "startpos", "--from", "2024-99-01"],
        vec!["find", archive_s, "startpos", "--result", "maybe"],
    ] {
        assert_eq!(kifu(&bad).status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn dedup_finds_the_bulk_games_in_three_formats() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("all");
    for (folder, ext) in [("csa", "csa"), ("kif", "kif"), ("kifu", "kifu")] {
        let sub = dir.join(folder);
        std::fs::create_dir_all(&sub).unwrap();
        for f in kifu_testkit::corpus::files(&format!("shogi/bulk/{folder}"), ext) {
            std::fs::copy(&f, sub.join(f.file_name().unwrap())).unwrap();
        }
    }
    let dir_s = dir.to_str().unwrap();
    let report = json(&kifu(&["dedup", dir_s, "--json"]));
    let groups = report["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 500);
    for g in groups {
        let g = g.as_array().unwrap();
        assert_eq!(g.len(), 3);
        assert!(
            g.iter()
                .all(|e| e["file"].is_string() && e["record"].as_u64() == Some(1))
        );
        assert_eq!(g.iter().filter(|e| e["keep"] == true).count(), 1);
    }
    // -o writes one record per game and leaves the inputs alone.
    let before: BTreeMap<_, _> = walk(&dir);
    let out = tmp.path().join("kept");
    let written = json(&kifu(&[
        "dedup",
        dir_s,
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(written["written"], 500);
    assert_eq!(walk(&out).len(), 500);
    assert_eq!(walk(&dir), before);
}

fn walk(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.display().to_string(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// The acceptance test: for the start position and the 25 positions most games reached by
/// more than one move order, `kifu explore` gives exactly the moves and counts cshogi's replay
/// gives, and `kifu find` exactly its games and first plies; DuckDB, asked with the SQL of
/// `docs/parquet-schema.md` over `kifu export --to parquet`, gives the same.
#[test]
#[ignore = "needs cshogi and duckdb: run scripts/setup-test-deps"]
fn explore_and_find_agree_with_cshogi_and_duckdb() {
    let tmp = tempfile::tempdir().unwrap();
    let files: Vec<String> = kifu_testkit::corpus::files("shogi/bulk/csa", "csa")
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    let archive = tmp.path().join("games.kidx");
    let archive_s = archive.to_str().unwrap();
    let mut args = vec!["index", "--json", "-o", archive_s];
    args.extend(files.iter().map(String::as_str));
    json(&kifu(&args));
    let peer = std::process::Command::new(kifu_testkit::interop_python())
        .arg(support::repo().join("crates/kifu-index/tests/peers/explore_peer.py"))
        .args(&files)
        .output()
        .unwrap();
    assert!(peer.status.success(), "{}", text(&peer.stderr));
    let expected: Value = serde_json::from_slice(&peer.stdout).unwrap();
    let transposed = expected["transposed"].as_array().unwrap();
    assert!(transposed.len() >= 10);
    let mut keys = Vec::new();
    for want in std::iter::once(&expected["start"]).chain(transposed) {
        let sfen = want["sfen"].as_str().unwrap();
        let explored = json(&kifu(&["explore", archive_s, sfen, "--json"]));
        let got: BTreeMap<String, u64> = explored["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_owned(),
                    m["games"].as_u64().unwrap(),
                )
            })
            .collect();
        let moves: BTreeMap<String, u64> = want["moves"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
            .collect();
        assert_eq!(got, moves, "explore {sfen}");
        let found = json(&kifu(&["find", archive_s, sfen, "--json"]));
        let mut got: Vec<(String, u64, u64)> = found
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                (
                    g["file"].as_str().unwrap().to_owned(),
                    g["record"].as_u64().unwrap(),
                    g["ply"].as_u64().unwrap(),
                )
            })
            .collect();
        got.sort();
        let want: Vec<(String, u64, u64)> = want["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                (
                    g["file"].as_str().unwrap().to_owned(),
                    g["record"].as_u64().unwrap(),
                    g["ply"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(got, want, "find {sfen}");
        keys.push((explored["key"].as_str().unwrap().to_owned(), moves, want));
    }
    // The same questions asked of the Parquet tables by DuckDB, with the schema page's SQL.
    let tables = tmp.path().join("tables");
    let mut args = vec!["export", "--to", "parquet", "-o", tables.to_str().unwrap()];
    args.extend(files.iter().map(String::as_str));
    let export = kifu(&args);
    assert!(export.status.success(), "{}", text(&export.stderr));
    let duckdb = std::process::Command::new(kifu_testkit::interop_python())
        .arg(support::repo().join("crates/kifu-index/tests/peers/parquet_peer.py"))
        .arg(&tables)
        .args(keys.iter().map(|(k, _, _)| k))
        .output()
        .unwrap();
    assert!(duckdb.status.success(), "{}", text(&duckdb.stderr));
    let answers: Value = serde_json::from_slice(&duckdb.stdout).unwrap();
    for (key, moves, games) in &keys {
        let answer = &answers[key];
        let got: BTreeMap<String, u64> = answer["moves"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
            .collect();
        assert_eq!(&got, moves, "DuckDB's moves of {key}");
        let got: Vec<(String, u64, u64)> = answer["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                (
                    g[0].as_str().unwrap().to_owned(),
                    g[1].as_u64().unwrap(),
                    g[2].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(&got, games, "DuckDB's games of {key}");
    }
}
