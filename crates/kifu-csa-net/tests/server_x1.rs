//! shogi-server's extended mode on real sockets: its report formats (`%%WHO`, `%%LIST`,
//! `%%SHOW`, `%%RATING`), `%%CHAT`, `%%HELP`, `%%CHALLENGE`, bare `CHALLENGE`,
//! `%%MONITOR2ON/OFF`, and the scenarios of shogi-server's functional tests
//! (`test/TC_functional.rb` in its public repository), restated against this server.

use std::net::SocketAddr;
use std::time::Duration;

mod support;
use support::Client;

async fn start(event: &str) -> SocketAddr {
    let mut config = support::config(None);
    config.event = event.to_owned();
    support::start(config).await
}

/// A player as shogi-server's functional tests make them: `<game>_<name>`, logged in with
/// x1, asking for `<game>-1500-0` with a side.
async fn x1_player(addr: SocketAddr, game: &str, name: &str) -> Client {
    let mut c = Client::connect(addr).await;
    c.send(&format!("LOGIN {game}_{name} dummy x1")).await;
    assert_eq!(
        c.lines(2).await,
        [format!("LOGIN:{game}_{name} OK"), "##[LOGIN] +OK x1".into()]
    );
    c
}

/// Their handshake: both ask for the game (Black `+`, White `-`), agree, and play
/// `+2726FU` and `-3334FU`. Returns the Game_ID.
async fn handshake(addr: SocketAddr, game: &str, names: [&str; 2]) -> (Client, Client, String) {
    let mut p1 = x1_player(addr, game, names[0]).await;
    let mut p2 = x1_player(addr, game, names[1]).await;
    p1.send(&format!("%%GAME {game}-1500-0 +")).await;
    p2.send(&format!("%%GAME {game}-1500-0 -")).await;
    let summary = p1.until("END Game_Summary").await;
    p2.until("END Game_Summary").await;
    let id = summary
        .iter()
        .find_map(|l| l.strip_prefix("Game_ID:"))
        .unwrap()
        .to_owned();
    p1.send("AGREE").await;
    p2.send("AGREE").await;
    assert_eq!(p1.line().await, format!("START:{id}"));
    assert_eq!(p2.line().await, format!("START:{id}"));
    mv(&mut p1, &mut p2, "+2726FU").await;
    mv(&mut p2, &mut p1, "-3334FU").await;
    (p1, p2, id)
}

/// One move, relayed to both.
async fn mv(mover: &mut Client, other: &mut Client, line: &str) {
    mover.send(line).await;
    let echo = mover.line().await;
    let bare = line.split(',').next().unwrap();
    assert!(echo.starts_with(&format!("{bare},T")), "{line}: {echo}");
    assert_eq!(other.line().await, echo);
}

