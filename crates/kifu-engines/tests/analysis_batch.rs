//! `kifu analyze`'s batch with a real engine process that misbehaves on request
//! (`kifu-usi-faulty`): every position searched once by one of several engines, a crash,
//! a hang, an illegal `bestmove` or a line of garbage costing only the position being
//! searched (asked again of a fresh engine, else reported), the cache answering a second
//! run without a search, and an interrupted batch going on where it stopped.

use std::time::Duration;

use kifu_engines::analysis::Budget;
use kifu_engines::analysis::batch::{BatchReport, BatchSettings, analyse};
use kifu_engines::analysis::cache::Cache;
use kifu_records::shogi::ShogiRecord;

fn record(moves: &[&str]) -> ShogiRecord {
    let usi = format!("position startpos moves {}\n", moves.join(" "));
    let format = kifu_records::shogi::format_by_name("usi").unwrap();
    let (_, parsed) = kifu_records::read_bytes(usi.as_bytes(), format);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    parsed.records.into_iter().next().unwrap()
}

/// Three games of 6, 4 and 5 moves; the second shares its first three positions with the
/// first (same moves) and the third its start, so 18 positions hold 14 distinct ones.
fn records() -> Vec<ShogiRecord> {
    vec![
        record(&["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e"]),
        record(&["7g7f", "3c3d", "6g6f", "8c8d"]),
        record(&["2g2f", "8c8d", "2f2e", "8d8e", "6i7h"]),
    ]
}

fn settings(options: &[(&str, &str)], jobs: usize) -> BatchSettings {
    BatchSettings {
        command: env!("CARGO_BIN_EXE_kifu-usi-faulty").to_owned(),
        options: options
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
        budget: Budget::Nodes(1000),
        jobs,
        timeout: Duration::from_millis(800),
        variations: false,
    }
}

fn run(settings: &BatchSettings, records: &[ShogiRecord], cache: Option<&Cache>) -> BatchReport {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(analyse(
        settings,
        records,
        cache,
        |_| {},
        std::future::pending(),
    ))
    .unwrap()
}

fn analysed_plies(report: &BatchReport, record: usize) -> Vec<u32> {
    report.records[record]
        .iter()
        .filter(|p| p.finding.is_some())
        .map(|p| p.task.ply)
        .collect()
}

