//! Buoy games and forks over real sockets: shogi-server's buoy and fork scenarios (its
//! `test/TC_buoy.rb` and `test/TC_fork.rb`) restated against this server, with its replies.

mod support;

use std::net::SocketAddr;

use support::{Client, config, csa_records, start};

async fn x1(addr: SocketAddr, name: &str) -> Client {
    let mut c = Client::connect(addr).await;
    c.send(&format!("LOGIN {name} secret x1")).await;
    assert_eq!(c.line().await, format!("LOGIN:{name} OK"));
    assert_eq!(c.line().await, "##[LOGIN] +OK x1");
    c
}

async fn ask(c: &mut Client, line: &str, replies: usize) -> Vec<String> {
    c.send(line).await;
    c.lines(replies).await
}

#[tokio::test]
async fn set_count_and_delete_answer_as_shogi_server_does() {
    let addr = start(config(None)).await;
    let mut admin = x1(addr, "admin").await;
    let cases: [(&str, &[&str]); 8] = [
        (
            "%%SETBUOY buoyhoge-1500-0 +7776FU",
            &["##[ERROR] wrong buoy game name: buoyhoge-1500-0"],
        ),
        (
            "%%SETBUOY buoy_hoge-1500-0 +7776FU 0",
            &["##[ERROR] invalid count: 0"],
        ),
        (
            "%%SETBUOY buoy_hoge-1500-0 +7776FU+3334FU",
            &["##[ERROR] wrong moves: +7776FU+3334FU"],
        ),
        (
            "%%SETBUOY buoy_hoge-1500-0 +7776FU-3334FU 2",
            &["##[SETBUOY] +OK"],
        ),
        (
            "%%SETBUOY buoy_hoge-1500-0 +7776FU",
            &["##[ERROR] duplicated buoy game name: buoy_hoge-1500-0"],
        ),
        (
            "%%GETBUOYCOUNT buoy_hoge-1500-0",
            &["##[GETBUOYCOUNT] 2", "##[GETBUOYCOUNT] +OK"],
        ),
        (
            "%%GETBUOYCOUNT buoy_none-1500-0",
            &["##[GETBUOYCOUNT] -1", "##[GETBUOYCOUNT] +OK"],
        ),
        (
            "%%DELETEBUOY buoy_none-1500-0",
            &["##[ERROR] buoy game not found: buoy_none-1500-0"],
        ),
    ];
    for (line, want) in cases {
        assert_eq!(ask(&mut admin, line, want.len()).await, want, "{line}");
    }
    // Only the player who set a buoy may delete it.
    let mut other = x1(addr, "other").await;
    assert_eq!(
        ask(&mut other, "%%DELETEBUOY buoy_hoge-1500-0", 1).await,
        [
            "##[ERROR] you are not allowed to delete a buoy game that you did not set: buoy_hoge-1500-0"
        ]
    );
    assert_eq!(
        ask(&mut admin, "%%DELETEBUOY buoy_hoge-1500-0", 1).await,
        ["##[DELETEBUOY] +OK"]
    );
    assert_eq!(
        ask(&mut admin, "%%GETBUOYCOUNT buoy_hoge-1500-0", 2).await,
        ["##[GETBUOYCOUNT] -1", "##[GETBUOYCOUNT] +OK"]
    );
}

