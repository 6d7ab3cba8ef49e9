//! The engine's own endings through the bridge: `bestmove win` becomes `%KACHI`, `bestmove
//! resign` becomes `%TORYO`, and the saved record ends accordingly. A real engine process
//! (the bundled kifu-usi-random, which declares when the 27-point rule allows and resigns
//! when mated) is given the positions by a scripted server.

use std::time::Duration;

use kifu_csa::server_protocol::{GameSummary, PositionBlock, Reason, TimeRule, Verdict};
use kifu_csa_net::client::{ClientConfig, run_series};
use kifu_shogi::Color;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// Black to move: its king sits in White's camp with ten pieces and 28 points.
const DECLARABLE: &str = "\
P1+HI+HI+KA+KA+KI+KI+KI+KI+GI
P2+GI *  *  * +OU *  *  *  * 
P3 *  *  *  *  *  *  *  *  * 
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7 *  *  *  *  *  *  *  *  * 
P8 *  *  *  *  *  *  *  *  * 
P9 *  *  *  * -OU *  *  *  * 
P+00FU00FU
+";

/// Black to move and mated: a gold on 9h, guarded by a lance on 9a, against a king on 9i.
const MATED: &str = "\
P1-KY *  *  *  *  *  *  * -OU
P2 *  *  *  *  *  *  *  *  * 
P3 *  *  *  *  *  *  *  *  * 
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7 *  *  *  *  *  *  *  *  * 
P8-KI *  *  *  *  *  *  *  * 
P9+OU *  *  *  *  *  *  *  * 
+";

/// Offers one game from `position`; returns the bridge's answer to START.
async fn scripted_server(listener: TcpListener, position: &str, ending: &str) -> String {
    let (stream, _) = listener.accept().await.unwrap();
    let (rd, mut wr) = stream.into_split();
    let mut lines = BufReader::new(rd).lines();
    let mut said = async || loop {
        let l = lines.next_line().await.unwrap().unwrap();
        if !l.is_empty() {
            return l;
        }
    };
    said().await;
    let mut summary = GameSummary::new(
        "end",
        "alice",
        "bob",
        TimeRule {
            total: Some(60),
            byoyomi: 10,
            ..TimeRule::default()
        },
    );
    let block: Vec<String> = position.lines().map(str::to_owned).collect();
    summary.position = PositionBlock::parse(&block).unwrap();
    let mut out = vec!["LOGIN:alice OK".to_owned()];
    out.extend(summary.for_player(Color::Black).lines());
    wr.write_all((out.join("\n") + "\n").as_bytes())
        .await
        .unwrap();
    assert_eq!(said().await, "AGREE end");
    wr.write_all(b"START:end\n").await.unwrap();
    let answer = said().await;
    wr.write_all(ending.as_bytes()).await.unwrap();
    assert_eq!(said().await, "LOGOUT");
    wr.write_all(b"LOGOUT:completed\n").await.unwrap();
    answer
}

async fn play(
    position: &'static str,
    ending: &'static str,
) -> (String, Option<Reason>, Option<Verdict>, String) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = tokio::spawn(scripted_server(listener, position, ending));
    let dir = tempfile::tempdir().unwrap();
    let mut config = ClientConfig::new(
        "127.0.0.1",
        port,
        "alice",
        "",
        env!("CARGO_BIN_EXE_kifu-usi-random"),
    );
    config.game = Some("end-60-10".to_owned());
    config.records = Some(dir.path().to_owned());
    let reports = tokio::time::timeout(Duration::from_secs(20), run_series(&config))
        .await
        .unwrap()
        .unwrap();
    let answer = server.await.unwrap();
    let record = std::fs::read_to_string(reports[0].record.as_ref().unwrap()).unwrap();
    let parsed = kifu_records::shogi::csa::read(&record);
    assert!(!parsed.has_errors(), "{record}");
    (
        answer,
        reports[0].reason.clone(),
        reports[0].verdict,
        record,
    )
}

#[tokio::test]
async fn bestmove_win_is_sent_as_kachi() {
    let (answer, reason, verdict, record) = play(DECLARABLE, "%KACHI\n#JISHOGI\n#WIN\n").await;
    assert_eq!(answer, "%KACHI");
    assert_eq!(
        (reason, verdict),
        (Some(Reason::Jishogi), Some(Verdict::Win))
    );
    assert!(record.trim_end().ends_with("%KACHI"), "{record}");
}

#[tokio::test]
async fn bestmove_resign_is_sent_as_toryo() {
    let (answer, reason, verdict, record) = play(MATED, "%TORYO\n#RESIGN\n#LOSE\n").await;
    assert_eq!(answer, "%TORYO");
    assert_eq!(
        (reason, verdict),
        (Some(Reason::Resign), Some(Verdict::Lose))
    );
    assert!(record.trim_end().ends_with("%TORYO"), "{record}");
}
