//! What `kifu --version` tells about the source it was built from. Shared by `build.rs`, which
//! runs it, and `tests/version.rs`, which tests it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Hex digits of a commit hash shown, as `git log --oneline` shows them.
const SHORT_HASH_LEN: usize = 7;

/// The commit a build came from.
#[derive(Debug, PartialEq, Eq)]
pub struct Commit {
    pub hash: String,
    /// The commit's date (YYYY-MM-DD); a package records the hash only.
    pub date: Option<String>,
    /// The package was made from a checkout with uncommitted changes.
    pub dirty: bool,
}

/// The version line's text after the program's name: `0.1.0 (abc1234 2026-11-23)`, or the bare
/// version when the commit is unknown.
pub fn describe(version: &str, commit: Option<&Commit>) -> String {
    let Some(commit) = commit else {
        return version.to_string();
    };
    let hash: String = commit.hash.chars().take(SHORT_HASH_LEN).collect();
    let dirty = if commit.dirty { "-dirty" } else { "" };
    match &commit.date {
        Some(date) => format!("{version} ({hash}{dirty} {date})"),
        None => format!("{version} ({hash}{dirty})"),
    }
}

/// The commit named in the `.cargo_vcs_info.json` that `cargo package` writes into a package: a
/// crate built from crates.io has no git checkout, but it knows the commit it was packaged from.
pub fn from_cargo_vcs_info(json: &str) -> Option<Commit> {
    let info: serde_json::Value = serde_json::from_str(json).ok()?;
    let hash = info["git"]["sha1"].as_str()?;
    if hash.len() < SHORT_HASH_LEN || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some(Commit {
        hash: hash.to_string(),
        date: None,
        dirty: info["git"]["dirty"].as_bool().unwrap_or(false),
    })
}

/// The checked-out commit when `crate_dir` is tracked in a git checkout, with the files whose
/// change means another commit is checked out (for cargo's `rerun-if-changed`). A package
/// unpacked inside some unrelated or ignored directory of a checkout is not tracked there, so it
/// does not take that checkout's commit for its own.
pub fn from_git(crate_dir: &Path) -> Option<(Commit, Vec<PathBuf>)> {
    git(crate_dir, &["ls-files", "--error-unmatch", "Cargo.toml"])?;
    let line = git(crate_dir, &["log", "-1", "--format=%H %cs"])?;
    let (hash, date) = line.split_once(' ')?;
    let commit = Commit {
        hash: hash.to_string(),
        date: Some(date.to_string()),
        dirty: false,
    };

    let mut watched = vec![git(crate_dir, &["rev-parse", "--git-path", "HEAD"])?];
    if let Some(branch) = git(crate_dir, &["rev-parse", "--symbolic-full-name", "HEAD"])
        .filter(|name| name.starts_with("refs/"))
    {
        watched.extend(git(crate_dir, &["rev-parse", "--git-path", &branch]));
    }
    watched.extend(git(crate_dir, &["rev-parse", "--git-path", "packed-refs"]));
    let watched = watched
        .into_iter()
        .map(|path| crate_dir.join(path))
        .filter(|path| path.exists())
        .collect();
    Some((commit, watched))
}

/// A git command's output, trimmed; `None` when git is missing or the command fails.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    Some(String::from_utf8(output.stdout).ok()?.trim().to_string())
}
