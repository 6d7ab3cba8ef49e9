//! The test corpus, `corpus/` at the root of the repository (or `$KIFU_CORPUS`), read when a
//! test runs: the corpus lies outside every crate, so compiling it in would break the published
//! packages and rebuild tests whenever a record changes. A clone of the repository carries it,
//! so the tests need nothing beside the checkout.

use std::path::{Path, PathBuf};

/// A file or folder of the corpus, `rel` being its path inside the corpus.
pub fn path(rel: &str) -> PathBuf {
    match std::env::var_os("KIFU_CORPUS") {
        Some(root) => PathBuf::from(root).join(rel),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus")
            .join(rel),
    }
}

/// The files directly in the corpus folder `folder` whose extension is `ext`, sorted.
pub fn files(folder: &str, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(path(folder))
        .unwrap_or_else(|e| panic!("corpus folder {folder}: {e}"))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some(ext))
        .collect();
    out.sort();
    out
}

/// The bytes of a corpus file.
pub fn bytes(rel: &str) -> Vec<u8> {
    let file = path(rel);
    std::fs::read(&file).unwrap_or_else(|e| panic!("corpus file {}: {e}", file.display()))
}

/// The text of a UTF-8 corpus file.
pub fn text(rel: &str) -> String {
    let file = path(rel);
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("corpus file {}: {e}", file.display()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn finds_the_corpus_and_lists_its_files() {
        assert!(super::path("README.md").is_file());
        let csa = super::files("shogi/bulk/csa", "csa");
        assert!(!csa.is_empty());
        assert!(csa.windows(2).all(|w| w[0] < w[1]));
        assert!(!super::text("shogi/bulk/all_games.csa").is_empty());
    }
}
