//! A misbehaving engine (the test-only `kifu-usi-faulty`, a real process) loses the game it
//! misbehaves in, with the right result and a saved record, and the match goes on: it is
//! restarted when it died, hung or talked garbage.

mod common;

use common::{config, faulty, record_reads_back};
use kifu_engines::runner::{MatchReport, run};

fn play(
    words: &[&str],
    games: u64,
) -> (
    tempfile::TempDir,
    MatchReport,
    Vec<kifu_engines::ledger::GameRow>,
) {
    let dir = tempfile::tempdir().unwrap();
    let good = faulty("good", &["nodes=1000"]);
    let mut bad_words = vec!["option.FaultMove=3"];
    bad_words.extend_from_slice(words);
    let bad = faulty("bad", &bad_words);
    let cfg = config(dir.path(), vec![good, bad], games);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let report = rt
        .block_on(run(&cfg, |_, _, _| {}, std::future::pending()))
        .unwrap();
    let (_, rows) = kifu_engines::ledger::Ledger::open(&dir.path().join("ledger.jsonl")).unwrap();
    (dir, report, rows)
}

/// Every game ended for `reason` with `bad` losing, its record reads back and ends with
/// `ending`.
fn check(
    dir: &tempfile::TempDir,
    rows: &[kifu_engines::ledger::GameRow],
    reason: &str,
    ending: &str,
) {
    assert!(!rows.is_empty());
    for row in rows {
        assert_eq!(row.reason, reason, "{row:?}");
        assert_eq!(row.score_of("bad"), Some(0.0), "{row:?}");
        assert_eq!(row.score_of("good"), Some(1.0), "{row:?}");
        let text = record_reads_back(&dir.path().join(&row.record));
        assert!(text.contains(ending), "{ending} in\n{text}");
        assert!(
            text.contains("N+") && text.contains("$OPENING:startpos"),
            "{text}"
        );
    }
}

#[test]
fn an_illegal_move_loses_with_the_rule_named() {
    let (dir, report, rows) = play(&["option.Fault=illegal", "nodes=1000"], 4);
    assert_eq!(report.finished, 4);
    check(&dir, &rows, "illegal-move", "%ILLEGAL_MOVE");
    assert!(rows[0].detail.contains("belongs to"), "{}", rows[0].detail);
    assert_eq!(
        report.engines_started, 2,
        "an illegal move does not need a restart"
    );
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    let (dir, report, rows) = play(&["option.Fault=crash", "nodes=1000"], 4);
    assert_eq!(report.finished, 4);
    check(&dir, &rows, "crash", "ILLEGAL_ACTION");
    assert_eq!(
        report.engines_started, 5,
        "one start, then a restart after each of 4 crashes"
    );
}

#[test]
fn a_hang_loses_and_the_engine_is_restarted() {
    let (dir, report, rows) = play(&["option.Fault=hang", "nodes=1000"], 2);
    assert_eq!(report.finished, 2);
    check(&dir, &rows, "no-answer", "%TIME_UP");
    assert_eq!(report.engines_started, 3);
}

#[test]
fn a_garbage_line_loses() {
    let (dir, report, rows) = play(&["option.Fault=garbage", "nodes=1000"], 2);
    assert_eq!(report.finished, 2);
    check(&dir, &rows, "garbage", "ILLEGAL_ACTION");
    assert!(
        rows[0].detail.contains("segmentation fault"),
        "{}",
        rows[0].detail
    );
    assert_eq!(report.engines_started, 3);
}

#[test]
fn a_slow_move_loses_on_time_and_the_engine_plays_on() {
    let (dir, report, rows) = play(&["option.Fault=slow", "option.SlowMs=900", "tc=0+0.2"], 2);
    assert_eq!(report.finished, 2);
    check(&dir, &rows, "time-loss", "%TIME_UP");
    assert!(rows[0].detail.contains("ms"), "{}", rows[0].detail);
    assert_eq!(
        report.engines_started, 2,
        "it answered once stopped: no restart"
    );
}

#[test]
fn a_declaration_without_the_points_loses() {
    let (dir, _, rows) = play(&["option.Fault=declare", "nodes=1000"], 2);
    check(&dir, &rows, "failed-declaration", "%ILLEGAL_MOVE");
    assert!(rows[0].detail.contains("27点法"), "{}", rows[0].detail);
}

#[test]
fn well_behaved_engines_play_to_the_move_limit_and_the_tables_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(
        dir.path(),
        vec![faulty("a", &["nodes=10"]), faulty("b", &["nodes=10"])],
        4,
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let report = rt
        .block_on(run(&cfg, |_, _, _| {}, std::future::pending()))
        .unwrap();
    assert_eq!(report.finished, 4);
    let (_, rows) = kifu_engines::ledger::Ledger::open(&dir.path().join("ledger.jsonl")).unwrap();
    for (i, row) in rows.iter().enumerate() {
        record_reads_back(&dir.path().join(&row.record));
        // Colours alternate pair by pair: a is Black in games 1 and 3.
        assert_eq!(row.black, if i % 2 == 0 { "a" } else { "b" });
    }
    assert!(dir.path().join("games.parquet").is_file());
    assert_eq!(report.json["games"], 4);
    assert_eq!(
        report.json["pairings"][0]["pentanomial"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .sum::<u64>(),
        2
    );
}
