//! Load generator: N concurrent games of scripted clients against the server on 127.0.0.1,
//! the server in its own process.
//!
//! `LOAD_GAMES=1000 cargo bench -p kifu-csa-net --bench load` re-executes this binary as the
//! server (`KIFU_LOAD_ROLE=server`), then logs in 2N clients (64 logins in flight), waits
//! until all N games have started — all held at once — and lets each game play
//! `LOAD_PLIES` (default 30) moves and a resignation. The model is a tournament's: every
//! client answers its opponent after a think time drawn uniformly from `LOAD_THINK_MS`
//! (default `500-1500`), so N games offer about N moves per second, at random instants.
//! A move's relay latency is the time from the mover's write to the opponent's read of
//! that move, both in this process (one clock). Memory per connection is the server
//! process's resident memory with all games held, less its memory before the first login,
//! over 2N. `LOAD_THINK_MS=0-0` turns the model into a burst: every game moves as fast as
//! the server answers, all at once. `LOAD_DATA=1` has the server write every record and
//! index it in its store (in a temporary directory). `LOAD_FLOOD=1` adds an attack while the
//! games play (and implies `LOAD_DATA=1`): 500 connections from 127.0.0.2 logging in under
//! a player's name with wrong trips, or sending garbage, over and over; 2,000 connections
//! from 25 addresses (127.0.1.1–25) that connect and say nothing, and connect again when
//! they are let go; and 25 x1 players from 127.0.2.1–25 sending `%%CHAT` lines every 10 ms.
//! The attackers run on a second thread of this process. Every run also reports how long each game's result took
//! to reach the resigning player (the games end within a second of each other).
//! `LOAD_SPECTATORS=N` turns on the server's HTTP side and has N spectators follow the
//! games' event streams (`/api/games/<id>/stream`, spectator i the game i mod the games),
//! all connected before the first move: a move's delivery latency is the time from the
//! mover's write to the spectator's read of its `move` event, on the same clock. Bounded:
//! at most 5,000 games, 300 s.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use kifu_csa::message::CsaMove;
use kifu_csa_net::server::{Config, HttpConfig, Server};
use kifu_shogi::Position;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader as TokioBufReader};
use tokio::net::TcpStream;
use tokio::sync::{Barrier, Semaphore};

const LIMIT: Duration = Duration::from_secs(300);

/// The flood's guessers, silent connections (from this many addresses) and chatters.
const FLOOD_GUESSERS: usize = 500;
const FLOOD_IDLE: usize = 2_000;
const FLOOD_IDLE_ADDRESSES: usize = 25;
const FLOOD_CHATTERS: usize = 25;

fn flood() -> bool {
    std::env::var("LOAD_FLOOD").as_deref() == Ok("1")
}

fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
    std::env::var(key)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A legal game of `plies` moves that neither ends nor repeats nor checks: every game
/// plays it, and the server judges each move under the full rules.
fn script(plies: usize) -> Vec<String> {
    // Seeded: every run plays the same script.
    let mut rng = fastrand::Rng::with_seed(0x9e37_79b9_7f4a_7c15);
    let mut pos = Position::startpos();
    let mut out = Vec::new();
    while out.len() < plies {
        let moves = pos.legal_moves();
        let start = rng.usize(..moves.len());
        let pick = (0..moves.len())
            .map(|i| moves[(start + i) % moves.len()])
            .find(|&m| {
                let mut next = pos.clone();
                next.play_unchecked(m);
                !next.is_check() && next.outcome().is_none() && next.repetition_count() <= 1
            })
            .expect("a quiet move");
        out.push(CsaMove::from_move(&pos, pick).to_string());
        pos.play_unchecked(pick);
    }
    out
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// utime + stime of a process, in clock ticks (100 per second on Linux).
fn cpu_ticks(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            let rest = s.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
        })
        .unwrap_or(0)
}

