//! What checking one file found, as text lines or JSON, and the summary over many files.

use std::collections::BTreeMap;
use std::fmt::Write;

use kifu_record::{Diagnostic, Severity, SourceText};
use kifu_records::open::{Evidence, Opened};
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct DiagnosticReport {
    pub severity: &'static str,
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// The offending text (or its line).
    pub text: String,
    /// `file:line:column: severity: message (`text`)`.
    #[serde(skip)]
    pub rendered: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct FileReport {
    pub path: String,
    pub game: &'static str,
    pub format: String,
    pub records: usize,
    pub plies: usize,
    pub errors: usize,
    pub warnings: usize,
    pub diagnostics: Vec<DiagnosticReport>,
    /// Why the game and format were chosen, and the encoding the text was decoded from
    /// (absent for a file that could not be read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chosen: Option<Chosen>,
}

/// What the front door (`kifu_records::open`) decided for a file, and why.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Chosen {
    #[serde(serialize_with = "as_text")]
    pub game_by: Evidence,
    #[serde(serialize_with = "as_text")]
    pub format_by: Evidence,
    pub encoding: &'static str,
}

fn as_text<S: serde::Serializer>(evidence: &Evidence, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(evidence)
}

impl FileReport {
    pub fn new(path: String, game: &'static str, format: impl Into<String>) -> FileReport {
        FileReport {
            path,
            game,
            format: format.into(),
            records: 0,
            plies: 0,
            errors: 0,
            warnings: 0,
            diagnostics: Vec::new(),
            chosen: None,
        }
    }

    /// Records why the file's game and format were chosen.
    pub fn chosen_by(&mut self, opened: &Opened<'_>) {
        self.chosen = Some(Chosen {
            game_by: opened.game_by,
            format_by: opened.format_by,
            encoding: opened.decoded.encoding.name(),
        });
    }

    /// A file that could not be read or understood at all.
    pub fn failed(path: String, game: &'static str, format: &str, message: String) -> FileReport {
        let mut r = FileReport::new(path.clone(), game, format);
        r.errors = 1;
        r.diagnostics.push(DiagnosticReport {
            severity: "error",
            line: 0,
            column: 0,
            rendered: format!("{path}: error: {message}"),
            message,
            text: String::new(),
        });
        r
    }

    pub fn add_diagnostics(&mut self, source: &SourceText<'_>, diagnostics: &[Diagnostic]) {
        for d in diagnostics {
            let at = source.line_col(d.span.start);
            let mut text = source.slice(d.span);
            if text.is_empty() {
                text = source.line_text(d.span.start);
            }
            let text: String = text
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(120)
                .collect();
            match d.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
            }
            self.diagnostics.push(DiagnosticReport {
                severity: match d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                },
                line: at.line,
                column: at.column,
                message: d.message.clone(),
                text,
                rendered: source.render(d),
            });
        }
    }

    pub fn is_valid(&self) -> bool {
        self.errors == 0
    }

    /// An error for the file as a whole (no line to point at).
    pub fn file_error(&mut self, message: String) {
        self.errors += 1;
        self.diagnostics.push(DiagnosticReport {
            severity: "error",
            line: 0,
            column: 0,
            rendered: format!("{}: error: {message}", self.path),
            message,
            text: String::new(),
        });
    }

    /// A file that yields no record is not a valid record file, whatever the reader made of
    /// its lines: an empty file, a shopping list and random bytes all fail `check`.
    pub fn require_a_record(&mut self, bytes: &[u8]) {
        let blank = bytes
            .strip_prefix(b"\xef\xbb\xbf")
            .unwrap_or(bytes)
            .iter()
            .all(u8::is_ascii_whitespace);
        // A file the reader found errors in is invalid already, with the reader's reasons.
        if self.errors > 0 || (self.records > 0 && !blank) {
            return;
        }
        self.records = 0;
        self.plies = 0;
        let message = if blank {
            "no record: the file is empty".to_string()
        } else if looks_like_utf16(bytes) {
            "no record found; the file looks like UTF-16 without a byte-order mark: \
             save it as UTF-8 or Shift_JIS (or with a BOM)"
                .to_string()
        } else {
            format!(
                "no record found: nothing in this file reads as a {} {} record \
                 (use --game/--format if it is another one)",
                self.game, self.format
            )
        };
        self.file_error(message);
    }
}

/// UTF-16 text of mostly ASCII or kana/kanji puts a zero byte in every other position; no
/// Shift_JIS, EUC-JP or UTF-8 record holds zero bytes at all.
fn looks_like_utf16(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(4096)];
    let zeros = sample.iter().filter(|&&b| b == 0).count();
    zeros * 8 > sample.len()
}

/// Totals per (game, format) and overall.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Totals {
    pub files: usize,
    pub valid: usize,
    pub invalid: usize,
    pub records: usize,
    pub plies: usize,
    pub errors: usize,
    pub warnings: usize,
}

impl Totals {
    fn add(&mut self, r: &FileReport) {
        self.files += 1;
        if r.is_valid() {
            self.valid += 1;
        } else {
            self.invalid += 1;
        }
        self.records += r.records;
        self.plies += r.plies;
        self.errors += r.errors;
        self.warnings += r.warnings;
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub by_format: BTreeMap<String, Totals>,
    pub total: Totals,
    pub skipped: usize,
    pub seconds: f64,
}

impl Summary {
    pub fn of(reports: &[FileReport], skipped: usize, seconds: f64) -> Summary {
        let mut by_format: BTreeMap<String, Totals> = BTreeMap::new();
        let mut total = Totals::default();
        // Runs once per file: the key is built in one reused buffer and copied only the first
        // time a (game, format) pair is seen.
        let mut key = String::new();
        // The pair the key was last built for: files of a directory are mostly of one
        // format, and formatting the key for each was 300 instructions a file.
        let mut keyed: Option<(&str, &str)> = None;
        for r in reports {
            if keyed != Some((r.game, r.format.as_str())) {
                key.clear();
                let _ = write!(key, "{} {}", r.game, r.format);
                keyed = Some((r.game, r.format.as_str()));
            }
            match by_format.get_mut(&key) {
                Some(totals) => totals,
                None => by_format.entry(key.clone()).or_default(),
            }
            .add(r);
            total.add(r);
        }
        Summary {
            by_format,
            total,
            skipped,
            seconds,
        }
    }

    pub fn table(&self) -> String {
        let mut s = String::new();
        let row = |s: &mut String, name: &str, t: &Totals| {
            let _ = writeln!(
                s,
                "{name:<16} {:>7} {:>7} {:>7} {:>8} {:>10} {:>7} {:>8}",
                t.files, t.valid, t.invalid, t.records, t.plies, t.errors, t.warnings
            );
        };
        let _ = writeln!(
            s,
            "{:<16} {:>7} {:>7} {:>7} {:>8} {:>10} {:>7} {:>8}",
            "game format", "files", "valid", "invalid", "records", "plies", "errors", "warnings"
        );
        for (name, t) in &self.by_format {
            row(&mut s, name, t);
        }
        if self.by_format.len() > 1 {
            row(&mut s, "total", &self.total);
        }
        let rate = if self.seconds > 0.0 {
            self.total.files as f64 / self.seconds
        } else {
            0.0
        };
        let _ = write!(s, "{:.2} s, {:.0} files/s", self.seconds, rate);
        if self.skipped > 0 {
            let _ = write!(s, "; {} other files skipped", self.skipped);
        }
        s
    }
}
