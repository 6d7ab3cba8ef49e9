//! End to end on 127.0.0.1: our server and two bridges, each driving a real USI engine
//! process, play complete games; every saved record reads back with kifu's CSA reader.

use std::path::{Path, PathBuf};
use std::time::Duration;

use kifu_csa::server_protocol::Verdict;
use kifu_csa_net::client::{ClientConfig, GameReport, run_series};
use kifu_csa_net::server::{Config, Server};
use kifu_shogi::formats::csa;

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

fn check_record(path: &Path, plies: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let parsed = csa::read(&text);
    assert!(!parsed.has_errors(), "{text}\n{:?}", parsed.diagnostics);
    let record = &parsed.records[0];
    let moves = record
        .moves
        .main_line()
        .filter(|id| matches!(record.moves[*id].item, kifu_record::NodeItem::Move(_)))
        .count();
    assert_eq!(moves, plies, "{text}");
}

async fn play(
    engine: &str,
    games: [&str; 2],
    max_moves: u32,
    n: u32,
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
    let (ra, rb) = tokio::time::timeout(Duration::from_secs(60), async {
        tokio::join!(run_series(&a), run_series(&b))
    })
    .await
    .expect("the games finish within a minute");
    let server_dir = dir.path().join("server");
    (ra.unwrap(), rb.unwrap(), server_dir, dir)
}

fn assert_opposite(a: &GameReport, b: &GameReport) {
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
    check_record(a.record.as_ref().unwrap(), a.plies);
    check_record(b.record.as_ref().unwrap(), b.plies);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bridges_with_usi_engines_play_a_series_byoyomi_and_fischer() {
    let engine = env!("CARGO_BIN_EXE_kifu-usi-random");
    let (ra, rb, server_dir, _keep) = play(engine, ["e2e-60-1-B", "e2e-60-1"], 60, 2).await;
    assert_eq!((ra.len(), rb.len()), (2, 2));
    for (a, b) in ra.iter().zip(&rb) {
        assert_opposite(a, b);
        assert!(a.plies > 0);
    }
    let store = kifu_csa_net::store::Store::open(&server_dir.join("kifu.sqlite")).unwrap();
    assert_eq!(store.games().unwrap().len(), 2);

    let (ra, rb, _, _keep) = play(engine, ["fis-30-2F", "fis-30-2F"], 40, 1).await;
    assert_opposite(&ra[0], &rb[0]);
}

/// The engine, in a byoyomi and a Fischer game: `cargo install sekirei --locked`
/// puts it on PATH.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sekirei_plays_through_the_bridge_when_installed() {
    let found = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("sekirei").is_file()));
    if !found {
        eprintln!(
            "SKIPPED: the USI engine `sekirei` is not on PATH (install it with `cargo install sekirei --locked`)"
        );
        return;
    }
    let (byoyomi, fischer) = tokio::join!(
        play("sekirei", ["sek-20-1-B", "sek-20-1"], 24, 1),
        play("sekirei", ["sekf-10-1F-B", "sekf-10-1F"], 24, 1)
    );
    for (ra, rb, _, _keep) in [byoyomi, fischer] {
        assert_opposite(&ra[0], &rb[0]);
        assert!(ra[0].plies > 0);
    }
}
