//! Storage faults, injected on real files: a record directory that cannot be made, a
//! record that cannot be replaced, a store locked by another process; and, in a tier that
//! needs root to mount, the real ones: a small tmpfs filled to the last byte and a record
//! directory bound read-only. No login is refused for them, no game is played unrecorded,
//! and once the fault is gone every record is valid and every index row matches its file.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use kifu_csa_net::server::store::{GameRow, Store};
use kifu_csa_net::wall_time::Stamp;

mod support;
use support::{Client, config, csa_records, start, start_game};

fn log_text(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("server.log")).unwrap_or_default()
}

/// The month directory records of today go under (`data/YYYY/MM`).
fn month_dir(data: &Path) -> PathBuf {
    let [y, m, _] = Stamp::now().dirs();
    data.join(y).join(m)
}

/// Waits until `check` holds, for at most 15 s.
async fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(15);
    while !check() {
        assert!(Instant::now() < until, "{what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every row of the index against its record: the record is valid CSA, ends as the row
/// says, and holds as many moves.
fn rows_match_records(data: &Path) -> Vec<GameRow> {
    let store = Store::open(&data.join("kifu.sqlite")).unwrap();
    let rows = store.games().unwrap();
    for row in &rows {
        let text = std::fs::read_to_string(&row.path).unwrap();
        let parsed = kifu_records::shogi::csa::read(&text);
        assert!(!parsed.has_errors(), "{}:\n{text}", row.path);
        let moves = text
            .lines()
            .filter(|l| {
                l.len() >= 7 && l.starts_with(['+', '-']) && l.as_bytes()[1].is_ascii_digit()
            })
            .count();
        assert_eq!(moves as u32, row.plies, "{row:?}\n{text}");
        let ending = text
            .lines()
            .rev()
            .find(|l| l.starts_with('%'))
            .unwrap_or("");
        let expected = match row.reason.as_str() {
            "RESIGN" => "%TORYO",
            "CHUDAN" => "%CHUDAN",
            other => panic!("a reason this test does not play: {other}"),
        };
        assert_eq!(ending, expected, "{row:?}\n{text}");
    }
    rows
}

#[tokio::test]
async fn a_game_that_cannot_be_recorded_is_refused_before_it_starts_and_told_why() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let addr = start(config(Some(data))).await;
    // Today's record directory cannot be made: a file stands where it would go.
    let month = month_dir(data);
    std::fs::create_dir_all(month.parent().unwrap()).unwrap();
    std::fs::write(&month, "in the way").unwrap();

    // CSA-mode players log in, hear why, and are let go.
    let mut b = Client::connect(addr).await;
    let mut w = Client::connect(addr).await;
    b.send("LOGIN carol norec-600-10-B").await;
    assert_eq!(b.line().await, "LOGIN:carol OK");
    w.send("LOGIN dave norec-600-10").await;
    assert_eq!(w.line().await, "LOGIN:dave OK");
    for c in [&mut b, &mut w] {
        c.until("END Game_Summary").await;
        let why = c.line().await;
        assert!(
            why.starts_with("##[ERROR] the server cannot record this game (")
                && why.ends_with("): it is not played"),
            "{why}"
        );
        let reject = c.line().await;
        assert!(
            reject.starts_with("REJECT:")
                && reject.ends_with(" by the Server (no record can be written)"),
            "{reject}"
        );
        c.closed_within(5).await;
    }
    // x1 players stay, and play once the operator has made room.
    let mut x = Client::connect(addr).await;
    let mut y = Client::connect(addr).await;
    for (c, n) in [(&mut x, "xavier"), (&mut y, "yuki")] {
        c.send(&format!("LOGIN {n} pw x1")).await;
        assert_eq!(
            c.lines(2).await,
            [format!("LOGIN:{n} OK"), "##[LOGIN] +OK x1".into()]
        );
    }
    x.send("%%GAME norec-600-10 +").await;
    y.send("%%GAME norec-600-10 -").await;
    x.until("END Game_Summary").await;
    assert!(
        x.line()
            .await
            .starts_with("##[ERROR] the server cannot record")
    );
    assert!(x.line().await.starts_with("REJECT:"));
    std::fs::remove_file(&month).unwrap();
    y.until("END Game_Summary").await;
    assert!(
        y.line()
            .await
            .starts_with("##[ERROR] the server cannot record")
    );
    assert!(y.line().await.starts_with("REJECT:"));
    x.send("%%GAME norec-600-10 +").await;
    y.send("%%GAME norec-600-10 -").await;
    start_game(&mut x, &mut y, "", "").await;
    x.send("%TORYO").await;
    assert_eq!(y.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
    eventually("the game's row", || {
        Store::open(&data.join("kifu.sqlite"))
            .unwrap()
            .games()
            .unwrap()
            .iter()
            .any(|g| g.reason == "RESIGN")
    })
    .await;
    let rows = rows_match_records(data);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(csa_records(data).len(), 1);
    let log = log_text(data);
    assert!(log.contains("no record can be written in "), "{log}");
}

#[tokio::test]
async fn a_failing_store_and_record_refuse_no_login_and_are_written_when_the_fault_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let addr = start(config(Some(data))).await;
    // A finished game: both players have rows now.
    let mut b = Client::connect(addr).await;
    let mut w = Client::connect(addr).await;
    start_game(
        &mut b,
        &mut w,
        "LOGIN ann st-600-10-B,ann-pw",
        "LOGIN ben st-600-10",
    )
    .await;
    b.send("%TORYO").await;
    assert_eq!(w.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
    eventually("the first game's row", || {
        Store::open(&data.join("kifu.sqlite"))
            .unwrap()
            .games()
            .unwrap()
            .len()
            == 1
            && Store::open(&data.join("kifu.sqlite"))
                .unwrap()
                .player("ben")
                .unwrap()
                .is_some()
    })
    .await;

    // Another process holds the store's write lock: every write of the server fails.
    let lock = rusqlite::Connection::open(data.join("kifu.sqlite")).unwrap();
    lock.execute_batch("BEGIN EXCLUSIVE").unwrap();
    // The players log in all the same (their logins are counted later, or not at all) …
    let mut b = Client::connect(addr).await;
    let mut w = Client::connect(addr).await;
    let id = start_game(
        &mut b,
        &mut w,
        "LOGIN ann st-600-10-B,ann-pw",
        "LOGIN ben st-600-10",
    )
    .await;
    // … and the record cannot be replaced by its final version either: a directory
    // stands where its temporary file goes.
    let record = csa_records(data)
        .into_iter()
        .find(|p| p.file_stem().is_some_and(|s| s.to_string_lossy() == id))
        .expect("the game's record, reserved at its start");
    let tmp = record.with_file_name(format!(
        ".{}.tmp",
        record.file_name().unwrap().to_string_lossy()
    ));
    std::fs::create_dir(&tmp).unwrap();
    for (i, mv) in ["+7776FU", "-3334FU", "+8822UM"].into_iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut b, &mut w)
        } else {
            (&mut w, &mut b)
        };
        mover.send(mv).await;
        mover.line().await;
        other.line().await;
    }
    w.send("%TORYO").await;
    assert_eq!(b.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
    // The log says what failed.
    eventually("the failures in the log", || {
        let log = log_text(data);
        log.contains("a finished game's record was not written (it is tried again)")
    })
    .await;
    // Meanwhile the record on disk is the valid provisional one.
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(
        text.trim_end().ends_with("%CHUDAN") || text.contains("\n%CHUDAN\n"),
        "{text}"
    );
    assert!(
        !kifu_records::shogi::csa::read(&text).has_errors(),
        "{text}"
    );

    // The faults go: the record and the row follow without anyone asking.
    std::fs::remove_dir(&tmp).unwrap();
    lock.execute_batch("COMMIT").unwrap();
    drop(lock);
    eventually("the second game's row", || {
        Store::open(&data.join("kifu.sqlite"))
            .unwrap()
            .games()
            .unwrap()
            .iter()
            .any(|g| g.id == id && g.reason == "RESIGN")
    })
    .await;
    let rows = rows_match_records(data);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows.iter().find(|r| r.id == id).unwrap().plies, 3);
    let store = Store::open(&data.join("kifu.sqlite")).unwrap();
    let ben = store.player("ben").unwrap().unwrap();
    assert_eq!((ben.wins, ben.losses), (1, 1));
    let log = log_text(data);
    assert!(log.contains("record written after"), "{log}");
    // No temporary file is left behind.
    assert!(!tmp.exists());
}

