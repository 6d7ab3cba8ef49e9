//! Logins under attack and at their limits, on real sockets (127.0.0.1, and 127.0.0.2 for
//! an attacker elsewhere): a password flood, a crowd from one address, idle squatters, a
//! re-login over a half-open connection, and logins that name no game.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use kifu_csa_net::server::login_throttle::Limits;
use tokio::io::AsyncReadExt;
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

/// How long the flood tests keep a refused guess waiting (`Limits::refusal_delay`): the
/// yardstick of "not delayed by the flood", since every guess made after the allowances are
/// spent waits at least this long for its answer.
const TARPIT: Duration = Duration::from_secs(4);

fn flood_limits() -> Limits {
    // Smaller allowances than the defaults, so the test reaches them soon, and none comes
    // back while it runs, so every guess after them is throttled.
    Limits {
        per_name: 3,
        name_refill: Duration::from_secs(600),
        per_address: 6,
        address_refill: Duration::from_secs(600),
        refusal_delay: TARPIT,
        refusals_per_second: 200,
    }
}

/// Has the server answered anything on `c` yet? (Without waiting.)
fn answered(c: &mut Client) -> bool {
    let mut byte = [0u8; 1];
    match c.rd.get_ref().try_read(&mut byte) {
        Ok(_) => true,
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_flood_neither_locks_out_the_player_nor_delays_a_result() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(Some(dir.path()));
    cfg.login_failures = flood_limits();
    // Room for the attackers and the witness below: the flood is held in the tarpit, not
    // refused at the door.
    cfg.max_unauthenticated_per_ip = 1024;
    let addr = start(cfg).await;
    // Alice's password is registered before the flood.
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

    // Erin registers too; then 512 attackers guess the passwords of Alice, Bob, Carol and
    // Erin from another address, over and over.
    let mut e = Client::connect(addr).await;
    x1_login(&mut e, "erin", "erin-pw").await;
    drop(e);
    // Someone spends Alice's allowance first.
    for _ in 0..3 {
        let mut g = Client::connect(addr).await;
        g.send("LOGIN alice early-guess x1").await;
        assert_eq!(g.line().await, "LOGIN:incorrect");
        g.refused().await;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let tries = Arc::new(AtomicUsize::new(0));
    let mut attackers = Vec::new();
    let flood_began = Instant::now();
    for i in 0..512 {
        let (stop, tries) = (stop.clone(), tries.clone());
        attackers.push(tokio::spawn(async move {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                let Ok(mut c) = connect_from("127.0.0.2", addr).await else {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                };
                let name = ["alice", "bob", "alice", "carol", "alice", "erin"][(i + n) % 6];
                c.send(&format!("LOGIN {name} guess-{i}-{n} x1")).await;
                n += 1;
                tries.fetch_add(1, Ordering::Relaxed);
                let mut rest = Vec::new();
                let _ = tokio::time::timeout(Duration::from_secs(10), c.rd.read_to_end(&mut rest))
                    .await;
            }
        }));
    }
    // The flood is under way: every attacker has guessed at least once on average, and the
    // address's allowance is spent.
    let until = Instant::now() + Duration::from_secs(30);
    while (tries.load(Ordering::Relaxed) < 512
        || !log_text(dir.path()).contains("too many failed logins from this address"))
        && Instant::now() < until
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // A witness: one more guess at Alice's password, sent now. The allowances are spent,
    // so it waits in the tarpit; everything below must be done before it is answered —
    // what waited behind the flood would wait at least as long as it.
    let mut witness = connect_from("127.0.0.2", addr).await.unwrap();
    witness.send("LOGIN alice witness-guess x1").await;
    let witness_sent = Instant::now();
    // The real Alice gets in; so does a newcomer registering a password.
    let mut a = Client::connect(addr).await;
    x1_login(&mut a, "alice", "alice-pw").await;
    let mut d = Client::connect(addr).await;
    x1_login(&mut d, "dave", "dave-pw").await;
    // A result arrives as soon as the game ends.
    b.send("+7776FU").await;
    b.line().await;
    c.line().await;
    // Carol, to move, resigns.
    c.send("%TORYO").await;
    assert_eq!(b.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
    let all_done = witness_sent.elapsed();
    assert!(
        !answered(&mut witness),
        "the guess sent first was answered before the player, the newcomer and the result \
         ({all_done:?} after it)"
    );
    assert_eq!(witness.line().await, "LOGIN:incorrect");
    let told = witness.refused().await;
    assert!(told.contains("too many failed logins"), "{told}");
    assert!(
        witness_sent.elapsed() >= TARPIT,
        "{:?}",
        witness_sent.elapsed()
    );

    stop.store(true, Ordering::Relaxed);
    let flood_lasted = flood_began.elapsed();
    let guesses = tries.load(Ordering::Relaxed);
    for t in attackers {
        t.abort();
    }
    eprintln!("{guesses} guesses in {flood_lasted:?}; all done {all_done:?} after the witness");
    assert!(guesses >= 512, "{guesses}");
    // The tarpit: an attacker holding a connection gets one answer per TARPIT at most,
    // apart from the few guesses judged (hashed) before the allowances were spent.
    let rounds = flood_lasted.as_secs_f64() / TARPIT.as_secs_f64();
    let most = 512.0 * (rounds.ceil() + 1.0) + 30.0;
    assert!(
        (guesses as f64) <= most,
        "{guesses} guesses in {flood_lasted:?}: more than {most}"
    );
    // The flood was refused before hashing: only the allowances' worth was checked.
    let log = log_text(dir.path());
    let hashed = log.matches(": wrong password").count();
    assert!(hashed <= 30, "{hashed} guesses hashed of {guesses}");
    for limit in ["for this name", "from this address"] {
        assert!(
            log.contains(&format!("too many failed logins {limit}")),
            "{limit}"
        );
    }
    // A flood is summed up in the log, not logged line by line.
    let refused = log.matches("login refused from 127.0.0.2").count();
    assert!(
        refused <= 40,
        "{refused} refusals logged one by one:\n{log}"
    );
    // Alice, still playing after all that, can be told from the attackers' side too.
    a.send("%%WHO").await;
    assert!(a.until("##[WHO] +OK").await.len() >= 2);
}

// The paused clock of tokio: the server's timers run on it and it jumps to the next one when
// every task waits, so the test measures the server's own time, exactly, and never sleeps.
#[tokio::test(start_paused = true)]
async fn refusals_beyond_the_allowance_wait_in_the_tarpit_and_garbage_counts_too() {
    let mut cfg = config(None);
    cfg.login_failures = Limits {
        per_address: 2,
        refusal_delay: Duration::from_millis(1500),
        ..Limits::default()
    };
    let addr = start(cfg).await;
    // Two malformed logins from one address are answered at once …
    for _ in 0..2 {
        let mut c = Client::connect(addr).await;
        c.send("LOGIN alice hunter2").await;
        assert_eq!(c.line().await, "LOGIN:incorrect");
        c.refused().await;
    }
    // … the third waits out the tarpit before it hears why.
    let t = tokio::time::Instant::now();
    let mut c = Client::connect(addr).await;
    c.send("GARBAGE").await;
    assert_eq!(c.line().await, "LOGIN:incorrect");
    assert!(c.refused().await.contains("expected LOGIN"));
    assert!(
        t.elapsed() >= Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
    // Another address is not held.
    let mut other = connect_from("127.0.0.2", addr).await.unwrap();
    other.send("LOGIN bob tarpit-60-0").await;
    assert_eq!(other.line().await, "LOGIN:bob OK");
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
    // A wrong password does not take her name.
    let mut thief = Client::connect(addr).await;
    thief.send("LOGIN alice relog-600-10-B,guess").await;
    assert_eq!(thief.line().await, "LOGIN:incorrect");
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
        log.contains("alice logged in again from 127.0.0.1:"),
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
        "##[ERROR] carol is logged in already"
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
