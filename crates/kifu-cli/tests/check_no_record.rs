//! `kifu check` never calls garbage valid, and stdin and files behave the same (issue 11 case
//! 3, command side); `--strict` and the skipped files in `--json`.

mod support;

use std::path::Path;
use support::*;

/// Bytes that no generator of records would write: a fixed xorshift stream, so that a
/// failure can be reproduced.
fn noise(len: usize) -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// The example KIF (Shift_JIS) saved as UTF-16LE without a byte-order mark.
fn utf16le_kif() -> Vec<u8> {
    let sjis = std::fs::read(repo().join("examples/records/random-game.kif")).unwrap();
    let out = kifu_with(&["convert", "-", "--format", "kif", "--to", "kifu"], &sjis);
    let utf8 = String::from_utf8(out.stdout).unwrap();
    assert!(utf8.contains("４六歩"));
    utf8.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

fn assert_no_record(name: &str, bytes: &[u8], why: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    let from_file = kifu(&["check", path.to_str().unwrap()]);
    assert_eq!(
        from_file.status.code(),
        Some(1),
        "{name}: {}",
        text(&from_file.stdout)
    );
    let said = text(&from_file.stdout);
    assert!(said.contains(why), "{name}: {said}");
    let format = Path::new(name).extension().unwrap().to_str().unwrap();
    let game = match format {
        "ndjson" => "chu",
        "ckka" => "cetkaik",
        _ => "shogi",
    };
    let from_stdin = kifu_with(&["check", "-", "--game", game, "--format", format], bytes);
    assert_eq!(
        from_stdin.status.code(),
        Some(1),
        "{name} on stdin: {}",
        text(&from_stdin.stdout)
    );
    assert!(text(&from_stdin.stdout).contains(why), "{name} on stdin");
}

#[test]
fn garbage_is_not_a_record() {
    assert_no_record("list.txt", b"Shopping list\neggs\nmilk\nbread\n", "error");
    assert_no_record(
        "notes.kif",
        "Shopping list: eggs, milk\nbread\n".as_bytes(),
        "error",
    );
    assert_no_record("noise.kif", &noise(4096), "error");
    assert_no_record("noise.csa", &noise(4096), "error");
    assert_no_record("empty.kif", b"", "error");
    assert_no_record("blank.csa", b"\n  \n", "error");
    // The other games too (their readers say why, or else the command does).
    assert_no_record("empty.ndjson", b"", "error");
    assert_no_record("empty.ckka", b"\n", "error");
}

/// BOM-less UTF-16 is read as such, or refused: never 89 moves turned into 0.
#[test]
fn utf16_without_a_bom_is_read_or_refused() {
    let bytes = utf16le_kif();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("utf16.kif");
    std::fs::write(&path, &bytes).unwrap();
    let from_file = kifu(&["check", "--json", path.to_str().unwrap()]);
    let from_stdin = kifu_with(&["check", "--json", "-", "--format", "kif"], &bytes);
    for out in [from_file, from_stdin] {
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let total = &doc["summary"]["total"];
        match out.status.code() {
            Some(0) => assert_eq!(total["plies"], 89, "{doc}"),
            Some(1) => assert!(total["errors"].as_u64().unwrap() > 0, "{doc}"),
            other => panic!("{other:?}: {doc}"),
        }
    }
}

#[test]
fn random_bytes_on_stdin_without_a_format() {
    let out = kifu_with(&["check", "-"], noise(4096));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
}

#[test]
fn a_real_record_with_no_moves_is_still_a_record() {
    let out = kifu_with(
        &["check", "-", "--format", "csa"],
        b"N+Sente\nN-Gote\nPI\n+\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn strict_counts_warnings_as_failures() {
    // A KIF line kifu does not know is a warning: valid, but not under --strict.
    let kif = "手合割：平手\nここは何だろう\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
    let out = kifu_with(&["check", "-", "--format", "kifu"], kif.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("warning"));
    let out = kifu_with(
        &["check", "-", "--format", "kifu", "--strict"],
        kif.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("--strict: the warnings count as failures"));
    let out = kifu(&["check", "examples/records", "--strict"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn json_names_the_skipped_files() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        repo().join("examples/records/random-game.csa"),
        tmp.path().join("game.csa"),
    )
    .unwrap();
    std::fs::write(tmp.path().join("notes.md"), "not a record").unwrap();
    std::fs::write(tmp.path().join("photo.png"), [0x89, b'P', b'N', b'G']).unwrap();
    let out = kifu(&["check", "--json", tmp.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let skipped: Vec<String> = doc["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert!(skipped[0].ends_with("notes.md") && skipped[1].ends_with("photo.png"));
    assert_eq!(doc["summary"]["skipped"], 2);
}