#[tokio::test]
async fn a_buoy_game_waits_for_its_buoy_then_starts_after_its_moves() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(config(Some(dir.path()))).await;
    let game = "buoy_wait-1500-0";
    let mut a = Client::connect(addr).await;
    a.send(&format!("LOGIN pa {game}")).await;
    assert_eq!(a.line().await, "LOGIN:pa OK");
    let mut b = Client::connect(addr).await;
    b.send(&format!("LOGIN pb {game}")).await;
    assert_eq!(b.line().await, "LOGIN:pb OK");
    // Not set yet: both wait (the keep-alive is answered, no summary comes).
    for c in [&mut a, &mut b] {
        c.send("").await;
        assert_eq!(c.line().await, "");
    }
    let mut admin = x1(addr, "admin").await;
    assert_eq!(
        ask(&mut admin, &format!("%%SETBUOY {game} +7776FU-3334FU 1"), 1).await,
        ["##[SETBUOY] +OK"]
    );

    let sa = a.until("END Game_Summary").await;
    let sb = b.until("END Game_Summary").await;
    for s in [&sa, &sb] {
        assert!(s.contains(&"Total_Time:1500".to_owned()), "{s:?}");
        let block: Vec<&String> = s.iter().skip_while(|l| *l != "BEGIN Position").collect();
        assert!(block.iter().any(|l| l.starts_with("+7776FU")), "{s:?}");
        assert!(block.iter().any(|l| l.starts_with("-3334FU")), "{s:?}");
    }
    let black_is_a = sa.contains(&"Your_Turn:+".to_owned());
    let (black, white) = if black_is_a {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    black.send("AGREE").await;
    white.send("AGREE").await;
    assert!(black.line().await.starts_with("START:"));
    assert!(white.line().await.starts_with("START:"));
    black.send("+2726FU").await;
    assert!(white.line().await.starts_with("+2726FU"));
    white.send("%TORYO").await;
    black.until("#WIN").await;
    white.until("#LOSE").await;
    // Its one game taken, the buoy is gone.
    assert_eq!(
        ask(&mut admin, &format!("%%GETBUOYCOUNT {game}"), 2).await,
        ["##[GETBUOYCOUNT] -1", "##[GETBUOYCOUNT] +OK"]
    );
    // The record says it is a buoy game and holds the buoy's moves, then the game's.
    let mut text = String::new();
    for _ in 0..50 {
        if let Some(p) = csa_records(dir.path()).first() {
            text = std::fs::read_to_string(p).unwrap();
            if text.contains("%TORYO") {
                break;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(text.contains("'buoy game starting with 2 moves"), "{text}");
    let moves: Vec<&str> = text
        .lines()
        .filter(|l| l.len() == 7 && (l.starts_with('+') || l.starts_with('-')))
        .collect();
    assert_eq!(moves, ["+7776FU", "-3334FU", "+2726FU"], "{text}");
    let parsed = kifu_records::shogi::csa::read(&text);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
}

#[tokio::test]
async fn fork_makes_a_buoy_of_a_game_in_progress() {
    let addr = start(config(None)).await;
    let (id, mut a, mut b) = {
        let mut a = Client::connect(addr).await;
        a.send("LOGIN fa TestFork-1500-0").await;
        assert_eq!(a.line().await, "LOGIN:fa OK");
        a.send("").await;
        assert_eq!(a.line().await, "");
        let mut b = Client::connect(addr).await;
        b.send("LOGIN fb TestFork-1500-0").await;
        assert_eq!(b.line().await, "LOGIN:fb OK");
        let sa = a.until("END Game_Summary").await;
        b.until("END Game_Summary").await;
        let id = sa
            .iter()
            .find_map(|l| l.strip_prefix("Game_ID:"))
            .unwrap()
            .to_owned();
        (id, a, b)
    };
    // fa logged in first without a wish: Black.
    a.send("AGREE").await;
    b.send("AGREE").await;
    a.line().await;
    b.line().await;
    for (mover, mv) in [(0, "+7776FU"), (1, "-3334FU"), (0, "+2726FU")] {
        let (m, o) = if mover == 0 {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        m.send(mv).await;
        assert!(m.line().await.starts_with(mv));
        assert!(o.line().await.starts_with(mv));
    }

    let mut admin = x1(addr, "admin").await;
    assert_eq!(
        ask(&mut admin, "%%FORK wronggame-900-0 buoy_WrongGame-900-0", 1).await,
        ["##[ERROR] wrong source game name: wronggame-900-0"]
    );
    assert_eq!(
        ask(
            &mut admin,
            &format!("%%FORK {id} buoy_TooShortFork-900-0 0"),
            1
        )
        .await,
        ["##[ERROR] number of moves to fork is out of range: 3."]
    );
    // Without a name: derived from the game's, with all moves but the last.
    assert_eq!(
        ask(&mut admin, &format!("%%FORK {id}"), 3).await,
        [
            "##[FORK]: new buoy game name: buoy_TestFork_2-1500-0",
            "##[FORK] +OK",
            "##[SETBUOY] +OK"
        ]
    );
    // An explicit number of moves (which shogi-server loses; see `x1.rs`).
    assert_eq!(
        ask(
            &mut admin,
            &format!("%%FORK {id} buoy_Explicit-1500-0 1"),
            1
        )
        .await,
        ["##[SETBUOY] +OK"]
    );
    assert_eq!(
        ask(&mut admin, "%%GETBUOYCOUNT buoy_Explicit-1500-0", 2).await,
        ["##[GETBUOYCOUNT] 1", "##[GETBUOYCOUNT] +OK"]
    );

    // The forked buoy's game starts after the source game's first two moves.
    let mut p1 = Client::connect(addr).await;
    p1.send("LOGIN p1 buoy_TestFork_2-1500-0").await;
    assert_eq!(p1.line().await, "LOGIN:p1 OK");
    let mut p2 = Client::connect(addr).await;
    p2.send("LOGIN p2 buoy_TestFork_2-1500-0").await;
    assert_eq!(p2.line().await, "LOGIN:p2 OK");
    let s1 = p1.until("END Game_Summary").await;
    p2.until("END Game_Summary").await;
    assert!(s1.contains(&"Total_Time:1500".to_owned()));
    let block: Vec<&String> = s1.iter().skip_while(|l| *l != "BEGIN Position").collect();
    assert!(
        block.iter().any(|l| l.starts_with("+7776FU"))
            && block.iter().any(|l| l.starts_with("-3334FU"))
    );
    assert!(!block.iter().any(|l| l.starts_with("+2726FU")), "{s1:?}");
}

#[tokio::test]
async fn buoys_outlive_a_restart_with_their_counts_as_shogi_servers_buoy_file_keeps_them() {
    let dir = tempfile::tempdir().unwrap();
    let (addr, server) = support::start_with_handle(config(Some(dir.path()))).await;
    let mut admin = x1(addr, "admin").await;
    for line in [
        "%%SETBUOY buoy_kept-1500-0 +7776FU-3334FU 3",
        "%%SETBUOY buoy_gone-1500-0 +2726FU",
    ] {
        assert_eq!(ask(&mut admin, line, 1).await, ["##[SETBUOY] +OK"]);
    }
    assert_eq!(
        ask(&mut admin, "%%DELETEBUOY buoy_gone-1500-0", 1).await,
        ["##[DELETEBUOY] +OK"]
    );
    // One game of the kept buoy is played (its count goes to 2) …
    let game = "buoy_kept-1500-0";
    let mut a = Client::connect(addr).await;
    a.send(&format!("LOGIN pa {game}")).await;
    assert_eq!(a.line().await, "LOGIN:pa OK");
    let mut b = Client::connect(addr).await;
    b.send(&format!("LOGIN pb {game}")).await;
    assert_eq!(b.line().await, "LOGIN:pb OK");
    a.until("END Game_Summary").await;
    b.until("END Game_Summary").await;
    assert_eq!(
        ask(&mut admin, &format!("%%GETBUOYCOUNT {game}"), 2).await,
        ["##[GETBUOYCOUNT] 2", "##[GETBUOYCOUNT] +OK"]
    );
    drop((a, b, admin));
    server.abort();
    let _ = server.await;
    // … and a new server on the same data directory knows the buoy, its moves and its count,
    // and not the deleted one.
    let addr = start(config(Some(dir.path()))).await;
    let mut admin = x1(addr, "admin").await;
    assert_eq!(
        ask(&mut admin, &format!("%%GETBUOYCOUNT {game}"), 2).await,
        ["##[GETBUOYCOUNT] 2", "##[GETBUOYCOUNT] +OK"]
    );
    assert_eq!(
        ask(&mut admin, "%%GETBUOYCOUNT buoy_gone-1500-0", 2).await,
        ["##[GETBUOYCOUNT] -1", "##[GETBUOYCOUNT] +OK"]
    );
    // Only its owner may still delete it: the owner is kept too.
    let mut other = x1(addr, "other").await;
    assert_eq!(
        ask(&mut other, &format!("%%DELETEBUOY {game}"), 1).await,
        [format!(
            "##[ERROR] you are not allowed to delete a buoy game that you did not set: {game}"
        )]
    );
    let mut a = Client::connect(addr).await;
    a.send(&format!("LOGIN pa {game}")).await;
    assert_eq!(a.line().await, "LOGIN:pa OK");
    let mut b = Client::connect(addr).await;
    b.send(&format!("LOGIN pb {game}")).await;
    assert_eq!(b.line().await, "LOGIN:pb OK");
    let summary = a.until("END Game_Summary").await;
    let block: Vec<&String> = summary
        .iter()
        .skip_while(|l| *l != "BEGIN Position")
        .collect();
    assert!(
        block.iter().any(|l| l.starts_with("-3334FU")),
        "{summary:?}"
    );
}
