//! `kifu export` read by the real readers: cshogi reads kifu's hcpe and psv files, kifu reads
//! the files cshogi's converter writes (CSA.Parser and `Board.to_hcp` / `to_psfen` per
//! position, the dlshogi way), and DuckDB reads the Parquet tables.
//!
//! cshogi and DuckDB run from the interop virtualenv (`scripts/setup-test-deps`); the tests fail
//! when they are missing.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use kifu_export::training::{read_hcpe, read_psv};
use kifu_export::{move16, packed};
use kifu_record::{Game, Outcome, Side};
use kifu_records::GameRecords;
use kifu_shogi::Shogi;
use serde_json::Value;
use support::{corpus, kifu, text};

fn peer(args: &[&str]) -> String {
    let script = support::repo().join("crates/kifu-export/tests/peers/training_peer.py");
    let output = Command::new(kifu_testkit::interop_python())
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "training_peer.py {args:?}: {}",
        text(&output.stderr)
    );
    text(&output.stdout)
}

fn without_ply(sfen: &str) -> &str {
    sfen.rsplit_once(' ').map_or(sfen, |(head, _)| head)
}

/// The CSA files of the bulk folder, in the order `kifu export` walks them.
fn bulk_files() -> Vec<PathBuf> {
    let mut files = kifu_testkit::corpus::files("shogi/bulk/csa", "csa");
    files.sort();
    files
}

/// What kifu replays of each file: per position with a move, the SFEN before it (without its
/// ply), the move in USI, the winner and the ply number.
struct Expected {
    sfen: String,
    usi: String,
    winner: Option<Side>,
    ply: u32,
    file: String,
}

fn expected(files: &[PathBuf]) -> Vec<Expected> {
    let csa = Shogi::format_by_name("csa").unwrap();
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for read in csa.records(&text) {
            assert!(!read.has_errors(), "{}", file.display());
            let winner = match read.record.outcome() {
                Outcome::Win(side) => Some(side),
                _ => None,
            };
            read.record.walk_main_line(|_, position, mv| {
                out.push(Expected {
                    sfen: without_ply(&position.to_sfen()).to_owned(),
                    usi: Shogi::move_text(position, mv),
                    winner,
                    ply: position.move_number(),
                    file: file.display().to_string(),
                });
            });
        }
    }
    out
}