fn serve(games: usize) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let mut config = Config::new("127.0.0.1:0".parse().unwrap());
        config.max_moves = 0;
        config.max_connections = games * 2 + FLOOD_GUESSERS + FLOOD_IDLE + FLOOD_CHATTERS + 64;
        // The defaults for connections not logged in (1,000 in all): the idle flood is
        // twice that, so its connections keep evicting each other.
        config.max_logged_in_per_ip = games * 2 + 64;
        // With LOAD_DATA=1 every game's record is written and indexed, as in a tournament.
        let data = (std::env::var("LOAD_DATA").as_deref() == Ok("1") || flood())
            .then(|| tempfile::tempdir().unwrap());
        config.data = data.as_ref().map(|d| d.path().to_owned());
        let spectators: usize = env_or("LOAD_SPECTATORS", 0);
        if spectators > 0 {
            let mut http = HttpConfig::new("127.0.0.1:0".parse().unwrap());
            http.max_spectators = spectators;
            config.http = Some(http);
        }
        let server = Server::bind(config).await.unwrap();
        println!("{}", server.local_addr().unwrap());
        if let Some(web) = server.http_addr() {
            println!("{web}");
        }
        std::io::stdout().flush().unwrap();
        // The generator closes our stdin when it is done (or dies): stop then.
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        std::thread::spawn(move || {
            let mut sink = String::new();
            let _ = std::io::stdin().read_line(&mut sink);
            let _ = tx.send(());
        });
        tokio::select! {
            _ = server.run() => {}
            _ = rx => {}
        }
        if let Some(d) = &data {
            let mut records = 0;
            let mut stack = vec![d.path().to_owned()];
            while let Some(dir) = stack.pop() {
                for e in std::fs::read_dir(dir).unwrap() {
                    let p = e.unwrap().path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|x| x == "csa") {
                        records += 1;
                    }
                }
            }
            eprintln!("(the server wrote {records} records)");
        }
    });
}

struct Plan {
    addr: std::net::SocketAddr,
    script: Arc<Vec<String>>,
    think: (u64, u64),
    logins: Arc<Semaphore>,
    held: Arc<Barrier>,
    go: Arc<Barrier>,
    origin: Instant,
    /// Each game's Game_ID, told by its Black player at START (for the spectators).
    ids: std::sync::Mutex<Vec<String>>,
    /// When each move of each game was written (ns since `origin`), by game and ply.
    sent_at: Vec<Vec<AtomicU64>>,
}

