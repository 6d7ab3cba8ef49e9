//! `kifu check` reads each file's bytes once (issue 27): the front door decodes the bytes
//! read, and the game, the format and the records are all judged on that one decoded text;
//! nothing opens the file again to sniff it. Shown with named pipes, which can be read only
//! once: a second read of one would find nothing, or wait for a writer forever.

#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn fifo(path: &Path) {
    let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads the NUL-terminated name it is given and nothing else.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
}

#[test]
fn check_reads_each_file_once() {
    let tmp = tempfile::tempdir().unwrap();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/records");
    // A name that says nothing (`.txt`) and one that does: both judged on the bytes read.
    let cases = [
        ("random-game.csa", "game.txt"),
        ("random-game.kif", "game.kif"),
    ];
    let mut writers = Vec::new();
    let mut names = Vec::new();
    for (source, name) in cases {
        let path = tmp.path().join(name);
        fifo(&path);
        let bytes = std::fs::read(examples.join(source)).unwrap();
        names.push(path.to_str().unwrap().to_string());
        // Each pipe is written once, by a writer that opens it once.
        writers.push(std::thread::spawn(move || {
            std::fs::write(&path, bytes).unwrap();
        }));
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["check", "--json", "-j", "1"])
        .args(&names)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("kifu check waited on a pipe already read: it opened a file twice");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    for writer in writers {
        writer.join().unwrap();
    }
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let files = doc["files"].as_array().unwrap();
    let read: Vec<(&str, u64)> = files
        .iter()
        .map(|f| (f["format"].as_str().unwrap(), f["plies"].as_u64().unwrap()))
        .collect();
    assert_eq!(read, [("csa", 89), ("kif", 89)], "{doc}");
}
