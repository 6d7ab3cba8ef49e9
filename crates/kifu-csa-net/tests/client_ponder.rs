//! Pondering with the real engine sekirei, against a scripted server that reads the bridge's
//! USI log to learn which reply the engine expects, then plays it once (a ponder hit) and
//! plays something else once (a miss). The test asserts the exact USI command sequence,
//! including the clock the engine is told while pondering: our own clock after our move
//! was charged, which is our clock when the opponent's reply arrives.

use std::path::{Path, PathBuf};
use std::time::Duration;

use kifu_csa::CsaMove;
use kifu_csa::server_protocol::{ClientMessage, GameSummary, TimeRule};
use kifu_csa_net::client::{ClientConfig, run_series};
use kifu_shogi::{Color, Position};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::TcpListener;
use tokio::net::tcp::OwnedReadHalf;

/// The lines of the USI log going to the engine (`> `), without the time stamps.
fn sent_to_engine(log: &Path) -> Vec<String> {
    parse_log(log, '>')
}

fn parse_log(log: &Path, arrow: char) -> Vec<String> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let (_ms, rest) = l.split_once(' ')?;
            let (a, line) = rest.split_once(' ')?;
            (a.starts_with(arrow)).then(|| line.to_owned())
        })
        .collect()
}

/// Waits until the bridge has asked the engine to ponder for the `n`th time, and returns
/// the reply it ponders on (the last move of the `position` before that `go ponder`).
async fn pondered_reply(log: &Path, n: usize) -> String {
    for _ in 0..500 {
        let sent = sent_to_engine(log);
        let gos: Vec<usize> = (0..sent.len())
            .filter(|&i| sent[i].starts_with("go ponder"))
            .collect();
        if let Some(&i) = gos.get(n - 1) {
            return sent[i - 1].rsplit(' ').next().unwrap().to_owned();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no go ponder #{n}: {:?}", sent_to_engine(log));
}

async fn next(lines: &mut Lines<BufReader<OwnedReadHalf>>) -> String {
    lines.next_line().await.unwrap().unwrap()
}

/// Black is the bridge. Charges: our moves T1, T1, T0; the opponent's T1 then T0.
async fn scripted_server(listener: TcpListener, log: PathBuf) -> Vec<String> {
    let (stream, _) = listener.accept().await.unwrap();
    let (rd, mut wr) = stream.into_split();
    let mut lines = BufReader::new(rd).lines();
    let mut heard = vec![next(&mut lines).await];
    let time = TimeRule {
        total: Some(2),
        byoyomi: 1,
        ..TimeRule::default()
    };
    let summary = GameSummary::new("ponder", "alice", "bob", time);
    let mut say = vec!["LOGIN:alice OK".to_owned()];
    say.extend(summary.for_player(Color::Black).lines());
    say.push(String::new());
    wr.write_all(say.join("\n").as_bytes()).await.unwrap();
    heard.push(next(&mut lines).await);
    wr.write_all(b"START:ponder\n").await.unwrap();

    let mut pos = Position::startpos();
    let ours = |pos: &mut Position, line: &str| {
        let ClientMessage::Move { mv, .. } = ClientMessage::parse(line) else {
            panic!("not a move: {line}")
        };
        let m = mv.to_move(pos).unwrap();
        pos.play_unchecked(m);
        mv.to_string()
    };
    for (round, our_t, their_t) in [(1, 1, 1), (2, 1, 0)] {
        let line = next(&mut lines).await;
        let csa = ours(&mut pos, &line);
        heard.push(csa.clone());
        wr.write_all(format!("{csa},T{our_t}\n").as_bytes())
            .await
            .unwrap();
        let expected = pondered_reply(&log, round).await;
        let reply = if round == 1 {
            pos.parse_usi_move(&expected).unwrap()
        } else {
            *pos.legal_moves()
                .iter()
                .find(|m| m.usi() != expected)
                .unwrap()
        };
        let text = CsaMove::from_move(&pos, reply).to_string();
        pos.play_unchecked(reply);
        wr.write_all(format!("{text},T{their_t}\n").as_bytes())
            .await
            .unwrap();
    }
    let line = next(&mut lines).await;
    let csa = ours(&mut pos, &line);
    heard.push(csa.clone());
    wr.write_all(format!("{csa},T0\n").as_bytes())
        .await
        .unwrap();
    // The game ends while the engine ponders on its third expected reply.
    pondered_reply(&log, 3).await;
    wr.write_all(b"#MAX_MOVES\n#CENSORED\n").await.unwrap();
    loop {
        let l = next(&mut lines).await;
        if l == "LOGOUT" {
            heard.push(l);
            wr.write_all(b"LOGOUT:completed\n").await.unwrap();
            break;
        }
    }
    heard
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs sekirei: run scripts/setup-test-deps"]
async fn sekirei_ponders_hits_and_misses_with_the_right_clock() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("usi.log");
    let server = tokio::spawn(scripted_server(listener, log.clone()));
    let sekirei = kifu_testkit::sekirei().display().to_string();
    let mut config = ClientConfig::new("127.0.0.1", port, "alice", "", &sekirei);
    config.game = Some("ponder-2-1".to_owned());
    config.ponder = true;
    config.usi_log = Some(log.clone());
    config.margin_ms = 900;
    config.engine_options = vec![("Threads".to_owned(), "1".to_owned())];
    let reports = tokio::time::timeout(Duration::from_secs(60), run_series(&config))
        .await
        .expect("the game ends within a minute")
        .unwrap();
    let heard = server.await.unwrap();
    assert_eq!(reports[0].plies, 5);
    let our_moves = &heard[2..5];

    let sent = sent_to_engine(&log);
    assert!(sent.contains(&"setoption name USI_Ponder value true".to_owned()));
    let game: Vec<&String> = sent
        .iter()
        .skip_while(|l| *l != "usinewgame")
        .skip(1)
        .collect();
    let start = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    // The moves of each `position` (after the start), and the other commands as sent.
    let shape: Vec<String> = game
        .iter()
        .map(|l| match l.strip_prefix(start) {
            Some(rest) => format!("position{}", rest.trim_start_matches(" moves")),
            None => (*l).clone(),
        })
        .collect();
    let moves: Vec<Vec<&str>> = game
        .iter()
        .filter_map(|l| l.strip_prefix(start))
        .map(|rest| {
            rest.trim_start_matches(" moves")
                .split_whitespace()
                .collect()
        })
        .collect();
    // Our clock: 2 s main time, 1 s byoyomi of which 900 ms are kept in hand. Black is
    // charged 1 s for each of its first two moves, White 1 s then 0 s.
    let expected_shape = [
        "position".to_owned(),
        "go btime 2000 wtime 2000 byoyomi 100".to_owned(),
        format!("position {} {}", moves[1][0], moves[1][1]),
        "go ponder btime 1000 wtime 2000 byoyomi 100".to_owned(),
        "ponderhit".to_owned(),
        format!("position {}", moves[2].join(" ")),
        "go ponder btime 0 wtime 1000 byoyomi 100".to_owned(),
        "stop".to_owned(),
        format!("position {}", moves[3].join(" ")),
        "go btime 0 wtime 1000 byoyomi 100".to_owned(),
        format!("position {}", moves[4].join(" ")),
        "go ponder btime 0 wtime 1000 byoyomi 100".to_owned(),
        "stop".to_owned(),
        "gameover draw".to_owned(),
        "quit".to_owned(),
    ];
    assert_eq!(shape, expected_shape, "{game:#?}");
    // Position 3 is the real game after the hit: the pondered reply was played.
    assert_eq!(moves[2][..2], moves[1][..]);
    assert_eq!(moves[2].len(), 4);
    // The miss: the real reply differs from the pondered one, and the search answered
    // after `stop` was thrown away — the move sent is the one found after the real reply.
    assert_eq!(moves[3][..3], moves[2][..3]);
    assert_ne!(moves[3][3], moves[2][3]);
    let from_engine = parse_log(&log, '<');
    let bestmoves: Vec<&str> = from_engine
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    // go → m1; ponderhit → m2; stop (discarded); go → m3; stop at the end (discarded).
    assert_eq!(bestmoves.len(), 5, "{from_engine:#?}");
    assert_eq!(
        [bestmoves[0], bestmoves[1], bestmoves[3]],
        [moves[1][0], moves[2][2], moves[4][4]]
    );
    let usi = |i: usize, csa: &str| {
        let mut p = Position::startpos();
        for m in &moves[4][..i] {
            let mv = p.parse_usi_move(m).unwrap();
            p.play_unchecked(mv);
        }
        let mv = CsaMove::parse(csa).unwrap().to_move(&p).unwrap();
        mv.usi()
    };
    assert_eq!(usi(0, &our_moves[0]), moves[4][0]);
    assert_eq!(usi(2, &our_moves[1]), moves[4][2]);
    assert_eq!(usi(4, &our_moves[2]), moves[4][4]);
}