#[tokio::test]
async fn at_start_rows_of_games_left_unfinished_are_closed_to_match_their_records() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    // A row as a server killed mid-game leaves it, and its record with two moves.
    let record = data.join("2026/01/01/kifu+t-600-10+a+b+20260101000000.csa");
    std::fs::create_dir_all(record.parent().unwrap()).unwrap();
    std::fs::write(
        &record,
        "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\nT1\n-3334FU\nT2\n%CHUDAN\n",
    )
    .unwrap();
    {
        let store = Store::open(&data.join("kifu.sqlite")).unwrap();
        store
            .begin_game(&GameRow {
                id: "kifu+t-600-10+a+b+20260101000000".into(),
                game_name: "t-600-10".into(),
                black: "a".into(),
                white: "b".into(),
                black_id: "a".into(),
                white_id: "b".into(),
                start_time: "2026/01/01 00:00:00".into(),
                end_time: String::new(),
                reason: "CHUDAN".into(),
                winner: String::new(),
                plies: 0,
                path: record.display().to_string(),
            })
            .unwrap();
    }
    let _addr = start(config(Some(data))).await;
    let rows = rows_match_records(data);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].plies, 2);
    assert!(!rows[0].end_time.is_empty());
    assert!(log_text(data).contains("closed 1 index row(s) of games left unfinished"));
}

