//! Logins under attack and at their limits, on real sockets (127.0.0.1, and 127.0.0.2 for
//! an attacker elsewhere): a password flood, a crowd from one address, idle squatters, a
//! re-login over a half-open connection, and logins that name no game.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use kifu_csa_net::server::login_throttle::Limits;
use tokio::net::TcpSocket;

mod support;
use support::{Client, config, start, start_game};

fn log_text(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("server.log")).unwrap_or_default()
}

/// A connection from another loopback address, as an attacker elsewhere would come.
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

/// The player id a login got, read from the log (`login <id> from <address>…`).
fn ids_logged(dir: &Path, name: &str) -> Vec<String> {
    log_text(dir)
        .lines()
        .filter_map(|l| l.split("login ").nth(1)?.split(' ').next())
        .filter(|id| id.split('+').next() == Some(name))
        .map(str::to_owned)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_under_a_players_name_neither_locks_it_out_nor_delays_a_result() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(Some(dir.path()));
    cfg.login_failures = Limits {
        per_address: 4,
        address_refill: Duration::from_secs(600),
        refusal_delay: Duration::from_secs(1),
    };
    let addr = start(cfg).await;
    // Alice plays under a trip.
    let mut a = Client::connect(addr).await;
    x1_login(&mut a, "alice", "alice-pw").await;
    a.send("LOGOUT").await;
    assert_eq!(a.line().await, "LOGOUT:completed");
    let mut b = Client::connect(addr).await;
    let mut c = Client::connect(addr).await;
    start_game(
        &mut b,
        &mut c,
        "LOGIN bob flood-600-10-B,bob-pw",
        "LOGIN carol flood-600-10,carol-pw",
    )
    .await;

    // From another address, 200 connections log in under Alice's, Bob's and Carol's names
    // with trips of their own, or send garbage, over and over.
    let stop = Arc::new(AtomicBool::new(false));
    let tries = Arc::new(AtomicUsize::new(0));
    let mut attackers = Vec::new();
    for i in 0..200 {
        let (stop, tries) = (stop.clone(), tries.clone());
        attackers.push(tokio::spawn(async move {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                let Ok(mut c) = connect_from("127.0.0.2", addr).await else {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                };
                let name = ["alice", "bob", "carol"][(i + n) % 3];
                let line = match (i + n) % 4 {
                    0 => format!("LOGIN {name} flood-600-10,guess-{i}-{n}"),
                    1 => format!("LOGIN {name}"),
                    _ => format!("LOGIN {name} guess-{i}-{n} x1"),
                };
                c.send(&line).await;
                n += 1;
                tries.fetch_add(1, Ordering::Relaxed);
                let _ = tokio::time::timeout(Duration::from_millis(200), c.next_line()).await;
            }
        }));
    }
    let until = Instant::now() + Duration::from_secs(30);
    while tries.load(Ordering::Relaxed) < 400 && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The real Alice gets in at once, under the same player id as before; so does a
    // password-less player from the flood's own address.
    let t = Instant::now();
    let mut a = Client::connect(addr).await;
    x1_login(&mut a, "alice", "alice-pw").await;
    let mut f = connect_from("127.0.0.2", addr).await.unwrap();
    f.send("LOGIN frank other-600-10").await;
    assert_eq!(f.line().await, "LOGIN:frank OK");
    // A result arrives as soon as the game ends.
    b.send("+7776FU").await;
    b.line().await;
    c.line().await;
    c.send("%TORYO").await;
    assert_eq!(b.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
    let all_done = t.elapsed();
    stop.store(true, Ordering::Relaxed);
    for t in attackers {
        t.abort();
    }
    assert!(
        all_done < Duration::from_secs(1),
        "the player, the bystander and the result took {all_done:?}"
    );
    // Her id is the one her trip makes with the key kept in the store, whatever the flood
    // did; the flood's logins under her name were other players.
    let store = kifu_csa_net::server::store::Store::open(&dir.path().join("kifu.sqlite")).unwrap();
    let key = kifu_csa_net::server::identity::TripKey::from_bytes(store.trip_key().unwrap());
    let hers = key.player_id("alice", Some("alice-pw"));
    let ids = ids_logged(dir.path(), "alice");
    assert_eq!(ids[0], hers);
    assert!(ids.len() > 10, "{ids:?}");
    // At most her own second login shares it.
    assert!(
        ids[1..].iter().filter(|id| **id == hers).count() <= 1,
        "{ids:?}"
    );
    let log = log_text(dir.path());
    assert!(
        log.contains("answered after"),
        "the garbage's answers were delayed:\n{log}"
    );
    // A flood of refusals is summed up in the log, not logged line by line.
    let refused = log.matches("login refused from 127.0.0.2").count();
    assert!(refused <= 40, "{refused} refusals logged one by one");
}