#[test]
#[ignore = "needs cshogi (the Python venv): run scripts/setup-test-deps"]
fn cshogi_reads_kifus_hcpe_and_psv_and_kifu_reads_cshogis() {
    let dir = tempfile::tempdir().unwrap();
    let files = bulk_files();
    assert_eq!(files.len(), 500);
    let expected = expected(&files);
    let bulk = corpus("shogi/bulk/csa");
    let bulk = bulk.to_str().unwrap();
    let (hcpe, psv) = (dir.path().join("kifu.hcpe"), dir.path().join("kifu.psv"));
    for (to, out) in [("hcpe", &hcpe), ("psv", &psv)] {
        let run = kifu(&[
            "export",
            bulk,
            "--to",
            to,
            "-o",
            out.to_str().unwrap(),
            "--json",
        ]);
        assert!(run.status.success(), "{}", text(&run.stderr));
        let summary: Value = serde_json::from_slice(&run.stdout).unwrap();
        assert_eq!(summary["summary"]["records_exported"], 500);
        assert_eq!(summary["summary"]["positions_exported"], expected.len());
    }

    // cshogi reads kifu's files: every entry is the position kifu replayed and the move played.
    let by_cshogi = peer(&["hcpe", hcpe.to_str().unwrap()]);
    let lines: Vec<&str> = by_cshogi.lines().collect();
    assert_eq!(lines.len(), expected.len());
    for (line, e) in lines.iter().zip(&expected) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            (fields[0], fields[1]),
            (e.sfen.as_str(), e.usi.as_str()),
            "{}",
            e.file
        );
        let result = match e.winner {
            Some(Side::First) => "1",
            Some(Side::Second) => "2",
            None => "0",
        };
        assert_eq!(fields[3], result, "{}", e.file);
    }
    let by_cshogi = peer(&["psv", psv.to_str().unwrap()]);
    let lines: Vec<&str> = by_cshogi.lines().collect();
    assert_eq!(lines.len(), expected.len());
    for (line, e) in lines.iter().zip(&expected) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            (fields[0], fields[1]),
            (e.sfen.as_str(), e.usi.as_str()),
            "{}",
            e.file
        );
        assert_eq!(fields[3], e.ply.to_string(), "{}", e.file);
    }

    // cshogi's converter writes the same bytes, and kifu reads them as the same positions.
    let (theirs_hcpe, theirs_psv) = (
        dir.path().join("cshogi.hcpe"),
        dir.path().join("cshogi.psv"),
    );
    let mut args = vec![
        "convert".to_owned(),
        theirs_hcpe.display().to_string(),
        theirs_psv.display().to_string(),
    ];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    peer(&args);
    let theirs = std::fs::read(&theirs_hcpe).unwrap();
    let entries: Vec<_> = read_hcpe(&theirs).unwrap().collect();
    assert_eq!(entries.len(), expected.len());
    for (entry, e) in entries.iter().zip(&expected) {
        let entry = entry.unwrap();
        let position = packed::from_hcp(&entry.hcp).unwrap();
        assert_eq!(without_ply(&position.to_sfen()), e.sfen, "{}", e.file);
        let mv = move16::from_cshogi_move16(entry.best_move16).unwrap();
        assert_eq!(mv.usi(), e.usi, "{}", e.file);
    }
    assert!(
        theirs == std::fs::read(&hcpe).unwrap(),
        "kifu's hcpe differs from cshogi's"
    );
    let theirs = std::fs::read(&theirs_psv).unwrap();
    for (entry, e) in read_psv(&theirs).unwrap().zip(&expected) {
        let position = packed::from_packed_sfen(&entry.sfen).unwrap();
        assert_eq!(without_ply(&position.to_sfen()), e.sfen, "{}", e.file);
        let mv = move16::from_yaneuraou_move16(entry.mv).unwrap();
        assert_eq!(mv.usi(), e.usi, "{}", e.file);
    }
    assert!(
        theirs == std::fs::read(&psv).unwrap(),
        "kifu's psv differs from cshogi's"
    );
}

/// cshogi replays kifu's hcpe3 games from their start (dlshogi's layout, read field by field):
/// every move is legal there, each position is the one kifu's hcpe holds at that point, with
/// the same evaluation and result; each move's one candidate is itself with one visit.
#[test]
#[ignore = "needs cshogi (the Python venv): run scripts/setup-test-deps"]
fn cshogi_replays_kifus_hcpe3_games() {
    let dir = tempfile::tempdir().unwrap();
    let bulk = corpus("shogi/bulk/csa");
    let (hcpe, hcpe3) = (dir.path().join("kifu.hcpe"), dir.path().join("kifu.hcpe3"));
    let mut games = 0;
    for (to, out) in [("hcpe", &hcpe), ("hcpe3", &hcpe3)] {
        let run = kifu(&[
            "export",
            bulk.to_str().unwrap(),
            "--to",
            to,
            "-o",
            out.to_str().unwrap(),
            "--json",
        ]);
        assert!(run.status.success(), "{}", text(&run.stderr));
        let summary: Value = serde_json::from_slice(&run.stdout).unwrap();
        if to == "hcpe3" {
            games = summary["summary"]["games_written"].as_u64().unwrap();
        }
    }
    assert_eq!(games, 500);
    let positions = peer(&["hcpe", hcpe.to_str().unwrap()]);
    let moves = peer(&["hcpe3", hcpe3.to_str().unwrap()]);
    let (positions, moves): (Vec<&str>, Vec<&str>) =
        (positions.lines().collect(), moves.lines().collect());
    assert_eq!(moves.len(), positions.len());
    for (mv, position) in moves.iter().zip(&positions) {
        let m: Vec<&str> = mv.split('\t').collect();
        let p: Vec<&str> = position.split('\t').collect();
        assert_eq!(m[..3], p[..3], "hcpe3 {mv} against hcpe {position}");
        let result: u8 = m[3].parse().unwrap();
        assert_eq!((result & 0b11).to_string(), p[3], "{mv}");
        assert_eq!(m[4], "0", "opponent: {mv}");
        assert_eq!(m[5], format!("{}:1", m[1]), "candidates: {mv}");
    }
}

