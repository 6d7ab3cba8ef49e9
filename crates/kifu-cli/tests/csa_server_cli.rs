//! `kifu csa-server` as a process: two scripted clients play a game to the move limit over
//! 127.0.0.1 and the record it writes reads back with kifu's CSA reader.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

mod csa_server;
use csa_server::{Client, ServerProcess};

/// Every `.csa` file below `dir`.
fn records_under(dir: &Path) -> Vec<PathBuf> {
    let mut records = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "csa") {
                records.push(p);
            }
        }
    }
    records
}

/// The text of the one record below `dir` once it is final. A record is on disk from the
/// game's start, ending in a provisional `%CHUDAN`; the final one replaces it just after the
/// players have their result.
fn final_record(dir: &Path) -> String {
    // Real time: the server is a `kifu csa-server` process of its own, whose clock no test can
    // drive; this polls for what it does, with a deadline, and asserts no duration.
    for _ in 0..500 {
        let records = records_under(dir);
        assert!(records.len() <= 1, "{records:?}");
        if let Some(text) = records
            .first()
            .and_then(|r| std::fs::read_to_string(r).ok())
            && text.contains("$END_TIME:")
        {
            return text;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no final record below {} in 10 s", dir.display());
}

#[test]
fn csa_server_plays_to_the_move_limit_and_writes_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifu"));
    cmd.args(["csa-server", "--port", "0", "--max-moves", "4"])
        .args(["--quiet", "--data"])
        .arg(dir.path());
    let (_server, addr) = ServerProcess::start(cmd);

    let mut a = Client::connect(&addr);
    a.send("LOGIN alice cli-60-5-B");
    assert_eq!(a.line(), "LOGIN:alice OK");
    let mut b = Client::connect(&addr);
    b.send("LOGIN bob cli-60-5");
    assert_eq!(b.line(), "LOGIN:bob OK");
    let summary = a.until("END Game_Summary");
    assert!(summary.contains(&"Max_Moves:4".to_owned()), "{summary:?}");
    assert!(summary.contains(&"Byoyomi:5".to_owned()));
    b.until("END Game_Summary");
    a.send("AGREE");
    b.send("AGREE");
    assert!(a.line().starts_with("START:"));
    assert!(b.line().starts_with("START:"));
    for (i, mv) in ["+7776FU", "-3334FU", "+2726FU", "-8384FU"]
        .iter()
        .enumerate()
    {
        if i % 2 == 0 {
            a.send(mv)
        } else {
            b.send(mv)
        };
        assert_eq!(a.line(), format!("{mv},T0"));
        assert_eq!(b.line(), format!("{mv},T0"));
    }
    assert_eq!([a.line(), a.line()], ["#MAX_MOVES", "#CENSORED"]);
    assert_eq!([b.line(), b.line()], ["#MAX_MOVES", "#CENSORED"]);
    a.send("LOGOUT");
    assert_eq!(a.line(), "LOGOUT:completed");
    b.send("LOGOUT");
    assert_eq!(b.line(), "LOGOUT:completed");

    // The record follows the result lines.
    let text = final_record(dir.path());
    let parsed = kifu_records::shogi::csa::read(&text);
    assert!(!parsed.has_errors(), "{text}");
    assert!(text.contains("%MAX_MOVES"), "{text}");
    assert!(dir.path().join("kifu.sqlite").exists());
}

#[test]
fn csa_server_keeps_player_ids_a_closed_list_and_a_log_without_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let players = dir.path().join("players.txt");
    std::fs::write(&players, "# the entrants\nalice\nbob  # late entry\n").unwrap();
    let log = dir.path().join("server.log");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifu"));
    cmd.args(["csa-server", "--port", "0", "--max-moves", "2", "--data"])
        .arg(dir.path().join("data"))
        .arg("--players")
        .arg(&players)
        .arg("--log")
        .arg(&log)
        .args(["--csa-version", "2.2"]);
    let (_server, addr) = ServerProcess::start(cmd);

    let mut a = Client::connect(&addr);
    a.send("LOGIN alice pw-a-1 x1");
    assert_eq!([a.line(), a.line()], ["LOGIN:alice OK", "##[LOGIN] +OK x1"]);
    let mut m = Client::connect(&addr);
    m.send("LOGIN mallory pw-m-1 x1");
    assert_eq!(m.line(), "LOGIN:incorrect");
    let mut b = Client::connect(&addr);
    b.send("LOGIN bob pw-b-1 x1");
    assert_eq!([b.line(), b.line()], ["LOGIN:bob OK", "##[LOGIN] +OK x1"]);
    a.send("%%GAME cli-60-0 +");
    b.send("%%GAME cli-60-0 -");
    a.until("END Game_Summary");
    b.until("END Game_Summary");
    a.send("AGREE");
    b.send("AGREE");
    assert!(a.line().starts_with("START:"));
    assert!(b.line().starts_with("START:"));
    a.send("+7776FU");
    b.send("-3334FU");
    assert_eq!(
        [a.line(), a.line(), a.line(), a.line()],
        ["+7776FU,T0", "-3334FU,T0", "#MAX_MOVES", "#CENSORED"]
    );
    a.send("LOGOUT");
    assert_eq!(a.line(), "LOGOUT:completed");
    // Another trip under her name is another player (shogi-server's model): it gets in,
    // and nothing it does counts as Alice.
    let mut a2 = Client::connect(&addr);
    a2.send("LOGIN alice pw-wrong x1");
    assert_eq!(
        [a2.line(), a2.line()],
        ["LOGIN:alice OK", "##[LOGIN] +OK x1"]
    );

    let text = std::fs::read_to_string(&log).unwrap();
    let alice_ids: std::collections::BTreeSet<&str> = text
        .lines()
        .filter_map(|l| l.split("login alice+").nth(1)?.split(' ').next())
        .collect();
    assert_eq!(alice_ids.len(), 2, "{text}");
    assert!(text.contains("mallory: not on the players list"), "{text}");
    assert!(
        text.contains("ended: #MAX_MOVES draw after 2 plies"),
        "{text}"
    );
    for secret in ["pw-a-1", "pw-m-1", "pw-b-1", "pw-wrong"] {
        assert!(!text.contains(secret), "{secret} in the log:\n{text}");
    }

    // --csa-version 2.2: the older edition, which has no %MAX_MOVES (kept as a comment).
    let text = final_record(&dir.path().join("data"));
    assert!(text.starts_with("V2.2\n"), "{text}");
    let parsed = kifu_records::shogi::csa::read(&text);
    assert!(!parsed.has_errors(), "{text}");
    assert!(text.contains("+7776FU\nT0\n-3334FU\nT0\n"), "{text}");
}

