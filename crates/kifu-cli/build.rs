//! Puts the commit `kifu` is built from into its version line (`KIFU_VERSION`), so that a bug
//! report's `kifu --version` names the exact source.

#[path = "build/version.rs"]
mod version;

use std::path::PathBuf;

fn main() {
    let crate_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let package_version = std::env::var("CARGO_PKG_VERSION").expect("set by cargo");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=build/version.rs");

    // A package (from crates.io, or cargo's own packaging check) names its commit in
    // .cargo_vcs_info.json; a git checkout is asked directly.
    let vcs_info = crate_dir.join(".cargo_vcs_info.json");
    let commit = if vcs_info.exists() {
        println!("cargo::rerun-if-changed={}", vcs_info.display());
        std::fs::read_to_string(&vcs_info)
            .ok()
            .and_then(|json| version::from_cargo_vcs_info(&json))
    } else {
        version::from_git(&crate_dir).map(|(commit, watched)| {
            for path in watched {
                println!("cargo::rerun-if-changed={}", path.display());
            }
            commit
        })
    };
    println!(
        "cargo::rustc-env=KIFU_VERSION={}",
        version::describe(&package_version, commit.as_ref())
    );
}
