//! `kifu --version` names the version and the commit built from; the build script's pieces for
//! a git checkout and for a package without one.

#[path = "../build/version.rs"]
mod version;

use std::path::Path;
use std::process::Command;

use version::{Commit, describe, from_cargo_vcs_info};

fn kifu_version_line() -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .trim_end()
        .to_string()
}

/// The commit git itself reports for this crate's checkout, when it is one.
fn checked_out_commit() -> Option<String> {
    let dir = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("git")
        .args(["-C", dir, "rev-parse", "HEAD"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8(out.stdout).unwrap().trim().to_string())
}

#[test]
fn version_line_names_the_commit_of_the_checkout() {
    let line = kifu_version_line();
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let expected_prefix = format!("kifu {} (", env!("CARGO_PKG_VERSION"));
    if crate_dir.join(".cargo_vcs_info.json").exists() {
        // Built from a package: the commit it was packaged from, no date.
        assert!(line.starts_with(&expected_prefix), "{line}");
        return;
    }
    match (checked_out_commit(), version::from_git(crate_dir)) {
        (Some(head), Some(_)) => {
            assert!(line.starts_with(&expected_prefix), "{line}");
            let inside = &line[expected_prefix.len()..line.len() - 1];
            let (hash, date) = inside.split_once(' ').unwrap_or_else(|| panic!("{line}"));
            assert_eq!(hash, &head[..7], "{line}");
            assert!(
                date.len() == 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-',
                "{line}"
            );
        }
        // Neither a package nor a checkout (an unpacked tarball): the bare version.
        _ => assert_eq!(line, format!("kifu {}", env!("CARGO_PKG_VERSION"))),
    }
    assert!(line.ends_with(')'), "{line}");
}

#[test]
fn a_package_names_the_commit_it_was_made_from() {
    let json = r#"{
  "git": {
    "sha1": "9f98246e0c1d2b3a4f5e6d7c8b9a0f1e2d3c4b5a"
  },
  "path_in_vcs": "crates/kifu-cli"
}"#;
    let commit = from_cargo_vcs_info(json).unwrap();
    assert_eq!(describe("0.1.0", Some(&commit)), "0.1.0 (9f98246)");

    let dirty = r#"{"git": {"sha1": "9f98246e0c1d2b3a4f5e6d7c8b9a0f1e2d3c4b5a", "dirty": true}}"#;
    let commit = from_cargo_vcs_info(dirty).unwrap();
    assert_eq!(describe("0.1.0", Some(&commit)), "0.1.0 (9f98246-dirty)");
}

#[test]
fn an_unreadable_package_record_or_none_gives_the_bare_version() {
    for broken in [
        "",
        "{}",
        r#"{"git": {}}"#,
        r#"{"git": {"sha1": "not a hash"}}"#,
        "{\"git\"",
    ] {
        assert_eq!(from_cargo_vcs_info(broken), None, "{broken:?}");
    }
    assert_eq!(describe("0.1.0", None), "0.1.0");
}

#[test]
fn a_git_commit_shows_its_date() {
    let commit = Commit {
        hash: "abc1234def".to_string(),
        date: Some("2026-11-23".to_string()),
        dirty: false,
    };
    assert_eq!(
        describe("0.1.0", Some(&commit)),
        "0.1.0 (abc1234 2026-11-23)"
    );
}

#[test]
fn a_directory_outside_any_checkout_has_no_git_commit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), "").unwrap();
    assert_eq!(version::from_git(dir.path()), None);
}
