//! shogi-server's x1 report commands on real sockets: `%%WHO`, `%%LIST`, `%%SHOW`.

use std::time::Duration;

use kifu_csa_net::server::{Config, Server};

mod support;
use support::Client;

#[tokio::test]
async fn who_list_and_show() {
    let mut config = Config::new("127.0.0.1:0".parse().unwrap());
    config.event = "cup".to_owned();
    let server = Server::bind(config).await.unwrap();
    let addr = server.local_addr().unwrap();
    tokio::spawn(server.run());

    let mut w = Client::connect(addr).await;
    w.send("LOGIN watcher pw x1").await;
    w.until("##[LOGIN] +OK x1").await;
    let mut a = Client::connect(addr).await;
    a.send("LOGIN alice show-600-10-B").await;
    assert_eq!(a.line().await, "LOGIN:alice OK");
    w.send("%%WHO").await;
    assert_eq!(
        w.until("##[WHO] +OK").await,
        [
            "##[WHO] alice CSA game_waiting show-600-10 +",
            "##[WHO] watcher x1 connected",
            "##[WHO] +OK",
        ]
    );
    w.send("%%LIST").await;
    assert_eq!(w.line().await, "##[LIST] +OK");

    let mut b = Client::connect(addr).await;
    b.send("LOGIN bob show-600-10").await;
    assert_eq!(b.line().await, "LOGIN:bob OK");
    let summary = a.until("END Game_Summary").await;
    let id = summary
        .iter()
        .find_map(|l| l.strip_prefix("Game_ID:"))
        .unwrap()
        .to_owned();
    b.until("END Game_Summary").await;
    a.send("AGREE").await;
    b.send("AGREE").await;
    a.line().await;
    b.line().await;
    a.send("+7776FU").await;
    assert_eq!(b.line().await, "+7776FU,T0");

    w.send("%%WHO").await;
    assert_eq!(
        w.until("##[WHO] +OK").await,
        [
            format!("##[WHO] alice CSA game {id}"),
            format!("##[WHO] bob CSA game {id}"),
            "##[WHO] watcher x1 connected".to_owned(),
            "##[WHO] +OK".to_owned(),
        ]
    );
    w.send("%%LIST").await;
    assert_eq!(
        w.until("##[LIST] +OK").await,
        [format!("##[LIST] {id}"), "##[LIST] +OK".to_owned()]
    );
    w.send(&format!("%%SHOW {id}")).await;
    let show = w.until("##[SHOW] +OK").await;
    let want_start = [
        "##[SHOW] BEGIN Game_Summary".to_owned(),
        "##[SHOW] Protocol_Version:1.2".to_owned(),
    ];
    assert_eq!(show[..2], want_start, "{show:#?}");
    for line in [
        format!("##[SHOW] Game_ID:{id}"),
        "##[SHOW] Name+:alice".to_owned(),
        "##[SHOW] Name-:bob".to_owned(),
        "##[SHOW] Remaining_Time+:600".to_owned(),
        "##[SHOW] Remaining_Time-:600".to_owned(),
        "##[SHOW] Last_Move:+7776FU,T0".to_owned(),
        "##[SHOW] Current_Turn:-".to_owned(),
        "##[SHOW] +7776FU,T0".to_owned(),
    ] {
        assert!(show.contains(&line), "{line} not in {show:#?}");
    }
    assert!(!show.iter().any(|l| l.contains("Your_Turn")), "{show:#?}");
    // The clock lines sit inside the Time block.
    let at = |l: &str| show.iter().position(|x| x.starts_with(l)).unwrap();
    assert!(at("##[SHOW] BEGIN Time") < at("##[SHOW] Remaining_Time+"));
    assert!(at("##[SHOW] Current_Turn") < at("##[SHOW] END Time"));
    w.send("%%SHOW nosuch").await;
    assert_eq!(
        w.line().await,
        "##[ERROR] no game in progress with id nosuch"
    );

    // A waiting x1 player may ask too.
    w.send("%%GAME lonely-60-0 *").await;
    w.send("%%WHO").await;
    assert!(
        w.until("##[WHO] +OK")
            .await
            .contains(&"##[WHO] watcher x1 game_waiting lonely-60-0 *".to_owned())
    );
    w.send("%%GAME").await;

    b.send("%TORYO").await;
    a.until("#WIN").await;
    // A finished game leaves the list.
    let mut listed = Vec::new();
    for _ in 0..50 {
        w.send("%%LIST").await;
        listed = w.until("##[LIST] +OK").await;
        if listed.len() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(listed, ["##[LIST] +OK"]);
}