/// Every game's `(id, reason, end_time)` in the index, read without writing anything (the
/// server is the one writer).
fn index_states(store: &Path) -> Vec<(String, String, String)> {
    let Ok(conn) =
        rusqlite::Connection::open_with_flags(store, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
    else {
        return Vec::new();
    };
    let Ok(mut stmt) = conn.prepare("SELECT id, reason, end_time FROM games") else {
        return Vec::new();
    };
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .map(|rows| rows.flatten().collect())
        .unwrap_or_default()
}

/// A hundred games resign at the same moment. While their records and rows are written, the
/// index shows each one in progress or finished, never interrupted (a row used to say
/// `CHUDAN` from `START` until the record keeper, writing one flushed record after another,
/// came to it), and in the end every row is final and matches its file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_ending_all_at_once_never_show_as_interrupted() {
    const GAMES: usize = 100;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_owned();
    let addr = start(config(Some(&data))).await;
    let mut pairs = Vec::new();
    for g in 0..GAMES {
        let mut b = Client::connect(addr).await;
        let mut w = Client::connect(addr).await;
        start_game(
            &mut b,
            &mut w,
            &format!("LOGIN b{g} many-600-10-B"),
            &format!("LOGIN w{g} many-600-10"),
        )
        .await;
        pairs.push((b, w));
    }
    // Someone watching the index the whole time.
    let store = data.join("kifu.sqlite");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let (store, stop) = (store.clone(), stop.clone());
        tokio::task::spawn_blocking(move || {
            let mut seen_interrupted = Vec::new();
            let mut looks = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                for (id, reason, _) in index_states(&store) {
                    if reason == "CHUDAN" {
                        seen_interrupted.push(id);
                    }
                }
                looks += 1;
                std::thread::sleep(Duration::from_millis(2));
            }
            (seen_interrupted, looks)
        })
    };
    eventually("every game indexed as started", || {
        index_states(&store).len() == GAMES
    })
    .await;
    for (b, _) in &mut pairs {
        b.send("%TORYO").await;
    }
    for (b, w) in &mut pairs {
        assert_eq!(w.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
        assert_eq!(b.lines(3).await, ["%TORYO", "#RESIGN", "#LOSE"]);
    }
    let results = Instant::now();
    eventually("every row final", || {
        let rows = index_states(&store);
        rows.len() == GAMES && rows.iter().all(|(_, _, end)| !end.is_empty())
    })
    .await;
    eprintln!(
        "every row final {} ms after the last result reached its player",
        results.elapsed().as_millis()
    );
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (seen_interrupted, looks) = watcher.await.unwrap();
    assert!(looks > 1, "the index was watched");
    assert!(
        seen_interrupted.is_empty(),
        "{} sightings of a game as interrupted, e.g. {:?}",
        seen_interrupted.len(),
        seen_interrupted.first()
    );
    let rows = rows_match_records(&data);
    assert_eq!(rows.len(), GAMES);
    assert!(rows.iter().all(|r| r.reason == "RESIGN" && r.plies == 0));
}

