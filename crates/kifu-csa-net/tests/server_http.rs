//! The spectators' HTTP side on real sockets (127.0.0.1): a spectator follows a game's
//! stream while two scripted players play it; the JSON API, the records, the lobby's stream,
//! the cap on spectators and cross-origin reading.

use std::net::SocketAddr;

use kifu_csa_net::server::{Config, HttpConfig, Server};

mod support;
use support::{Client, start_game};

#[path = "support/http.rs"]
mod http;

/// A server with its HTTP side, both on free ports; the two addresses.
async fn start(mut config: Config, http: HttpConfig) -> (SocketAddr, SocketAddr) {
    config.http = Some(http);
    let server = Server::bind(config).await.unwrap();
    let addr = server.local_addr().unwrap();
    let web = server.http_addr().unwrap();
    tokio::spawn(server.run());
    (addr, web)
}

fn loopback() -> HttpConfig {
    HttpConfig::new("127.0.0.1:0".parse().unwrap())
}

/// Moves of a short game from the start position: (CSA, USI).
const MOVES: [(&str, &str); 6] = [
    ("+7776FU", "7g7f"),
    ("-3334FU", "3c3d"),
    ("+8822UM", "8h2b+"),
    ("-3122GI", "3a2b"),
    ("+0045KA", "B*4e"),
    ("-8232HI", "8b3b"),
];

fn path_of(id: &str) -> String {
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

/// Plays `MOVES` (Black the first), each with an evaluation comment, reading both relays.
async fn play(black: &mut Client, white: &mut Client) {
    for (i, (csa, _)) in MOVES.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut *black, &mut *white)
        } else {
            (&mut *white, &mut *black)
        };
        let score = (i as i32 + 1) * 10 * if i % 2 == 0 { 1 } else { -1 };
        mover.send(&format!("{csa},'* {score} {csa}")).await;
        let relayed = mover.line().await;
        assert!(relayed.starts_with(csa), "{relayed}");
        assert!(other.line().await.starts_with(csa));
    }
}

#[tokio::test]
async fn a_spectator_following_the_stream_receives_every_move_in_order_and_the_result() {
    let (addr, web) = start(support::config(None), loopback()).await;
    let mut lobby = http::events(web, "/api/stream").await;
    assert_eq!(lobby.expect("games").await, serde_json::json!([]));
    let mut black = Client::connect(addr).await;
    let mut white = Client::connect(addr).await;
    let id = start_game(
        &mut black,
        &mut white,
        "LOGIN alice t-600-10,x",
        "LOGIN bob t-600-10,y",
    )
    .await;
    let started = lobby.expect("started").await;
    assert_eq!(started["id"], id.as_str());
    assert_eq!(started["black"], "alice");

    let mut stream = http::events(web, &format!("/api/games/{}/stream", path_of(&id))).await;
    assert_eq!(stream.status, 200);
    let game = stream.expect("game").await;
    assert_eq!(game["moves"], serde_json::json!([]));
    assert_eq!(
        game["clock"]["remaining_ms"],
        serde_json::json!([600_000, 600_000])
    );

    play(&mut black, &mut white).await;
    black.send("%TORYO").await;
    black.until("#LOSE").await;
    white.until("#WIN").await;

    let mut sfen = None;
    for (i, (csa, usi)) in MOVES.iter().enumerate() {
        let mv = stream.expect("move").await;
        assert_eq!(mv["ply"], i + 1);
        assert_eq!(mv["usi"], *usi);
        assert_eq!(mv["csa"], *csa);
        assert_eq!(
            mv["clock"]["running"],
            if i % 2 == 0 { "white" } else { "black" }
        );
        let score = (i as i64 + 1) * 10 * if i % 2 == 0 { 1 } else { -1 };
        assert_eq!(mv["evaluation"]["score"], score);
        sfen = Some(mv["sfen"].as_str().unwrap().to_owned());
    }
    let end = stream.expect("end").await;
    assert_eq!(end["reason"], "RESIGN");
    assert_eq!(end["winner"], "white");
    assert_eq!(end["plies"], 6);
    assert!(
        stream.next().await.is_none(),
        "the stream ends after the result"
    );

    let finished = lobby.expect("finished").await;
    assert_eq!(finished["id"], id.as_str());
    assert_eq!(finished["result"]["reason"], "RESIGN");

    // A spectator who comes late and has seen 4 plies gets the last two, then the end.
    let mut late = http::events(web, &format!("/api/games/{}/stream?from=4", path_of(&id))).await;
    let game = late.expect("game").await;
    assert_eq!(game["sfen"].as_str(), sfen.as_deref());
    assert_eq!(late.expect("move").await["ply"], 5);
    assert_eq!(late.expect("move").await["ply"], 6);
    assert_eq!(late.expect("end").await["winner"], "white");
    assert!(late.next().await.is_none());
}

