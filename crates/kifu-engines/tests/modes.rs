//! A round robin and a gauntlet of three engines, played: every pairing meets, colours
//! alternate pair by pair, every record reads back, and the standings and the crosstable —
//! in the summary's JSON and in the text a person reads — add up to the games played. One
//! engine plays an illegal move in every game, so the order of the standings is known.

mod common;

use common::{config, faulty, record_reads_back};
use kifu_engines::ledger::{GameRow, Ledger};
use kifu_engines::runner::{MatchReport, run};
use kifu_engines::schedule::Mode;

fn play(mode: Mode) -> (tempfile::TempDir, MatchReport, Vec<GameRow>) {
    let dir = tempfile::tempdir().unwrap();
    let engines = vec![
        faulty("alpha", &["nodes=10"]),
        faulty("beta", &["nodes=10"]),
        faulty(
            "gamma",
            &["nodes=10", "option.Fault=illegal", "option.FaultMove=2"],
        ),
    ];
    let mut cfg = config(dir.path(), engines, 2);
    cfg.mode = mode;
    cfg.concurrency = 2;
    let rt = tokio::runtime::Runtime::new().unwrap();
    let report = rt
        .block_on(run(&cfg, |_, _, _| {}, std::future::pending()))
        .unwrap();
    let (_, mut rows) = Ledger::open(&dir.path().join("ledger.jsonl")).unwrap();
    // Games finish in any order when two run at once.
    rows.sort_by_key(|r| r.game);
    for row in &rows {
        record_reads_back(&dir.path().join(&row.record));
    }
    (dir, report, rows)
}

fn points(report: &MatchReport, name: &str) -> f64 {
    report.json["engines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .unwrap()["points"]
        .as_f64()
        .unwrap()
}

#[test]
fn a_round_robin_of_three_plays_every_pairing_and_prints_standings_and_a_crosstable() {
    let (_dir, report, rows) = play(Mode::RoundRobin);
    assert_eq!(report.finished, 6);
    assert_eq!(report.json["mode"], "round-robin");
    let mut met: Vec<(String, String)> = rows
        .iter()
        .map(|r| {
            let mut p = [r.black.clone(), r.white.clone()];
            p.sort();
            (p[0].clone(), p[1].clone())
        })
        .collect();
    met.sort();
    met.dedup();
    assert_eq!(met.len(), 3, "every pair of engines met: {met:?}");
    for pair in rows.chunks(2) {
        assert_eq!(
            (&pair[0].black, &pair[0].white),
            (&pair[1].white, &pair[1].black)
        );
    }
    // gamma loses every game by its illegal move.
    for row in rows
        .iter()
        .filter(|r| r.black == "gamma" || r.white == "gamma")
    {
        assert_eq!(row.reason, "illegal-move", "{row:?}");
        assert_eq!(row.score_of("gamma"), Some(0.0));
    }
    assert_eq!(points(&report, "gamma"), 0.0);
    assert_eq!(
        points(&report, "alpha") + points(&report, "beta") + 0.0,
        6.0
    );
    let table = report.json["crosstable"].as_array().unwrap();
    assert_eq!(table.len(), 3);
    // alpha's and beta's rows: 2 points each against gamma (row, column in the engines' order).
    assert_eq!(table[0][2], 2.0);
    assert_eq!(table[1][2], 2.0);
    assert_eq!(table[2][0], 0.0);
    assert_eq!(
        table[0][1].as_f64().unwrap() + table[1][0].as_f64().unwrap(),
        2.0
    );
    let standings: Vec<&str> = report.json["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(standings.last(), Some(&"gamma"));
    assert_eq!(standings.len(), 3);
    let text = report.standings.to_text(None);
    let header = text
        .lines()
        .find(|l| l.trim_end().ends_with("total"))
        .unwrap_or_else(|| panic!("a crosstable in\n{text}"));
    assert!(header.contains("gamma"), "{text}");
    let gamma_row = text.lines().find(|l| l.starts_with("gamma ")).unwrap();
    assert!(gamma_row.trim_end().ends_with(" 0"), "{text}");
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_each_of_the_others_only() {
    let (_dir, report, rows) = play(Mode::Gauntlet);
    assert_eq!(report.finished, 4);
    assert_eq!(report.json["mode"], "gauntlet");
    assert!(
        rows.iter()
            .all(|r| r.black == "alpha" || r.white == "alpha")
    );
    assert_eq!(
        rows.iter()
            .filter(|r| r.black == "beta" || r.white == "beta")
            .count(),
        2
    );
    assert_eq!(
        rows.iter()
            .filter(|r| r.black == "gamma" || r.white == "gamma")
            .count(),
        2
    );
    let pairings = report.json["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 2);
    assert_eq!(pairings[1]["engines"][1], "gamma");
    assert_eq!(pairings[1]["wins"], 2, "alpha won both games against gamma");
    assert_eq!(points(&report, "gamma"), 0.0);
}
