//! The server on real sockets (127.0.0.1, ephemeral port) with scripted clients.

use std::net::SocketAddr;
use std::time::Duration;

use kifu_csa_net::server::store::Store;
use kifu_csa_net::server::{Config, Server};
use kifu_records::shogi::csa;

mod support;
use support::Client;

async fn server(dir: &std::path::Path, agree: u64) -> SocketAddr {
    let mut config = Config::new("127.0.0.1:0".parse().unwrap());
    config.data = Some(dir.to_owned());
    config.agree_timeout = Duration::from_secs(agree);
    config.logout_grace = Duration::from_secs(2);
    let server = Server::bind(config).await.unwrap();
    let addr = server.local_addr().unwrap();
    tokio::spawn(server.run());
    addr
}

async fn paired(addr: SocketAddr, game: &str) -> (Client, Client, String) {
    let mut a = Client::connect(addr).await;
    let mut b = Client::connect(addr).await;
    let black = format!("{game}-B");
    let ((id, turn_a), (id_b, turn_b)) = tokio::join!(
        a.login_and_summary("alice", &black),
        b.login_and_summary("bob", game)
    );
    assert_eq!(id, id_b);
    assert_eq!((turn_a.as_str(), turn_b.as_str()), ("+", "-"));
    (a, b, id)
}

#[tokio::test]
async fn a_complete_game_with_record_and_index() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), 30).await;
    let (mut a, mut b, id) = paired(addr, "test-600-10").await;
    assert!(id.starts_with("kifu+test-600-10+alice+bob+"), "{id}");
    a.send(&format!("AGREE {id}")).await;
    b.send("AGREE").await;
    assert_eq!(a.line().await, format!("START:{id}"));
    assert_eq!(b.line().await, format!("START:{id}"));
    a.send("+7776FU").await;
    assert_eq!(a.line().await, "+7776FU,T0");
    assert_eq!(b.line().await, "+7776FU,T0");
    b.send("-3334FU,'* 12 +2726FU").await;
    assert_eq!(b.line().await, "-3334FU,T0");
    assert_eq!(a.line().await, "-3334FU,T0");
    a.send("").await;
    assert_eq!(a.line().await, "");
    a.send("%TORYO").await;
    assert_eq!(a.lines(3).await, ["%TORYO", "#RESIGN", "#LOSE"]);
    assert_eq!(b.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
    a.send("LOGOUT").await;
    assert_eq!(a.line().await, "LOGOUT:completed");
    assert_eq!(a.next_line().await, None);
    // Bob says nothing: the server closes after the grace time.
    assert_eq!(b.next_line().await, None);

    let records = support::csa_records(dir.path());
    assert_eq!(records.len(), 1);
    let text = std::fs::read_to_string(&records[0]).unwrap();
    let parsed = csa::read(&text);
    assert!(!parsed.has_errors(), "{text}");
    assert!(
        text.contains("%TORYO") && text.contains("'** 12 +2726FU"),
        "{text}"
    );
    let store = Store::open(&dir.path().join("kifu.sqlite")).unwrap();
    let games = store.games().unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(
        (games[0].reason.as_str(), games[0].winner.as_str()),
        ("RESIGN", "-")
    );
    assert_eq!(store.player("bob").unwrap().unwrap().wins, 1);
}

// The paused clock of tokio: the server's timers run on it and it jumps to the next one when
// every task waits, so the test measures the server's own time, exactly, and never sleeps.
#[tokio::test(start_paused = true)]
async fn the_timer_ends_a_silent_game() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), 30).await;
    let (mut a, mut b, id) = paired(addr, "fast-0-1").await;
    a.send("AGREE").await;
    b.send("AGREE").await;
    assert_eq!(a.line().await, format!("START:{id}"));
    assert_eq!(b.line().await, format!("START:{id}"));
    let started = tokio::time::Instant::now();
    assert_eq!(a.lines(2).await, ["#TIME_UP", "#LOSE"]);
    assert_eq!(b.lines(2).await, ["#TIME_UP", "#WIN"]);
    let waited = started.elapsed();
    assert!(waited >= Duration::from_secs(1), "{waited:?}");
    assert!(waited < Duration::from_secs(3), "{waited:?}");
}

#[tokio::test]
async fn reject_and_disconnect() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), 30).await;
    let (mut a, mut b, id) = paired(addr, "test-60-0").await;
    b.send(&format!("REJECT {id}")).await;
    a.send("AGREE").await;
    assert_eq!(a.line().await, format!("REJECT:{id} by bob"));
    assert_eq!(b.line().await, format!("REJECT:{id} by bob"));

    let (mut a, b, id) = paired(addr, "test-60-0").await;
    let mut b = b;
    a.send("AGREE").await;
    b.send("AGREE").await;
    assert_eq!(a.line().await, format!("START:{id}"));
    assert_eq!(b.line().await, format!("START:{id}"));
    a.send("+7776FU").await;
    assert_eq!(b.line().await, "+7776FU,T0");
    drop(b);
    assert_eq!(
        a.lines(4).await,
        ["+7776FU,T0", "%TORYO", "#RESIGN", "#WIN"]
    );
}

