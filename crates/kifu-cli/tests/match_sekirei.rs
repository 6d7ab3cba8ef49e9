//! `kifu match` with a real engine: sekirei at 20,000 nodes against itself at 200, the
//! command line of the issue as written; then the same directory extended to 40 games
//! without the SPRT (a resume), every record valid by `kifu check`; kifu's own CPU per
//! game against the engines' at 0.1 s a move; three node limits in a round robin (KIF
//! records) and a gauntlet from a match file; and SIGINT then the same command again.

use std::path::{Path, PathBuf};
use std::process::Command;

fn kifu(dir: &Path, args: &[&str]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "kifu {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    out
}

fn book() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/book.sfen")
}

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
#[ignore = "needs sekirei: run scripts/setup-test-deps"]
fn sekirei_20000_nodes_beats_200_and_the_sprt_stops_early() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(book(), dir.path().join("book.sfen")).unwrap();
    let engine = kifu_testkit::sekirei().display().to_string();
    let (strong_cmd, weak_cmd) = (format!("cmd={engine}"), format!("cmd={engine}"));
    let out = kifu(
        dir.path(),
        &[
            "match",
            "--engine",
            "name=strong",
            &strong_cmd,
            "option.Threads=1",
            "nodes=20000",
            "--engine",
            "name=weak",
            &weak_cmd,
            "option.Threads=1",
            "nodes=200",
            "--games",
            "200",
            "--concurrency",
            "2",
            "--openings",
            "book.sfen",
            "--sprt",
            "elo0=0,elo1=100,alpha=0.05,beta=0.05",
            "-o",
            "match/",
            "--json",
        ],
    );
    let summary = json(&out);
    eprintln!("{summary:#}");
    assert_eq!(summary["sprt"]["verdict"], "H1", "{summary:#}");
    let finished = summary["finished"].as_u64().unwrap();
    assert!(finished < 200, "stopped early: {finished}");
    assert!(summary["sprt"]["llr"].as_f64().unwrap() >= summary["sprt"]["upper"].as_f64().unwrap());

    // The same match extended to 40 games without the test: only the missing games are played.
    let out = kifu(
        dir.path(),
        &[
            "match",
            "--engine",
            "name=strong",
            &strong_cmd,
            "option.Threads=1",
            "nodes=20000",
            "--engine",
            "name=weak",
            &weak_cmd,
            "option.Threads=1",
            "nodes=200",
            "--games",
            "40",
            "--concurrency",
            "2",
            "--openings",
            "book.sfen",
            "-o",
            "match/",
            "--json",
        ],
    );
    let summary = json(&out);
    assert_eq!(summary["finished"], 40);
    assert_eq!(
        summary["played_now"].as_u64().unwrap(),
        40 - finished.min(40)
    );
    let strong = &summary["engines"][0];
    let weak = &summary["engines"][1];
    assert!(
        strong["points"].as_f64().unwrap() > weak["points"].as_f64().unwrap(),
        "{summary:#}"
    );
    // Colours alternate pair by pair.
    let ledger = std::fs::read_to_string(dir.path().join("match/ledger.jsonl")).unwrap();
    let mut rows: Vec<serde_json::Value> = ledger
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    rows.sort_by_key(|r| r["game"].as_u64().unwrap());
    assert_eq!(rows.len(), 40);
    for r in &rows {
        let odd = r["game"].as_u64().unwrap() % 2 == 1;
        assert_eq!(r["black"], if odd { "strong" } else { "weak" }, "{r}");
    }
    // Every record valid by `kifu check` (the directory's JSON files are not records).
    let records: Vec<PathBuf> = std::fs::read_dir(dir.path().join("match"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "csa"))
        .collect();
    let check = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .arg("check")
        .args(&records)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    let records = std::fs::read_dir(dir.path().join("match"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "csa")
        })
        .count();
    assert_eq!(records, 40);
}

