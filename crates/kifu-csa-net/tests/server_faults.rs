//! Bad input and faults on real sockets (127.0.0.1): each offender gets the protocol's answer
//! or is cut off, and a game in progress between two other players goes on untouched.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use tokio::io::AsyncWriteExt;
use tokio::net::TcpSocket;

mod support;
use support::{Client, config, start, start_game};

/// Two players with a game in progress, checked after each fault.
struct Bystanders {
    black: Client,
    white: Client,
    plies: usize,
}

const MOVES: [&str; 8] = [
    "+2726FU", "-8384FU", "+2625FU", "-8485FU", "+5968OU", "-5142OU", "+3948GI", "-7162GI",
];

impl Bystanders {
    async fn start(addr: SocketAddr) -> Bystanders {
        let mut black = Client::connect(addr).await;
        let mut white = Client::connect(addr).await;
        start_game(
            &mut black,
            &mut white,
            "LOGIN carol watch-600-10-B,carolpw",
            "LOGIN dave watch-600-10,davepw",
        )
        .await;
        let mut b = Bystanders {
            black,
            white,
            plies: 0,
        };
        b.untouched().await;
        b
    }

    /// One more move relayed to both, and a keep-alive answered.
    async fn untouched(&mut self) {
        let mv = MOVES[self.plies];
        let (mover, other) = if self.plies.is_multiple_of(2) {
            (&mut self.black, &mut self.white)
        } else {
            (&mut self.white, &mut self.black)
        };
        mover.send(mv).await;
        let echo = mover.line().await;
        assert!(echo.starts_with(&format!("{mv},T")), "{echo}");
        assert_eq!(other.line().await, echo);
        other.send("").await;
        assert_eq!(other.line().await, "");
        self.plies += 1;
    }
}

async fn log_text(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("server.log")).unwrap_or_default()
}

async fn wait_for_log(dir: &Path, needle: &str) -> String {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let text = log_text(dir).await;
        if text.contains(needle) {
            return text;
        }
        assert!(Instant::now() < until, "`{needle}` not in the log:\n{text}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn another_trip_is_another_player_and_no_secret_reaches_the_log_or_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(config(Some(dir.path()))).await;
    let mut game = Bystanders::start(addr).await;

    // Nothing is registered: every form of login under erin's name gets in, each as the
    // player its trip (or none) makes.
    for login in [
        "LOGIN erin s3cret-one x1",
        "LOGIN erin n0t-her-pw x1",
        "LOGIN erin other-600-10,n0t-her-pw",
        "LOGIN erin other-600-10",
        "LOGIN erin other-600-10,s3cret-one",
    ] {
        let mut c = Client::connect(addr).await;
        c.send(login).await;
        assert_eq!(c.line().await, "LOGIN:erin OK", "{login}");
        if login.ends_with("x1") {
            assert_eq!(c.line().await, "##[LOGIN] +OK x1");
        }
        c.send("LOGOUT").await;
        assert_eq!(c.line().await, "LOGOUT:completed");
        game.untouched().await;
    }

    let log = wait_for_log(dir.path(), "login erin from 127.0.0.1:").await;
    // The player ids in the log: the name, and the name with a digest of each trip.
    let ids: std::collections::BTreeSet<&str> = log
        .lines()
        .filter_map(|l| l.split("login ").nth(1)?.split(' ').next())
        .filter(|id| id.starts_with("erin"))
        .collect();
    assert_eq!(ids.len(), 3, "{ids:?}");
    for secret in ["s3cret-one", "n0t-her-pw", "carolpw", "davepw"] {
        assert!(!log.contains(secret), "a password in the log:\n{log}");
    }
    let store = std::fs::read(dir.path().join("kifu.sqlite")).unwrap();
    assert!(!store.windows(10).any(|w| w == b"s3cret-one"));
}

#[tokio::test]
async fn a_closed_players_list_refuses_everyone_else() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(Some(dir.path()));
    cfg.players = Some(["carol", "dave"].map(str::to_owned).into());
    let addr = start(cfg).await;
    let mut game = Bystanders::start(addr).await;
    let mut c = Client::connect(addr).await;
    c.send("LOGIN mallory watch-600-10").await;
    assert_eq!(c.line().await, "LOGIN:incorrect");
    c.refused().await;
    game.untouched().await;
    wait_for_log(dir.path(), "mallory: not on the players list").await;
}

