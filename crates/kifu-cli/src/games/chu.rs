//! Chu shogi records: CSL notation (Western or Japanese), lishogi KIF, USI lists, JSON/NDJSON.

use std::path::Path;

use kifu_chu::record::{ChuRecord, Format};
use kifu_record::SourceText;

use crate::report::FileReport;

/// Extensions that are chu records whatever else is around; the rest only with `--game chu`.
pub fn wants(path: &Path, explicit: bool) -> bool {
    let ext = ext(path);
    match ext.as_deref() {
        Some("csl" | "chu" | "ndjson") => true,
        Some("json" | "kif" | "kifu" | "usi" | "sfen" | "txt") => explicit,
        _ => false,
    }
}

fn ext(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

pub fn parse_format(name: &str) -> Result<Format, String> {
    Format::from_name(name)
        .ok_or_else(|| format!("unknown chu format `{name}` (one of: csl, csl-ja, kif, usi, json)"))
}

fn format_for(path: Option<&Path>, forced: Option<Format>, text: &str) -> Format {
    if let Some(f) = forced {
        return f;
    }
    match path.and_then(ext).as_deref() {
        Some("json" | "ndjson") => Format::Json,
        Some("usi" | "sfen") => Format::Usi,
        Some("kif" | "kifu") => Format::Kif,
        _ => Format::detect(text),
    }
}

pub fn load(
    name: &str,
    path: Option<&Path>,
    forced: Option<&str>,
    bytes: &[u8],
) -> Result<(Vec<ChuRecord>, FileReport), String> {
    let forced = forced.map(parse_format).transpose()?;
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let msg = format!(
                "not UTF-8 text (byte {}): chu records are read as UTF-8",
                e.valid_up_to()
            );
            return Ok((
                Vec::new(),
                FileReport::failed(name.to_string(), "chu", "?", msg),
            ));
        }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let format = format_for(path, forced, text);
    let (records, diagnostics) = format.parse(text);
    let mut report = FileReport::new(name.to_string(), "chu", format.name());
    report.records = records.len();
    report.plies = records.iter().map(|r| r.moves.len()).sum();
    report.add_diagnostics(&SourceText::new(name, text), &diagnostics);
    Ok((records, report))
}

/// Writes every record; formats that hold one game per file keep the first and say so.
pub fn write(records: &[ChuRecord], to: Format) -> (Vec<u8>, Vec<String>) {
    let mut warnings = Vec::new();
    let many = matches!(to, Format::Usi | Format::Json);
    let take = if many {
        records.len()
    } else {
        records.len().min(1)
    };
    if records.len() > take {
        warnings.push(format!(
            "{} holds one game per file; {} more dropped",
            to.name(),
            records.len() - take
        ));
    }
    let text: String = records[..take].iter().map(|r| to.write(r)).collect();
    (text.into_bytes(), warnings)
}

pub fn extension(to: Format) -> &'static str {
    match to {
        Format::Csl | Format::CslJapanese => "csl",
        Format::Kif => "kif",
        Format::Usi => "usi",
        Format::Json => "json",
    }
}

/// The position after `ply` moves of the first record (the end when `None`), as SFEN.
pub fn show(record: &ChuRecord, ply: Option<usize>) -> String {
    let mut pos = record.start.clone();
    let n = ply.unwrap_or(record.moves.len()).min(record.moves.len());
    for m in &record.moves[..n] {
        if pos.play(m.mv).is_err() {
            break;
        }
    }
    let mut out = String::new();
    for (k, v) in &record.headers {
        out.push_str(&format!("[{k} \"{v}\"]\n"));
    }
    out.push_str(&format!(
        "after {n} moves\n{}SFEN: {}\n",
        pos.board_text(),
        pos.to_sfen()
    ));
    out
}
