//! `kifu analyze` with a real engine: the issue's command line as written on a real game of
//! 116 moves (sekirei at 20,000 nodes, two engines), a score for every position, the input
//! byte for byte unchanged, the file written in each of the four comment dialects read back
//! by kifu with the scores the JSON gives, the ShogiHome one by tsshogi (ShogiHome's library)
//! with the comments in place; the same command again answered by the cache without a search.

use std::path::{Path, PathBuf};
use std::process::Command;

use kifu_record::NodeItem;

const GAME: &str = "shogi/jkf-suite/kif/oui201407080101.kif";

fn path_with_sekirei() -> std::ffi::OsString {
    let sekirei = kifu_testkit::sekirei();
    let dir = sekirei.parent().unwrap().to_owned();
    let mut dirs = vec![dir];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}

fn kifu(dir: &Path, args: &[&str]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .current_dir(dir)
        .env("PATH", path_with_sekirei())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "kifu {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    out
}

/// The evaluation kifu reads from each main-line node's engine comments (root first).
fn scores_read_back(path: &Path) -> Vec<Option<i64>> {
    let bytes = std::fs::read(path).unwrap();
    let format = kifu_records::shogi::format_by_extension(path).unwrap();
    let (_, parsed) = kifu_records::read_bytes(&bytes, format);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let record = &parsed.records[0];
    let mut nodes = vec![record.moves.root()];
    nodes.extend(
        record
            .moves
            .main_line()
            .filter(|&id| matches!(record.moves[id].item, NodeItem::Move(_))),
    );
    nodes
        .into_iter()
        .map(|id| {
            kifu_record::evaluation::evaluation(record.moves[id].comments())
                .and_then(|e| e.centipawns(30_000))
                .map(i64::from)
        })
        .collect()
}

fn evals(json: &serde_json::Value) -> Vec<Option<i64>> {
    json["games"][0]["evaluations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["eval"].as_i64())
        .collect()
}

#[test]
#[ignore = "needs sekirei: run scripts/setup-test-deps"]
fn the_issues_command_line_annotates_a_real_game_and_leaves_the_input_alone() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("game.kif");
    std::fs::copy(kifu_testkit::corpus::path(GAME), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let line = "analyze game.kif --engine sekirei --usi-option Threads=1 --nodes 20000 --jobs 2 \
                --comments shogihome -o analysed/";
    let mut args: Vec<&str> = line.split_whitespace().collect();
    kifu(dir.path(), &args);
    assert_eq!(
        std::fs::read(&input).unwrap(),
        before,
        "the input is untouched"
    );
    let output = dir.path().join("analysed/game.kif");
    assert!(output.is_file());

    // Again, with the JSON summary: every position answered from the cache.
    args.push("--json");
    let out = kifu(dir.path(), &args);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["searched"], 0,
        "the second run asks the engine nothing"
    );
    assert_eq!(json["games"][0]["positions"], 117);
    assert_eq!(json["games"][0]["analysed"], 117);
    let evals = evals(&json);
    assert_eq!(
        evals.len(),
        117,
        "the start and the position after each of 116 moves"
    );
    assert!(evals.iter().all(Option::is_some), "{evals:?}");
    assert_eq!(scores_read_back(&output), evals);
    let moves = json["games"][0]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 116);
    assert!(json["unanalysed"].as_array().unwrap().is_empty());
    let black = &json["games"][0]["summary"]["black"];
    assert_eq!(black["moves"], 58);

    // Every dialect, in a format that holds it, reads back with the same scores.
    for (dialect, to, name) in [
        ("shogigui", "kif", "gui/game.kif"),
        ("floodgate", "csa", "floodgate/game.csa"),
        ("csa3", "csa", "csa3/game.csa"),
        ("shogihome", "kifu", "home/game.kifu"),
    ] {
        let out_dir = format!("{}/", name.split('/').next().unwrap());
        let out = kifu(
            dir.path(),
            &[
                "analyze",
                "game.kif",
                "--engine",
                "sekirei",
                "--usi-option",
                "Threads=1",
                "--nodes",
                "20000",
                "--jobs",
                "2",
                "--comments",
                dialect,
                "--to",
                to,
                "--cache",
                "analysed/analysis-cache.sqlite",
                "-o",
                &out_dir,
                "--json",
            ],
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["searched"], 0, "{dialect}");
        assert_eq!(scores_read_back(&dir.path().join(name)), evals, "{dialect}");
    }
    assert_eq!(
        std::fs::read(&input).unwrap(),
        before,
        "the input is untouched"
    );

    // tsshogi reads the annotated file with a comment on every move.
    let comments = tsshogi_comments(&output);
    // The start, 116 moves and the resignation (投了), which carries no finding.
    assert_eq!(comments.len(), 118);
    for (ply, c) in comments[..117].iter().enumerate() {
        assert!(
            c.contains("評価値=") || c.contains("詰み="),
            "ply {ply}: {c:?}"
        );
    }
}