#[tokio::test]
async fn refusals_wait_longer_and_longer_and_never_slow_another_login_from_the_address() {
    let mut cfg = config(None);
    let first = Duration::from_millis(400);
    cfg.login_failures = Limits {
        per_address: 2,
        address_refill: Duration::from_secs(600),
        refusal_delay: first,
    };
    let addr = start(cfg).await;
    let refusal = || async {
        let t = Instant::now();
        let mut c = connect_from("127.0.0.2", addr).await.unwrap();
        c.send("GARBAGE").await;
        assert_eq!(c.line().await, "LOGIN:incorrect");
        assert!(c.refused().await.contains("expected LOGIN"));
        t.elapsed()
    };
    // Two refusals are answered at once …
    for _ in 0..2 {
        assert!(refusal().await < first);
    }
    // … the next ones wait, each twice as long as the one before (lower bounds: a loaded
    // machine only makes them later).
    let third = refusal().await;
    assert!(third >= first, "{third:?}");
    // Meanwhile a login from the same address that is not refused is not slowed, with or
    // without a trip.
    for (login, name) in [
        ("LOGIN bob tarpit-60-0", "bob"),
        ("LOGIN carol carol-pw x1", "carol"),
    ] {
        let t = Instant::now();
        let mut c = connect_from("127.0.0.2", addr).await.unwrap();
        c.send(login).await;
        assert_eq!(c.line().await, format!("LOGIN:{name} OK"));
        assert!(t.elapsed() < first, "{:?}", t.elapsed());
    }
    let fourth = refusal().await;
    assert!(fourth >= first * 2, "{fourth:?}");
    // Another address is not held.
    let t = Instant::now();
    let mut other = connect_from("127.0.0.3", addr).await.unwrap();
    other.send("GARBAGE").await;
    assert_eq!(other.line().await, "LOGIN:incorrect");
    assert!(t.elapsed() < first, "{:?}", t.elapsed());
}

#[tokio::test]
async fn three_hundred_logins_from_one_address_in_a_burst_with_the_defaults() {
    let addr = start(config(None)).await;
    let mut clients = Vec::new();
    for _ in 0..300 {
        clients.push(Client::connect(addr).await);
    }
    for (i, c) in clients.iter_mut().enumerate() {
        c.send(&format!("LOGIN league{i} pw x1")).await;
    }
    for (i, c) in clients.iter_mut().enumerate() {
        assert_eq!(c.line().await, format!("LOGIN:league{i} OK"));
        assert_eq!(c.line().await, "##[LOGIN] +OK x1");
    }
}

#[tokio::test]
async fn players_per_address_are_capped_and_the_refused_one_is_told_why() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(Some(dir.path()));
    cfg.max_logged_in_per_ip = 2;
    let addr = start(cfg).await;
    let mut squatters = Vec::new();
    for i in 0..2 {
        let mut c = Client::connect(addr).await;
        x1_login(&mut c, &format!("squat{i}"), "pw").await;
        squatters.push(c);
    }
    let mut third = Client::connect(addr).await;
    third.send("LOGIN late cap-60-0").await;
    assert_eq!(third.line().await, "LOGIN:incorrect");
    assert_eq!(
        third.refused().await,
        "##[ERROR] too many players logged in from this address"
    );
    // Another address still gets in, and a squatter leaving makes room.
    let mut elsewhere = connect_from("127.0.0.2", addr).await.unwrap();
    elsewhere.send("LOGIN remote cap-60-0").await;
    assert_eq!(elsewhere.line().await, "LOGIN:remote OK");
    squatters.pop();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut again = Client::connect(addr).await;
    again.send("LOGIN late cap-60-0").await;
    assert_eq!(again.line().await, "LOGIN:late OK");
}

