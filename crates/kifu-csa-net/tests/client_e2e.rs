//! End to end on 127.0.0.1: our server and two bridges, each driving a real USI engine
//! process, play complete games; every saved record reads back with kifu's CSA reader and
//! the server's and both clients' records tell the same game.

mod support;
use kifu_shogi::ShogiEnding;
use std::path::{Path, PathBuf};
use std::time::Duration;

use kifu_csa::server_protocol::{Reason, Verdict};
use kifu_csa_net::client::{ClientConfig, GameReport, run_series};
use kifu_csa_net::server::{Config, Server};
use kifu_record::{CommentKind, EndingKind, NodeItem};
use kifu_records::shogi::csa;

async fn server(dir: &Path, max_moves: u32) -> u16 {
    let mut config = Config::new("127.0.0.1:0".parse().unwrap());
    config.data = Some(dir.to_owned());
    config.max_moves = max_moves;
    config.logout_grace = Duration::from_secs(2);
    let server = Server::bind(config).await.unwrap();
    let port = server.local_addr().unwrap().port();
    tokio::spawn(server.run());
    port
}

fn config(port: u16, user: &str, game: &str, engine: &str, dir: &Path) -> ClientConfig {
    let mut c = ClientConfig::new("127.0.0.1", port, user, "", engine);
    c.game = Some(game.to_owned());
    c.records = Some(dir.to_owned());
    c.keepalive = Duration::from_millis(300);
    c.relogin_delay = Duration::from_millis(200);
    c.margin_ms = 500;
    c
}

/// One ply of a saved record: the move (USI), its time and its engine comments.
#[derive(Debug, PartialEq)]
struct Ply {
    usi: String,
    time_ms: Option<u64>,
    comments: Vec<String>,
}

/// Reads a record with kifu's CSA reader (no errors allowed): its plies and its ending.
fn read_record(path: &Path) -> (Vec<Ply>, Option<EndingKind<ShogiEnding>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let parsed = csa::read(&text);
    assert!(!parsed.has_errors(), "{text}\n{:?}", parsed.diagnostics);
    let record = &parsed.records[0];
    let mut plies = Vec::new();
    let mut ending = None;
    for id in record.moves.main_line() {
        let node = &record.moves[id];
        match &node.item {
            NodeItem::Move(mv) => plies.push(Ply {
                usi: mv.usi(),
                time_ms: node.time_ms(),
                comments: node
                    .comments()
                    .iter()
                    .filter(|c| c.kind == CommentKind::Engine)
                    .map(|c| c.text.trim().to_owned())
                    .collect(),
            }),
            NodeItem::End(kind) => ending = Some(kind.clone()),
            NodeItem::Start => {}
        }
    }
    (plies, ending)
}

