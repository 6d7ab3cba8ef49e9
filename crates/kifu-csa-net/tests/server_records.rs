//! What the server reads and writes, on real sockets (127.0.0.1): long move lines with PV
//! comments, lines over the limit, control characters a player sends (which must not shape
//! a record, the index or the log), Game_IDs across a restart, and the records themselves
//! (time control, times, encoding, absolute paths in the index).

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use kifu_csa_net::server::store::Store;
use kifu_csa_net::server::{Config, MAX_LINE_BYTES};
use kifu_record::{EncodingSource, EndingKind, NodeItem, TextEncoding};
use kifu_records::shogi::csa;

mod support;
use support::{Client, start_game, start_with_handle as start};

/// The shared test server's, with a short logout grace: the tests wait it out.
fn config(dir: &Path) -> Config {
    let mut c = support::config(Some(dir));
    c.logout_grace = Duration::from_secs(1);
    c
}

/// The record of `id` once its final version (with `$END_TIME`) is on disk.
async fn final_record(dir: &Path, id: &str) -> String {
    // Real time: the record keeper is a thread of its own that writes as the game goes; this
    // polls its file, with a deadline, and asserts no duration.
    for _ in 0..500 {
        let found = support::csa_records(dir).into_iter().find(|p| {
            p.file_name()
                .is_some_and(|n| n == format!("{id}.csa").as_str())
        });
        if let Some(text) = found.and_then(|p| std::fs::read_to_string(p).ok())
            && text.contains("$END_TIME:")
        {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no final record of {id}");
}

/// A PV of `plies` CSA moves (rooks going to and fro, legal from the start position after
/// `+7776FU -3334FU`; a comment is not judged anyway).
fn pv(plies: usize) -> String {
    let cycle = ["+2818HI", "-8292HI", "+1828HI", "-9282HI"];
    (0..plies)
        .map(|i| cycle[i % 4])
        .collect::<Vec<_>>()
        .join(" ")
}

#[tokio::test]
async fn a_move_with_a_31_ply_pv_is_relayed_and_an_over_limit_line_gets_the_documented_error() {
    let dir = tempfile::tempdir().unwrap();
    let (addr, _server) = start(config(dir.path())).await;
    let mut a = Client::connect(addr).await;
    let mut b = Client::connect(addr).await;
    let id = start_game(
        &mut a,
        &mut b,
        "LOGIN alice pv-60-10-B",
        "LOGIN bob pv-60-10",
    )
    .await;
    let comment = format!("-123 {}", pv(31));
    let line = format!("+7776FU,'* {comment}");
    assert!(
        line.len() > 256,
        "longer than the old limit: {}",
        line.len()
    );
    a.send(&line).await;
    assert_eq!(a.line().await, "+7776FU,T0");
    assert_eq!(b.line().await, "+7776FU,T0");

    // Over the limit: answered, not judged; the game goes on.
    let huge = format!("-3334FU,'* 0 {}", "x".repeat(MAX_LINE_BYTES));
    b.send(&huge).await;
    assert_eq!(
        b.line().await,
        format!(
            "##[ERROR] line too long: {} bytes (the limit is 8192)",
            huge.len()
        )
    );
    b.send("-3334FU").await;
    assert_eq!(b.line().await, "-3334FU,T0");
    assert_eq!(a.line().await, "-3334FU,T0");
    a.send("%TORYO").await;
    assert_eq!(a.lines(3).await, ["%TORYO", "#RESIGN", "#LOSE"]);

    let text = final_record(dir.path(), &id).await;
    assert!(text.contains(&format!("'** {comment}\n")), "{text}");
    assert!(
        !text.contains("xxxx"),
        "the over-long line is nowhere: {text}"
    );
}

#[tokio::test]
async fn control_characters_from_a_player_shape_neither_the_record_nor_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let (addr, _server) = start(config(dir.path())).await;
    let mut a = Client::connect(addr).await;
    let mut b = Client::connect(addr).await;
    let id = start_game(
        &mut a,
        &mut b,
        "LOGIN alice inject-60-10-B",
        "LOGIN bob inject-60-10",
    )
    .await;
    a.send("+7776FU,'* 5 nul\0esc\x1b[2J").await;
    assert_eq!(a.line().await, "+7776FU,T0");
    assert_eq!(b.line().await, "+7776FU,T0");
    // The attack: a lone CR, then what would be Black's resignation on a line of its own.
    b.send("-3334FU,'* 0\r%TORYO").await;
    assert_eq!(b.line().await, "-3334FU,T0");
    assert_eq!(a.line().await, "-3334FU,T0");
    // An illegal move whose text carries ESC and NUL: its note goes to the record and log.
    a.send("+9\x1b[31m9\0").await;
    assert_eq!(a.lines(2).await, ["#ILLEGAL_MOVE", "#LOSE"]);
    assert_eq!(b.lines(2).await, ["#ILLEGAL_MOVE", "#WIN"]);

    let text = final_record(dir.path(), &id).await;
    for c in ['\r', '\0', '\x1b'] {
        assert!(!text.contains(c), "{c:?} in the record:\n{text}");
    }
    assert!(text.contains("'** 0\\x0D%TORYO\n"), "{text}");
    assert!(text.contains("nul\\x00esc\\x1B[2J"), "{text}");
    assert!(!text.lines().any(|l| l == "%TORYO"), "{text}");
    // kifu's reader, like any line reader, sees White win by Black's illegal move.
    let parsed = csa::read(&text);
    assert!(!parsed.has_errors(), "{text}");
    let record = &parsed.records[0];
    let last = record.moves.main_line_end();
    assert_eq!(
        record.moves[last].item,
        NodeItem::End(EndingKind::IllegalMoveLoss)
    );
    assert_eq!(
        record.moves.main_line().count(),
        3,
        "two moves and the ending"
    );

    // The log: one line per event, no control character.
    let log = std::fs::read_to_string(dir.path().join("server.log")).unwrap();
    for c in ['\r', '\0', '\x1b'] {
        assert!(!log.contains(c), "{c:?} in the log:\n{log}");
    }
    let ended: Vec<&str> = log.lines().filter(|l| l.contains(" ended: ")).collect();
    assert_eq!(ended.len(), 1, "{log}");
    assert!(ended[0].contains("+9\\x1B[31m9\\x00"), "{}", ended[0]);
}

#[tokio::test]
async fn a_restart_within_the_same_second_gives_a_new_game_id_and_keeps_the_earlier_record() {
    let dir = tempfile::tempdir().unwrap();
    let play = |addr: SocketAddr| async move {
        let mut a = Client::connect(addr).await;
        let mut b = Client::connect(addr).await;
        let id = start_game(
            &mut a,
            &mut b,
            "LOGIN alice again-60-10-B",
            "LOGIN bob again-60-10",
        )
        .await;
        a.send("%TORYO").await;
        assert_eq!(a.lines(3).await, ["%TORYO", "#RESIGN", "#LOSE"]);
        id
    };
    let (addr, first) = start(config(dir.path())).await;
    let id1 = play(addr).await;
    let record1 = final_record(dir.path(), &id1).await;
    first.abort();
    let _ = first.await;

    // What an earlier run left for the seconds to come: every id this pair could get
    // without a suffix is taken, so the restarted server must find another.
    let second_of = |id: &str| id.rsplit('+').next().unwrap().parse::<u64>().unwrap();
    let base = id1.rsplit_once('+').unwrap().0.to_owned();
    let day = support::csa_records(dir.path())[0]
        .parent()
        .unwrap()
        .to_owned();
    let mut planted = Vec::new();
    for s in second_of(&id1) + 1..second_of(&id1) + 4 {
        let path = day.join(format!("{base}+{s}.csa"));
        std::fs::write(&path, format!("'earlier {s}\n")).unwrap();
        planted.push(path);
    }

    // The first record moved away (an archivist at work): its id stays taken, by the index.
    let path1 = support::csa_records(dir.path())
        .into_iter()
        .find(|p| p.file_stem().is_some_and(|s| s == id1.as_str()))
        .unwrap();
    let moved = dir.path().join("moved.txt");
    std::fs::rename(&path1, &moved).unwrap();

    let (addr, _second) = start(config(dir.path())).await;
    let id2 = play(addr).await;
    assert_ne!(id2, id1);
    assert!(id2.ends_with("-2"), "{id2}");
    let record2 = final_record(dir.path(), &id2).await;
    assert!(record2.contains(&format!("$EVENT:{id2}")), "{record2}");
    assert_eq!(std::fs::read_to_string(&moved).unwrap(), record1);
    assert!(!path1.exists(), "no new record under the first game's id");
    for p in &planted {
        let text = std::fs::read_to_string(p).unwrap();
        assert!(text.starts_with("'earlier "), "{} replaced", p.display());
    }
    let store = Store::open(&dir.path().join("kifu.sqlite")).unwrap();
    let games = store.games().unwrap();
    let row1 = games.iter().find(|g| g.id == id1).unwrap();
    assert_eq!(
        row1.path,
        path1.display().to_string(),
        "the first row is untouched"
    );
    assert_eq!(row1.reason, "RESIGN");
    assert!(games.iter().any(|g| g.id == id2), "{games:?}");
}

#[tokio::test]
async fn records_carry_the_time_control_and_times_and_the_index_absolute_paths() {
    let dir = tempfile::tempdir().unwrap();
    let (addr, _server) = start(config(dir.path())).await;
    let mut a = Client::connect(addr).await;
    let mut b = Client::connect(addr).await;
    let id = start_game(
        &mut a,
        &mut b,
        "LOGIN alice fischer-300-10F-B",
        "LOGIN bob fischer-300-10F",
    )
    .await;
    a.send("+7776FU").await;
    assert_eq!(a.line().await, "+7776FU,T0");
    assert_eq!(b.line().await, "+7776FU,T0");
    b.send("%TORYO").await;
    assert_eq!(b.lines(3).await, ["%TORYO", "#RESIGN", "#LOSE"]);
    let text = final_record(dir.path(), &id).await;
    assert!(text.contains("$TIME:300+0+10\n"), "{text}");
    assert!(text.contains("$START_TIME:"), "{text}");
    assert!(text.contains("$END_TIME:"), "{text}");
    let store = Store::open(&dir.path().join("kifu.sqlite")).unwrap();
    let row = store
        .games()
        .unwrap()
        .into_iter()
        .find(|g| g.id == id)
        .unwrap();
    assert!(Path::new(&row.path).is_absolute(), "{}", row.path);
    assert_eq!(std::fs::read_to_string(&row.path).unwrap(), text);
}

#[tokio::test]
async fn a_v2_2_record_declares_utf_8_when_it_is_not_ascii_and_stays_plain_when_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = config(dir.path());
    c.csa_version = csa::CsaVersion::V22;
    let (addr, _server) = start(c).await;
    for (game, comment) in [("jp-60-10", "30 日本語"), ("en-60-10", "30 plain")] {
        let mut a = Client::connect(addr).await;
        let mut b = Client::connect(addr).await;
        let id = start_game(
            &mut a,
            &mut b,
            &format!("LOGIN alice {game}-B"),
            &format!("LOGIN bob {game}"),
        )
        .await;
        a.send(&format!("+7776FU,'* {comment}")).await;
        assert_eq!(a.line().await, "+7776FU,T0");
        assert_eq!(b.line().await, "+7776FU,T0");
        b.send("%TORYO").await;
        assert_eq!(b.lines(3).await, ["%TORYO", "#RESIGN", "#LOSE"]);
        a.send("LOGOUT").await;
        b.send("LOGOUT").await;
        let text = final_record(dir.path(), &id).await;
        if comment.is_ascii() {
            assert!(text.starts_with("V2.2\n"), "{text}");
            assert!(text.is_ascii());
        } else {
            assert!(text.starts_with("'CSA encoding=UTF-8\nV2.2\n"), "{text}");
        }
        assert!(text.contains("$TIME_LIMIT:00:01+10\n"), "{text}");
        assert!(text.contains(&format!("'** {comment}")), "{text}");
        let decoded = kifu_record::decode(text.as_bytes(), TextEncoding::ShiftJis);
        assert_eq!(decoded.text, text);
        let source = if comment.is_ascii() {
            EncodingSource::Detected
        } else {
            EncodingSource::Declared
        };
        assert_eq!(decoded.source, source);
    }
}