// The paused clock of tokio: the server's timers run on it and it jumps to the next one when
// every task waits, so the test measures the server's own time, exactly, and never sleeps.
#[tokio::test(start_paused = true)]
async fn silent_players_outside_a_game_are_let_go_after_the_lobby_timeout() {
    let mut cfg = config(None);
    cfg.lobby_timeout = Duration::from_secs(1);
    let addr = start(cfg).await;
    let mut idle = Client::connect(addr).await;
    x1_login(&mut idle, "idle", "pw").await;
    let mut waiting = Client::connect(addr).await;
    waiting.send("LOGIN waiting nobody-60-0").await;
    assert_eq!(waiting.line().await, "LOGIN:waiting OK");
    let mut alive = Client::connect(addr).await;
    x1_login(&mut alive, "alive", "pw").await;
    let t = tokio::time::Instant::now();
    // Keep-alives keep a player in the lobby as long as it likes.
    for _ in 0..6 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        alive.send("").await;
        assert_eq!(alive.line().await, "");
    }
    for c in [&mut idle, &mut waiting] {
        assert_eq!(
            c.refused().await,
            "##[ERROR] closed after 1 s without a line outside a game"
        );
    }
    assert!(t.elapsed() >= Duration::from_secs(1), "{:?}", t.elapsed());
    // A player in a game is not timed out by the lobby's clock.
    let mut b = Client::connect(addr).await;
    let mut w = Client::connect(addr).await;
    start_game(
        &mut b,
        &mut w,
        "LOGIN bp quiet-600-10-B",
        "LOGIN wp quiet-600-10",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    b.send("+7776FU").await;
    assert_eq!(b.line().await, "+7776FU,T1");
    assert_eq!(w.line().await, "+7776FU,T1");
}

// The paused clock of tokio: the server's timers run on it and it jumps to the next one when
// every task waits, so the test measures the server's own time, exactly, and never sleeps.
#[tokio::test(start_paused = true)]
async fn a_re_login_with_the_right_password_replaces_a_half_open_connection() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(config(Some(dir.path()))).await;
    // Alice waits for a game; her machine goes away without a FIN (the socket stays open
    // and unread here, as the server sees a half-open connection).
    let mut old = Client::connect(addr).await;
    old.send("LOGIN alice relog-600-10-B,alice-pw").await;
    assert_eq!(old.line().await, "LOGIN:alice OK");
    // Another trip is another player: it gets in without touching her connection.
    let mut namesake = Client::connect(addr).await;
    namesake.send("LOGIN alice elsewhere-600-10,guess").await;
    assert_eq!(namesake.line().await, "LOGIN:alice OK");
    namesake.send("LOGOUT").await;
    assert_eq!(namesake.line().await, "LOGOUT:completed");
    // She comes back: the new connection gets in, the old one is dropped.
    let t = tokio::time::Instant::now();
    let mut new = Client::connect(addr).await;
    new.send("LOGIN alice relog-600-10-B,alice-pw").await;
    assert_eq!(new.line().await, "LOGIN:alice OK");
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    assert_eq!(
        old.refused().await,
        "##[ERROR] you logged in again on another connection; this one is closed"
    );
    // The game she waited for is the new connection's.
    let mut bob = Client::connect(addr).await;
    start_game(&mut new, &mut bob, "", "LOGIN bob relog-600-10,bob-pw").await;
    // In a game, too: the old connection loses its game as a disconnect.
    let mut again = Client::connect(addr).await;
    again.send("LOGIN alice x1pw-ignored-600-10,alice-pw").await;
    assert_eq!(again.line().await, "LOGIN:alice OK");
    assert_eq!(bob.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
    let log = log_text(dir.path());
    assert!(
        log.contains(" logged in again from 127.0.0.1:") && log.contains("alice+"),
        "{log}"
    );
}

#[tokio::test]
async fn without_a_password_a_name_in_a_game_is_not_taken() {
    let addr = start(config(None)).await;
    let mut b = Client::connect(addr).await;
    let mut w = Client::connect(addr).await;
    start_game(
        &mut b,
        &mut w,
        "LOGIN carol nopw-60-0-B",
        "LOGIN dave nopw-60-0",
    )
    .await;
    let mut other = Client::connect(addr).await;
    other.send("LOGIN carol nopw-60-0").await;
    assert_eq!(other.line().await, "LOGIN:incorrect");
    assert_eq!(
        other.refused().await,
        "##[ERROR] carol is logged in already, and in a game"
    );
    b.send("+7776FU").await;
    assert_eq!(w.line().await, "+7776FU,T0");
}

