//! The live page of a game in progress, in a real browser (chromium through chromedriver;
//! see `browser_harness`), while two scripted players play it on a real server
//! (`kifu csa-server --http`'s library, on 127.0.0.1): the lobby lists the game; the page
//! shows each new move within a second with `data-sfen` equal to the server's, both clocks
//! counting, the evaluations players send, and what a player writes as text, never HTML.

mod browser_harness;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use browser_harness::{BROWSER, browser};
use fantoccini::{Client, Locator};
use kifu_csa_net::server::{Config, HttpConfig, Server};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

/// A scripted player on a real socket.
struct Player {
    rd: BufReader<OwnedReadHalf>,
    wr: OwnedWriteHalf,
}

impl Player {
    async fn connect(addr: SocketAddr) -> Player {
        let (rd, wr) = TcpStream::connect(addr).await.unwrap().into_split();
        Player {
            rd: BufReader::new(rd),
            wr,
        }
    }

    async fn send(&mut self, line: &str) {
        self.wr
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }

    async fn until(&mut self, prefix: &str) -> String {
        loop {
            let mut line = String::new();
            let n = tokio::time::timeout(Duration::from_secs(10), self.rd.read_line(&mut line))
                .await
                .expect("a line within 10 s")
                .unwrap();
            assert!(n > 0, "closed before {prefix}");
            if line.starts_with(prefix) {
                return line.trim_end().to_owned();
            }
        }
    }
}

async fn run(client: &Client, script: &str) -> Value {
    client
        .execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("{script}: {e}"))
}

/// The server's view of the game, fetched by the page from the JSON API.
async fn server_game(client: &Client, id: &str) -> Value {
    client
        .execute_async(
            "var done=arguments[arguments.length-1];\
             fetch('/api/games/'+encodeURIComponent(arguments[0])).then(function(r){return r.json();})\
             .then(done,function(e){done(String(e));});",
            vec![Value::String(id.to_owned())],
        )
        .await
        .expect("the game's JSON")
}

async fn board_sfen(client: &Client) -> String {
    client
        .find(Locator::Id("board"))
        .await
        .expect("the board")
        .attr("data-sfen")
        .await
        .expect("the attribute")
        .unwrap_or_default()
}

async fn text(client: &Client, id: &str) -> String {
    run(
        client,
        &format!("return document.getElementById('{id}').textContent;"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run scripts/setup-test-deps"]
async fn the_live_page_follows_a_game_move_by_move_with_clocks_and_the_lobby_lists_it() {
    let _one = BROWSER.lock().await;
    let mut config = Config::new("127.0.0.1:0".parse().unwrap());
    config.http = Some(HttpConfig::new("127.0.0.1:0".parse().unwrap()));
    let server = Server::bind(config).await.unwrap();
    let (addr, web) = (server.local_addr().unwrap(), server.http_addr().unwrap());
    tokio::spawn(server.run());

    let mut black = Player::connect(addr).await;
    let mut white = Player::connect(addr).await;
    black.send("LOGIN alice t-600-10,x").await;
    white.send("LOGIN bob t-600-10,y").await;
    // The server chooses the colours: the two are renamed by the ones they got.
    let alice_turn = black.until("Your_Turn:").await;
    black.until("END Game_Summary").await;
    white.until("END Game_Summary").await;
    let mut names = ["alice", "bob"];
    if alice_turn == "Your_Turn:-" {
        std::mem::swap(&mut black, &mut white);
        names.reverse();
    }
    black.send("AGREE").await;
    white.send("AGREE").await;
    let id = black.until("START:").await["START:".len()..].to_owned();
    white.until("START:").await;

    let b = browser().await;
    let c = &b.client;
    c.goto(&format!("http://{web}/")).await.unwrap();
    let listed = run(
        c,
        "return Array.from(document.querySelectorAll('#games a')).map(function(a){return a.textContent;});",
    )
    .await;
    assert_eq!(listed, serde_json::json!(names), "Black, then White");
    c.find(Locator::Css("#games a"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let url = c.current_url().await.unwrap();
    assert!(url.path().starts_with("/games/"), "{url}");

    // Both clocks, and Black's counting down.
    assert_eq!(board_sfen(c).await, server_game(c, &id).await["sfen"]);
    let seconds = |t: &str| -> u64 {
        let (m, s) = t
            .split_once(':')
            .unwrap_or_else(|| panic!("a clock: {t:?}"));
        m.parse::<u64>().unwrap() * 60 + s.parse::<u64>().unwrap()
    };
    let black_before = seconds(&text(c, "clock-black").await);
    assert!((590..=600).contains(&black_before), "{black_before}");
    assert_eq!(text(c, "clock-white").await, "10:00");
    tokio::time::sleep(Duration::from_millis(1_300)).await;
    assert!(seconds(&text(c, "clock-black").await) < black_before);
    assert_eq!(text(c, "clock-white").await, "10:00");

    // Each move, with an evaluation; the last one's line is what a player wrote, as text.
    let moves = [
        "+7776FU", "-3334FU", "+2726FU", "-8384FU", "+2625FU", "-8485FU",
    ];
    for (i, mv) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut black, &mut white)
        } else {
            (&mut white, &mut black)
        };
        let comment = if i == moves.len() - 1 {
            "'* -50 <script>alert(1)</script>".to_owned()
        } else {
            format!("'* {} {mv}", (i as i32 + 1) * 20)
        };
        let sent = Instant::now();
        mover.send(&format!("{mv},{comment}")).await;
        mover.until(mv).await;
        other.until(mv).await;
        let want = server_game(c, &id).await["sfen"].clone();
        loop {
            if Value::String(board_sfen(c).await) == want {
                break;
            }
            assert!(
                sent.elapsed() < Duration::from_secs(1),
                "ply {}: the page still shows {} a second after the move (server: {want})",
                i + 1,
                board_sfen(c).await
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let listed = run(
            c,
            "return document.querySelectorAll('#moves li[data-i]').length;",
        )
        .await;
        assert_eq!(listed, i + 1);
    }
    // The board the script drew from the SFEN: forty pieces, each a piece the page defines
    // and the one the server's position has on that square.
    let drawn = run(
        c,
        "var u=document.querySelectorAll('#dyn > use'),bad=0;\
         for(var i=0;i<u.length;i++){if(!document.querySelector(u[i].getAttribute('href')))bad++;}\
         return [u.length,bad];",
    )
    .await;
    assert_eq!(drawn, serde_json::json!([40, 0]));
    if let Some(dir) = std::env::var_os("KIFU_SCREENSHOTS") {
        let png = c.screenshot().await.expect("a screenshot");
        std::fs::write(std::path::Path::new(&dir).join("live.png"), png).expect("saved");
    }
    // White's clock ran for its moves; Black's runs now.
    let running = run(c, "return document.querySelector('#live .running b').id;").await;
    assert_eq!(running, "clock-black");
    assert_eq!(
        run(
            c,
            "return document.querySelectorAll('#graph circle.pt').length;"
        )
        .await,
        6
    );
    assert_eq!(text(c, "eval").await, "評価値 -50<script>alert(1)</script>");
    assert_eq!(
        run(
            c,
            "return document.querySelectorAll('#eval script, #eval *:not(span)').length;"
        )
        .await,
        0
    );

    black.send("%TORYO").await;
    black.until("#LOSE").await;
    let deadline = Instant::now() + Duration::from_secs(1);
    while !text(c, "status").await.contains("RESIGN") {
        assert!(Instant::now() < deadline, "the result within a second");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(text(c, "status").await.contains("☖ wins"));
}
