//! The test corpus as the record tests read it: the test kit finds the files; this decodes
//! them the way the readers' callers do and renders diagnostics for assertion messages.

use std::path::Path;

use kifu_record::{Diagnostic, SourceText, TextEncoding, decode};
use kifu_records::shogi::Parsed;

pub use kifu_testkit::corpus::{files, path};

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
pub fn read_clean(rel: &str, read: fn(&str) -> Parsed) -> Parsed {
    let path = path(rel);
    let text = text(&path);
    let parsed = read(&text);
    assert!(
        parsed.diagnostics.is_empty(),
        "{}",
        render(&path, &text, &parsed.diagnostics)
    );
    parsed
}
