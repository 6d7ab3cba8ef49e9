//! Keep-alive: a bridge that has said nothing for `keepalive` sends a blank line — while it
//! waits to be paired and while the opponent thinks — and never more often than that.

use std::time::{Duration, Instant};

use kifu_csa::server_protocol::{GameSummary, TimeRule};
use kifu_csa_net::client::{ClientConfig, run_series};
use kifu_shogi::Color;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::TcpListener;
use tokio::net::tcp::OwnedReadHalf;

type Reader = Lines<BufReader<OwnedReadHalf>>;

/// Blank lines received during `quiet` of silence from the server; any other line fails.
async fn pings_during(lines: &mut Reader, quiet: Duration) -> usize {
    let until = Instant::now() + quiet;
    let mut pings = 0;
    while let Ok(line) = tokio::time::timeout_at(until.into(), lines.next_line()).await {
        let line = line.unwrap().unwrap();
        assert_eq!(line, "", "only keep-alives while the server is silent");
        pings += 1;
    }
    pings
}

/// The next line that is not a keep-alive.
async fn next_said(lines: &mut Reader) -> String {
    loop {
        let line = lines.next_line().await.unwrap().unwrap();
        if !line.is_empty() {
            return line;
        }
    }
}

async fn scripted_server(listener: TcpListener) -> (usize, usize) {
    let (stream, _) = listener.accept().await.unwrap();
    let (rd, mut wr) = stream.into_split();
    let mut lines = BufReader::new(rd).lines();
    assert!(next_said(&mut lines).await.starts_with("LOGIN alice"));
    wr.write_all(b"LOGIN:alice OK\n").await.unwrap();
    let waiting = pings_during(&mut lines, Duration::from_millis(1000)).await;

    let time = TimeRule {
        total: Some(0),
        byoyomi: 30,
        ..TimeRule::default()
    };
    let summary = GameSummary::new("k1", "alice", "bob", time).for_player(Color::Black);
    wr.write_all((summary.lines().join("\n") + "\n").as_bytes())
        .await
        .unwrap();
    assert_eq!(next_said(&mut lines).await, "AGREE k1");
    wr.write_all(b"START:k1\n").await.unwrap();
    let mv = next_said(&mut lines).await;
    let mv = mv.split(',').next().unwrap().to_owned();
    wr.write_all(format!("{mv},T0\n").as_bytes()).await.unwrap();
    let in_game = pings_during(&mut lines, Duration::from_millis(1000)).await;
    wr.write_all(b"-3334FU,T1\n").await.unwrap();
    let mv = next_said(&mut lines).await;
    let mv = mv.split(',').next().unwrap().to_owned();
    wr.write_all(format!("{mv},T0\n#MAX_MOVES\n#CENSORED\n").as_bytes())
        .await
        .unwrap();
    assert_eq!(next_said(&mut lines).await, "LOGOUT");
    wr.write_all(b"LOGOUT:completed\n").await.unwrap();
    (waiting, in_game)
}

#[tokio::test]
async fn blank_lines_after_keepalive_of_silence_while_waiting_and_in_game() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = tokio::spawn(scripted_server(listener));
    let mut config = ClientConfig::new(
        "127.0.0.1",
        port,
        "alice",
        "",
        env!("CARGO_BIN_EXE_kifu-usi-random"),
    );
    config.game = Some("k-0-30".to_owned());
    config.keepalive = Duration::from_millis(200);
    let reports = tokio::time::timeout(Duration::from_secs(30), run_series(&config))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(reports[0].plies, 3);
    let (waiting, in_game) = server.await.unwrap();
    // One per 200 ms of silence in each second: 4 or 5, allowing for scheduling.
    for pings in [waiting, in_game] {
        assert!((3..=5).contains(&pings), "{waiting} {in_game}");
    }
}