/// Each node's comment of the main line as tsshogi reads the (Shift_JIS) KIF.
fn tsshogi_comments(path: &PathBuf) -> Vec<String> {
    let node = kifu_testkit::interop_node();
    let script = r#"
        import { readFileSync } from "node:fs";
        import { importKIF } from "tsshogi";
        const text = new TextDecoder("shift_jis").decode(readFileSync(process.argv[1]));
        const record = importKIF(text);
        if (record instanceof Error) { console.error(record.message); process.exit(1); }
        console.log(JSON.stringify(record.moves.map((m) => m.comment)));
    "#;
    let out = Command::new(node)
        .current_dir(kifu_testkit::interop_dir())
        .args(["--input-type=module", "-e", script])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
#[ignore = "needs sekirei: run scripts/setup-test-deps"]
fn ctrl_c_writes_nothing_and_the_same_command_continues_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        kifu_testkit::corpus::path(GAME),
        dir.path().join("game.kif"),
    )
    .unwrap();
    let args = [
        "analyze", "game.kif", "--engine", "sekirei", "--nodes", "50000", "--jobs", "2", "-o",
        "out/",
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .current_dir(dir.path())
        .env("PATH", path_with_sekirei())
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Once the run has started (its cache is open) and has had a moment to search, Ctrl-C.
    let cache = dir.path().join("out/analysis-cache.sqlite");
    let started = std::time::Instant::now();
    while !cache.exists() && started.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(1500));
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("interrupted after"), "{err}");
    assert!(
        !dir.path().join("out/game.kif").exists(),
        "nothing is written"
    );
    let done: u64 = err
        .split("interrupted after ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(done < 117, "{err}");

    let mut again: Vec<&str> = args.to_vec();
    again.push("--json");
    let out = kifu(dir.path(), &again);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["searched"].as_u64(), Some(117 - done));
    assert_eq!(json["from_cache"].as_u64(), Some(done));
    assert!(dir.path().join("out/game.kif").is_file());
}

#[test]
#[ignore = "needs sekirei and duckdb (the Python venv): run scripts/setup-test-deps"]
fn the_analysis_table_joins_kifu_exports_tables_in_duckdb() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        kifu_testkit::corpus::path(GAME),
        dir.path().join("game.kif"),
    )
    .unwrap();
    kifu(
        dir.path(),
        &[
            "analyze",
            "game.kif",
            "--engine",
            "sekirei",
            "--nodes",
            "2000",
            "--jobs",
            "2",
            "--no-cache",
            "-o",
            "out/",
            "--parquet",
            "analysis.parquet",
        ],
    );
    kifu(
        dir.path(),
        &["export", "game.kif", "--to", "parquet", "-o", "tables"],
    );
    let script = r#"
import duckdb, json
con = duckdb.connect()
rows = con.execute("select count(*) from 'analysis.parquet'").fetchone()[0]
joined = con.execute("""
    select count(*), count(*) filter (where a.position_key = p.position_key and a.move = p.move)
    from 'analysis.parquet' a join 'tables/plies.parquet' p using (source_file, record, ply)
    where a.main_line""").fetchone()
same_game = con.execute("""
    select count(*) from 'analysis.parquet' a join 'tables/games.parquet' g
    using (source_file, record, game_key)""").fetchone()[0]
evals = con.execute("select count(eval) from 'analysis.parquet'").fetchone()[0]
print(json.dumps({"rows": rows, "joined": joined[0], "agree": joined[1], "same_game": same_game, "evals": evals}))
"#;
    let out = Command::new(kifu_testkit::interop_python())
        .current_dir(dir.path())
        .args(["-c", script])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // 117 positions; the 116 with a move played join their ply rows, with the same key and
    // move; every row belongs to the exported game; every position has a score.
    assert_eq!(seen["rows"], 117);
    assert_eq!(seen["joined"], 116);
    assert_eq!(seen["agree"], 116);
    assert_eq!(seen["same_game"], 117);
    assert_eq!(seen["evals"], 117);
}
