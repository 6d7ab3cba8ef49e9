//! A real SIGINT stops a match cleanly, and the same match run again on the same directory
//! finishes the requested games with none lost and none played twice.
//!
//! The signal is sent to this test's own process: the runner's interrupt is tokio's SIGINT
//! handler, as `kifu match`'s is, and the engines live in process groups of their own, so
//! they do not see it. This file holds one test, so no other test shares the process.

mod common;

use std::collections::BTreeSet;

use common::{config, faulty, record_reads_back};
use kifu_engines::ledger::Ledger;
use kifu_engines::runner::run;

#[test]
fn sigint_then_rerun_loses_no_game_and_plays_none_twice() {
    let dir = tempfile::tempdir().unwrap();
    let engines = vec![faulty("a", &["nodes=10"]), faulty("b", &["nodes=10"])];
    let mut cfg = config(dir.path(), engines, 16);
    cfg.concurrency = 2;
    cfg.rules.max_plies = 120;
    let rt = tokio::runtime::Runtime::new().unwrap();
    let pid = std::process::id().to_string();
    let mut sent = false;
    let first = rt
        .block_on(run(
            &cfg,
            |_, done, _| {
                if done >= 3 && !sent {
                    sent = true;
                    let status = std::process::Command::new("kill")
                        .args(["-INT", &pid])
                        .status()
                        .unwrap();
                    assert!(status.success());
                }
            },
            async {
                let _ = tokio::signal::ctrl_c().await;
            },
        ))
        .unwrap();
    assert!(first.interrupted);
    assert!(
        first.finished >= 3 && first.finished < 16,
        "{}",
        first.finished
    );
    let second = rt
        .block_on(run(&cfg, |_, _, _| {}, std::future::pending()))
        .unwrap();
    assert!(!second.interrupted);
    assert_eq!(second.finished, 16);
    assert_eq!(
        first.played_now + second.played_now,
        16,
        "no game played twice"
    );
    let (_, rows) = Ledger::open(&dir.path().join("ledger.jsonl")).unwrap();
    let games: BTreeSet<u64> = rows.iter().map(|r| r.game).collect();
    assert_eq!(rows.len(), 16);
    assert_eq!(games, (1..=16).collect(), "every game once");
    for row in &rows {
        record_reads_back(&dir.path().join(&row.record));
    }
    let csa = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "csa")
        })
        .count();
    assert_eq!(csa, 16, "no record of an abandoned game is left");
}