/// The server's record of `game_id`, under its data directory.
/// The server's final record of a game: it follows the result by moments (ending in a
/// provisional `%CHUDAN` until then).
fn server_record(server_dir: &Path, game_id: &str) -> PathBuf {
    let path = support::csa_records(server_dir)
        .into_iter()
        .find(|p| p.file_stem().is_some_and(|s| s == game_id))
        .unwrap_or_else(|| panic!("no server record for {game_id}"));
    for _ in 0..500 {
        if std::fs::read_to_string(&path).is_ok_and(|t| t.contains("$END_TIME:")) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    path
}

async fn play(
    engine: &str,
    games: [&str; 2],
    max_moves: u32,
    n: u32,
    tune: impl Fn(&mut ClientConfig),
) -> (Vec<GameReport>, Vec<GameReport>, PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let port = server(&dir.path().join("server"), max_moves).await;
    let mut a = config(port, "alice", games[0], engine, &dir.path().join("alice"));
    let mut b = config(port, "bob", games[1], engine, &dir.path().join("bob"));
    a.games = n;
    b.games = n;
    // Alice logs in in extended mode and asks with %%GAME; Bob in CSA mode.
    a.x1 = true;
    a.password = "pw".to_owned();
    tune(&mut a);
    tune(&mut b);
    let (ra, rb) = tokio::time::timeout(Duration::from_secs(90), async {
        tokio::join!(run_series(&a), run_series(&b))
    })
    .await
    .expect("the games finish within 90 s");
    let server_dir = dir.path().join("server");
    (ra.unwrap(), rb.unwrap(), server_dir, dir)
}

/// Both players saw the same game with opposite results, and the server's record and both
/// clients' records agree move by move, time by time, on the ending, and on each side's
/// own eval/PV comments.
fn assert_agree(a: &GameReport, b: &GameReport, server_dir: &Path) -> Vec<Ply> {
    assert_eq!(a.game_id, b.game_id);
    assert_ne!(a.color, b.color);
    assert_eq!(a.plies, b.plies);
    assert_eq!(a.reason, b.reason);
    let pair = (a.verdict.unwrap(), b.verdict.unwrap());
    assert!(
        matches!(
            pair,
            (Verdict::Win, Verdict::Lose)
                | (Verdict::Lose, Verdict::Win)
                | (Verdict::Draw, Verdict::Draw)
                | (Verdict::Censored, Verdict::Censored)
        ),
        "{pair:?}"
    );
    let (plies, ending) = read_record(&server_record(server_dir, &a.game_id));
    assert_eq!(plies.len(), a.plies);
    for report in [a, b] {
        let (mine, my_ending) = read_record(report.record.as_ref().unwrap());
        assert_eq!(my_ending, ending, "{}", report.game_id);
        assert_eq!(mine.len(), plies.len());
        for (i, (m, s)) in mine.iter().zip(&plies).enumerate() {
            assert_eq!((&m.usi, m.time_ms), (&s.usi, s.time_ms), "ply {}", i + 1);
            // A client keeps only its own comments; the server has every one it was sent.
            for c in &m.comments {
                assert!(
                    s.comments.contains(c),
                    "ply {}: {c} {:?}",
                    i + 1,
                    s.comments
                );
            }
        }
    }
    plies
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bridges_with_usi_engines_play_a_series_byoyomi_and_fischer() {
    let engine = env!("CARGO_BIN_EXE_kifu-usi-random");
    let (ra, rb, server_dir, _keep) = play(engine, ["e2e-60-1-B", "e2e-60-1"], 60, 2, |_| {}).await;
    assert_eq!((ra.len(), rb.len()), (2, 2));
    for (a, b) in ra.iter().zip(&rb) {
        assert_agree(a, b, &server_dir);
        assert!(a.plies > 0);
    }
    let store = kifu_csa_net::server::store::Store::open(&server_dir.join("kifu.sqlite")).unwrap();
    assert_eq!(store.games().unwrap().len(), 2);

    let (ra, rb, server_dir, _keep) = play(engine, ["fis-30-2F", "fis-30-2F"], 40, 1, |_| {}).await;
    assert_agree(&ra[0], &rb[0], &server_dir);
}

/// The endings a game between two engines may really reach (not a fault of the bridge:
/// no time-up, no illegal move, no interruption).
fn a_real_result(reason: &Option<Reason>) -> bool {
    matches!(
        reason,
        Some(
            Reason::Resign
                | Reason::Jishogi
                | Reason::Sennichite
                | Reason::OuteSennichite
                | Reason::MaxMoves
        )
    )
}

/// The engine, sekirei from crates.io, in a byoyomi and a Fischer game played to
/// their end (mate and resignation, as a rule; 256 plies at most), one thread and a small
/// hash each. Byoyomi: 1 s per move of which 900 ms are kept in hand, so sekirei is told
/// `byoyomi 100`; Alice ponders. Fischer: 10 s + 1 s per move, with the engine told at most 100 ms
/// (`time_cap_ms`), since an increment larger than the moves take makes the clock grow.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs sekirei: run scripts/setup-test-deps"]
async fn sekirei_plays_byoyomi_and_fischer_games_to_their_end() {
    let sekirei = kifu_testkit::sekirei().display().to_string();
    let small = |c: &mut ClientConfig| {
        c.engine_options = vec![
            ("Threads".to_owned(), "1".to_owned()),
            ("USI_Hash".to_owned(), "16".to_owned()),
        ];
    };
    let logs = tempfile::tempdir().unwrap();
    let alice_log = logs.path().join("alice-usi.log");
    let started = std::time::Instant::now();
    let (byoyomi, fischer) = tokio::join!(
        play(&sekirei, ["sek-0-1-B", "sek-0-1"], 256, 1, |c| {
            small(c);
            c.margin_ms = 900;
            // Alice thinks on Bob's time as well.
            if c.user == "alice" {
                c.ponder = true;
                c.usi_log = Some(alice_log.clone());
            }
        }),
        play(&sekirei, ["sekf-10-1F-B", "sekf-10-1F"], 256, 1, |c| {
            small(c);
            c.time_cap_ms = Some(100);
        })
    );
    eprintln!("two sekirei games in {:?}", started.elapsed());
    for (ra, rb, server_dir, _keep) in [byoyomi, fischer] {
        let (a, b) = (&ra[0], &rb[0]);
        eprintln!("{}: {:?} after {} plies", a.game_id, a.reason, a.plies);
        assert!(a_real_result(&a.reason), "{a:?}");
        let plies = assert_agree(a, b, &server_dir);
        assert!(plies.len() >= 10, "{plies:?}");
        // sekirei prints `score` and `pv`: most moves carry a `'** <score> <pv>` comment.
        let commented = plies.iter().filter(|p| !p.comments.is_empty()).count();
        assert!(
            commented * 2 >= plies.len(),
            "{commented} of {}",
            plies.len()
        );
        let first = plies.iter().find_map(|p| p.comments.first()).unwrap();
        let score = first.split_whitespace().next().unwrap();
        assert!(score.parse::<i64>().is_ok(), "{first}");
    }
    // Every `go ponder` ended in `ponderhit` or `stop`, and sekirei predicted Bob's reply
    // at least once.
    let sent: Vec<String> = std::fs::read_to_string(&alice_log)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once(" > ").map(|(_, c)| c.to_owned()))
        .collect();
    let mut hits = 0;
    for (i, line) in sent.iter().enumerate() {
        if line.starts_with("go ponder") {
            let next = sent[i + 1].as_str();
            assert!(matches!(next, "ponderhit" | "stop"), "{next}");
            hits += usize::from(next == "ponderhit");
        }
    }
    assert!(hits > 0, "{sent:#?}");
}