#[test]
fn csa_server_help_gives_the_login_syntax_the_limits_and_how_it_stops() {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["csa-server", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for want in [
        "LOGIN <name> <game>[-B|-W][,<password>]",
        "LOGIN <name> <password> x1",
        "<id>-<total seconds>-<byoyomi seconds>",
        "--max-players-per-ip",
        "--lobby-timeout",
        "##[ERROR] line too long",
        "SIGTERM or SIGINT stops the server gracefully",
    ] {
        assert!(help.contains(want), "{want} not in\n{help}");
    }
}

/// `GET path` on `web`, the body of the answer (the server answers with a length).
fn http_get(web: &str, path: &str) -> (String, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(web).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {web}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    (head.to_owned(), body.to_owned())
}

#[test]
fn csa_server_with_http_lists_the_game_in_progress_as_json_and_serves_its_live_page() {
    let dir = tempfile::tempdir().unwrap();
    // A port free a moment ago, for the command line as a user writes it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let web = format!("127.0.0.1:{port}");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifu"));
    cmd.args([
        "csa-server",
        "--port",
        "0",
        "--quiet",
        "--http",
        &web,
        "--data",
    ])
    .arg(dir.path());
    let (_server, addr) = ServerProcess::start(cmd);

    let mut a = Client::connect(&addr);
    a.send("LOGIN alice cli-60-5-B");
    assert_eq!(a.line(), "LOGIN:alice OK");
    let mut b = Client::connect(&addr);
    b.send("LOGIN bob cli-60-5");
    assert_eq!(b.line(), "LOGIN:bob OK");
    a.until("END Game_Summary");
    b.until("END Game_Summary");
    a.send("AGREE");
    b.send("AGREE");
    let id = a.line()["START:".len()..].to_owned();
    b.line();
    a.send("+7776FU");
    a.line();
    b.line();

    // Spectators hear of a move after both players (the table sends to the players first),
    // so the players' echo can come back before the feed has the move: ask until it does.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let games = loop {
        let (head, body) = http_get(&web, "/api/games");
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        let games: serde_json::Value = serde_json::from_str(&body).unwrap();
        if games[0]["moves"] != serde_json::json!([]) || std::time::Instant::now() > deadline {
            break games;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let game = &games[0];
    assert_eq!(game["id"], id.as_str());
    assert_eq!(
        (game["black"].as_str(), game["white"].as_str()),
        (Some("alice"), Some("bob"))
    );
    assert_eq!(game["moves"], serde_json::json!(["7g7f"]));
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
    assert_eq!(game["sfen"], sfen);
    let path: String = id
        .bytes()
        .map(|c| match c {
            b'+' => "%2B".to_owned(),
            c => char::from(c).to_string(),
        })
        .collect();
    let (_, page) = http_get(&web, &format!("/games/{path}"));
    assert!(page.contains(&format!("data-sfen=\"{sfen}\"")), "{page}");
}

#[test]
fn csa_server_http_takes_a_bare_port_or_localhost_as_loopback_and_refuses_nonsense() {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["csa-server", "--http", "eight-thousand"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--http"));
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["csa-server", "--http-cors", "https://example.org"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "--http-cors needs --http");
}
