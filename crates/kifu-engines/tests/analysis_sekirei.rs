//! A record's main line analysed by sekirei at a node budget (the core of issue 31's
//! `kifu analyze`): one answer per position, each best move and PV legal where it is played,
//! scores from Black's side, the record's own move beside it.

use std::time::Duration;

use kifu_engines::analysis::{Budget, analyse_record};
use kifu_engines::process::Engine;
use kifu_shogi::Position;

const RECORD: &str =
    "V2.2\nN+black\nN-white\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0045KA\n%TORYO\n";

#[test]
#[ignore = "needs sekirei: run scripts/setup-test-deps"]
fn sekirei_analyses_every_position_of_a_main_line() {
    let csa = kifu_records::shogi::format_by_name("csa").unwrap();
    let (_, parsed) = kifu_records::read_bytes(RECORD.as_bytes(), csa);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let record = parsed.records.into_iter().next().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let lines = rt.block_on(async {
        let cmd = kifu_testkit::sekirei().display().to_string();
        let options = [("Threads".to_owned(), "1".to_owned())];
        let mut engine = Engine::start(&cmd, &options, false, None).await.unwrap();
        let lines = analyse_record(
            &mut engine,
            &record,
            Budget::Nodes(3000),
            Duration::from_secs(60),
        )
        .await
        .unwrap();
        engine.quit().await;
        lines
    });
    // Five moves: the start and the position after each.
    assert_eq!(lines.len(), 6);
    let mut position = Position::startpos();
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line.ply as usize, i);
        let best = line
            .finding
            .best(&position)
            .expect("a move, not a resignation, this early");
        assert!(position.check_move(best).is_ok(), "ply {i}: {line:?}");
        assert_eq!(
            line.finding.pv_moves(&position).first(),
            Some(&best),
            "ply {i}: the PV starts with the move"
        );
        let mut p = position.clone();
        for mv in line.finding.pv_moves(&position) {
            assert!(p.check_move(mv).is_ok(), "ply {i}: PV {line:?}");
            p.play_unchecked(mv);
        }
        assert!(line.finding.score.is_some(), "ply {i}");
        if let Some(played) = line.played {
            position.play_unchecked(played);
        } else {
            assert_eq!(i, 5);
        }
    }
}
