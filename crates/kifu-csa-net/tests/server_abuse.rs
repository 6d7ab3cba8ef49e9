//! What others can do to a player from outside its game, on real sockets from several
//! loopback addresses (127.0.0.0/8): fill the server with idle connections, flood the chat,
//! reject a game, log in without ever playing; and the interop points a shogi-server
//! client relies on.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use tokio::io::AsyncWriteExt;
use tokio::net::TcpSocket;

mod support;
use support::{Client, config, start, start_game};

/// A connection from `from` (any 127.x.y.z address), as a client elsewhere would come.
async fn connect_from(from: &str, addr: SocketAddr) -> std::io::Result<Client> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(format!("{from}:0").parse().unwrap())?;
    Ok(Client::from(socket.connect(addr).await?))
}

async fn x1_login(c: &mut Client, name: &str, pw: &str) {
    c.send(&format!("LOGIN {name} {pw} x1")).await;
    assert_eq!(
        c.lines(2).await,
        [format!("LOGIN:{name} OK"), "##[LOGIN] +OK x1".into()]
    );
}

fn log_text(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("server.log")).unwrap_or_default()
}

/// `n` x1 players, each from its own address `<net>.<i + 1>`, logged in as `<name><i>` and
/// sending `%%CHAT <message>` every `pause_ms` for `during`; each task ends with how many
/// lines it sent and its connection.
fn chatters(
    addr: SocketAddr,
    n: usize,
    net: &str,
    name: &str,
    message: &str,
    during: Duration,
    pause_ms: u64,
) -> Vec<tokio::task::JoinHandle<(u32, Client)>> {
    let line = format!("%%CHAT {message}\n");
    (0..n)
        .map(|i| {
            let (from, name, line) = (
                format!("{net}.{}", i + 1),
                format!("{name}{i}"),
                line.clone(),
            );
            tokio::spawn(async move {
                let mut c = connect_from(&from, addr).await.unwrap();
                x1_login(&mut c, &name, "pw").await;
                let until = Instant::now() + during;
                let mut sent = 0u32;
                while Instant::now() < until {
                    if c.wr.write_all(line.as_bytes()).await.is_err() {
                        break;
                    }
                    sent += 1;
                    tokio::time::sleep(Duration::from_millis(pause_ms)).await;
                }
                (sent, c)
            })
        })
        .collect()
}

/// Two x1 players paired for `game` (Black, White); the summaries are read.
async fn x1_pair(addr: SocketAddr, game: &str, names: [&str; 2]) -> (Client, Client) {
    let mut black = Client::connect(addr).await;
    let mut white = Client::connect(addr).await;
    x1_login(&mut black, names[0], "pw").await;
    x1_login(&mut white, names[1], "pw").await;
    black.send(&format!("%%GAME {game} +")).await;
    white.send(&format!("%%GAME {game} -")).await;
    black.until("END Game_Summary").await;
    white.until("END Game_Summary").await;
    (black, white)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_from_25_addresses_leave_room_for_players_and_are_told_why() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(Some(dir.path()));
    cfg.max_connections = 600;
    cfg.max_unauthenticated = 100;
    cfg.max_unauthenticated_per_ip = 20;
    let addr = start(cfg).await;
    // A game in progress before the flood.
    let mut b = Client::connect(addr).await;
    let mut w = Client::connect(addr).await;
    start_game(
        &mut b,
        &mut w,
        "LOGIN bob f-600-10-B",
        "LOGIN wendy f-600-10",
    )
    .await;
    // 25 addresses open 20 idle connections each: 500, five times the share of
    // connections not logged in.
    let mut flood = Vec::new();
    for a in 1..=25 {
        for _ in 0..20 {
            if let Ok(c) = connect_from(&format!("127.0.1.{a}"), addr).await {
                flood.push(c);
            }
        }
    }
    // A 21st from one of them is refused and told why.
    let mut extra = connect_from("127.0.1.1", addr).await.unwrap();
    let told = extra.line().await;
    assert!(
        [
            "##[ERROR] too many connections not logged in from this address",
            "##[ERROR] too many connections are not logged in; try again",
        ]
        .contains(&told.as_str())
            || told.starts_with("##[ERROR] closed to make room"),
        "{told}"
    );
    // Players from elsewhere still connect and log in, with or without a trip, and the
    // game goes on.
    let t = Instant::now();
    for (i, from) in ["127.0.0.1", "127.0.2.1", "127.0.2.2"].iter().enumerate() {
        let mut c = connect_from(from, addr).await.unwrap();
        x1_login(&mut c, &format!("player{i}"), "pw").await;
        let mut d = connect_from(from, addr).await.unwrap();
        d.send(&format!("LOGIN plain{i} wait-600-10")).await;
        assert_eq!(d.line().await, format!("LOGIN:plain{i} OK"));
    }
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    b.send("+7776FU").await;
    // The time is what Black spent since the start, the flood included: any number.
    let relayed = w.line().await;
    assert!(relayed.starts_with("+7776FU,T"), "{relayed}");
    // Flood connections made way for them, each told why before the close.
    let mut evicted = 0;
    for c in flood.iter_mut() {
        let mut byte = [0u8; 1];
        if c.rd.get_ref().try_read(&mut byte).is_ok_and(|n| n > 0) {
            let rest = c.line().await;
            let line = format!("{}{rest}", byte[0] as char);
            assert!(
                line.starts_with("##[ERROR] closed to make room")
                    || line == "##[ERROR] too many connections are not logged in; try again",
                "{line}"
            );
            evicted += 1;
        }
    }
    assert!(evicted >= 400, "{evicted} of {} told", flood.len());
    let log = log_text(dir.path());
    assert!(log.contains("room was needed"), "{log}");
}

