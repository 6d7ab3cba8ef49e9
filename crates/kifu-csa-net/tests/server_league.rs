//! A league over real sockets: six scripted CSA-mode players in a league scheduled every three
//! seconds play three rounds; the pairing avoids rematches, colours balance, and `%%RATING`
//! gives the ratings an independent computation of `mk_rate`'s method gives for the results
//! the players saw.
//!
//! This test runs on real time: league rounds start at wall-clock times (hh:00, hh:30 … here
//! every 3 s), which tokio's paused clock does not move.

mod support;

use std::collections::BTreeMap;

use kifu_csa_net::server::league::Leagues;
use kifu_stats::ratings::{Method, Outcome, RatedGame, rate};
use support::{Client, config, csa_records, start};

const GAME: &str = "league-60-0";

/// One player's game. Black wins (White resigns after Black's first move): every player, with
/// one or two games as Black in three, then has both a win and a loss, which `mk_rate` needs to
/// rate them (a player who never lost has no finite rating).
async fn play(addr: std::net::SocketAddr, me: usize) -> (String, char) {
    let mut c = Client::connect(addr).await;
    c.send(&format!("LOGIN p{me} {GAME}")).await;
    assert_eq!(c.line().await, format!("LOGIN:p{me} OK"));
    let summary = c.until("END Game_Summary").await;
    let field = |key: &str| {
        summary
            .iter()
            .find_map(|l| l.strip_prefix(key).map(str::to_owned))
            .unwrap()
    };
    let turn = field("Your_Turn:").chars().next().unwrap();
    let (black, white) = (field("Name+:"), field("Name-:"));
    let opponent = if turn == '+' { white } else { black };
    c.send("AGREE").await;
    assert!(c.line().await.starts_with("START:"));
    if turn == '+' {
        c.send("+7776FU").await;
        c.until("#WIN").await;
    } else {
        assert!(c.line().await.starts_with("+7776FU"));
        c.send("%TORYO").await;
        c.until("#LOSE").await;
    }
    c.send("LOGOUT").await;
    assert_eq!(c.line().await, "LOGOUT:completed");
    (opponent, turn)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_players_play_three_league_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(Some(dir.path()));
    cfg.leagues = Leagues::parse(&format!(
        "[[league]]\ngame = \"{GAME}\"\nevery = \"3s\"\npairing = \"least-difference\"\n\
         [ratings]\nmin_games = 1\n"
    ))
    .unwrap();
    let addr = start(cfg).await;

    // Per player: (opponent, colour) of each round.
    let mut history: BTreeMap<usize, Vec<(String, char)>> = BTreeMap::new();
    for _round in 0..3 {
        let games: Vec<_> = (1..=6).map(|me| tokio::spawn(play(addr, me))).collect();
        for (me, game) in (1..=6).zip(games) {
            history.entry(me).or_default().push(game.await.unwrap());
        }
    }

    for (me, games) in &history {
        // No rematch in consecutive rounds: another opponent was always free.
        for w in games.windows(2) {
            assert_ne!(
                w[0].0, w[1].0,
                "p{me} met {} twice in a row: {games:?}",
                w[0].0
            );
        }
        // Colours balance: three games, so two of one colour and one of the other.
        let blacks = games.iter().filter(|g| g.1 == '+').count();
        assert!((1..=2).contains(&blacks), "p{me}: {games:?}");
    }

    // The same method on the results as the players saw them (Black won every game).
    let mut games = Vec::new();
    for (me, played) in &history {
        for (opponent, _) in played.iter().filter(|g| g.1 == '+') {
            games.push(RatedGame {
                black: format!("p{me}"),
                white: opponent.clone(),
                outcome: Outcome::BlackWin,
                age_days: 0.0,
                abnormal: false,
                plies: 1,
            });
        }
    }
    assert_eq!(games.len(), 9);
    let method = Method {
        min_games: 1.0,
        ..Method::default()
    };
    let expected = rate(&games, &method);
    let mut want: Vec<(usize, i64)> = expected
        .groups
        .iter()
        .flatten()
        .map(|p| (p.id[1..].parse().unwrap(), p.rate))
        .collect();
    want.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    // Every round (nobody waits now) brings the ratings up to date from the store, where the
    // record keeper writes each finished game's row off the runtime: ask until the third
    // round's games are in.
    let mut x1 = Client::connect(addr).await;
    x1.send("LOGIN watcher secret x1").await;
    assert_eq!(x1.line().await, "LOGIN:watcher OK");
    let mut attempts = 0;
    let (rated, lines) = loop {
        x1.send("%%RATING").await;
        let lines = x1.until("##[RATING] +OK").await;
        // `##[RATING] <name> \t <rate> @<day>`, highest first.
        let rated: Vec<(usize, i64)> = lines
            .iter()
            .filter(|l| l.starts_with("##[RATING] ") && *l != "##[RATING] +OK")
            .map(|l| {
                let rest = l
                    .strip_prefix("##[RATING] p")
                    .unwrap_or_else(|| panic!("{lines:?}"));
                let (name, rest) = rest.split_once(" \t ").unwrap();
                let (rate, day) = rest.trim_start().split_once(" @").unwrap();
                assert_eq!(day.len(), 10, "{l}");
                (name.parse().unwrap(), rate.parse().unwrap())
            })
            .collect();
        attempts += 1;
        if rated == want || attempts == 10 {
            break (rated, lines);
        }
        tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    };
    assert_eq!(rated, want, "{lines:?}");
    assert!(!rated.is_empty());
    // The store keeps them too (what other tools read), written just after they are computed.
    let mut sorted_want = want.clone();
    sorted_want.sort();
    let mut kept = Vec::new();
    for _ in 0..50 {
        let rows = kifu_csa_net::server::store::Store::open(&dir.path().join("kifu.sqlite"))
            .unwrap()
            .ratings()
            .unwrap();
        kept = rows
            .iter()
            .filter(|(_, _, group)| *group != 999)
            .map(|(id, rate, _)| (id[1..].parse::<usize>().unwrap(), *rate))
            .collect::<Vec<_>>();
        kept.sort();
        if kept == sorted_want {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(kept, sorted_want);
    assert!(rated.windows(2).all(|w| w[0].1 >= w[1].1));

    // A fourth round: its records carry floodgate's rate lines with those ratings, before the
    // first move, and read back as valid records.
    let before: std::collections::BTreeSet<_> = csa_records(dir.path()).into_iter().collect();
    let games: Vec<_> = (1..=6).map(|me| tokio::spawn(play(addr, me))).collect();
    for game in games {
        game.await.unwrap();
    }
    let rate_of = |id: &str| {
        let n: usize = id[1..].parse().unwrap();
        rated.iter().find(|r| r.0 == n).map(|r| r.1)
    };
    let mut new = Vec::new();
    for _ in 0..50 {
        new = csa_records(dir.path())
            .into_iter()
            .filter(|p| !before.contains(p))
            .map(|p| std::fs::read_to_string(p).unwrap())
            .filter(|t| t.contains("%TORYO"))
            .collect::<Vec<_>>();
        if new.len() == 3 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(new.len(), 3);
    for text in &new {
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key).map(str::to_owned))
                .unwrap()
        };
        let (black, white) = (field("N+"), field("N-"));
        let header: Vec<&str> = text
            .lines()
            .take_while(|l| !l.starts_with("+7776FU"))
            .collect();
        assert!(
            header.contains(&format!("'rating:{black}:{white}").as_str()),
            "{text}"
        );
        for (side, id) in [("black", &black), ("white", &white)] {
            if let Some(r) = rate_of(id) {
                let line = format!("'{side}_rate:{id}:{r}");
                assert!(header.contains(&line.as_str()), "{line} in {text}");
            }
        }
        let parsed = kifu_records::shogi::csa::read(text);
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        assert_eq!(parsed.records.len(), 1);
    }
}