#[tokio::test]
async fn a_login_that_names_no_game_is_refused_with_the_syntax() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(config(Some(dir.path()))).await;
    for (login, why) in [
        ("LOGIN alice hunter2", "`hunter2` is not a game name"),
        ("LOGIN alice test-600", "`test-600` is not a game name"),
        (
            "LOGIN alice test-600-10-X,pw",
            "`test-600-10-X` is not a game name",
        ),
        (
            "LOGIN alice test-600-10,",
            "the password after `test-600-10,` is empty",
        ),
    ] {
        let mut c = Client::connect(addr).await;
        c.send(login).await;
        assert_eq!(c.line().await, "LOGIN:incorrect", "{login}");
        let told = c.refused().await;
        assert!(told.contains(why), "{login}: {told}");
        assert!(
            told.contains("LOGIN <name> <game>[-B|-W][,<password>]"),
            "{told}"
        );
    }
    assert!(!log_text(dir.path()).contains("hunter2"));
    // The longest game names shogi-server takes still carry a side and a trip.
    for len in [60, 64] {
        let name = format!("{}-1500-60", "g".repeat(len - 8));
        let mut b = Client::connect(addr).await;
        let mut w = Client::connect(addr).await;
        let id = start_game(
            &mut b,
            &mut w,
            &format!("LOGIN long{len}b {name}-B,{}", "t".repeat(32)),
            &format!("LOGIN long{len}w {name}-W,{}", "u".repeat(32)),
        )
        .await;
        assert!(
            id.contains(&format!("+{name}+long{len}b+long{len}w+")),
            "{id}"
        );
    }
}

#[tokio::test]
async fn a_second_login_is_refused_without_echoing_its_password() {
    let addr = start(config(None)).await;
    let mut c = Client::connect(addr).await;
    x1_login(&mut c, "alice", "pw-a").await;
    c.send("LOGIN alice secret-typed-again x1").await;
    let reply = c.line().await;
    assert_eq!(reply, "##[ERROR] you are already logged in");
    assert!(!reply.contains("secret-typed-again"));
}

#[tokio::test]
async fn a_trip_given_first_by_a_stranger_claims_no_name_and_locks_nobody_out() {
    let dir = tempfile::tempdir().unwrap();
    let (addr, server) = support::start_with_handle(config(Some(dir.path()))).await;
    // Alice has only ever played without a trip.
    let mut a = Client::connect(addr).await;
    let mut b = Client::connect(addr).await;
    start_game(
        &mut a,
        &mut b,
        "LOGIN alice sq-600-10-B",
        "LOGIN bob sq-600-10",
    )
    .await;
    a.send("%TORYO").await;
    assert_eq!(b.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
    // A stranger elsewhere logs in under her name with a trip of its own …
    let mut evil = connect_from("127.0.0.2", addr).await.unwrap();
    evil.send("LOGIN alice claim-600-10,evil").await;
    assert_eq!(evil.line().await, "LOGIN:alice OK");
    evil.send("LOGOUT").await;
    assert_eq!(evil.line().await, "LOGOUT:completed");
    // … and Alice still gets in, without a trip and with her own, now and after a restart.
    for _ in 0..2 {
        for login in ["LOGIN alice again-600-10", "LOGIN alice again-600-10,mine"] {
            let mut c = Client::connect(addr).await;
            c.send(login).await;
            assert_eq!(c.line().await, "LOGIN:alice OK", "{login}");
            c.send("LOGOUT").await;
            assert_eq!(c.line().await, "LOGOUT:completed");
        }
    }
    // The first server has written its game's record and row before it goes.
    let until = Instant::now() + Duration::from_secs(15);
    let store_path = dir.path().join("kifu.sqlite");
    while kifu_csa_net::server::store::Store::open(&store_path)
        .unwrap()
        .player("alice")
        .unwrap()
        .is_none()
    {
        assert!(Instant::now() < until, "the first game's row never came");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.abort();
    let _ = server.await;
    let addr = support::start(config(Some(dir.path()))).await;
    for login in ["LOGIN alice again-600-10", "LOGIN alice again-600-10,mine"] {
        let mut c = Client::connect(addr).await;
        c.send(login).await;
        assert_eq!(c.line().await, "LOGIN:alice OK", "{login}");
        c.send("LOGOUT").await;
        assert_eq!(c.line().await, "LOGOUT:completed");
    }
    // Three players showed the name alice: without a trip, with the stranger's and with
    // hers, and her id is the same across the restart (the key is kept with the store).
    let ids: std::collections::BTreeSet<String> =
        ids_logged(dir.path(), "alice").into_iter().collect();
    assert_eq!(ids.len(), 3, "{ids:?}");
    let store = kifu_csa_net::server::store::Store::open(&dir.path().join("kifu.sqlite")).unwrap();
    // Her tally is under her trip-less id, untouched by the stranger.
    assert_eq!(store.player("alice").unwrap().unwrap().losses, 1);
}