#[test]
#[ignore = "needs duckdb (the Python venv): run scripts/setup-test-deps"]
fn duckdb_reads_the_parquet_tables() {
    let dir = tempfile::tempdir().unwrap();
    let files = bulk_files();
    let expected = expected(&files);
    let bulk = corpus("shogi/bulk/csa");
    let out = dir.path().join("tables");
    let run = kifu(&[
        "export",
        bulk.to_str().unwrap(),
        "--to",
        "parquet",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let seen: Value = serde_json::from_str(&peer(&["parquet", out.to_str().unwrap()])).unwrap();
    assert_eq!(seen["plies"]["rows"], expected.len());
    assert_eq!(seen["games"]["rows"], 500);
    // DuckDB sums into a HUGEINT, which the peer prints as a number or, past 2^53, text.
    let games_plies = &seen["games_plies"];
    let games_plies = games_plies
        .as_u64()
        .or_else(|| games_plies.as_str().and_then(|s| s.parse().ok()));
    assert_eq!(games_plies, Some(expected.len() as u64));
    let types = &seen["plies"]["types"];
    for (column, kind) in [
        ("source_file", "VARCHAR"),
        ("record", "INTEGER"),
        ("position_key", "UBIGINT"),
        ("side_to_move", "VARCHAR"),
        ("capture", "BOOLEAN"),
        ("date", "TIMESTAMP"),
        ("date_text", "VARCHAR"),
        ("ply", "INTEGER"),
        ("sfen", "VARCHAR"),
        ("move", "VARCHAR"),
        ("black_rate", "DOUBLE"),
        ("time_ms", "BIGINT"),
        ("eval", "INTEGER"),
        ("result", "VARCHAR"),
    ] {
        assert_eq!(types[column], kind, "plies.{column}");
    }
    let sample = seen["sample"].as_array().unwrap();
    assert!(sample.len() > 500, "{} sampled plies", sample.len());
    // Each sampled row is the position kifu replayed at that ply of that file.
    for row in sample {
        let file = row[0].as_str().unwrap();
        let ply = row[2].as_u64().unwrap() as u32;
        let e = expected
            .iter()
            .filter(|e| Path::new(&e.file).file_name() == Path::new(file).file_name())
            .nth(ply as usize - 1)
            .unwrap();
        assert_eq!(
            without_ply(row[3].as_str().unwrap()),
            e.sfen,
            "{file} ply {ply}"
        );
        assert_eq!(row[4].as_str().unwrap(), e.usi, "{file} ply {ply}");
        assert!(
            row[5].as_str().unwrap().starts_with(['+', '-']),
            "CSA notation {row}"
        );
    }
}

/// Two floodgate-style games: ratings, `'**` evaluations (first player's view), an ending each.
const FLOODGATE: &str = "V2.2\nN+strong\nN-weak\n'black_rate:strong+ab:3100.0\n\
'white_rate:weak+cd:2900\nPI\n+\n+7776FU\n'** 50 -3334FU\n-3334FU\n'** 120 +2726FU\n\
+2726FU\n'** -30\n%TORYO\n/\nV2.2\nN+a\nN-b\n'black_rate:a:3200\n'white_rate:b:3300\nPI\n+\n\
+7776FU\n'** 40\n-3334FU\n'** 60\n%CHUDAN\n";

#[test]
#[ignore = "needs cshogi (the Python venv): run scripts/setup-test-deps"]
fn filters_are_counted_and_evaluations_are_for_the_side_to_move() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("fg.csa");
    std::fs::write(&input, FLOODGATE).unwrap();
    let out = dir.path().join("out.hcpe");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "export",
            input.to_str().unwrap(),
            "--to",
            "hcpe",
            "-o",
            out.to_str().unwrap(),
            "--json",
            "--force",
        ];
        args.extend_from_slice(extra);
        let run = kifu(&args);
        assert!(run.status.success(), "{}", text(&run.stderr));
        let doc: Value = serde_json::from_slice(&run.stdout).unwrap();
        doc["summary"].clone()
    };
    let all = run(&[]);
    assert_eq!(all["records_exported"], 2);
    assert_eq!(all["positions_exported"], 5);
    let lines = peer(&["hcpe", out.to_str().unwrap()]);
    let evals: Vec<&str> = lines
        .lines()
        .map(|l| l.split('\t').nth(2).unwrap())
        .collect();
    // 50 for black to move, −120 for white (120 for black), −30 for black, then 40, −60.
    assert_eq!(evals, ["50", "-120", "-30", "40", "-60"]);

    let rated = run(&["--min-rating", "3000"]);
    assert_eq!(rated["records_below_rating"], 1);
    assert_eq!(rated["records_exported"], 1);
    let ended = run(&["--endings", "resign,checkmate"]);
    assert_eq!(ended["records_ending_dropped"], 1);
    let black = run(&["--side", "black", "--min-eval", "0"]);
    assert_eq!(black["positions_other_side"], 2);
    assert_eq!(black["positions_outside_eval"], 1);
    assert_eq!(black["positions_exported"], 2);
    let dedup = run(&["--dedup"]);
    assert_eq!(dedup["positions_duplicate"], 2);
    assert_eq!(dedup["positions_exported"], 3);
}