#[test]
fn two_engines_answer_every_position_once_and_shared_positions_are_searched_once() {
    let records = records();
    let report = run(&settings(&[("Score", "35")], 2), &records, None);
    assert!(report.unanalysed.is_empty(), "{:?}", report.unanalysed);
    assert_eq!(report.records.len(), 3);
    assert_eq!(analysed_plies(&report, 0), [0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(report.searched, 14);
    assert_eq!(
        report.shared, 4,
        "three of the second game's, the third's start"
    );
    assert_eq!(report.engines_started, 2);
    assert_eq!(report.engine.name, "kifu-usi-faulty");
    for game in &report.records {
        for p in game {
            let f = p.finding.as_ref().unwrap();
            assert!(p.task.position.parse_usi_move(&f.bestmove).is_ok());
            // The engine says +35 for the side to move: Black's view flips White's.
            let expected = if p.task.ply % 2 == 0 { 35 } else { -35 };
            assert_eq!(
                f.score.map(|s| s.value()),
                Some(expected),
                "ply {}",
                p.task.ply
            );
        }
    }
}

#[test]
fn a_crash_mid_batch_costs_one_retry_and_no_position() {
    let records = records();
    // Each engine process crashes at its third search of a game: the position goes back to
    // the queue, a fresh engine answers it.
    let report = run(
        &settings(&[("Fault", "crash"), ("FaultMove", "3")], 1),
        &records,
        None,
    );
    assert!(report.unanalysed.is_empty(), "{:?}", report.unanalysed);
    assert!(report.retried >= 1);
    assert!(report.engines_started >= 2);
    assert_eq!(report.searched, 14);
}

fn assert_costs_only_ply_two(fault: &str) {
    let records = records();
    let report = run(
        &settings(&[("Fault", fault), ("FaultPly", "2")], 2),
        &records,
        None,
    );
    assert!(!report.interrupted);
    // Every game's position after two moves fails twice (first try, retry) and is
    // reported; everything else is analysed.
    let plies: Vec<(usize, u32)> = report
        .unanalysed
        .iter()
        .map(|u| (u.record, u.ply))
        .collect();
    assert_eq!(
        plies,
        [(0, 2), (1, 2), (2, 2)],
        "{fault}: {:?}",
        report.unanalysed
    );
    assert!(
        report
            .unanalysed
            .iter()
            .all(|u| u.reason.starts_with(match fault {
                "hang" => "timeout",
                "illegal" => "illegal-move",
                "garbage" => "garbage",
                _ => "crash",
            })),
        "{:?}",
        report.unanalysed
    );
    assert_eq!(analysed_plies(&report, 0), [0, 1, 3, 4, 5, 6]);
    assert_eq!(analysed_plies(&report, 2), [0, 1, 3, 4, 5]);
    // The first two games share their position after two moves: searched (and retried) once.
    assert_eq!(report.retried, 2, "{fault}");
}

#[test]
fn a_position_that_crashes_the_engine_twice_is_reported_and_the_rest_completes() {
    assert_costs_only_ply_two("crash");
}

#[test]
fn a_hang_is_cut_off_by_the_timeout_and_reported() {
    assert_costs_only_ply_two("hang");
}

#[test]
fn an_illegal_bestmove_is_not_taken_for_an_answer() {
    assert_costs_only_ply_two("illegal");
}

#[test]
fn a_line_of_garbage_is_not_taken_for_an_answer() {
    assert_costs_only_ply_two("garbage");
}

#[test]
fn a_second_run_is_answered_by_the_cache_without_a_search() {
    let dir = tempfile::tempdir().unwrap();
    let records = records();
    let settings = settings(&[], 2);
    let cache = Cache::open(&dir.path().join("cache.sqlite")).unwrap();
    let first = run(&settings, &records, Some(&cache));
    assert_eq!(first.searched, 14);
    drop(cache);
    let cache = Cache::open(&dir.path().join("cache.sqlite")).unwrap();
    let second = run(&settings, &records, Some(&cache));
    assert_eq!(second.searched, 0, "the engine is asked nothing");
    assert_eq!(second.from_cache, 18);
    for (a, b) in first.records.iter().zip(&second.records) {
        for (x, y) in a.iter().zip(b) {
            assert_eq!(x.finding, y.finding);
        }
    }
    // Another budget is another question.
    let other = BatchSettings {
        budget: Budget::Nodes(2000),
        ..settings
    };
    assert_eq!(run(&other, &records, Some(&cache)).searched, 14);
}

#[test]
fn an_interrupted_batch_goes_on_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let records = records();
    let settings = settings(&[], 1);
    let cache = Cache::open(&dir.path().join("cache.sqlite")).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let mut tx = Some(tx);
    let first = rt
        .block_on(analyse(
            &settings,
            &records,
            Some(&cache),
            |progress| {
                if progress.done == 5
                    && let Some(tx) = tx.take()
                {
                    let _ = tx.send(());
                }
            },
            async {
                let _ = rx.await;
            },
        ))
        .unwrap();
    assert!(first.interrupted);
    assert!(
        first.searched >= 5 && first.searched < 14,
        "{}",
        first.searched
    );
    assert!(first.unanalysed.iter().all(|u| u.reason == "interrupted"));
    assert_eq!(cache.len().unwrap(), first.searched);
    let second = run(&settings, &records, Some(&cache));
    assert!(!second.interrupted);
    assert!(second.unanalysed.is_empty());
    assert_eq!(second.searched, 14 - first.searched);
}

#[test]
fn variations_are_analysed_when_asked_and_left_out_otherwise() {
    let kif = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n";
    let format = kifu_records::shogi::format_by_name("kif").unwrap();
    let (_, parsed) = kifu_records::read_bytes(kif.as_bytes(), format);
    let records = parsed.records;
    let main_only = run(&settings(&[], 2), &records, None);
    assert_eq!(main_only.records[0].len(), 4);
    let with = BatchSettings {
        variations: true,
        ..settings(&[], 2)
    };
    let report = run(&with, &records, None);
    assert_eq!(report.records[0].len(), 6);
    let side: Vec<u32> = report.records[0]
        .iter()
        .filter(|p| !p.task.main_line && p.finding.is_some())
        .map(|p| p.task.ply)
        .collect();
    assert_eq!(side, [2, 3]);
    assert!(report.unanalysed.is_empty());
}
