//! `kifu convert` never loses a record: not by writing over an input, another output of the
//! same run or a file that was there before, not by leaving half a file, not by keeping one game
//! of many (issue 11 cases 1 and 4; issue 12 case 5 for the KI2 encoding).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn corpus(rel: &str) -> String {
    kifu_testkit::corpus::path(rel)
        .to_string_lossy()
        .into_owned()
}

fn kifu_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// `coll/game.csa` and `coll/game.kif`: one game in two formats, as the issue found them.
fn collection() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let coll = tmp.path().join("coll");
    std::fs::create_dir(&coll).unwrap();
    let examples = repo().join("examples/records");
    std::fs::copy(examples.join("random-game.csa"), coll.join("game.csa")).unwrap();
    std::fs::copy(examples.join("random-game.kif"), coll.join("game.kif")).unwrap();
    tmp
}

fn plies(dir: &Path, file: &str) -> u64 {
    let out = kifu_in(dir, &["check", "--json", file]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["summary"]["total"]["errors"], 0, "{file}: {doc}");
    doc["summary"]["total"]["plies"].as_u64().unwrap()
}

#[test]
fn colliding_outputs_get_distinct_names_and_a_note() {
    let tmp = collection();
    let out = kifu_in(
        tmp.path(),
        &["convert", "coll", "--to", "kifu", "-o", "out"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        names(&tmp.path().join("out")),
        ["game.csa.kifu", "game.kif.kifu"]
    );
    let err = stderr(&out);
    assert!(
        err.contains("coll/game.kif: note: 2 inputs of this run would become out/game.kifu; written as out/game.kif.kifu"),
        "{err}"
    );
    assert!(err.contains("converted 2 of 2 files"), "{err}");
    assert_eq!(plies(tmp.path(), "out/game.csa.kifu"), 89);
    assert_eq!(plies(tmp.path(), "out/game.kif.kifu"), 89);
}

#[test]
fn existing_files_are_kept_unless_forced() {
    let tmp = collection();
    let out_dir = tmp.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    std::fs::write(out_dir.join("game.csa.kifu"), "mine").unwrap();
    let out = kifu_in(
        tmp.path(),
        &["convert", "coll", "--to", "kifu", "-o", "out"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("out/game.csa.kifu: exists; not overwritten (--force replaces it)"),
        "{err}"
    );
    assert!(err.contains("converted 1 of 2 files"), "{err}");
    assert!(err.contains("1 failed"), "{err}");
    assert_eq!(
        std::fs::read_to_string(out_dir.join("game.csa.kifu")).unwrap(),
        "mine"
    );

    let out = kifu_in(
        tmp.path(),
        &["convert", "coll", "--to", "kifu", "-o", "out", "--force"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(plies(tmp.path(), "out/game.csa.kifu"), 89);

    // A single output file is kept the same way.
    let out = kifu_in(
        tmp.path(),
        &[
            "convert",
            "coll/game.kif",
            "--to",
            "kifu",
            "-o",
            "out/game.csa.kifu",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("--force"));
}

#[test]
fn inputs_are_never_overwritten_even_with_force() {
    let tmp = collection();
    let coll = tmp.path().join("coll");
    let before = std::fs::read(coll.join("game.csa")).unwrap();
    for force in [false, true] {
        let mut args = vec!["convert", "coll", "--to", "csa", "-o", "coll"];
        if force {
            args.push("--force");
        }
        let out = kifu_in(tmp.path(), &args);
        assert_eq!(std::fs::read(coll.join("game.csa")).unwrap(), before);
        assert!(out.status.code().is_some(), "{}", stderr(&out));
    }
    assert!(
        names(&coll).contains(&"game.kif.csa".to_string()),
        "{:?}",
        names(&coll)
    );
    let out = kifu_in(
        tmp.path(),
        &[
            "convert",
            "coll/game.csa",
            "--to",
            "csa",
            "-o",
            "coll/game.csa",
            "--force",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("is an input of this run"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(coll.join("game.csa")).unwrap(), before);
}

#[test]
fn a_failed_conversion_leaves_no_file_and_is_counted() {
    let tmp = tempfile::tempdir().unwrap();
    let coll = tmp.path().join("coll");
    std::fs::create_dir(&coll).unwrap();
    std::fs::copy(
        repo().join("examples/records/random-game.kif"),
        coll.join("good.kif"),
    )
    .unwrap();
    std::fs::copy(
        repo().join("examples/invalid/nifu.kifu"),
        coll.join("bad.kifu"),
    )
    .unwrap();
    let out = kifu_in(tmp.path(), &["convert", "coll", "--to", "csa", "-o", "out"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("二歩"), "{err}");
    assert!(
        err.contains("converted 1 of 2 files (1 written into out), 1 failed"),
        "{err}"
    );
    // Only the good file, and no temporary file left behind.
    assert_eq!(names(&tmp.path().join("out")), ["good.csa"]);
}

#[test]
fn many_records_to_a_one_game_format() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let archive = corpus("shogi/bulk/all_games.csa");
    let out = kifu_in(dir, &["convert", &archive, "--to", "kif", "-o", "one.kif"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holds 500 records"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.join("one.kif").exists());
    // The same to standard output.
    let out = kifu_in(dir, &["convert", &archive, "--to", "jkf"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());

    let out = kifu_in(dir, &["convert", &archive, "--to", "kif", "-o", "each/"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let each = names(&dir.join("each"));
    assert_eq!(each.len(), 500);
    for n in 1..=500 {
        assert!(each.contains(&format!("all_games-{n}.kif")), "{n}");
    }
    let out = kifu_in(dir, &["check", "--json", "each"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["summary"]["total"]["records"], 500, "{doc}");
    assert_eq!(doc["summary"]["total"]["errors"], 0);

    // One record chosen: the same file as the third of the directory.
    let out = kifu_in(
        dir,
        &[
            "convert",
            &archive,
            "--to",
            "kif",
            "-o",
            "third.kif",
            "--record",
            "3",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(dir.join("third.kif")).unwrap(),
        std::fs::read(dir.join("each/all_games-3.kif")).unwrap()
    );
    let out = kifu_in(
        dir,
        &["convert", &archive, "--to", "kif", "--record", "501"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("holds 500 records; give 1 to 500"));

    // A format that holds many keeps them all in one file.
    let out = kifu_in(dir, &["convert", &archive, "--to", "usi", "-o", "all.usi"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = kifu_in(dir, &["check", "--json", "all.usi"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["summary"]["total"]["records"], 500);
}

#[test]
fn chu_ndjson_records_one_by_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let games = corpus("chu/lishogi-games.ndjson");
    let out = kifu_in(dir, &["convert", &games, "--to", "csl", "-o", "one.csl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holds 10 records"),
        "{}",
        stderr(&out)
    );
    let out = kifu_in(dir, &["convert", &games, "--to", "csl", "-o", "each/"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(names(&dir.join("each")).len(), 10);
    let out = kifu_in(dir, &["convert", &games, "--to", "usi", "--record", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let second = String::from_utf8(out.stdout).unwrap();
    assert_eq!(second.lines().count(), 1, "{second}");
    let out = kifu_in(dir, &["show", &games, "--record", "2", "--ply", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = kifu_in(dir, &["show", &games, "--record", "11"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn cetkaik_records_are_counted_too() {
    let tmp = tempfile::tempdir().unwrap();
    let record = corpus("cetkaik/cerke_online/case1_2022-05-31.ckka");
    let out = kifu_in(
        tmp.path(),
        &["convert", &record, "--to", "ckka1", "--record", "1"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = kifu_in(
        tmp.path(),
        &["convert", &record, "--to", "ckka1", "--record", "2"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holds 1 record; give 1 to 1"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn ki2_and_kif_encodings_follow_the_output_extension() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let game = repo().join("examples/records/random-game.csa");
    let game = game.to_str().unwrap();
    for (to, file, utf8) in [
        ("ki2", "a.ki2u", true),
        ("ki2u", "b.ki2", false),
        ("kif", "c.kifu", true),
        ("ki2", "d.ki2", false),
    ] {
        let out = kifu_in(dir, &["convert", game, "--to", to, "-o", file]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", stderr(&out));
        let bytes = std::fs::read(dir.join(file)).unwrap();
        assert_eq!(std::str::from_utf8(&bytes).is_ok(), utf8, "{to} -o {file}");
        assert_eq!(plies(dir, file), 89, "{file}");
    }
    // Without --to, the extension names the format.
    let out = kifu_in(dir, &["convert", game, "-o", "e.ki2u"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.join("e.ki2u")).unwrap();
    assert!(text.contains("▲４六歩"), "{text}");
}

#[test]
fn check_takes_one_record_of_many() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let archive = corpus("shogi/bulk/all_games.csa");
    let one = kifu_in(dir, &["convert", &archive, "--to", "csa", "--record", "7"]);
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    std::fs::write(dir.join("seventh.csa"), &one.stdout).unwrap();
    let alone = plies(dir, "seventh.csa");
    let out = kifu_in(dir, &["check", "--json", "--record", "7", &archive]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["summary"]["total"]["records"], 1, "{doc}");
    assert_eq!(doc["summary"]["total"]["plies"], alone, "{doc}");
    let out = kifu_in(dir, &["check", "--record", "501", &archive]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("holds 500 records"));
    let out = kifu_in(dir, &["check", "--record", "0", &archive]);
    assert_eq!(out.status.code(), Some(2));
}

/// `--record N` into a format that holds many games reads, judges and writes record N alone,
/// as into a one-game format: another record's errors do not stop it, N's own do.
#[test]
fn one_record_of_an_archive_is_judged_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("two.csa"),
        "V2.2\nPI\n+\n+7776FU\n-3334FU\n/\nV2.2\nPI\n+\n+7776KY\n",
    )
    .unwrap();
    for to in ["usi", "kif"] {
        let out = kifu_in(dir, &["convert", "two.csa", "--to", to, "--record", "1"]);
        assert_eq!(out.status.code(), Some(0), "{to}: {}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        // KIF goes out in Shift_JIS: its ASCII `(77)` is enough to see the first move.
        assert!(
            text.contains("7g7f") || text.contains("(77)"),
            "{to}: {text}"
        );
        let out = kifu_in(dir, &["convert", "two.csa", "--to", to, "--record", "2"]);
        assert_eq!(out.status.code(), Some(1), "{to}");
        assert!(
            stderr(&out).contains("not converted"),
            "{to}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "{to}");
    }
    // The whole archive, with its broken second record, is not converted.
    let out = kifu_in(dir, &["convert", "two.csa", "--to", "usi"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}
