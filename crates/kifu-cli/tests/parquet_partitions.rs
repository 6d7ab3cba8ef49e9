//! `kifu export --to parquet` with `--variations` (a row per move of every variation, with its
//! number and the ply it branches from) and `--partition-by year` (hive-style directories),
//! read back by DuckDB with `hive_partitioning`.

mod support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::{corpus, kifu, text};

/// Three dated CSA games over two years, and a KIF record with three variations (one inside
/// another) and no date.
fn records(dir: &Path) {
    let csa = |year: u32, moves: &[&str]| {
        format!(
            "V2.2\nN+a\nN-b\n$START_TIME:{year}/05/01 10:00:00\nPI\n+\n{}\n%TORYO\n",
            moves.join("\n")
        )
    };
    std::fs::write(
        dir.join("a.csa"),
        csa(2023, &["+7776FU", "-3334FU", "+8822UM"]),
    )
    .unwrap();
    std::fs::write(dir.join("b.csa"), csa(2024, &["+2726FU", "-8384FU"])).unwrap();
    std::fs::write(dir.join("c.csa"), csa(2024, &["+5756FU", "-5354FU"])).unwrap();
    std::fs::copy(
        corpus("shogi/converter-suite/kif/forks.kifu"),
        dir.join("forks.kifu"),
    )
    .unwrap();
}

fn export(input: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "export",
        input.to_str().unwrap(),
        "--to",
        "parquet",
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    kifu(&args)
}

#[test]
fn partitions_are_hive_directories_by_year() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("records");
    std::fs::create_dir(&input).unwrap();
    records(&input);
    let out = dir.path().join("tables");
    let run = export(&input, &out, &["--partition-by", "year"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    for table in ["plies", "games"] {
        for partition in ["year=2023", "year=2024", "year=__HIVE_DEFAULT_PARTITION__"] {
            let file = out.join(table).join(partition).join("part-0.parquet");
            assert!(file.is_file(), "{} is missing", file.display());
        }
        assert_eq!(std::fs::read_dir(out.join(table)).unwrap().count(), 3);
    }
    // Written once; a second run refuses to write over it.
    let again = export(&input, &out, &["--partition-by", "year"]);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again.stderr));
}

#[test]
fn partitions_and_variations_are_for_parquet_only() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("a.csa");
    std::fs::write(&input, "PI\n+\n+7776FU\n%TORYO\n").unwrap();
    let output = dir.path().join("out.hcpe");
    for option in [&["--partition-by", "year"][..], &["--variations"][..]] {
        let mut args = vec![
            "export",
            input.to_str().unwrap(),
            "--to",
            "hcpe",
            "-o",
            output.to_str().unwrap(),
        ];
        args.extend_from_slice(option);
        let run = kifu(&args);
        assert_eq!(
            run.status.code(),
            Some(2),
            "{option:?}: {}",
            text(&run.stderr)
        );
        assert!(
            text(&run.stderr).contains("needs --to parquet"),
            "{option:?}"
        );
    }
}

/// What DuckDB reads of the partitioned tables: rows per year, variation rows with their
/// parent plies, and the games per year.
#[test]
#[ignore = "needs duckdb (the Python venv): run scripts/setup-test-deps"]
fn duckdb_reads_the_partitions_and_the_variations() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("records");
    std::fs::create_dir(&input).unwrap();
    records(&input);
    let out = dir.path().join("tables");
    let run = export(&input, &out, &["--partition-by", "year", "--variations"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let script = r#"
import duckdb, json, sys
out = sys.argv[1]
c = duckdb.connect()
plies = f"read_parquet('{out}/plies/*/*.parquet', hive_partitioning = true)"
games = f"read_parquet('{out}/games/*/*.parquet', hive_partitioning = true)"
print(json.dumps({
    "plies_by_year": c.execute(f"select year, count(*) from {plies} group by year order by year nulls last").fetchall(),
    "variations": c.execute(f"select variation, min(parent_ply), max(parent_ply), count(*), min(ply), max(ply) from {plies} where variation > 0 group by variation order by min(ply)").fetchall(),
    "main_line_of_forks": c.execute(f"select count(*), max(ply), count(parent_ply) from {plies} where source_file like '%forks.kifu' and variation = 0").fetchall(),
    "games_by_year": c.execute(f"select year, count(*) from {games} group by year order by year nulls last").fetchall(),
    "year_type": c.execute(f"select distinct typeof(year) from {plies}").fetchall(),
}))
"#;
    let output = Command::new(kifu_testkit::interop_python())
        .args(["-c", script, out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let seen: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        seen["plies_by_year"],
        serde_json::json!([[2023, 3], [2024, 4], [null, 12 + 5 + 8 + 7]])
    );
    assert_eq!(
        seen["games_by_year"],
        serde_json::json!([[2023, 1], [2024, 2], [null, 1]])
    );
    assert_eq!(seen["year_type"], serde_json::json!([["BIGINT"]]));
    // forks.kifu: 変化：5手 (plies 5–12, from ply 4), inside it 変化：9手 (plies 9–15, from
    // ply 8), and 変化：10手 (plies 10–14, from ply 9). Numbers are distinct and from 1.
    let variations = seen["variations"].as_array().unwrap();
    let rows: Vec<(u64, u64, u64, u64, u64)> = variations
        .iter()
        .map(|v| {
            let n = |i: usize| v[i].as_u64().unwrap();
            assert_eq!(n(1), n(2), "one parent ply per variation: {v}");
            (n(1), n(3), n(4), n(5), n(0))
        })
        .collect();
    let shapes: Vec<(u64, u64, u64, u64)> = rows.iter().map(|r| (r.0, r.1, r.2, r.3)).collect();
    assert_eq!(shapes, [(4, 8, 5, 12), (8, 7, 9, 15), (9, 5, 10, 14)]);
    let mut numbers: Vec<u64> = rows.iter().map(|r| r.4).collect();
    numbers.sort();
    assert_eq!(numbers, [1, 2, 3]);
    // The main line's rows are as without --variations.
    assert_eq!(seen["main_line_of_forks"], serde_json::json!([[12, 12, 0]]));
}