#[test]
fn invalid_records_are_skipped_or_cut_and_inputs_are_never_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bad.csa");
    // The third move is not legal: the rook cannot pass its own pawn on 2七.
    std::fs::write(
        &input,
        "PI\n+\n+7776FU\n-3334FU\n+2824HI\n-8384FU\n+7675FU\n",
    )
    .unwrap();
    let out = dir.path().join("out.psv");
    let export = |extra: &[&str]| {
        let mut args = vec!["export", input.to_str().unwrap(), "--to", "psv"];
        args.extend_from_slice(extra);
        kifu(&args)
    };
    let skipped = export(&["-o", out.to_str().unwrap(), "--json"]);
    assert_eq!(skipped.status.code(), Some(1), "{}", text(&skipped.stderr));
    let doc: Value = serde_json::from_slice(&skipped.stdout).unwrap();
    assert_eq!(doc["summary"]["records_invalid_skipped"], 1);
    assert!(
        !doc["files"][0]["diagnostics"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert_eq!(std::fs::metadata(&out).unwrap().len(), 0);

    let again = export(&["-o", out.to_str().unwrap()]);
    assert_eq!(
        again.status.code(),
        Some(2),
        "an existing output needs --force"
    );
    let cut = export(&[
        "-o",
        out.to_str().unwrap(),
        "--json",
        "--keep-prefix",
        "--force",
    ]);
    let doc: Value = serde_json::from_slice(&cut.stdout).unwrap();
    assert_eq!(doc["summary"]["records_cut_at_bad_move"], 1);
    let exported = doc["summary"]["positions_exported"].as_u64().unwrap();
    assert!(exported >= 2, "{doc}");
    assert_eq!(std::fs::metadata(&out).unwrap().len(), 40 * exported);

    let over = export(&["-o", input.to_str().unwrap(), "--force"]);
    assert_eq!(over.status.code(), Some(2));
    assert!(text(&over.stderr).contains("is one of the inputs"));
    // The same file under another name: through `..`, a symbolic link, a hard link, and as
    // a file of a directory given as the input.
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let linked = dir.path().join("linked.psv");
    let hard = dir.path().join("hard.psv");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&input, &linked).unwrap();
    std::fs::hard_link(&input, &hard).unwrap();
    let dotted = sub.join("..").join("bad.csa");
    let mut others = vec![dotted, hard];
    if cfg!(unix) {
        others.push(linked);
    }
    for other in &others {
        let over = export(&["-o", other.to_str().unwrap(), "--force"]);
        assert_eq!(over.status.code(), Some(2), "{}", other.display());
        assert!(text(&over.stderr).contains("is one of the inputs"));
    }
    let walked = kifu(&[
        "export",
        dir.path().to_str().unwrap(),
        "--to",
        "psv",
        "-o",
        input.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(walked.status.code(), Some(2));
    assert!(text(&walked.stderr).contains("is one of the inputs"));
    assert!(std::fs::read(&input).unwrap().starts_with(b"PI\n"));
}

/// Cetkaik records (one per season) go to the same Parquet tables as shogi's (a row per ply,
/// the game's own position text before the move and its move text), and DuckDB reads them.
#[test]
#[ignore = "needs duckdb (the Python venv): run scripts/setup-test-deps"]
fn cetkaik_records_export_to_parquet() {
    use kifu_cetkaik::Cetkaik;

    fn moves_of<G: GameRecords>(folder: &str, extension: &str) -> Vec<(String, String)> {
        let mut files = kifu_testkit::corpus::files(folder, extension);
        files.sort();
        let mut out = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let format = G::sniff_format(&text);
            for read in format.records(&text) {
                read.record.walk_main_line(|_, before, mv| {
                    out.push((G::position_text(before), G::move_text(before, mv)));
                });
            }
        }
        out
    }

    for (folder, extension, expected) in [(
        "cetkaik/cerke_online",
        "ckka",
        moves_of::<Cetkaik>("cetkaik/cerke_online", "ckka"),
    )] {
        assert!(!expected.is_empty(), "{folder}: no {extension} moves");
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("tables");
        let input = corpus(folder);
        let run = kifu(&[
            "export",
            input.to_str().unwrap(),
            "--to",
            "parquet",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(run.status.success(), "{folder}: {}", text(&run.stderr));
        let seen: Value = serde_json::from_str(&peer(&["parquet", out.to_str().unwrap()])).unwrap();
        assert_eq!(seen["plies"]["rows"], expected.len(), "{folder}");
        for row in seen["sample"].as_array().unwrap() {
            let (position, mv) = (row[3].as_str().unwrap(), row[4].as_str().unwrap());
            assert!(
                expected.iter().any(|(p, m)| p == position && m == mv),
                "{folder}: the row {row} is no ply kifu replays"
            );
        }
    }
}

/// A filter the output cannot apply is refused, not ignored: hcpe3 keeps whole games, and a
/// table keeps every ply.
#[test]
fn filters_an_output_cannot_apply_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("fg.csa");
    std::fs::write(&input, FLOODGATE).unwrap();
    for (to, option) in [
        ("hcpe3", &["--side", "black"][..]),
        ("hcpe3", &["--min-eval", "-100"][..]),
        ("hcpe3", &["--dedup"][..]),
        ("parquet", &["--dedup"][..]),
    ] {
        let out = dir.path().join(format!("out.{to}"));
        let mut args = vec![
            "export",
            input.to_str().unwrap(),
            "--to",
            to,
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(option);
        let run = kifu(&args);
        assert_eq!(run.status.code(), Some(2), "{to} {option:?}");
        assert!(
            text(&run.stderr).contains("does not apply"),
            "{to} {option:?}: {}",
            text(&run.stderr)
        );
        assert!(!out.exists(), "{to} {option:?} wrote its output");
    }
}

/// One job exports on the calling thread, several on a pool: the same bytes either way, for
/// every training format.
#[test]
fn one_job_and_several_write_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let input = kifu_testkit::corpus::path("shogi/bulk/csa");
    for to in ["hcpe", "hcpe3", "psv"] {
        let mut outputs = Vec::new();
        for jobs in ["1", "2"] {
            let out = dir.path().join(format!("{to}-{jobs}.bin"));
            let run = kifu(&[
                "export",
                input.to_str().unwrap(),
                "--to",
                to,
                "--jobs",
                jobs,
                "-o",
                out.to_str().unwrap(),
            ]);
            assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
            outputs.push(std::fs::read(&out).unwrap());
        }
        assert!(outputs[0].len() > 1000, "{to}");
        assert!(outputs[0] == outputs[1], "{to}");
    }
}