#[test]
#[ignore = "needs sekirei: run scripts/setup-test-deps"]
fn kifu_spends_under_one_percent_of_the_engines_cpu_at_a_tenth_of_a_second_a_move() {
    let dir = tempfile::tempdir().unwrap();
    let engine = kifu_testkit::sekirei().display().to_string();
    let cmd = format!("cmd={engine}");
    let out = kifu(
        dir.path(),
        &[
            "match",
            "--engine",
            "name=a",
            &cmd,
            "option.Threads=1",
            "--engine",
            "name=b",
            &cmd,
            "option.Threads=1",
            "--movetime",
            "100",
            "--games",
            "2",
            "--concurrency",
            "1",
            "--openings",
            book().to_str().unwrap(),
            "-o",
            "m",
            "--json",
        ],
    );
    let summary = json(&out);
    let kifu_s = summary["cpu_seconds"]["kifu"].as_f64().unwrap();
    let engines_s = summary["cpu_seconds"]["engines"].as_f64().unwrap();
    let plies: u64 = std::fs::read_to_string(dir.path().join("m/ledger.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["plies"]
                .as_u64()
                .unwrap()
        })
        .sum();
    eprintln!(
        "{} games, {plies} plies: kifu {kifu_s:.3} s CPU ({:.3} ms a ply), engines {engines_s:.3} s CPU ({:.3} %)",
        summary["finished"],
        1000.0 * kifu_s / plies as f64,
        100.0 * kifu_s / engines_s
    );
    // What the engines are given is 0.1 s a move. Their measured CPU falls short of it when
    // the machine is shared (each gets a slice of a busy core, and sekirei may stop early),
    // so kifu's CPU is held against the time the engines are given; both are printed.
    assert!(engines_s > 0.0, "the engines thought");
    let given = 0.1 * plies as f64;
    assert!(
        kifu_s < 0.01 * given,
        "kifu {kifu_s} s against the engines' {given} s of thinking time"
    );
}

/// Every record in `dir` with extension `ext` is valid by `kifu check`; returns how many.
fn check_records(dir: &Path, ext: &str) -> usize {
    let records: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    let check = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .arg("check")
        .args(&records)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    records.len()
}

/// Three node limits of sekirei in a round robin (KIF records, ShogiHome's comments) and,
/// from a TOML match file, a gauntlet: standings and crosstable in the JSON and in the text,
/// every record valid, and the engine with the most nodes first.
#[test]
#[ignore = "needs sekirei: run scripts/setup-test-deps"]
fn sekirei_at_three_node_limits_in_a_round_robin_and_a_gauntlet_from_a_match_file() {
    let dir = tempfile::tempdir().unwrap();
    let engine = kifu_testkit::sekirei().display().to_string();
    let cmd = format!("cmd={engine}");
    let mut args = vec!["match".to_owned()];
    for (name, nodes) in [("n3000", 3000), ("n300", 300), ("n30", 30)] {
        args.extend([
            "--engine".to_owned(),
            format!("name={name}"),
            cmd.clone(),
            "option.Threads=1".to_owned(),
            format!("nodes={nodes}"),
        ]);
    }
    args.extend(["--games", "4", "--concurrency", "2", "--openings"].map(str::to_owned));
    args.push(book().display().to_string());
    args.extend(["--format", "kif", "-o", "rr"].map(str::to_owned));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let text = kifu(dir.path(), &argv);
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    eprintln!("{text}");
    assert!(text.contains("total"), "a crosstable: {text}");
    assert!(text.contains("12 of 12 games finished"), "{text}");
    let mut with_json = argv.clone();
    with_json.push("--json");
    // The same command again: the match is complete, nothing is played, the JSON is printed.
    let summary = json(&kifu(dir.path(), &with_json));
    eprintln!("{summary:#}");
    assert_eq!(summary["mode"], "round-robin");
    assert_eq!(summary["played_now"], 0);
    assert_eq!(summary["games"], 12);
    assert_eq!(summary["standings"][0], "n3000", "{summary:#}");
    assert_eq!(summary["crosstable"].as_array().unwrap().len(), 3);
    assert_eq!(check_records(&dir.path().join("rr"), "kif"), 12);
    let any_kif = std::fs::read_dir(dir.path().join("rr"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "kif"))
        .unwrap();
    let kif = kifu_record::decode(
        &std::fs::read(any_kif).unwrap(),
        kifu_record::TextEncoding::ShiftJis,
    )
    .text
    .into_owned();
    assert!(
        kif.contains("**評価値=") && kif.contains("**読み筋="),
        "{kif}"
    );

    // A gauntlet from a match file; the command line overrides its games.
    std::fs::write(
        dir.path().join("gauntlet.toml"),
        format!(
            r#"
mode = "gauntlet"
games = 100
concurrency = 2
openings = "{book}"
output = "g"

[[engine]]
name = "n3000"
cmd = "{engine}"
nodes = 3000
options = {{ Threads = 1 }}

[[engine]]
name = "n300"
cmd = "{engine}"
nodes = 300
options = {{ Threads = 1 }}

[[engine]]
name = "n30"
cmd = "{engine}"
nodes = 30
options = {{ Threads = 1 }}
"#,
            book = book().display()
        ),
    )
    .unwrap();
    let summary = json(&kifu(
        dir.path(),
        &[
            "match",
            "--config",
            "gauntlet.toml",
            "--games",
            "4",
            "--json",
        ],
    ));
    eprintln!("{summary:#}");
    assert_eq!(summary["mode"], "gauntlet");
    assert_eq!(summary["games"], 8);
    assert_eq!(summary["pairings"].as_array().unwrap().len(), 2);
    assert_eq!(summary["standings"][0], "n3000", "{summary:#}");
    assert_eq!(check_records(&dir.path().join("g"), "csa"), 8);
}