#[tokio::test]
async fn moves_out_of_turn_wait_for_their_turn_and_oversized_lines_get_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(config(Some(dir.path()))).await;
    let mut game = Bystanders::start(addr).await;
    let mut a = Client::connect(addr).await;
    let mut b = Client::connect(addr).await;
    start_game(
        &mut a,
        &mut b,
        "LOGIN alice turn-600-10-B",
        "LOGIN bob turn-600-10",
    )
    .await;
    // White speaks first: shogi-server keeps the move until it is White's turn.
    b.send("-3334FU").await;
    b.send("").await;
    assert_eq!(b.line().await, "", "nothing but the keep-alive answer");
    game.untouched().await;
    a.send("+7776FU").await;
    assert_eq!(a.lines(2).await, ["+7776FU,T0", "-3334FU,T0"]);
    assert_eq!(b.lines(2).await, ["+7776FU,T0", "-3334FU,T0"]);
    // A line far beyond the protocol's length is answered, not judged as a move.
    a.send(&format!("+{}", "7".repeat(100_000))).await;
    assert_eq!(
        a.line().await,
        "##[ERROR] line too long: 100001 bytes (the limit is 8192)"
    );
    game.untouched().await;
    a.send("+2726FU").await;
    assert_eq!(a.line().await, "+2726FU,T0");
    assert_eq!(b.line().await, "+2726FU,T0");
}

#[tokio::test]
async fn a_client_that_never_reads_is_cut_off_and_loses() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(config(Some(dir.path()))).await;
    let mut game = Bystanders::start(addr).await;
    let mut a = Client::connect(addr).await;
    // A small receive buffer, so the server's side fills up soon.
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut b = Client::from(socket.connect(addr).await.unwrap());
    start_game(
        &mut a,
        &mut b,
        "LOGIN alice deaf-600-10-B",
        "LOGIN bob deaf-600-10",
    )
    .await;
    // Bob sends line after line, each answered with an error, and reads none of them.
    let junk = format!("{}\n", "X".repeat(200)).repeat(300);
    let flood = tokio::spawn(async move {
        let mut wr = b.wr;
        for _ in 0..2_000 {
            if wr.write_all(junk.as_bytes()).await.is_err() {
                break;
            }
        }
        b.rd
    });
    wait_for_log(dir.path(), "bob: its output queue overflowed").await;
    game.untouched().await;
    // Bob is gone while Alice is to move: her move is relayed and Bob loses.
    a.send("+7776FU").await;
    assert_eq!(
        a.lines(4).await,
        ["+7776FU,T0", "%TORYO", "#RESIGN", "#WIN"]
    );
    flood.abort();
    game.untouched().await;
    wait_for_log(
        dir.path(),
        "#RESIGN alice wins after 1 ply (後手 disconnected)",
    )
    .await;
}

// The paused clock of tokio: the server's timers run on it and it jumps to the next one when
// every task waits, so the test measures the server's own time, exactly, and never sleeps.
#[tokio::test(start_paused = true)]
async fn a_silent_connection_is_dropped_after_the_login_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(Some(dir.path()));
    cfg.login_timeout = Duration::from_secs(1);
    let addr = start(cfg).await;
    let mut game = Bystanders::start(addr).await;
    let mut silent = Client::connect(addr).await;
    let mut half = Client::connect(addr).await;
    half.wr.write_all(b"LOGIN frank").await.unwrap();
    let t = tokio::time::Instant::now();
    silent.closed_within(5).await;
    half.closed_within(5).await;
    assert!(t.elapsed() >= Duration::from_secs(1), "{:?}", t.elapsed());
    // Past the login, the bystanders' silence between moves is no reason to drop them.
    game.untouched().await;
    wait_for_log(dir.path(), "no login in time").await;
}

