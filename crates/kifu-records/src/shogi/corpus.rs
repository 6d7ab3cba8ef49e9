//! Access to the shared test corpus (`../shared/corpus` next to the repository).

#![cfg(test)]

use std::path::{Path, PathBuf};

use kifu_record::{Diagnostic, SourceText, TextEncoding, decode};

pub fn dir(sub: &str) -> PathBuf {
    match std::env::var_os("KIFU_CORPUS") {
        Some(root) => PathBuf::from(root).join(sub),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/corpus")
            .join(sub),
    }
}

/// Files under `sub` with extension `ext`, sorted.
pub fn files(sub: &str, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir(sub))
        .unwrap_or_else(|e| panic!("corpus folder {sub}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some(ext))
        .collect();
    out.sort();
    out
}

/// The decoded text of a corpus file (decoding warnings, such as a wrong encoding line,
/// are tested separately).
pub fn text(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let decoded = decode(&bytes, TextEncoding::for_path(path));
    assert!(
        !decoded.diagnostics.iter().any(|d| d.is_error()),
        "{}: {:?}",
        path.display(),
        decoded.diagnostics
    );
    decoded.text.into_owned()
}

/// Diagnostics rendered as `file:line:col: …` lines, for assertion messages.
pub fn render(path: &Path, text: &str, diags: &[Diagnostic]) -> String {
    let src = SourceText::new(path.display().to_string(), text);
    diags.iter().map(|d| src.render(d) + "\n").collect()
}

/// Reads a corpus file with `read` and asserts it gave no diagnostic at all.
pub fn read_clean(sub: &str, read: fn(&str) -> crate::shogi::Parsed) -> crate::shogi::Parsed {
    let path = dir(sub);
    let text = text(&path);
    let parsed = read(&text);
    assert!(
        parsed.diagnostics.is_empty(),
        "{}",
        render(&path, &text, &parsed.diagnostics)
    );
    parsed
}
