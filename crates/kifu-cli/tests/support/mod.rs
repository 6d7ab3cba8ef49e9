//! Running the built `kifu` binary from the command-line tests, from the repository's root so
//! that paths such as `examples/records` and `corpus/` read as they do in the README.
#![allow(dead_code)] // each test file uses its own part of this

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A file or folder of the test corpus, as the test kit finds it.
pub fn corpus(rel: &str) -> PathBuf {
    kifu_testkit::corpus::path(rel)
}

/// `kifu ARGS` with an empty standard input.
pub fn kifu(args: &[&str]) -> Output {
    kifu_with(args, b"")
}

/// `kifu ARGS` reading `stdin` on its standard input.
pub fn kifu_with(args: &[&str], stdin: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // A command that stops reading early closes the pipe; that is its business, not a failure.
    let _ = input.write_all(stdin.as_ref());
    drop(input);
    child.wait_with_output().unwrap()
}

/// Output bytes as text, for messages and comparisons.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