/// Every text answer of the HTTP side for `id`, to look for what must not be there.
async fn every_answer(web: SocketAddr, id: &str) -> Vec<String> {
    let p = path_of(id);
    let mut out = Vec::new();
    for path in [
        "/".to_owned(),
        "/api/games".to_owned(),
        format!("/api/games/{p}"),
        format!("/api/games/{p}/record.csa"),
        format!("/api/games/{p}/record.kif"),
        format!("/games/{p}"),
        "/api/finished".to_owned(),
        "/api/players".to_owned(),
    ] {
        out.push(http::get(web, &path).await.body);
    }
    out
}

#[tokio::test]
async fn the_api_lists_games_with_sfen_and_usi_and_serves_their_records_without_paths() {
    let dir = tempfile::tempdir().unwrap();
    let (addr, web) = start(support::config(Some(dir.path())), loopback()).await;
    let mut black = Client::connect(addr).await;
    let mut white = Client::connect(addr).await;
    let id = start_game(
        &mut black,
        &mut white,
        "LOGIN alice t-600-10,x",
        "LOGIN bob t-600-10,y",
    )
    .await;
    play(&mut black, &mut white).await;

    let games = http::get(web, "/api/games").await;
    assert_eq!(games.status, 200);
    assert!(
        games
            .header("content-type")
            .unwrap()
            .starts_with("application/json")
    );
    assert_eq!(games.header("access-control-allow-origin"), None);
    let games = games.json();
    let game = &games.as_array().unwrap()[0];
    assert_eq!(game["id"], id.as_str());
    assert_eq!(
        (game["black"].as_str(), game["white"].as_str()),
        (Some("alice"), Some("bob"))
    );
    let usi: Vec<_> = MOVES.iter().map(|m| m.1).collect();
    assert_eq!(game["moves"], serde_json::json!(usi));
    // The position now, from a replay of the USI moves by the rules engine.
    let mut pos = kifu_shogi::Position::startpos();
    for m in usi {
        let mv = pos.parse_usi_move(m).unwrap();
        pos.play_unchecked(mv);
    }
    assert_eq!(game["sfen"], pos.to_sfen());
    assert_eq!(game["evaluations"].as_array().unwrap().len(), 6);
    assert_eq!(game["time"]["byoyomi"], 10);

    let one = http::get(web, &format!("/api/games/{}", path_of(&id)))
        .await
        .json();
    assert_eq!(one["sfen"], game["sfen"]);
    let csa = http::get(web, &format!("/api/games/{}/record.csa", path_of(&id))).await;
    assert!(csa.body.contains("+7776FU"), "{}", csa.body);
    assert!(csa.body.contains("N+alice"));
    let kif = http::get(web, &format!("/api/games/{}/record.kif", path_of(&id))).await;
    assert!(kif.body.contains("７六歩"), "{}", kif.body);
    let page = http::get(web, &format!("/games/{}", path_of(&id))).await;
    assert!(
        page.body
            .contains(&format!("data-sfen=\"{}\"", pos.to_sfen()))
    );
    assert!(!page.body.contains("<script src"));

    black.send("%TORYO").await;
    black.until("#LOSE").await;
    white.until("#WIN").await;
    // The store has the game once the record keeper has written it.
    let mut finished = serde_json::Value::Null;
    for _ in 0..250 {
        finished = http::get(web, "/api/finished?player=alice").await.json();
        if finished.as_array().is_some_and(|a| !a.is_empty()) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(finished[0]["id"], id.as_str());
    assert_eq!(finished[0]["reason"], "RESIGN");
    assert!(finished[0].get("path").is_none());
    let players = http::get(web, "/api/players").await.json();
    assert!(players["online"].is_array());

    let data = dir.path().to_str().unwrap();
    for body in every_answer(web, &id).await {
        assert!(
            !body.contains(data),
            "a path of the server's machine in {body}"
        );
    }
}

#[tokio::test]
async fn streams_beyond_the_cap_are_refused_with_a_reason_and_cors_is_only_for_the_origin_named() {
    let mut http_config = loopback();
    http_config.max_spectators = 1;
    http_config.cors = Some("https://example.org".to_owned());
    let (_, web) = start(support::config(None), http_config).await;
    let mut first = http::events(web, "/api/stream").await;
    assert_eq!(first.status, 200);
    first.expect("games").await;
    let second = http::events(web, "/api/stream").await;
    assert_eq!(second.status, 503);
    assert!(
        second.body.contains("too many spectators"),
        "{}",
        second.body
    );
    drop(first);
    // The first stream's permit comes back once its connection is gone.
    let mut ok = false;
    for _ in 0..100 {
        let again = http::events(web, "/api/stream").await;
        if again.status == 200 {
            ok = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(ok, "a stream closed frees its place");

    let games = http::get(web, "/api/games").await;
    assert_eq!(
        games.header("access-control-allow-origin"),
        Some("https://example.org")
    );
    let missing = http::get(web, "/api/games/nothing").await;
    assert_eq!(missing.status, 404);
}
