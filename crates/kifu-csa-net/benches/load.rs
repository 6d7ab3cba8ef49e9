//! Load generator: N concurrent games of scripted clients against the server on 127.0.0.1.
//!
//! `LOAD_GAMES=1000 cargo bench -p kifu-csa-net --bench load` — all pairs log in and get
//! START first, so N games are held at once; then every game plays 10 moves and a
//! resignation at full speed. Reports moves/s relayed, p50/p99 of a move's relay (from the
//! mover's send to its own `,T` echo) and resident memory per connection. Bounded: at most
//! 5,000 games and a 120 s limit.

use std::sync::Arc;
use std::time::{Duration, Instant};

use kifu_csa_net::server::{Config, Server};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::Barrier;

const SCRIPT: [&str; 10] = [
    "+2838HI", "-8272HI", "+3828HI", "-7282HI", "+2838HI", "-8272HI", "+3828HI", "-7282HI",
    "+2838HI", "-8272HI",
];

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

async fn player(
    addr: std::net::SocketAddr,
    name: String,
    game: String,
    black: bool,
    ready: Arc<Barrier>,
    go: Arc<Barrier>,
) -> Vec<Duration> {
    let stream = TcpStream::connect(addr).await.expect("connect");
    stream.set_nodelay(true).unwrap();
    let (rd, mut wr) = stream.into_split();
    let mut lines = BufReader::new(rd).lines();
    let pw = if black {
        format!("{game}-B")
    } else {
        format!("{game}-W")
    };
    wr.write_all(format!("LOGIN {name} {pw}\n").as_bytes())
        .await
        .unwrap();
    while let Some(l) = lines.next_line().await.unwrap() {
        if l == "END Game_Summary" {
            break;
        }
    }
    wr.write_all(b"AGREE\n").await.unwrap();
    let start = lines.next_line().await.unwrap().unwrap();
    assert!(start.starts_with("START:"), "{start}");
    ready.wait().await;
    go.wait().await;
    let mut latencies = Vec::new();
    for (i, mv) in SCRIPT.iter().enumerate() {
        let mine = (i % 2 == 0) == black;
        if mine {
            let sent = Instant::now();
            wr.write_all(format!("{mv}\n").as_bytes()).await.unwrap();
            let echo = lines.next_line().await.unwrap().unwrap();
            assert!(echo.starts_with(mv), "{echo}");
            latencies.push(sent.elapsed());
        } else {
            let echo = lines.next_line().await.unwrap().unwrap();
            assert!(echo.starts_with(mv), "{echo}");
        }
    }
    if black {
        wr.write_all(b"%TORYO\n").await.unwrap();
    }
    for _ in 0..3 {
        lines.next_line().await.unwrap();
    }
    wr.write_all(b"LOGOUT\n").await.unwrap();
    latencies
}

fn main() {
    let games: usize = std::env::var("LOAD_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100)
        .min(5000);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let base_rss = rss_kib();
        let mut config = Config::new("127.0.0.1:0".parse().unwrap());
        config.max_moves = 0;
        let server = Server::bind(config).await.unwrap();
        let addr = server.local_addr().unwrap();
        tokio::spawn(server.run());
        let ready = Arc::new(Barrier::new(games * 2 + 1));
        let go = Arc::new(Barrier::new(games * 2 + 1));
        let mut tasks = Vec::new();
        for g in 0..games {
            for black in [true, false] {
                let name = format!("p{g}{}", if black { "b" } else { "w" });
                let game = format!("load{g}-600-10");
                tasks.push(tokio::spawn(player(
                    addr,
                    name,
                    game,
                    black,
                    ready.clone(),
                    go.clone(),
                )));
            }
        }
        let limit = Duration::from_secs(120);
        tokio::time::timeout(limit, ready.wait())
            .await
            .expect("all games started in time");
        let held_rss = rss_kib();
        let started = Instant::now();
        go.wait().await;
        let mut all = Vec::new();
        for t in tasks {
            all.extend(
                tokio::time::timeout(limit, t)
                    .await
                    .expect("in time")
                    .unwrap(),
            );
        }
        let elapsed = started.elapsed();
        all.sort();
        let pct = |p: f64| all[((all.len() as f64 - 1.0) * p) as usize];
        let moves = games * SCRIPT.len();
        println!(
            "games held: {games}; moves relayed: {moves} in {:.3} s = {:.0} moves/s; \
             relay p50 {:.2} ms, p99 {:.2} ms; memory {:.1} KiB per connection \
             (server and clients in one process)",
            elapsed.as_secs_f64(),
            moves as f64 / elapsed.as_secs_f64(),
            pct(0.50).as_secs_f64() * 1e3,
            pct(0.99).as_secs_f64() * 1e3,
            held_rss.saturating_sub(base_rss) as f64 / (games * 2) as f64,
        );
    });
}