/// A file system mounted for one test (a small tmpfs, or a read-only bind mount), unmounted
/// when it goes. Mounting needs root (CAP_SYS_ADMIN): the tests that use it are a tier of
/// their own.
struct Mount(PathBuf);

impl Mount {
    fn run(args: &[&str]) {
        let out = std::process::Command::new("mount")
            .args(args)
            .output()
            .expect("mount(8)");
        assert!(
            out.status.success(),
            "mount {args:?}: {} (these tests need root)",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }

    /// A tmpfs of `kib` KiB on `at`.
    fn tmpfs(at: &Path, kib: u64) -> Mount {
        std::fs::create_dir_all(at).unwrap();
        let size = format!("size={kib}k");
        Mount::run(&["-t", "tmpfs", "-o", &size, "tmpfs", at.to_str().unwrap()]);
        Mount(at.to_owned())
    }

    /// `at` bound onto itself, read-only: nothing below it can be written, even by root.
    fn read_only(at: &Path) -> Mount {
        let p = at.to_str().unwrap();
        Mount::run(&["--bind", p, p]);
        let m = Mount(at.to_owned());
        Mount::run(&["-o", "remount,bind,ro", p]);
        m
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.0)
            .status();
    }
}

/// Fills the file system of `dir` to the last byte with `dir/filler`.
fn fill(dir: &Path) -> PathBuf {
    use std::io::Write as _;
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    for chunk in [64 * 1024, 512, 1] {
        let bytes = vec![b'x'; chunk];
        while f.write_all(&bytes).is_ok() {}
    }
    path
}

/// Plays `moves` alternately from Black, each read by both.
async fn play(b: &mut Client, w: &mut Client, moves: &[&str]) {
    for (i, mv) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut *b, &mut *w)
        } else {
            (&mut *w, &mut *b)
        };
        mover.send(mv).await;
        assert!(mover.line().await.starts_with(mv));
        assert!(other.line().await.starts_with(mv));
    }
}

/// Stray temporary files of atomic writes below `dir`.
fn stray_tmp_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_owned()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.to_string_lossy().ends_with(".tmp") {
                out.push(p);
            }
        }
    }
    out
}

