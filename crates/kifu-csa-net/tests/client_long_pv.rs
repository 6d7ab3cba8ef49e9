//! Two bridges whose engines print 60-ply PVs play on 127.0.0.1 against our server: every
//! move line stays within the bridge's bound (the PV cut at a whole move), no game is lost
//! to a long line, and the clients' records carry the times and the time control.

mod support;
use std::path::Path;
use std::time::Duration;

use kifu_csa::server_protocol::Reason;
use kifu_csa_net::client::{ClientConfig, MAX_MOVE_LINE, run_series};
use kifu_csa_net::server::{Config, Server};

async fn server(dir: &Path) -> u16 {
    let mut config = Config::new("127.0.0.1:0".parse().unwrap());
    config.data = Some(dir.to_owned());
    config.max_moves = 30;
    config.logout_grace = Duration::from_secs(2);
    let server = Server::bind(config).await.unwrap();
    let port = server.local_addr().unwrap().port();
    tokio::spawn(server.run());
    port
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engines_with_60_ply_pvs_send_bounded_lines_and_records_carry_times() {
    let dir = tempfile::tempdir().unwrap();
    let port = server(&dir.path().join("server")).await;
    let engine = env!("CARGO_BIN_EXE_kifu-usi-random");
    let config = |user: &str, game: &str| {
        let mut c = ClientConfig::new("127.0.0.1", port, user, "", engine);
        c.game = Some(game.to_owned());
        c.records = Some(dir.path().join(user));
        c.margin_ms = 500;
        c.engine_options = vec![("PvLength".to_owned(), "60".to_owned())];
        c
    };
    let (a, b) = (config("alice", "lpv-60-1-B"), config("bob", "lpv-60-1"));
    let (ra, rb) = tokio::time::timeout(Duration::from_secs(90), async {
        tokio::join!(run_series(&a), run_series(&b))
    })
    .await
    .expect("the game ends within 90 s");
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    // The move limit, not a lost line or a lost clock.
    assert_eq!(ra[0].reason, Some(Reason::MaxMoves), "{ra:?}");
    assert_eq!(rb[0].reason, Some(Reason::MaxMoves), "{rb:?}");

    // The server's record has every comment as it came over the wire.
    let server_records = support::csa_records(&dir.path().join("server"));
    assert_eq!(server_records.len(), 1);
    let mut text = String::new();
    // Real time: the record keeper is a thread of its own that writes as the game goes; this
    // polls its file, with a deadline, and asserts no duration.
    for _ in 0..500 {
        text = std::fs::read_to_string(&server_records[0]).unwrap();
        if text.contains("$END_TIME:") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let comments: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("'** "))
        .collect();
    assert_eq!(comments.len(), 30, "{text}");
    for c in &comments {
        // `+7776FU,'* ` and the comment.
        assert!(11 + c.len() <= MAX_MOVE_LINE, "{} bytes: {c}", 11 + c.len());
    }
    let longest = comments.iter().map(|c| c.split(' ').count() - 1).max();
    assert!(
        longest >= Some(25),
        "PVs cut near the bound: {longest:?} plies"
    );

    for report in [&ra[0], &rb[0]] {
        let text = std::fs::read_to_string(report.record.as_ref().unwrap()).unwrap();
        for key in ["$START_TIME:", "$END_TIME:", "$TIME:60+1+0\n"] {
            assert!(text.contains(key), "{key} in\n{text}");
        }
    }
}