/// The acceptance's interruption, end to end: `kifu match` is sent SIGINT (as Ctrl-C sends it)
/// after some games are finished, exits 0 saying how to continue, and the same command again
/// finishes the requested games — each game once in the ledger, one record each, all valid.
#[test]
#[ignore = "needs sekirei: run scripts/setup-test-deps"]
fn sigint_then_the_same_command_finishes_the_match_with_no_game_lost_or_twice() {
    let dir = tempfile::tempdir().unwrap();
    let engine = kifu_testkit::sekirei().display().to_string();
    let cmd = format!("cmd={engine}");
    let book = book().display().to_string();
    let args = [
        "match",
        "--engine",
        "name=a",
        &cmd,
        "option.Threads=1",
        "nodes=300",
        "--engine",
        "name=b",
        &cmd,
        "option.Threads=1",
        "nodes=100",
        "--games",
        "10",
        "--concurrency",
        "2",
        "--openings",
        &book,
        "-o",
        "m",
        "--json",
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .current_dir(dir.path())
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let ledger = dir.path().join("m/ledger.jsonl");
    let finished = || {
        std::fs::read_to_string(&ledger)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    let started = std::time::Instant::now();
    while finished() < 2 {
        assert!(
            started.elapsed().as_secs() < 300,
            "no two games finished in 5 minutes"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = json(&out);
    assert_eq!(first["interrupted"], true, "{first:#}");
    let done_first = first["finished"].as_u64().unwrap();
    assert!((2..10).contains(&done_first), "{first:#}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("the same command continues it"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let second = json(&kifu(dir.path(), &args));
    assert_eq!(second["interrupted"], false);
    assert_eq!(second["finished"], 10);
    assert_eq!(
        second["played_now"].as_u64().unwrap(),
        10 - done_first,
        "only the missing games are played"
    );
    let mut games: Vec<u64> = std::fs::read_to_string(&ledger)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["game"]
                .as_u64()
                .unwrap()
        })
        .collect();
    games.sort_unstable();
    assert_eq!(games, (1..=10).collect::<Vec<_>>(), "every game once");
    assert_eq!(
        check_records(&dir.path().join("m"), "csa"),
        10,
        "one record a game"
    );
}