/// The relay latencies this player saw (µs), and, for the one who resigns, how long its
/// result took to come back (µs).
async fn player(
    plan: Arc<Plan>,
    g: usize,
    black: bool,
    sent: Arc<AtomicU64>,
) -> (Vec<u32>, Option<u32>) {
    let permit = plan.logins.acquire().await.unwrap();
    let stream = TcpStream::connect(plan.addr).await.expect("connect");
    stream.set_nodelay(true).unwrap();
    let (rd, mut wr) = stream.into_split();
    let mut lines = TokioBufReader::new(rd).lines();
    let side = if black { "B" } else { "W" };
    wr.write_all(format!("LOGIN p{g}{side} load{g}-600-10-{side}\n").as_bytes())
        .await
        .unwrap();
    let ok = lines.next_line().await.unwrap().unwrap();
    if !ok.ends_with(" OK") {
        let why = lines.next_line().await.ok().flatten().unwrap_or_default();
        panic!("{ok} {why}");
    }
    drop(permit);
    while let Some(l) = lines.next_line().await.unwrap() {
        if l == "END Game_Summary" {
            break;
        }
    }
    wr.write_all(b"AGREE\n").await.unwrap();
    let start = lines.next_line().await.unwrap().unwrap();
    assert!(start.starts_with("START:"), "{start}");
    if black {
        plan.ids.lock().unwrap()[g] = start["START:".len()..].to_owned();
    }
    plan.held.wait().await;
    plan.go.wait().await;
    let mut rng = fastrand::Rng::with_seed(0x1234_5678 ^ ((g as u64) << 1 | u64::from(black)));
    let mut latencies = Vec::with_capacity(plan.script.len() / 2 + 1);
    let mut line = Vec::with_capacity(16);
    for (i, mv) in plan.script.iter().enumerate() {
        let mine = (i % 2 == 0) == black;
        if mine {
            let (lo, hi) = plan.think;
            let think = rng.u64(lo..=hi);
            if think > 0 {
                tokio::time::sleep(Duration::from_millis(think)).await;
            }
            line.clear();
            line.extend_from_slice(mv.as_bytes());
            line.push(b'\n');
            let now = plan.origin.elapsed().as_nanos() as u64;
            plan.sent_at[g][i].store(now, Ordering::Release);
            sent.store(now, Ordering::Release);
            wr.write_all(&line).await.unwrap();
            let echo = lines.next_line().await.unwrap().unwrap();
            assert!(echo.starts_with(mv.as_str()), "{echo}");
        } else {
            let relayed = lines.next_line().await.unwrap().unwrap();
            let now = plan.origin.elapsed().as_nanos() as u64;
            assert!(relayed.starts_with(mv.as_str()), "{relayed}");
            let ns = now.saturating_sub(sent.load(Ordering::Acquire));
            latencies.push(u32::try_from(ns / 1000).unwrap_or(u32::MAX));
        }
    }
    let resigns = plan.script.len() % 2 == usize::from(!black);
    let t = Instant::now();
    if resigns {
        wr.write_all(b"%TORYO\n").await.unwrap();
    }
    for _ in 0..3 {
        lines.next_line().await.unwrap();
    }
    let result = resigns.then(|| u32::try_from(t.elapsed().as_micros()).unwrap_or(u32::MAX));
    wr.write_all(b"LOGOUT\n").await.unwrap();
    (latencies, result)
}

/// A path segment of a Game_ID (`+` and the like percent-encoded).
fn path_segment(id: &str) -> String {
    id.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// A spectator of game `g`: opens its event stream, waits for its `game` event, then reads
/// every `move` until `end`; the delivery latency of each move (µs).
async fn spectator(
    plan: Arc<Plan>,
    web: std::net::SocketAddr,
    g: usize,
    ready: Arc<Barrier>,
) -> Vec<u32> {
    let id = plan.ids.lock().unwrap()[g].clone();
    let stream = TcpStream::connect(web)
        .await
        .expect("connect to the HTTP side");
    let (rd, mut wr) = stream.into_split();
    let request = format!(
        "GET /api/games/{}/stream HTTP/1.1\r\nHost: {web}\r\nAccept: text/event-stream\r\n\r\n",
        path_segment(&id)
    );
    wr.write_all(request.as_bytes()).await.unwrap();
    let mut lines = TokioBufReader::new(rd).lines();
    let status = lines.next_line().await.unwrap().unwrap();
    assert!(status.contains(" 200 "), "{status} (game {g}: {id:?})");
    // Chunk sizes, headers and the `event:` lines are skipped; the data says what it is.
    while let Some(l) = lines.next_line().await.unwrap() {
        if l.starts_with("event: game") {
            break;
        }
    }
    ready.wait().await;
    let mut latencies = Vec::with_capacity(plan.script.len());
    // The `game` event's name was read above; its data comes next.
    let mut event = "game".to_owned();
    while let Some(l) = lines.next_line().await.unwrap() {
        if let Some(name) = l.strip_prefix("event: ") {
            event = name.to_owned();
            continue;
        }
        let Some(data) = l.strip_prefix("data: ") else {
            continue;
        };
        match event.as_str() {
            "move" => {}
            "game" => continue,
            "end" => break,
            other => panic!("spectator of game {g}: {other}: {data}"),
        }
        let now = plan.origin.elapsed().as_nanos() as u64;
        let ply: usize = data
            .split_once("\"ply\":")
            .and_then(|(_, rest)| rest.split(',').next()?.parse().ok())
            .expect("a move's ply");
        let sent = plan.sent_at[g][ply - 1].load(Ordering::Acquire);
        latencies.push(u32::try_from(now.saturating_sub(sent) / 1000).unwrap_or(u32::MAX));
    }
    latencies
}

/// A connection from another loopback address, as an attacker elsewhere would come.
async fn connect_from(ip: &str, addr: std::net::SocketAddr) -> std::io::Result<TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(format!("{ip}:0").parse().unwrap())?;
    socket.connect(addr).await
}