/// Resigns for `loser` and checks both results.
async fn toryo(loser: &mut Client, winner: &mut Client) {
    loser.send("%TORYO").await;
    assert_eq!(loser.lines(3).await, ["%TORYO", "#RESIGN", "#LOSE"]);
    assert_eq!(winner.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
}

#[tokio::test]
async fn who_list_and_show_in_shogi_servers_formats() {
    let addr = start("cup").await;
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
    // Alice agreed, Bob not yet.
    let mut who = Vec::new();
    // Asks until the server's state shows it, a few times: no duration is asserted.
    for _ in 0..50 {
        w.send("%%WHO").await;
        who = w.until("##[WHO] +OK").await;
        if who[0].contains("start_waiting") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        who[..2],
        [
            "##[WHO] alice CSA start_waiting show-600-10 +",
            "##[WHO] bob CSA agree_waiting show-600-10 -",
        ]
    );
    b.send("AGREE").await;
    a.line().await;
    b.line().await;
    a.send("+7776FU").await;
    assert_eq!(b.line().await, "+7776FU,T0");

    w.send("%%WHO").await;
    assert_eq!(
        w.until("##[WHO] +OK").await,
        [
            "##[WHO] alice CSA game show-600-10 +",
            "##[WHO] bob CSA game show-600-10 -",
            "##[WHO] watcher x1 connected",
            "##[WHO] +OK",
        ]
    );
    w.send("%%LIST").await;
    assert_eq!(
        w.until("##[LIST] +OK").await,
        [format!("##[LIST] {id}"), "##[LIST] +OK".to_owned()]
    );
    w.send(&format!("%%SHOW {id}")).await;
    let show = w.until("##[SHOW] +OK").await;
    assert_eq!(
        show[..2],
        [
            "##[SHOW] BEGIN Game_Summary",
            "##[SHOW] Protocol_Version:1.2"
        ],
        "{show:#?}"
    );
    for line in [
        format!("##[SHOW] Game_ID:{id}"),
        "##[SHOW] Name+:alice".to_owned(),
        "##[SHOW] Name-:bob".to_owned(),
        "##[SHOW] To_Move:-".to_owned(),
        "##[SHOW] Remaining_Time+:600".to_owned(),
        "##[SHOW] Remaining_Time-:600".to_owned(),
        "##[SHOW] Last_Move:+7776FU,T0".to_owned(),
        "##[SHOW] Current_Turn:1".to_owned(),
        // The position as it stands now, not the start and a move list.
        "##[SHOW] P7+FU+FU * +FU+FU+FU+FU+FU+FU".to_owned(),
    ] {
        assert!(show.contains(&line), "{line} not in {show:#?}");
    }
    assert!(!show.iter().any(|l| l.contains("Your_Turn")), "{show:#?}");
    assert!(
        !show.iter().any(|l| l == "##[SHOW] +7776FU,T0"),
        "{show:#?}"
    );
    // The clock lines sit inside the Time block.
    let at = |l: &str| show.iter().position(|x| x.starts_with(l)).unwrap();
    assert!(at("##[SHOW] BEGIN Time") < at("##[SHOW] Remaining_Time+"));
    assert!(at("##[SHOW] Current_Turn") < at("##[SHOW] END Time"));
    // An id not in progress: only the closing line, as shogi-server answers.
    w.send("%%SHOW nosuch").await;
    assert_eq!(w.line().await, "##[SHOW] +OK");

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

#[tokio::test]
async fn challenge_help_rating_chat_and_81dojo_lines() {
    let addr = start("x").await;
    let mut p = x1_player(addr, "challenge", "p1").await;
    // Nobody waits: the challenge fails at once and the player stays free.
    p.send("%%CHALLENGE challenge-1500-0 +").await;
    assert_eq!(
        p.line().await,
        "##[ERROR] can't find rival for challenge-1500-0"
    );
    p.send("%%WHO").await;
    assert_eq!(
        p.until("##[WHO] +OK").await[0],
        "##[WHO] challenge_p1 x1 connected"
    );
    p.send("%%CHALLENGE challenge-1500-0").await;
    assert!(p.line().await.starts_with("##[ERROR] a turn"));
    p.send("CHALLENGE").await;
    assert_eq!(p.line().await, "CHALLENGE ACCEPTED");
    p.send("%%HELP").await;
    let help = p.line().await;
    assert!(
        help.starts_with("##[HELP] ") && help.contains("%%CHAT"),
        "{help}"
    );
    p.send("%%RATING").await;
    assert_eq!(p.line().await, "##[RATING] +OK");
    // 81Dojo's own commands are ignored without an answer.
    p.send("%%%JOIN lobby").await;
    p.send("%%VERSION").await;
    assert!(p.line().await.starts_with("##[VERSION] kifu "));

    // Someone waits: the challenge pairs them at once.
    let mut q = x1_player(addr, "challenge", "p2").await;
    q.send("%%GAME challenge-1500-0 -").await;
    q.send("%%WHO").await;
    q.until("##[WHO] +OK").await;
    p.send("%%CHALLENGE challenge-1500-0 +").await;
    let summary = p.until("END Game_Summary").await;
    assert!(summary.contains(&"Your_Turn:+".to_owned()), "{summary:#?}");
    q.until("END Game_Summary").await;

    // A CSA-mode player hears no chat; x1 players all do, in a game or not.
    let mut csa = Client::connect(addr).await;
    csa.send("LOGIN csa_p chat-60-0").await;
    assert_eq!(csa.line().await, "LOGIN:csa_p OK");
    p.send("%%CHAT Hello everyone").await;
    for c in [&mut p, &mut q] {
        assert_eq!(c.line().await, "##[CHAT][challenge_p1] Hello everyone");
    }
    csa.send("").await;
    assert_eq!(csa.line().await, "");
}

/// TestComment: comments after a move — free text, EUC-JP and UTF-8 — do not end a game.
#[tokio::test]
async fn functional_inline_comments() {
    let addr = start("t").await;
    let (mut p1, mut p2, _) = handshake(addr, "TestComment", ["sente", "gote"]).await;
    mv(&mut p1, &mut p2, "+2625FU,'comment").await;
    mv(&mut p2, &mut p1, "-2233KA").await;
    tokio::io::AsyncWriteExt::write_all(&mut p1.wr, b"+7776FU,'\xc6\xfc\xcb\xdcEUC\n")
        .await
        .unwrap();
    let echo = p1.line().await;
    assert_eq!(echo, "+7776FU,T0");
    assert_eq!(p2.line().await, echo);
    mv(&mut p2, &mut p1, "-4132KI,'日本語UTF8").await;
    toryo(&mut p1, &mut p2).await;
}

/// TestWhiteMovesBlack: White sending a Black move loses by an illegal move.
#[tokio::test]
async fn functional_white_moves_black() {
    let addr = start("t").await;
    let (mut p1, mut p2, _) = handshake(addr, "TestWhiteMovesBlack", ["sente", "gote"]).await;
    mv(&mut p1, &mut p2, "+9796FU").await;
    p2.send("+1716FU").await;
    assert_eq!(p1.lines(2).await, ["#ILLEGAL_MOVE", "#WIN"]);
    assert_eq!(p2.lines(2).await, ["#ILLEGAL_MOVE", "#LOSE"]);
}

/// TestDuplicatedMoves: moves sent early wait for their turn, a resignation too.
#[tokio::test]
async fn functional_deferred_moves() {
    let addr = start("t").await;
    // test_defer: White resigns after the deferred moves are played.
    let (mut p1, mut p2, _) = handshake(addr, "defer1", ["sente", "gote"]).await;
    for l in ["+7776FU", "+8786FU", "+9796FU"] {
        p1.send(l).await;
    }
    for l in ["-7374FU", "-8384FU", "%TORYO"] {
        p2.send(l).await;
    }
    let want = [
        "+7776FU", "-7374FU", "+8786FU", "-8384FU", "+9796FU", "%TORYO",
    ];
    for c in [&mut p1, &mut p2] {
        let got = c.until("#RESIGN").await;
        let moves: Vec<&str> = got.iter().map(|l| l.split(',').next().unwrap()).collect();
        assert_eq!(moves[..6], want, "{got:?}");
    }
    assert_eq!(p1.line().await, "#WIN");
    assert_eq!(p2.line().await, "#LOSE");

    // test_defer2: a deferred resignation ends the game in its turn.
    let (mut p1, mut p2, _) = handshake(addr, "defer2", ["sente", "gote"]).await;
    for l in ["+7776FU", "+8786FU", "%TORYO"] {
        p1.send(l).await;
    }
    for l in ["-7374FU", "-8384FU"] {
        p2.send(l).await;
    }
    assert_eq!(p1.until("#RESIGN").await.len(), 6);
    assert_eq!(p1.line().await, "#LOSE");
    p2.until("#RESIGN").await;
    assert_eq!(p2.line().await, "#WIN");
}

/// TestTwoSameMoves: a move repeated by the same player (a double send) is ignored.
#[tokio::test]
async fn functional_two_same_moves() {
    let addr = start("t").await;
    let (mut p1, mut p2, _) = handshake(addr, "2moves", ["p1", "p2"]).await;
    mv(&mut p1, &mut p2, "+2625FU").await;
    mv(&mut p2, &mut p1, "-8384FU").await;
    p2.send("-8384FU").await;
    mv(&mut p1, &mut p2, "+2524FU").await;
    p2.send("").await;
    assert_eq!(p2.line().await, "");
}

/// TestLoginCSAWithoutTrip / WithTrip / TestChallenge: CSA-mode logins (with a game name:
/// this server refuses a password that names no game) play and answer `CHALLENGE`.
#[tokio::test]
async fn functional_csa_mode_logins_and_challenge() {
    let addr = start("t").await;
    for (game, trips) in [
        ("csawotrip", ["", ""]),
        ("csawtrip", [",atrip", ",anothertrip"]),
    ] {
        let mut p1 = Client::connect(addr).await;
        let mut p2 = Client::connect(addr).await;
        p1.send(&format!("LOGIN {game}_p1 {game}-1500-0{}", trips[0]))
            .await;
        p2.send(&format!("LOGIN {game}_p2 {game}-1500-0{}", trips[1]))
            .await;
        assert_eq!(p1.line().await, format!("LOGIN:{game}_p1 OK"));
        assert_eq!(p2.line().await, format!("LOGIN:{game}_p2 OK"));
        let s1 = p1.until("END Game_Summary").await;
        p2.until("END Game_Summary").await;
        if !s1.contains(&"Your_Turn:+".to_owned()) {
            std::mem::swap(&mut p1, &mut p2);
        }
        p1.send("AGREE").await;
        p2.send("AGREE").await;
        p1.line().await;
        p2.line().await;
        mv(&mut p1, &mut p2, "+7776FU").await;
        mv(&mut p2, &mut p1, "-3334FU").await;
        p1.send("CHALLENGE").await;
        assert_eq!(p1.line().await, "CHALLENGE ACCEPTED");
        toryo(&mut p1, &mut p2).await;
        // CSA-mode players are let go after their game.
        for p in [&mut p1, &mut p2] {
            p.send("LOGOUT").await;
            assert_eq!(p.line().await, "LOGOUT:completed");
            p.closed_within(5).await;
        }
    }
}

/// TestClientAtmark: names with `@`.
#[tokio::test]
async fn functional_names_with_an_at_sign() {
    let addr = start("t").await;
    let (mut p1, mut p2, id) = handshake(addr, "atmark", ["B@p1", "W@p2"]).await;
    assert!(id.contains("+atmark_B@p1+atmark_W@p2+"), "{id}");
    toryo(&mut p1, &mut p2).await;
}

#[tokio::test]
async fn monitor2_relays_the_game_to_a_watcher_until_off() {
    let addr = start("m").await;
    let (mut p1, mut p2, id) = handshake(addr, "watched", ["b", "w"]).await;
    let mut w = x1_player(addr, "watched", "fan").await;
    w.send(&format!("%%MONITOR2ON {id}")).await;
    let prefix = format!("##[MONITOR2][{id}] ");
    let so_far = w.until(&format!("{prefix}+OK")).await;
    assert!(so_far.iter().all(|l| l.starts_with(&prefix)), "{so_far:#?}");
    for want in ["+2726FU", "-3334FU", "N+watched_b"] {
        assert!(
            so_far.contains(&format!("{prefix}{want}")),
            "{want} not in {so_far:#?}"
        );
    }
    mv(&mut p1, &mut p2, "+7776FU").await;
    assert_eq!(
        w.lines(3).await,
        [
            format!("{prefix}+7776FU"),
            format!("{prefix}T0"),
            format!("{prefix}+OK"),
        ]
    );
    w.send(&format!("%%MONITOR2OFF {id}")).await;
    w.send("%%VERSION").await;
    w.until("##[VERSION] +OK").await;
    mv(&mut p2, &mut p1, "-8384FU").await;
    w.send("").await;
    assert_eq!(w.line().await, "", "no move after MONITOR2OFF");
    // On again, and the game's end reaches the watcher.
    w.send(&format!("%%MONITOR2ON {id}")).await;
    w.until(&format!("{prefix}+OK")).await;
    toryo(&mut p1, &mut p2).await;
    let end = w.lines(4).await;
    assert_eq!(
        end,
        [
            format!("{prefix}%TORYO"),
            format!("{prefix}+OK"),
            format!("{prefix}#RESIGN"),
            format!("{prefix}+OK"),
        ]
    );
}

/// `%%MONITORON` (issue 32): the whole game as `%%SHOW` tells it — summary, clocks, the
/// position as it stands — at once and after every move, each line behind
/// `##[MONITOR][<id>]` and closed by `+OK`, as shogi-server sends it; the result at the end;
/// nothing after `%%MONITOROFF`, while a `%%MONITOR2ON` watch of the same connection goes on.
#[tokio::test]
async fn monitor_sends_the_whole_position_after_every_move_until_off() {
    let addr = start("m1").await;
    let (mut p1, mut p2, id) = handshake(addr, "whole", ["b", "w"]).await;
    let mut w = x1_player(addr, "whole", "fan").await;
    let tag = format!("##[MONITOR][{id}] ");
    w.send(&format!("%%MONITORON {id}")).await;
    let now = w.until(&format!("{tag}+OK")).await;
    // What %%SHOW says, line for line.
    w.send(&format!("%%SHOW {id}")).await;
    let show = w.until("##[SHOW] +OK").await;
    let untagged = |lines: &[String], tag: &str| -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                l.strip_prefix(tag)
                    .unwrap_or_else(|| panic!("{l}"))
                    .to_owned()
            })
            .collect()
    };
    assert_eq!(untagged(&now, &tag), untagged(&show, "##[SHOW] "));
    let now = untagged(&now, &tag);
    for want in ["BEGIN Game_Summary", "Current_Turn:2", "+OK"] {
        assert!(now.contains(&want.to_owned()), "{want} in {now:#?}");
    }
    assert!(now.iter().any(|l| l.starts_with("Last_Move:-3334FU,T")));
    // The position as it stands: White's pawn of file 3 has left its rank.
    assert!(
        now.contains(&"P3-FU-FU-FU-FU-FU-FU * -FU-FU".to_owned()),
        "{now:#?}"
    );

    // After a move: the whole game again, with the move in it.
    w.send(&format!("%%MONITOR2ON {id}")).await;
    w.until(&format!("##[MONITOR2][{id}] +OK")).await;
    mv(&mut p1, &mut p2, "+7776FU").await;
    let mut after = Vec::new();
    let mut moves = Vec::new();
    while after.last() != Some(&format!("{tag}+OK")) || moves.len() < 3 {
        let l = w.line().await;
        if l.starts_with(&tag) {
            after.push(l);
        } else {
            moves.push(l);
        }
    }
    let after = untagged(&after, &tag);
    assert!(
        after.iter().any(|l| l.starts_with("Last_Move:+7776FU,T")),
        "{after:#?}"
    );
    assert!(after.contains(&"Current_Turn:3".to_owned()), "{after:#?}");
    assert!(after.contains(&"To_Move:-".to_owned()), "{after:#?}");
    let mon2 = format!("##[MONITOR2][{id}] ");
    assert_eq!(
        moves,
        [
            format!("{mon2}+7776FU"),
            format!("{mon2}T0"),
            format!("{mon2}+OK")
        ]
    );

    // Off: the positions stop, the moves of %%MONITOR2ON go on.
    w.send(&format!("%%MONITOROFF {id}")).await;
    w.send("%%VERSION").await;
    w.until("##[VERSION] +OK").await;
    mv(&mut p2, &mut p1, "-8384FU").await;
    assert_eq!(
        w.lines(3).await,
        [
            format!("{mon2}-8384FU"),
            format!("{mon2}T0"),
            format!("{mon2}+OK")
        ]
    );
    // On again, and the end reaches it as the result alone.
    w.send(&format!("%%MONITOR2OFF {id}")).await;
    w.send(&format!("%%MONITORON {id}")).await;
    w.until(&format!("{tag}+OK")).await;
    toryo(&mut p1, &mut p2).await;
    assert_eq!(
        w.lines(4).await,
        [
            format!("{tag}%TORYO"),
            format!("{tag}+OK"),
            format!("{tag}#RESIGN"),
            format!("{tag}+OK"),
        ]
    );
    w.send("").await;
    assert_eq!(w.line().await, "", "nothing more");
}