/// The records and the store on a 4 MiB tmpfs that fills up while games are played: logins
/// go on, games in progress and games that end meanwhile keep valid records, and once space
/// returns every record is final, every row matches its file and nothing is left behind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs root and mount: run scripts/test as root"]
async fn a_full_disk_costs_no_login_and_no_game_and_everything_is_written_once_space_returns() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let _disk = Mount::tmpfs(&data, 4096);
    let addr = start(config(Some(&data))).await;
    let mut b = Client::connect(addr).await;
    let mut w = Client::connect(addr).await;
    start_game(
        &mut b,
        &mut w,
        "LOGIN ann full-600-10-B,ann-pw",
        "LOGIN ben full-600-10",
    )
    .await;
    play(&mut b, &mut w, &["+7776FU", "-3334FU"]).await;

    let filler = fill(&data);
    // The disk is full: a game already going goes on, and one more starts and plays.
    play(&mut b, &mut w, &["+8822UM", "-3122GI"]).await;
    let mut c = Client::connect(addr).await;
    let mut d = Client::connect(addr).await;
    start_game(
        &mut c,
        &mut d,
        "LOGIN cid full-600-10-B",
        "LOGIN dora full-600-10",
    )
    .await;
    play(&mut c, &mut d, &["+2726FU"]).await;
    // Both end while it is full: the players have their results all the same.
    b.send("%TORYO").await;
    assert_eq!(w.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
    d.send("%TORYO").await;
    assert_eq!(c.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
    // Logins are not refused for a full disk.
    let mut e = Client::connect(addr).await;
    e.send("LOGIN eve pw x1").await;
    assert_eq!(e.line().await, "LOGIN:eve OK");
    eventually("the failures in the log", || {
        log_text(&data).contains("was not written (it is tried again)")
    })
    .await;
    // Meanwhile every record on disk is valid (the provisional one, or the final one).
    for record in csa_records(&data) {
        let text = std::fs::read_to_string(&record).unwrap();
        if !text.is_empty() {
            assert!(
                !kifu_records::shogi::csa::read(&text).has_errors(),
                "{text}"
            );
        }
    }

    std::fs::remove_file(filler).unwrap();
    eventually("both rows final", || {
        let rows = index_states(&data.join("kifu.sqlite"));
        rows.len() == 2 && rows.iter().all(|(_, reason, _)| reason == "RESIGN")
    })
    .await;
    let rows = rows_match_records(&data);
    assert_eq!(
        rows.iter().map(|r| r.plies).collect::<Vec<_>>(),
        [4, 1],
        "{rows:?}"
    );
    assert_eq!(csa_records(&data).len(), 2);
    assert_eq!(stray_tmp_files(&data), Vec::<PathBuf>::new());
    let store = Store::open(&data.join("kifu.sqlite")).unwrap();
    assert_eq!(store.player("ben").unwrap().unwrap().wins, 1);
    assert_eq!(store.player("cid").unwrap().unwrap().wins, 1);
}

/// Today's record directory made read-only (a bind mount) mid-game: the game ends for its
/// players, a game seated meanwhile is refused with the reason rather than played
/// unrecorded, and once the directory can be written again the record and the row are the
/// final ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs root and mount: run scripts/test as root"]
async fn a_read_only_record_directory_refuses_new_games_and_loses_no_finished_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_owned();
    let addr = start(config(Some(&data))).await;
    let mut b = Client::connect(addr).await;
    let mut w = Client::connect(addr).await;
    let id = start_game(
        &mut b,
        &mut w,
        "LOGIN ann ro-600-10-B,ann-pw",
        "LOGIN ben ro-600-10",
    )
    .await;
    play(&mut b, &mut w, &["+7776FU", "-3334FU"]).await;
    let [_, _, day] = Stamp::now().dirs();
    let today = month_dir(&data).join(day);
    let read_only = Mount::read_only(&today);
    assert!(
        std::fs::write(today.join("probe"), "x").is_err(),
        "read-only"
    );
    play(&mut b, &mut w, &["+8822UM"]).await;
    w.send("%TORYO").await;
    assert_eq!(b.lines(3).await, ["%TORYO", "#RESIGN", "#WIN"]);
    // A game seated now could not be recorded: it is not played.
    let mut c = Client::connect(addr).await;
    let mut d = Client::connect(addr).await;
    c.send("LOGIN cid ro-600-10-B").await;
    assert_eq!(c.line().await, "LOGIN:cid OK");
    d.send("LOGIN dora ro-600-10").await;
    assert_eq!(d.line().await, "LOGIN:dora OK");
    for p in [&mut c, &mut d] {
        p.until("END Game_Summary").await;
        let why = p.line().await;
        assert!(
            why.starts_with("##[ERROR] the server cannot record this game ("),
            "{why}"
        );
        assert!(p.line().await.starts_with("REJECT:"));
    }
    eventually("the failure in the log", || {
        log_text(&data).contains("a finished game's record was not written")
    })
    .await;
    // The index says the game is not over yet rather than tell of an ending its file lacks.
    let rows = index_states(&data.join("kifu.sqlite"));
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].1.as_str(), rows[0].2.as_str()), ("", ""));

    drop(read_only);
    eventually("the row final", || {
        index_states(&data.join("kifu.sqlite"))
            .iter()
            .any(|(i, reason, _)| *i == id && reason == "RESIGN")
    })
    .await;
    let rows = rows_match_records(&data);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].plies, 3);
    assert_eq!(csa_records(&data).len(), 1, "no record of the refused game");
    assert_eq!(stray_tmp_files(&data), Vec::<PathBuf>::new());
    let store = Store::open(&data.join("kifu.sqlite")).unwrap();
    assert!(store.player("cid").unwrap().is_none(), "no tally");
}