/// What the flood did, for the report.
#[derive(Default)]
struct FloodCounts {
    /// Logins sent by the guessers.
    guesses: AtomicU64,
    /// Silent connections opened (again after each eviction).
    idle: AtomicU64,
    /// Silent connections let go by the server (told why).
    evicted: AtomicU64,
    /// Chat lines sent.
    chats: AtomicU64,
}

/// The flood until `stop`: guessers from 127.0.0.2, silent connections from 25 addresses
/// (each connecting again 100 ms after the server lets it go), chatters from 25 more.
fn attack(
    addr: std::net::SocketAddr,
    stop: Arc<std::sync::atomic::AtomicBool>,
    counts: Arc<FloodCounts>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let mut tasks = Vec::new();
            for i in 0..FLOOD_GUESSERS {
                let (stop, counts) = (stop.clone(), counts.clone());
                tasks.push(tokio::spawn(async move {
                    let mut n = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        let Ok(s) = connect_from("127.0.0.2", addr).await else {
                            tokio::time::sleep(Duration::from_millis(50)).await;
                            continue;
                        };
                        let (rd, mut wr) = s.into_split();
                        let login = match n % 3 {
                            0 => format!("LOGIN victim guess-{i}-{n} x1\n"),
                            1 => format!("LOGIN victim load-600-10,guess-{i}-{n}\n"),
                            _ => "LOGIN victim\n".to_owned(),
                        };
                        n += 1;
                        if wr.write_all(login.as_bytes()).await.is_err() {
                            continue;
                        }
                        counts.guesses.fetch_add(1, Ordering::Relaxed);
                        let mut lines = TokioBufReader::new(rd).lines();
                        // One answer, then the next try (a refusal may be held a minute).
                        let _ =
                            tokio::time::timeout(Duration::from_secs(10), lines.next_line()).await;
                    }
                }));
            }
            for i in 0..FLOOD_IDLE {
                let ip = format!("127.0.1.{}", i % FLOOD_IDLE_ADDRESSES + 1);
                let (stop, counts) = (stop.clone(), counts.clone());
                tasks.push(tokio::spawn(async move {
                    while !stop.load(Ordering::Relaxed) {
                        let Ok(s) = connect_from(&ip, addr).await else {
                            tokio::time::sleep(Duration::from_millis(100)).await;
                            continue;
                        };
                        counts.idle.fetch_add(1, Ordering::Relaxed);
                        let mut lines = TokioBufReader::new(s).lines();
                        if let Ok(Some(l)) = lines.next_line().await
                            && l.starts_with("##[ERROR] closed to make room")
                        {
                            counts.evicted.fetch_add(1, Ordering::Relaxed);
                        }
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }));
            }
            for i in 0..FLOOD_CHATTERS {
                let ip = format!("127.0.2.{}", i + 1);
                let (stop, counts) = (stop.clone(), counts.clone());
                tasks.push(tokio::spawn(async move {
                    let Ok(s) = connect_from(&ip, addr).await else {
                        return;
                    };
                    let (rd, mut wr) = s.into_split();
                    let login = format!("LOGIN chatter{i} pw x1\n");
                    if wr.write_all(login.as_bytes()).await.is_err() {
                        return;
                    }
                    // Read whatever comes (chat, refusals), so the chatter is not cut off.
                    let reader = tokio::spawn(async move {
                        let mut lines = TokioBufReader::new(rd).lines();
                        while let Ok(Some(_)) = lines.next_line().await {}
                    });
                    let line = format!("%%CHAT {}\n", "chat ".repeat(40));
                    while !stop.load(Ordering::Relaxed) {
                        if wr.write_all(line.as_bytes()).await.is_err() {
                            break;
                        }
                        counts.chats.fetch_add(1, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    }
                    reader.abort();
                }));
            }
            while !stop.load(Ordering::Relaxed) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            for t in tasks {
                t.abort();
            }
        })
    })
}

