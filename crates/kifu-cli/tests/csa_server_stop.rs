//! `kifu csa-server` as a process, stopped by signals and killed outright: a graceful stop
//! ends each game as interrupted for both players, in its record, its index row and the
//! log, and exits 0; a second signal exits at once; after kill -9 the record of a game in
//! progress is on disk, valid and interrupted, and a restart cleans what the crash left.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use kifu_csa_net::server::store::Store;
use kifu_record::{EndingKind, NodeItem};

mod csa_server;
use csa_server::{Client, ServerProcess};

/// Starts `kifu csa-server` in `cwd` with `--data data --log server.log`.
fn start_server(cwd: &Path) -> (ServerProcess, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifu"));
    cmd.current_dir(cwd)
        .args(["csa-server", "--port", "0", "--data", "data"])
        .args(["--log", "server.log"]);
    ServerProcess::start(cmd)
}

/// Two players paired, agreed and two moves into `game`; returns them and the Game_ID.
fn game_in_progress(addr: &str, game: &str) -> (Client, Client, String) {
    let mut a = Client::connect(addr);
    a.send(&format!("LOGIN alice {game}-B"));
    assert_eq!(a.line(), "LOGIN:alice OK");
    let mut b = Client::connect(addr);
    b.send(&format!("LOGIN bob {game}"));
    assert_eq!(b.line(), "LOGIN:bob OK");
    a.until("END Game_Summary");
    b.until("END Game_Summary");
    a.send("AGREE");
    b.send("AGREE");
    let start = a.line();
    assert_eq!(b.line(), start);
    let id = start.strip_prefix("START:").unwrap().to_owned();
    for (i, mv) in ["+7776FU", "-3334FU"].iter().enumerate() {
        if i == 0 {
            a.send(mv)
        } else {
            b.send(mv)
        }
        assert_eq!(a.line(), format!("{mv},T0"));
        assert_eq!(b.line(), format!("{mv},T0"));
    }
    (a, b, id)
}

fn record_path(data: &Path, id: &str) -> PathBuf {
    let mut stack = vec![data.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .file_name()
                .is_some_and(|n| n == format!("{id}.csa").as_str())
            {
                return p;
            }
        }
    }
    panic!("no record of {id} under {}", data.display());
}

/// The record reads back without errors, both moves played, ended `%CHUDAN`.
fn assert_interrupted(text: &str) {
    let parsed = kifu_records::shogi::csa::read(text);
    assert!(!parsed.has_errors(), "{text}");
    let moves = &parsed.records[0].moves;
    assert_eq!(
        moves.main_line().count(),
        3,
        "two moves and the ending:\n{text}"
    );
    assert_eq!(
        moves[moves.main_line_end()].item,
        NodeItem::End(EndingKind::Abort),
        "{text}"
    );
    assert!(text.contains("\n%CHUDAN\n"), "{text}");
}

#[test]
fn sigterm_ends_each_game_as_interrupted_for_players_record_index_and_log_then_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, addr) = start_server(dir.path());
    let (mut a, mut b, id) = game_in_progress(&addr, "stop-600-10");
    // A player still in the lobby is let go too.
    let mut waiting = Client::connect(&addr);
    waiting.send("LOGIN carol lonely-600-10");
    assert_eq!(waiting.line(), "LOGIN:carol OK");

    server.signal("TERM");
    assert_eq!(a.line(), "#CHUDAN");
    assert_eq!(b.line(), "#CHUDAN");
    let status = server.exit_within(Duration::from_secs(20));
    assert_eq!(status.code(), Some(0), "{status}");
    // No more connections.
    assert!(TcpStream::connect(&addr).is_err());

    let data = dir.path().join("data");
    let text = std::fs::read_to_string(record_path(&data, &id)).unwrap();
    assert_interrupted(&text);
    assert!(text.contains("$END_TIME:"), "the final record:\n{text}");
    assert!(text.contains("the server was stopped"), "{text}");
    let store = Store::open(&data.join("kifu.sqlite")).unwrap();
    let row = store
        .games()
        .unwrap()
        .into_iter()
        .find(|g| g.id == id)
        .unwrap();
    assert_eq!(
        (row.reason.as_str(), row.winner.as_str(), row.plies),
        ("CHUDAN", "", 2)
    );
    // --data was relative; the index holds where the record really is.
    assert!(Path::new(&row.path).is_absolute(), "{}", row.path);
    assert_eq!(std::fs::read_to_string(&row.path).unwrap(), text);
    let log = std::fs::read_to_string(dir.path().join("server.log")).unwrap();
    assert!(
        log.contains(&format!(
            "game {id} ended: #CHUDAN interrupted after 2 plies"
        )),
        "{log}"
    );
    assert!(log.contains("stopped (1 game(s) interrupted)"), "{log}");
}

