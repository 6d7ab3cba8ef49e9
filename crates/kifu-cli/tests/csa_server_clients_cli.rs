//! `kifu csa-server` and two `kifu csa-client` processes, each driving a real USI engine
//! process, play a game on 127.0.0.1; the clients' records read back with kifu's CSA reader.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `sekirei` on PATH, else the small test engine kifu-csa-net builds next to `kifu`.
fn engine() -> Option<String> {
    let on_path = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("sekirei"))
            .find(|f| f.is_file())
    });
    let sibling = PathBuf::from(env!("CARGO_BIN_EXE_kifu")).with_file_name("kifu-usi-random");
    on_path
        .or_else(|| sibling.is_file().then_some(sibling))
        .map(|p| p.display().to_string())
}

#[test]
fn server_and_two_clients_play_a_game() {
    let Some(engine) = engine() else {
        eprintln!(
            "SKIPPED: no USI engine found (install one with `cargo install sekirei --locked`, \
             or build kifu-csa-net's kifu-usi-random with `cargo test --workspace`)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["csa-server", "--port", "0", "--max-moves", "16", "--data"])
        .arg(dir.path().join("server"))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut banner = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut banner)
        .unwrap();
    let _server = Kill(child);
    let port = banner.trim().rsplit(':').next().unwrap().to_owned();
    let client = |user: &str, game: &str| {
        Command::new(env!("CARGO_BIN_EXE_kifu"))
            .args([
                "csa-client",
                "--host",
                "127.0.0.1",
                "--port",
                &port,
                "--user",
                user,
            ])
            .args(["--password", "s3cret", "--game", game, "--engine", &engine])
            .args(["--margin-ms", "300", "--records"])
            .arg(dir.path().join(user))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let a = client("alice", "cli-30-1-B");
    let b = client("bob", "cli-30-1");
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    for out in [&a, &b] {
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stdout}\n{stderr}");
        assert!(!stdout.contains("s3cret") && !stderr.contains("s3cret"));
        let line = stdout.lines().next().expect("a report line");
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 6, "{line}");
        let text = std::fs::read_to_string(fields[5]).unwrap();
        let parsed = kifu_shogi::formats::csa::read(&text);
        assert!(!parsed.has_errors(), "{text}");
    }
}