#[tokio::test]
async fn a_flood_of_connections_is_refused_beyond_the_limits() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(Some(dir.path()));
    cfg.max_unauthenticated_per_ip = 4;
    cfg.max_connections = 8;
    let addr = start(cfg).await;
    let mut game = Bystanders::start(addr).await;

    let mut pending = Vec::new();
    for _ in 0..4 {
        pending.push(Client::connect(addr).await);
    }
    // A fifth connection not logged in from the same address is told why and closed.
    assert_eq!(
        Client::connect(addr).await.refused().await,
        "##[ERROR] too many connections not logged in from this address"
    );
    game.untouched().await;
    // Logged-in players no longer count against the address …
    for (i, c) in pending.iter_mut().take(2).enumerate() {
        c.send(&format!("LOGIN idle{i} pw x1")).await;
        assert_eq!(
            c.lines(2).await,
            [format!("LOGIN:idle{i} OK"), "##[LOGIN] +OK x1".into()]
        );
    }
    pending.push(Client::connect(addr).await);
    pending.push(Client::connect(addr).await);
    // … but the server holds 8 connections at most (2 bystanders, 6 here).
    pending[2].send("LOGIN idle2 pw x1").await;
    assert_eq!(
        pending[2].lines(2).await,
        ["LOGIN:idle2 OK", "##[LOGIN] +OK x1"]
    );
    assert_eq!(
        Client::connect(addr).await.refused().await,
        "##[ERROR] the server is full"
    );
    game.untouched().await;
    // The players admitted before the flood are served as usual.
    pending[0].send("%%VERSION").await;
    assert!(pending[0].line().await.starts_with("##[VERSION] kifu "));
    let log = wait_for_log(dir.path(), "the server is full").await;
    assert!(
        log.contains("too many connections not logged in from this address"),
        "{log}"
    );
}

// The paused clock of tokio: the server's timers run on it and it jumps to the next one when
// every task waits, so the test measures the server's own time, exactly, and never sleeps.
#[tokio::test(start_paused = true)]
async fn no_agree_in_time_or_a_player_gone_before_start_rejects_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(Some(dir.path()));
    cfg.agree_timeout = Duration::from_secs(1);
    let addr = start(cfg).await;
    let mut game = Bystanders::start(addr).await;

    let pair = |game: &'static str| async move {
        let mut a = Client::connect(addr).await;
        let mut b = Client::connect(addr).await;
        a.send(&format!("LOGIN alice {game}-B")).await;
        b.send(&format!("LOGIN bob {game}")).await;
        assert_eq!(a.line().await, "LOGIN:alice OK");
        assert_eq!(b.line().await, "LOGIN:bob OK");
        let id = a
            .until("END Game_Summary")
            .await
            .iter()
            .find_map(|l| l.strip_prefix("Game_ID:").map(str::to_owned))
            .unwrap();
        b.until("END Game_Summary").await;
        (a, b, id)
    };

    // Only Alice agrees: after the agree time both hear the server's REJECT and are let go.
    let (mut a, mut b, id) = pair("slow-60-0").await;
    a.send("AGREE").await;
    let t = tokio::time::Instant::now();
    let want = format!("REJECT:{id} by the Server (timed out)");
    assert_eq!(a.line().await, want);
    assert_eq!(b.line().await, want);
    assert!(
        t.elapsed() >= Duration::from_millis(900),
        "{:?}",
        t.elapsed()
    );
    a.closed_within(5).await;
    b.closed_within(5).await;
    game.untouched().await;

    // Bob leaves before START: the game is rejected in his name.
    let (mut a, b, id) = pair("gone-60-0").await;
    drop(b);
    assert_eq!(a.line().await, format!("REJECT:{id} by bob"));
    a.closed_within(5).await;
    game.untouched().await;
    wait_for_log(dir.path(), &format!("game {id} rejected")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_in_one_process_each_log_to_their_own_file() {
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let first = start(config(Some(one.path()))).await;
    let second = start(config(Some(two.path()))).await;
    let mut ids = Vec::new();
    for (addr, who) in [(first, "first"), (second, "second")] {
        let mut b = Client::connect(addr).await;
        let mut w = Client::connect(addr).await;
        let id = start_game(
            &mut b,
            &mut w,
            &format!("LOGIN {who}b own-60-0-B"),
            &format!("LOGIN {who}w own-60-0"),
        )
        .await;
        b.send("%TORYO").await;
        assert_eq!(w.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
        ids.push(id);
    }
    // The result's line is written by the game's own task: give it a moment.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let read = |dir: &Path| std::fs::read_to_string(dir.join("server.log")).unwrap();
    for (dir, mine, theirs) in [
        (one.path(), &ids[0], &ids[1]),
        (two.path(), &ids[1], &ids[0]),
    ] {
        let log = read(dir);
        assert!(
            log.contains(&format!("game {mine} ended: #RESIGN")),
            "{log}"
        );
        assert!(!log.contains(theirs.as_str()), "{log}");
    }
}
