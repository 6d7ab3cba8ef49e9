//! `kifu csa-server standings`: ratings, results and the crosstable from a server's store,
//! here a store filled with a fixed set of results through the server's own store API.

use std::process::Command;

use kifu_csa_net::server::store::{GameRow, Store};

fn row(n: usize, black: &str, white: &str, winner: &str) -> GameRow {
    GameRow {
        id: format!("kifu+league-60-0+{black}+{white}+{n}"),
        game_name: "league-60-0".into(),
        black: black.into(),
        white: white.into(),
        black_id: black.into(),
        white_id: white.into(),
        start_time: "2026/11/28 10:00:00".into(),
        end_time: format!("2026/11/28 10:{:02}:00", n % 60),
        reason: "RESIGN".into(),
        winner: winner.into(),
        plies: 80,
        path: String::new(),
    }
}

#[test]
fn standings_rate_the_players_and_cross_their_results() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut store = Store::open(&dir.path().join("kifu.sqlite")).unwrap();
        // alice beats bob 3 of 4, bob beats carol 3 of 4, carol beats alice 1 of 4; dave has
        // one game only.
        let mut n = 0;
        for (a, b, wins) in [
            ("alice", "bob", 3),
            ("bob", "carol", 3),
            ("alice", "carol", 3),
        ] {
            for i in 0..4 {
                n += 1;
                let winner = if i < wins { "+" } else { "-" };
                store.finish_game(&row(n, a, b, winner)).unwrap();
            }
        }
        store.finish_game(&row(99, "dave", "alice", "")).unwrap();
    }
    std::fs::write(
        dir.path().join("league.toml"),
        "[[league]]\ngame = \"league-60-0\"\nevery = \"30m\"\n[ratings]\nmin_games = 4\n",
    )
    .unwrap();

    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["csa-server", "standings", "--data"])
        .arg(dir.path())
        .arg("--league")
        .arg(dir.path().join("league.toml"))
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 13);
    let players = v["players"].as_array().unwrap();
    let names: Vec<&str> = players
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["alice", "bob", "carol", "dave"]);
    let rates: Vec<Option<i64>> = players.iter().map(|p| p["rate"].as_i64()).collect();
    assert!(rates[0] > rates[1] && rates[1] > rates[2], "{rates:?}");
    assert_eq!(rates[3], None, "one game is too few to be rated");
    assert_eq!(
        (
            players[0]["wins"].as_u64(),
            players[0]["draws"].as_u64(),
            players[0]["losses"].as_u64()
        ),
        (Some(6), Some(1), Some(2))
    );
    assert_eq!(
        v["crosstable"]["alice"]["bob"],
        serde_json::json!([3, 0, 1])
    );
    assert_eq!(
        v["crosstable"]["bob"]["alice"],
        serde_json::json!([1, 0, 3])
    );
    assert_eq!(
        v["crosstable"]["dave"]["alice"],
        serde_json::json!([0, 1, 0])
    );

    let text = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["csa-server", "standings", "--data"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.starts_with("13 finished games\n"), "{text}");
    assert!(text.contains("crosstable"), "{text}");

    let missing = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["csa-server", "standings", "--data"])
        .arg(dir.path().join("nowhere"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("has no store"));
}