/// What a player typed and the server passes on — to other players (`%%CHAT`, a watched
/// game's record) or back in an error — is one line with its control characters escaped:
/// a lone CR must not give any client a line of the sender's making (`#WIN`, `%TORYO`).
#[tokio::test]
async fn player_text_passed_on_has_its_control_characters_escaped() {
    let addr = start("c").await;
    let (mut p1, mut p2, id) = handshake(addr, "ctl", ["b", "w"]).await;
    let mut fan = x1_player(addr, "ctl", "fan").await;

    fan.send("%%CHAT hi\r#WIN\x1b[31m\u{2028}").await;
    let chat = "##[CHAT][ctl_fan] hi\\x0D#WIN\\x1B[31m\\u{2028}";
    for c in [&mut fan, &mut p1, &mut p2] {
        assert_eq!(c.line().await, chat);
    }

    fan.send("HELLO\rWORLD\0").await;
    assert_eq!(
        fan.line().await,
        "##[ERROR] unknown command: HELLO\\x0DWORLD\\x00"
    );
    fan.send("%%BOGUS \r%TORYO").await;
    assert_eq!(
        fan.line().await,
        "##[ERROR] unknown command: %%BOGUS \\x0D%TORYO"
    );
    fan.send("%%GAME bad\x1bname +").await;
    let bad = fan.line().await;
    assert!(
        bad.starts_with("##[ERROR] bad game name: bad\\x1Bname "),
        "{bad}"
    );
    // In a game, too.
    p1.send("FOO\rBAR").await;
    assert_eq!(p1.line().await, "##[ERROR] unknown command: FOO\\x0DBAR");

    // A comment reaches a watcher as the record has it; the record's provisional ending is
    // not shown as the game's.
    p1.send("+7776FU,'* 0\r%TORYO").await;
    assert!(p1.line().await.starts_with("+7776FU,T"));
    p2.line().await;
    fan.send(&format!("%%MONITOR2ON {id}")).await;
    let prefix = format!("##[MONITOR2][{id}] ");
    let so_far = fan.until(&format!("{prefix}+OK")).await;
    assert!(
        so_far.contains(&format!("{prefix}'** 0\\x0D%TORYO")),
        "{so_far:#?}"
    );
    assert!(
        so_far
            .iter()
            .all(|l| !l.contains('\r') && !l.contains("%CHUDAN") && !l.contains("in progress")),
        "{so_far:#?}"
    );
}