/// A client logging in while others chat hears its login answer first: chat fans out to a
/// player only once the answer is queued (the chat-flood test below
/// once failed in CI with a login answer it did not expect; the window is microseconds, so
/// this test guards the order rather than reliably showing the race).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_x1_login_is_answered_before_any_chat_reaches_it() {
    let addr = start(config(None)).await;
    let chatters = chatters(
        addr,
        4,
        "127.0.4",
        "talker",
        "hi",
        Duration::from_secs(2),
        1,
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    for i in 0..60 {
        let mut c = connect_from(&format!("127.0.5.{}", i + 1), addr)
            .await
            .unwrap();
        x1_login(&mut c, &format!("newcomer{i}"), "pw").await;
    }
    for t in chatters {
        t.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_flood_costs_no_player_its_game_and_drops_chat_with_a_note() {
    let addr = start(config(None)).await;
    // Black does not read while the chat floods (as a one-threaded client thinking);
    // its receive buffer is small, so the kernel holds little for it.
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut black = Client::from(socket.connect(addr).await.unwrap());
    let mut white = Client::connect(addr).await;
    x1_login(&mut black, "sleepy", "pw").await;
    x1_login(&mut white, "awake", "pw").await;
    black.send("%%GAME chat-600-10 +").await;
    white.send("%%GAME chat-600-10 -").await;
    black.until("END Game_Summary").await;
    white.until("END Game_Summary").await;
    black.send("AGREE").await;
    white.send("AGREE").await;
    assert!(black.line().await.starts_with("START:"));
    assert!(white.line().await.starts_with("START:"));
    // 30 chatters from 30 addresses send 8,000-byte lines as fast as they can for 3 s.
    let long = "x".repeat(8_000);
    let chatters = chatters(
        addr,
        30,
        "127.0.3",
        "chatter",
        &long,
        Duration::from_secs(3),
        5,
    );
    let mut refused_chat = 0;
    for t in chatters {
        let (sent, mut c) = t.await.unwrap();
        assert!(sent > 10, "{sent}");
        // A chatter hears that its lines beyond its allowance were not sent.
        c.send("%%VERSION").await;
        loop {
            let line = c.line().await;
            if line.starts_with("##[VERSION]") {
                break;
            }
            if line.starts_with("##[ERROR] chat is limited")
                || line.starts_with("##[ERROR] the server's chat is busy")
            {
                refused_chat += 1;
            }
        }
    }
    assert!(refused_chat > 30 * 5, "{refused_chat}");
    // Black reads again: it is still in its game, and plays. (What it missed, if its
    // queue grew past the share chat may take, is told in a note: see `peer.rs`.)
    black.send("+7776FU").await;
    loop {
        let l = black.line().await;
        if l.starts_with("+7776FU,T") {
            break;
        }
        assert!(l.starts_with("##[CHAT]"), "{l}");
    }
    loop {
        let l = white.line().await;
        if l.starts_with("+7776FU,T") {
            break;
        }
        assert!(l.starts_with("##[CHAT]"), "{l}");
    }
    white.send("%TORYO").await;
    loop {
        let l = black.line().await;
        if l == "#WIN" {
            break;
        }
    }
}

#[tokio::test]
async fn x1_players_go_back_to_the_lobby_after_a_reject_or_the_agree_timeout() {
    let mut cfg = config(None);
    cfg.agree_timeout = Duration::from_secs(1);
    let addr = start(cfg).await;
    let (mut a, mut b) = x1_pair(addr, "rj-600-10", ["alice", "bob"]).await;
    a.send("REJECT").await;
    let reject = a.line().await;
    assert!(
        reject.starts_with("REJECT:") && reject.ends_with(" by alice"),
        "{reject}"
    );
    assert_eq!(b.line().await, reject);
    // Both are still connected, in the lobby, and may ask for a game again.
    for c in [&mut a, &mut b] {
        c.send("%%WHO").await;
        let who = c.until("##[WHO] +OK").await;
        assert!(
            who.contains(&"##[WHO] alice x1 connected".to_owned()),
            "{who:?}"
        );
        assert!(
            who.contains(&"##[WHO] bob x1 connected".to_owned()),
            "{who:?}"
        );
    }
    a.send("%%GAME rj-600-10 +").await;
    b.send("%%GAME rj-600-10 -").await;
    a.until("END Game_Summary").await;
    b.until("END Game_Summary").await;
    // Nobody agrees: the server rejects after the agree timeout, and both stay.
    let reject = a.line().await;
    assert!(reject.ends_with(" by the Server (timed out)"), "{reject}");
    assert_eq!(b.line().await, reject);
    a.send("%%VERSION").await;
    assert!(a.line().await.starts_with("##[VERSION] kifu "));
    b.send("").await;
    assert_eq!(b.line().await, "");
    // A CSA-mode player's connection was for that one game: it is closed after a reject.
    let mut c = Client::connect(addr).await;
    let mut d = Client::connect(addr).await;
    c.send("LOGIN carol csa-600-10-B").await;
    assert_eq!(c.line().await, "LOGIN:carol OK");
    d.send("LOGIN dave csa-600-10").await;
    assert_eq!(d.line().await, "LOGIN:dave OK");
    c.until("END Game_Summary").await;
    d.until("END Game_Summary").await;
    c.send("REJECT").await;
    assert!(c.line().await.ends_with(" by carol"));
    c.closed_within(5).await;
}

#[tokio::test]
async fn logins_that_never_play_leave_no_row_and_a_flood_of_them_is_summed_up_in_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(config(Some(dir.path()))).await;
    // 600 logins at once from 8 addresses, half with a trip, none of which plays.
    let mut logins = Vec::new();
    for i in 0..600 {
        logins.push(tokio::spawn(async move {
            let mut c = connect_from(&format!("127.0.4.{}", i % 8 + 1), addr)
                .await
                .unwrap();
            if i % 2 == 0 {
                x1_login(&mut c, &format!("free{i}"), &format!("trip{i}")).await;
            } else {
                // Each asks for a game of its own: nobody is paired.
                c.send(&format!("LOGIN free{i} nowhere{i}-600-10")).await;
                assert_eq!(c.line().await, format!("LOGIN:free{i} OK"));
            }
            c.send("LOGOUT").await;
            assert_eq!(c.line().await, "LOGOUT:completed");
        }));
    }
    for t in logins {
        t.await.unwrap();
    }
    // A game that is finished gives its two players a row each.
    let mut b = Client::connect(addr).await;
    let mut w = Client::connect(addr).await;
    start_game(
        &mut b,
        &mut w,
        "LOGIN ann rows-600-10-B,ann-pw",
        "LOGIN ben rows-600-10",
    )
    .await;
    b.send("%TORYO").await;
    assert_eq!(w.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
    let store_path = dir.path().join("kifu.sqlite");
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let store = kifu_csa_net::server::store::Store::open(&store_path).unwrap();
        if store.player("ben").unwrap().is_some() {
            break;
        }
        assert!(Instant::now() < until, "ben's row never came");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let store = kifu_csa_net::server::store::Store::open(&store_path).unwrap();
    let rows: Vec<String> = store
        .players()
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows.iter().any(|r| r.starts_with("ann+")), "{rows:?}");
    let log = log_text(dir.path());
    let logged = log.matches("login free").count();
    // The log took a burst of them one by one, then sums the rest up (every 10 s).
    assert!(logged < 600, "every login logged one by one");
}

#[tokio::test]
async fn login_takes_any_white_space_and_a_move_with_a_byte_that_is_not_ascii_is_illegal() {
    let addr = start(config(None)).await;
    let mut b = Client::connect(addr).await;
    let mut w = Client::connect(addr).await;
    // A double space, a TAB, spaces around the line: shogi-server splits on any of them.
    b.send(" LOGIN  carol\tws-600-10-B ").await;
    assert_eq!(b.line().await, "LOGIN:carol OK");
    w.send("LOGIN dave ws-600-10\t").await;
    assert_eq!(w.line().await, "LOGIN:dave OK");
    b.until("END Game_Summary").await;
    w.until("END Game_Summary").await;
    b.send("AGREE").await;
    w.send("AGREE").await;
    assert!(b.line().await.starts_with("START:"));
    assert!(w.line().await.starts_with("START:"));
    b.wr.write_all(b"+77\xff6FU\n").await.unwrap();
    assert_eq!(b.lines(2).await, ["#ILLEGAL_MOVE", "#LOSE"]);
    assert_eq!(w.lines(2).await, ["#ILLEGAL_MOVE", "#WIN"]);
}

/// The time fields of a `Game_Summary`, as `(field, value)` lines.
fn time_block(summary: &[String]) -> Vec<String> {
    let from = summary.iter().position(|l| l == "BEGIN Time").unwrap();
    let to = summary.iter().position(|l| l == "END Time").unwrap();
    summary[from + 1..to].to_vec()
}

/// A stop-watch game (`-2-02`: 2 s, every charge rounded down to whole 2 s) has no byoyomi:
/// its summary says so, and the game is lost once the main time is spent. shogi-server says
/// `Byoyomi:2` (and `Time_Unit:1min`) there; a client trusting that would wait for a
/// byoyomi that never comes.
#[tokio::test]
async fn a_stop_watch_game_announces_no_byoyomi_and_has_none() {
    let addr = start(config(None)).await;
    let mut b = Client::connect(addr).await;
    let mut w = Client::connect(addr).await;
    b.send("LOGIN erin sw-2-02-B").await;
    assert_eq!(b.line().await, "LOGIN:erin OK");
    w.send("LOGIN frank sw-2-02").await;
    assert_eq!(w.line().await, "LOGIN:frank OK");
    let summary = b.until("END Game_Summary").await;
    w.until("END Game_Summary").await;
    let time = time_block(&summary);
    for field in ["Time_Unit:1sec", "Total_Time:2", "Byoyomi:0", "Increment:0"] {
        assert!(time.iter().any(|l| l == field), "{field} in {time:?}");
    }
    b.send("AGREE").await;
    w.send("AGREE").await;
    assert!(b.line().await.starts_with("START:"));
    assert!(w.line().await.starts_with("START:"));
    b.send("+7776FU").await;
    assert_eq!(b.line().await, "+7776FU,T0");
    assert_eq!(w.line().await, "+7776FU,T0");
    // White thinks on: at 2 s its main time is spent and no byoyomi follows.
    assert_eq!(w.lines(2).await, ["#TIME_UP", "#LOSE"]);
    assert_eq!(b.lines(2).await, ["#TIME_UP", "#WIN"]);
}
