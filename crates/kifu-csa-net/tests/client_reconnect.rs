//! The bridge against a scripted server that drops the connection mid-game: the game's
//! record is still saved (ending %CHUDAN), the bridge logs in again and plays the next game.

use std::time::Duration;

use kifu_csa::server_protocol::{GameSummary, TimeRule};
use kifu_csa_net::client::{ClientConfig, ClientError, run_series};
use kifu_shogi::Color;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

async fn scripted_server(listener: TcpListener) -> Vec<String> {
    let mut heard = Vec::new();
    for (round, id) in ["g1", "g2"].into_iter().enumerate() {
        let (stream, _) = listener.accept().await.unwrap();
        let (rd, mut wr) = stream.into_split();
        let mut lines = BufReader::new(rd).lines();
        let mut say = Vec::new();
        let login = lines.next_line().await.unwrap().unwrap();
        heard.push(login);
        say.push("LOGIN:alice OK".to_owned());
        let time = TimeRule {
            total: Some(60),
            byoyomi: 5,
            ..TimeRule::default()
        };
        let summary = GameSummary::new(id, "alice", "bob", time);
        say.extend(summary.for_player(Color::Black).lines());
        wr.write_all((say.join("\n") + "\n").as_bytes())
            .await
            .unwrap();
        heard.push(lines.next_line().await.unwrap().unwrap());
        wr.write_all(format!("START:{id}\n").as_bytes())
            .await
            .unwrap();
        let mv = lines.next_line().await.unwrap().unwrap();
        let plain = mv.split(',').next().unwrap().to_owned();
        heard.push(plain.clone());
        if round == 0 {
            // The connection is lost right after the echo.
            wr.write_all(format!("{plain},T1\n").as_bytes())
                .await
                .unwrap();
            drop(wr);
            drop(lines);
            continue;
        }
        wr.write_all(format!("{plain},T1\n-3334FU,T2\n").as_bytes())
            .await
            .unwrap();
        let mv = lines.next_line().await.unwrap().unwrap();
        let plain = mv.split(',').next().unwrap().to_owned();
        wr.write_all(format!("{plain},T0\n#MAX_MOVES\n#CENSORED\n").as_bytes())
            .await
            .unwrap();
        loop {
            let l = lines.next_line().await.unwrap().unwrap();
            if l == "LOGOUT" {
                heard.push(l);
                wr.write_all(b"LOGOUT:completed\n").await.unwrap();
                break;
            }
        }
    }
    heard
}

#[tokio::test]
async fn a_lost_connection_saves_the_record_and_logs_in_again() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = tokio::spawn(scripted_server(listener));
    let dir = tempfile::tempdir().unwrap();
    let mut config = ClientConfig::new(
        "127.0.0.1",
        port,
        "alice",
        "pw",
        env!("CARGO_BIN_EXE_kifu-usi-random"),
    );
    config.game = Some("g-60-5".to_owned());
    config.records = Some(dir.path().to_owned());
    config.relogin_delay = Duration::from_millis(100);
    config.margin_ms = 100;
    let reports = tokio::time::timeout(Duration::from_secs(30), run_series(&config))
        .await
        .unwrap()
        .unwrap();
    let heard = server.await.unwrap();
    assert_eq!(heard[0], "LOGIN alice g-60-5,pw");
    assert_eq!(heard[1], "AGREE g1");
    assert_eq!(heard[4], "AGREE g2");
    assert_eq!(heard.last().unwrap(), "LOGOUT");
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].game_id, "g2");
    assert_eq!(reports[0].plies, 3);

    let lost = std::fs::read_to_string(dir.path().join("g1.csa")).unwrap();
    let parsed = kifu_records::shogi::csa::read(&lost);
    assert!(!parsed.has_errors(), "{lost}");
    assert!(lost.contains("%CHUDAN"), "{lost}");
    assert!(lost.contains(&heard[2]), "{lost}");
    let done = std::fs::read_to_string(dir.path().join("g2.csa")).unwrap();
    assert!(
        done.contains("%MAX_MOVES") && done.contains("-3334FU"),
        "{done}"
    );
    assert!(done.contains("T2"), "{done}");
}

#[tokio::test]
async fn a_refused_login_is_an_error_without_retries() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = tokio::spawn(async move {
        let mut logins = Vec::new();
        // A second connection within the test's time would be a retry.
        while let Ok(Ok((stream, _))) =
            tokio::time::timeout(Duration::from_millis(1500), listener.accept()).await
        {
            let (rd, mut wr) = stream.into_split();
            let mut lines = BufReader::new(rd).lines();
            logins.push(lines.next_line().await.unwrap().unwrap());
            wr.write_all(b"LOGIN:incorrect\n").await.unwrap();
        }
        logins
    });
    let mut config = ClientConfig::new(
        "127.0.0.1",
        port,
        "alice",
        "wrong",
        env!("CARGO_BIN_EXE_kifu-usi-random"),
    );
    config.x1 = true;
    config.game = Some("g-60-5-W".to_owned());
    config.relogin_delay = Duration::from_millis(100);
    let result = tokio::time::timeout(Duration::from_secs(10), run_series(&config))
        .await
        .unwrap();
    assert!(
        matches!(result, Err(ClientError::LoginIncorrect)),
        "{result:?}"
    );
    assert_eq!(server.await.unwrap(), ["LOGIN alice wrong x1"]);
}
