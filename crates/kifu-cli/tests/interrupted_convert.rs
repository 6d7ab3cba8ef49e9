//! An interrupted directory conversion leaves nothing half-written, and `--skip-existing`
//! resumes it (issue 27): outputs that exist, each renamed into place whole, are kept; the
//! rest are written.

#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `n` copies of a record in `dir`.
fn records(dir: &Path, n: usize) {
    let game = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/records/random-game.csa"),
    )
    .unwrap();
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..n {
        std::fs::write(dir.join(format!("g{i:05}.csa")), &game).unwrap();
    }
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

const FILES: usize = 3000;

#[test]
fn sigint_leaves_no_temporary_file_and_skip_existing_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let (input, output) = (tmp.path().join("in"), tmp.path().join("out"));
    records(&input, FILES);
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["convert", "in", "--to", "kif", "-o", "out/"])
        .current_dir(tmp.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupted once some outputs are written, in the middle of the run.
    let start = Instant::now();
    while entries(&output).len() < 100 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the conversion ended before it could be interrupted"
        );
        assert!(start.elapsed() < Duration::from_secs(120));
        std::thread::sleep(Duration::from_millis(5));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = entries(&output);
    assert!(
        written
            .iter()
            .all(|n| n.ends_with(".kif") && !n.starts_with('.')),
        "a temporary file was left: {:?}",
        written
            .iter()
            .filter(|n| !n.ends_with(".kif") || n.starts_with('.'))
            .collect::<Vec<_>>()
    );
    assert!(
        written.len() < FILES,
        "the run finished before the interruption ({} outputs)",
        written.len()
    );
    // Each output there is whole: it reads as the 89 moves of its record.
    let check = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["check", "--json", "out"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(doc["summary"]["total"]["errors"], 0, "{doc}");
    assert_eq!(
        doc["summary"]["total"]["plies"].as_u64(),
        Some(89 * written.len() as u64)
    );

    // The rerun keeps what was written (the files are not touched) and writes the rest.
    let first = output.join(&written[0]);
    let marked = b"kept, not rewritten".to_vec();
    std::fs::write(&first, &marked).unwrap();
    let rerun = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args([
            "convert",
            "in",
            "--to",
            "kif",
            "-o",
            "out/",
            "--skip-existing",
        ])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert_eq!(
        rerun.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&rerun.stderr)
    );
    let all = entries(&output);
    assert_eq!(all.len(), FILES);
    assert!(
        all.iter()
            .all(|n| n.ends_with(".kif") && !n.starts_with('.'))
    );
    assert_eq!(std::fs::read(&first).unwrap(), marked);
    let last = output.join(all.last().unwrap());
    let shown = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["check", last.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(shown.status.code(), Some(0));
}