#[test]
fn a_second_signal_during_the_graceful_stop_exits_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, addr) = start_server(dir.path());
    let (_a, _b, _id) = game_in_progress(&addr, "twice-600-10");
    // The shell's own kill: both signals leave within microseconds, well inside the
    // graceful stop (which waits at least for the interrupted game's timer task).
    let pid = server.id();
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("kill -TERM {pid} && kill -INT {pid}"))
        .status()
        .unwrap();
    assert!(status.success());
    let status = server.exit_within(Duration::from_secs(5));
    assert_eq!(status.code(), Some(1), "{status}");
}

#[test]
fn after_kill_9_the_game_in_progress_has_a_valid_interrupted_record_and_a_restart_cleans_up() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, addr) = start_server(dir.path());
    let (_a, _b, id) = game_in_progress(&addr, "crash-600-10");
    let data = dir.path().join("data");
    let path = record_path(&data, &id);
    // The record follows the game within moments; wait until it has both moves.
    // Real time: the server is a `kifu csa-server` process of its own, whose clock no test can
    // drive; this polls for what it does, with a deadline, and asserts no duration.
    let until = Instant::now() + Duration::from_secs(10);
    while !std::fs::read_to_string(&path).is_ok_and(|t| t.contains("-3334FU")) {
        assert!(Instant::now() < until, "the record never showed the moves");
        std::thread::sleep(Duration::from_millis(10));
    }
    server.signal("KILL");
    server.exit_within(Duration::from_secs(5));

    let text = std::fs::read_to_string(&path).unwrap();
    assert_interrupted(&text);
    let store = Store::open(&data.join("kifu.sqlite")).unwrap();
    let row = store
        .games()
        .unwrap()
        .into_iter()
        .find(|g| g.id == id)
        .unwrap();
    // The row as the crash left it: the game in progress (no end, no reason) …
    assert_eq!(
        (row.reason.as_str(), row.end_time.as_str()),
        ("", ""),
        "{row:?}"
    );
    drop(store);

    // What a crash in the middle of an atomic write leaves, and an empty reservation.
    let day = path.parent().unwrap();
    let tmp = day.join(".kifu+x+a+b+20000101000000.csa.tmp");
    std::fs::write(&tmp, "V3.0\n+7776FU\n").unwrap();
    let empty = day.join("kifu+y+a+b+20000101000000.csa");
    std::fs::write(&empty, "").unwrap();
    let (_restarted, addr) = start_server(dir.path());
    assert!(TcpStream::connect(&addr).is_ok());
    assert!(!tmp.exists() && !empty.exists());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        text,
        "kept as it was"
    );
    let log = std::fs::read_to_string(dir.path().join("server.log")).unwrap();
    assert!(log.contains("removed 2 stale file(s)"), "{log}");
    // … closed at the restart as interrupted, with the moves its record holds.
    let store = Store::open(&data.join("kifu.sqlite")).unwrap();
    let row = store
        .games()
        .unwrap()
        .into_iter()
        .find(|g| g.id == id)
        .unwrap();
    assert_eq!((row.reason.as_str(), row.plies), ("CHUDAN", 2), "{row:?}");
    assert!(!row.end_time.is_empty());
}