#[tokio::test]
async fn bad_logins_get_the_protocol_answer() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), 30).await;
    let mut c = Client::connect(addr).await;
    c.send("HELLO").await;
    assert_eq!(c.line().await, "LOGIN:incorrect");
    assert!(c.refused().await.contains("LOGIN <name> <game>"));
    let mut c = Client::connect(addr).await;
    c.send("LOGIN bad/name x-1-1").await;
    assert_eq!(c.line().await, "LOGIN:incorrect");
    // A name already online, with another secret, is another player (shogi-server's
    // player id is the name and the trip): it neither takes the name nor is refused.
    let mut first = Client::connect(addr).await;
    first.send("LOGIN carol lonely-60-0,pw-one").await;
    assert_eq!(first.line().await, "LOGIN:carol OK");
    let mut second = Client::connect(addr).await;
    second.send("LOGIN carol elsewhere-60-0,pw-two").await;
    assert_eq!(second.line().await, "LOGIN:carol OK");
    second.send("LOGOUT").await;
    assert_eq!(second.line().await, "LOGOUT:completed");
    // Oversized garbage does not hurt the waiting player.
    let mut flood = Client::connect(addr).await;
    flood.send(&"X".repeat(100_000)).await;
    assert_eq!(flood.line().await, "LOGIN:incorrect");
    first.send("").await;
    assert_eq!(first.line().await, "");
    first.send("LOGOUT").await;
    assert_eq!(first.line().await, "LOGOUT:completed");
}

#[tokio::test]
async fn an_x1_player_asks_for_games_and_stays_between_them() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), 30).await;
    let mut x = Client::connect(addr).await;
    x.send("LOGIN xavier pw x1").await;
    assert_eq!(x.lines(2).await, ["LOGIN:xavier OK", "##[LOGIN] +OK x1"]);
    x.send("%%VERSION").await;
    assert_eq!(x.line().await, "##[VERSION] kifu 0.1.0");
    assert_eq!(x.line().await, "##[VERSION] +OK");
    x.send("%%GAME nope *").await;
    assert!(
        x.line()
            .await
            .starts_with("##[ERROR] bad game name: nope (a game name is <id>-")
    );
    for round in 0..2 {
        x.send("%%GAME xgame-60-0 -").await;
        let mut plain = Client::connect(addr).await;
        let (id, turn) = plain.login_and_summary("yuki", "xgame-60-0").await;
        assert_eq!(turn, "+");
        let mut summary = Vec::new();
        loop {
            let l = x.line().await;
            summary.push(l.clone());
            if l == "END Game_Summary" {
                break;
            }
        }
        assert!(summary.contains(&"Your_Turn:-".to_owned()), "round {round}");
        x.send("AGREE").await;
        plain.send("AGREE").await;
        assert_eq!(x.line().await, format!("START:{id}"));
        assert_eq!(plain.line().await, format!("START:{id}"));
        plain.send("%TORYO").await;
        assert_eq!(x.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
        assert_eq!(plain.lines(3).await, ["%TORYO", "#RESIGN", "#LOSE"]);
        plain.send("LOGOUT").await;
        assert_eq!(plain.line().await, "LOGOUT:completed");
    }
    // Still connected after two games.
    x.send("").await;
    assert_eq!(x.line().await, "");
    x.send("LOGOUT").await;
    assert_eq!(x.line().await, "LOGOUT:completed");
}

#[tokio::test]
async fn a_handicap_game_starts_with_white_to_move() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), 30).await;
    let mut a = Client::connect(addr).await;
    let mut b = Client::connect(addr).await;
    a.send("LOGIN alice hcbishop_h-60-0-W").await;
    b.send("LOGIN bob hcbishop_h-60-0").await;
    assert_eq!(a.line().await, "LOGIN:alice OK");
    assert_eq!(b.line().await, "LOGIN:bob OK");
    let summary = a.until("END Game_Summary").await;
    assert!(summary.contains(&"To_Move:-".to_owned()), "{summary:?}");
    assert!(summary.contains(&"Your_Turn:-".to_owned()));
    assert!(
        summary.contains(&"P2 * -HI *  *  *  *  *  *  * ".to_owned()),
        "{summary:?}"
    );
    b.until("END Game_Summary").await;
    a.send("AGREE").await;
    b.send("AGREE").await;
    a.line().await;
    b.line().await;
    a.send("-3334FU").await;
    assert_eq!(b.line().await, "-3334FU,T0");
}

/// Two players without a colour wish meet three times: the colours alternate from one game to
/// the next (the earlier login plays Black only the first time), as a series between two
/// engines needs (issue 32).
#[tokio::test]
async fn two_players_without_colour_wishes_alternate_colours() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), 30).await;
    let mut blacks = Vec::new();
    for _ in 0..3 {
        // Alice always logs in and waits first.
        let mut a = Client::connect(addr).await;
        a.send("LOGIN alice series-60-0").await;
        assert_eq!(a.line().await, "LOGIN:alice OK");
        // Her game request is in the lobby before bob's: she asked for nothing more, and
        // an empty line is answered only after the login line has been handled.
        a.send("").await;
        assert_eq!(a.line().await, "");
        let mut b = Client::connect(addr).await;
        b.send("LOGIN bob series-60-0").await;
        assert_eq!(b.line().await, "LOGIN:bob OK");
        let turn = |c: Vec<String>| {
            c.iter()
                .find_map(|l| l.strip_prefix("Your_Turn:").map(str::to_owned))
                .unwrap()
        };
        let summary_a = a.until("END Game_Summary").await;
        let summary_b = b.until("END Game_Summary").await;
        let (ta, tb) = (turn(summary_a), turn(summary_b));
        assert_ne!(ta, tb);
        blacks.push(if ta == "+" { "alice" } else { "bob" });
        a.send("AGREE").await;
        b.send("AGREE").await;
        assert!(a.line().await.starts_with("START:"));
        assert!(b.line().await.starts_with("START:"));
        let (first, second) = if ta == "+" {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        first.send("%TORYO").await;
        assert_eq!(first.lines(3).await, ["%TORYO", "#RESIGN", "#LOSE"]);
        assert_eq!(second.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
        for c in [&mut a, &mut b] {
            c.send("LOGOUT").await;
            assert_eq!(c.line().await, "LOGOUT:completed");
        }
    }
    assert_eq!(blacks, ["alice", "bob", "alice"]);
}
