//! Test support: every file of the repository's corpus as decoded text, for the unit tests
//! that hold a fast path (chu's early name search, KIF's format recognition) to its plain
//! counterpart over every file.

use std::path::{Path, PathBuf};

/// Every corpus file with its text, decoded as its name says (`kifu_record::decode`).
pub(crate) fn every_corpus_text() -> Vec<(PathBuf, String)> {
    let mut texts = Vec::new();
    texts_under(&kifu_testkit::corpus::path(""), &mut texts);
    texts
}

fn texts_under(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            texts_under(&path, out);
        } else {
            let bytes = std::fs::read(&path).unwrap();
            let expected = kifu_record::TextEncoding::for_path(&path);
            let text = kifu_record::decode(&bytes, expected).text.into_owned();
            out.push((path, text));
        }
    }
}
