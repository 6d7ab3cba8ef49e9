//! An engine that dies mid-game: the bridge saves that game's record (`%CHUDAN`), starts
//! the engine again, logs in again and plays the rest of the series on our server.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use kifu_csa_net::client::{ClientConfig, run_series};
use kifu_csa_net::server::{Config, Server};

/// A USI engine that exits at its first `go` the first time it is started, and is the
/// bundled kifu-usi-random from then on.
fn crashing_once(dir: &Path) -> String {
    let script = dir.join("crash-once.sh");
    let marker = dir.join("crashed");
    let text = format!(
        "#!/bin/sh\n\
         if [ -e '{marker}' ]; then exec '{engine}'; fi\n\
         touch '{marker}'\n\
         while read -r line; do\n\
           case \"$line\" in\n\
             usi) echo 'id name crash-once'; echo usiok ;;\n\
             isready) echo readyok ;;\n\
             go*) exit 3 ;;\n\
           esac\n\
         done\n",
        marker = marker.display(),
        engine = env!("CARGO_BIN_EXE_kifu-usi-random"),
    );
    std::fs::write(&script, text).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script.display().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_engine_is_started_again_and_the_series_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Config::new("127.0.0.1:0".parse().unwrap());
    server.data = Some(dir.path().join("server"));
    server.max_moves = 30;
    let server = Server::bind(server).await.unwrap();
    let port = server.local_addr().unwrap().port();
    tokio::spawn(server.run());

    let engine = crashing_once(dir.path());
    let mut alice = ClientConfig::new("127.0.0.1", port, "alice", "", &engine);
    alice.game = Some("crash-60-1-B".to_owned());
    alice.records = Some(dir.path().join("alice"));
    alice.relogin_delay = Duration::from_millis(100);
    alice.usi_log = Some(dir.path().join("alice-usi.log"));
    let mut bob = ClientConfig::new(
        "127.0.0.1",
        port,
        "bob",
        "",
        env!("CARGO_BIN_EXE_kifu-usi-random"),
    );
    bob.game = Some("crash-60-1".to_owned());
    bob.games = 2;
    bob.relogin_delay = Duration::from_millis(100);
    let (a, b) = tokio::time::timeout(Duration::from_secs(30), async {
        tokio::join!(run_series(&alice), run_series(&bob))
    })
    .await
    .expect("both series end");
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(b.len(), 2);
    // Alice's one game is the second: played to the end with the restarted engine.
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].game_id, b[1].game_id);
    assert!(a[0].verdict.is_some() && a[0].plies > 0, "{a:?}");
    let mut records: Vec<String> = std::fs::read_dir(dir.path().join("alice"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    records.sort_by_key(|r| r.contains("%CHUDAN"));
    assert_eq!(records.len(), 2);
    assert!(records[1].contains("%CHUDAN"), "{}", records[1]);
    assert!(records[1].contains(&b[0].game_id), "{}", records[1]);
    let log = std::fs::read_to_string(dir.path().join("alice-usi.log")).unwrap();
    assert!(log.contains("< id name crash-once"), "{log}");
    assert!(log.contains("< id name kifu-usi-random"), "{log}");
}
