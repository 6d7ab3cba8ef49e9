//! Every committed seed of every fuzz target, replayed through the target's function: the
//! oracles hold on the repository's own records, on stable Rust, in every `cargo test`.

use std::path::Path;

#[test]
fn every_seed_passes_its_targets_oracles() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds");
    let mut failed = Vec::new();
    for (target, run) in kifu_fuzz::TARGETS {
        let folder = seeds.join(target);
        let mut files: Vec<_> = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| {
                panic!(
                    "{}: {e} (crates/kifu-fuzz/make-seeds makes it)",
                    folder.display()
                )
            })
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(files.len() >= 5, "{target}: only {} seeds", files.len());
        for file in files {
            let data = std::fs::read(&file).unwrap();
            // Every seed is tried (each failure's message is on standard error) before the
            // test fails, so one run lists them all.
            if std::panic::catch_unwind(|| run(&data)).is_err() {
                failed.push(format!("{target}: {}", file.display()));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "seeds failing their target's oracles:\n{}",
        failed.join("\n")
    );
}

#[test]
fn the_fuzz_crate_has_a_binary_for_every_target() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/Cargo.toml"))
            .unwrap();
    for (target, _) in kifu_fuzz::TARGETS {
        assert!(
            manifest.contains(&format!("name = \"{target}\"")),
            "fuzz/Cargo.toml has no [[bin]] {target}"
        );
        let body = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/fuzz_targets")
            .join(format!("{target}.rs"));
        let text = std::fs::read_to_string(&body).unwrap();
        assert!(
            text.contains(&format!("kifu_fuzz::{target}::run(")),
            "{} does not call kifu_fuzz::{target}::run",
            body.display()
        );
    }
}