fn generate(games: usize) {
    let plies: usize = env_or("LOAD_PLIES", 30);
    let think = std::env::var("LOAD_THINK_MS").unwrap_or_else(|_| "500-1500".to_owned());
    let (lo, hi) = think
        .split_once('-')
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
        .expect("LOAD_THINK_MS as LO-HI milliseconds");
    let mut server = Command::new(std::env::current_exe().unwrap())
        .env("KIFU_LOAD_ROLE", "server")
        .env("LOAD_GAMES", games.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server process");
    let pid = server.id();
    let mut banner = String::new();
    let mut server_out = BufReader::new(server.stdout.take().unwrap());
    server_out.read_line(&mut banner).unwrap();
    let addr = banner.trim().parse().expect("the server's address");
    let spectators: usize = env_or("LOAD_SPECTATORS", 0);
    let web: Option<std::net::SocketAddr> = (spectators > 0).then(|| {
        let mut line = String::new();
        server_out.read_line(&mut line).unwrap();
        line.trim().parse().expect("the HTTP side's address")
    });
    let base_rss = rss_kib(pid);

    // The generator has one thread, so the server always has the other core.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let plan = Arc::new(Plan {
        addr,
        script: Arc::new(script(plies)),
        think: (lo, hi),
        logins: Arc::new(Semaphore::new(64)),
        held: Arc::new(Barrier::new(games * 2 + 1)),
        go: Arc::new(Barrier::new(games * 2 + 1)),
        origin: Instant::now(),
        ids: std::sync::Mutex::new(vec![String::new(); games]),
        sent_at: (0..games)
            .map(|_| (0..plies).map(|_| AtomicU64::new(0)).collect())
            .collect(),
    });
    let flooding = flood();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let report = rt.block_on(async move {
        let mut tasks = Vec::new();
        for g in 0..games {
            let sent = Arc::new(AtomicU64::new(0));
            for black in [true, false] {
                tasks.push(tokio::spawn(player(plan.clone(), g, black, sent.clone())));
            }
        }
        tokio::time::timeout(LIMIT, plan.held.wait())
            .await
            .expect("all games started in time");
        let held_rss = rss_kib(pid);
        // The spectators are all following before the first move.
        let mut watching = Vec::new();
        if let Some(web) = web {
            let ready = Arc::new(Barrier::new(spectators + 1));
            for i in 0..spectators {
                watching.push(tokio::spawn(spectator(
                    plan.clone(),
                    web,
                    i % games,
                    ready.clone(),
                )));
                if i % 64 == 63 {
                    tokio::task::yield_now().await;
                }
            }
            tokio::time::timeout(LIMIT, ready.wait())
                .await
                .expect("every spectator following in time");
        }
        let counts = Arc::new(FloodCounts::default());
        let attacker = flooding.then(|| attack(plan.addr, stop.clone(), counts.clone()));
        if flooding {
            // The games move once the silent crowd is in and the guessing is under way.
            let until = Instant::now() + Duration::from_secs(60);
            while (counts.guesses.load(Ordering::Relaxed) < FLOOD_GUESSERS as u64
                || counts.idle.load(Ordering::Relaxed) < FLOOD_IDLE as u64)
                && Instant::now() < until
            {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        let flood_before = (
            counts.guesses.load(Ordering::Relaxed),
            counts.idle.load(Ordering::Relaxed),
            counts.evicted.load(Ordering::Relaxed),
            counts.chats.load(Ordering::Relaxed),
        );
        let cpu0 = cpu_ticks(pid);
        let started = Instant::now();
        plan.go.wait().await;
        let mut all = Vec::new();
        let mut results = Vec::new();
        for t in tasks {
            let (lat, result) = tokio::time::timeout(LIMIT, t)
                .await
                .expect("in time")
                .unwrap();
            all.extend(lat);
            results.extend(result);
        }
        let elapsed = started.elapsed();
        let cpu = (cpu_ticks(pid) - cpu0) as f64 / 100.0;
        let mut delivered = Vec::new();
        for t in watching {
            delivered.extend(
                tokio::time::timeout(LIMIT, t)
                    .await
                    .expect("in time")
                    .unwrap(),
            );
        }
        delivered.sort_unstable();
        let spectator_note = if delivered.is_empty() {
            String::new()
        } else {
            let d = |p: f64| {
                f64::from(delivered[((delivered.len() as f64 - 1.0) * p) as usize]) / 1000.0
            };
            format!(
                "; {spectators} spectators on the event streams got {} moves: delivery p50 \
                 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                delivered.len(),
                d(0.5),
                d(0.99),
                d(1.0)
            )
        };
        let flood_during = (
            counts.guesses.load(Ordering::Relaxed) - flood_before.0,
            counts.idle.load(Ordering::Relaxed) - flood_before.1,
            counts.evicted.load(Ordering::Relaxed) - flood_before.2,
            counts.chats.load(Ordering::Relaxed) - flood_before.3,
        );
        stop.store(true, Ordering::Relaxed);
        if let Some(a) = attacker {
            a.join().unwrap();
        }
        results.sort_unstable();
        let result_pct =
            |p: f64| f64::from(results[((results.len() as f64 - 1.0) * p) as usize]) / 1000.0;
        all.sort_unstable();
        let pct = |p: f64| f64::from(all[((all.len() as f64 - 1.0) * p) as usize]) / 1000.0;
        let moves = games * plies;
        let flood_note = if flooding {
            let (g, i, e, c) = flood_during;
            format!(
                "; flood while the games played: {g} logins under the victim's name or garbage \
                 from {FLOOD_GUESSERS} connections, {FLOOD_IDLE} silent connections from \
                 {FLOOD_IDLE_ADDRESSES} addresses ({i} opened, {e} let go to make room), \
                 {c} chat lines from {FLOOD_CHATTERS} x1 players"
            )
        } else {
            String::new()
        };
        format!(
            "| {} | {:.0} | {:.2} ms | {:.2} ms | {:.2} ms | {:.1} KiB | {:.0} % |\n\
             ({plies} plies per game, think {lo}-{hi} ms, {:.1} s; server CPU {:.1} s; \
             results to the resigning side p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms{flood_note}\
             {spectator_note})",
            games,
            moves as f64 / elapsed.as_secs_f64(),
            pct(0.50),
            pct(0.99),
            pct(1.0),
            held_rss.saturating_sub(base_rss) as f64 / (games * 2) as f64,
            100.0 * cpu / elapsed.as_secs_f64(),
            elapsed.as_secs_f64(),
            cpu,
            result_pct(0.5),
            result_pct(0.99),
            result_pct(1.0),
        )
    });
    drop(server.stdin.take());
    let _ = server.wait();
    println!(
        "| games held | moves/s relayed | relay p50 | relay p99 | max | memory per connection | server CPU |"
    );
    println!("{report}");
}

fn main() {
    let games = env_or("LOAD_GAMES", 100usize).min(5000);
    if std::env::var("KIFU_LOAD_ROLE").as_deref() == Ok("server") {
        serve(games);
    } else {
        generate(games);
    }
}
