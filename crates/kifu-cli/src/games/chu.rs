//! Chu shogi records: CSL notation (Western or Japanese), lishogi KIF, USI lists, JSON/NDJSON.

use std::path::Path;

use kifu_chu::Chu;
use kifu_record::{RecordFormat, SourceText};
use kifu_records::chu::{self as chu_records, ChuRecord};

/// A chu record format, from `kifu_records::chu::FORMATS`.
pub type Format = &'static dyn RecordFormat<Chu>;

use crate::report::FileReport;

/// Extensions that are chu records whatever else is around; the rest only with `--game chu`.
pub fn wants(path: &Path, explicit: bool) -> bool {
    let ext = ext(path);
    match ext.as_deref() {
        Some("csl" | "chu" | "ndjson" | "jsonl") => true,
        Some("json" | "kif" | "kifu" | "usi" | "sfen" | "txt") => explicit,
        _ => false,
    }
}

/// Whether a text is a chu record by its content (lishogi's exports and kifu's own share
/// .kif/.json/.usi with shogi): the chu start position or name, a 12×12 board diagram, kifu's
/// chu JSON, or USI moves that leave the 9×9 board.
pub fn sniff(text: &str) -> bool {
    if text.contains("中将棋") || text.contains("lfcsgekgscfl") || text.contains("１２ １１")
    {
        return true;
    }
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('{') || t.starts_with('[') && t[1..].trim_start().starts_with('{') {
        return t.contains("\"rules\": \"lishogi\"")
            || t.contains("\"rules\": \"jcsa\"")
            || t.contains("\"rules\":\"lishogi\"")
            || t.contains("\"rules\":\"jcsa\"");
    }
    // CSL records (PGN-like headers, numbered moves) replay from the chu start or are not chu.
    if (t.starts_with('[') || t.starts_with("1.")) && chu_records::detect(t).name() == "csl" {
        let (record, diagnostics) = chu_records::csl::parse(t);
        return !chu_records::main_line_moves(&record).is_empty()
            && !diagnostics.iter().any(|d| d.is_error());
    }
    let first = t.split_whitespace().next().unwrap_or("");
    let usi_list =
        ["position", "startpos", "sfen"].contains(&first) || kifu_chu::parse_usi(first).is_some();
    usi_list
        && t.split_whitespace()
            .take(200)
            .any(|w| kifu_chu::parse_usi(w).is_some() && kifu_shogi::usi::parse_move(w).is_err())
}

fn ext(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

pub fn parse_format(name: &str) -> Result<Format, String> {
    chu_records::by_name(name)
        .ok_or_else(|| format!("unknown chu format `{name}` (one of: csl, csl-ja, kif, usi, json)"))
}

fn format_for(path: Option<&Path>, forced: Option<Format>, text: &str) -> Format {
    if let Some(f) = forced {
        return f;
    }
    match path.and_then(ext).as_deref() {
        Some(e @ ("json" | "ndjson" | "jsonl" | "usi" | "sfen" | "kif" | "kifu")) => {
            chu_records::by_extension(e).unwrap_or_else(|| chu_records::detect(text))
        }
        _ => chu_records::detect(text),
    }
}

pub fn load(
    name: &str,
    path: Option<&Path>,
    forced: Option<&str>,
    bytes: &[u8],
) -> Result<(Vec<ChuRecord>, FileReport), String> {
    let forced = forced.map(parse_format).transpose()?;
    // UTF-16 without a byte-order mark is valid UTF-8 full of NULs: refuse it, do not read it
    // as a text with nothing in it.
    let decoded = match bytes.iter().position(|&b| b == 0) {
        Some(at) => Err(format!(
            "a NUL byte at offset {at}: UTF-16 or binary data? chu records are read as UTF-8"
        )),
        None => std::str::from_utf8(bytes).map_err(|e| {
            format!(
                "not UTF-8 (byte {}): chu records are read as UTF-8",
                e.valid_up_to()
            )
        }),
    };
    let text = match decoded {
        Ok(t) => t,
        Err(msg) => {
            return Ok((
                Vec::new(),
                FileReport::failed(name.to_string(), "chu", "?", msg),
            ));
        }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let format = format_for(path, forced, text);
    let parsed = kifu_record::Parsed::collect(format.records(text));
    let (records, diagnostics) = (parsed.records, parsed.diagnostics);
    let mut report = FileReport::new(name.to_string(), "chu", format.name());
    report.records = records.len();
    report.plies = records
        .iter()
        .map(|r| chu_records::main_line_moves(r).len())
        .sum();
    report.add_diagnostics(&SourceText::new(name, text), &diagnostics);
    Ok((records, report))
}

/// Writes every record (several to one file where the format holds several, NDJSON for JSON);
/// a one-game format keeps the first and says so. The warnings also list what the format cannot
/// hold of each record.
pub fn write(records: &[ChuRecord], to: Format) -> (Vec<u8>, Vec<String>) {
    let written = to.write(records);
    (written.text.into_bytes(), written.warnings)
}

pub fn extension(to: Format) -> &'static str {
    match to.name() {
        "csl-ja" => "csl",
        other => other,
    }
}

/// The position after `ply` moves of the first record (the end when `None`), as SFEN.
pub fn show(record: &ChuRecord, ply: Option<usize>) -> String {
    let mut pos = record.start.clone();
    let moves = chu_records::main_line_moves(record);
    let n = ply.unwrap_or(moves.len()).min(moves.len());
    for &m in &moves[..n] {
        if pos.play(m).is_err() {
            break;
        }
    }
    let mut out = String::new();
    for entry in record.header.entries() {
        out.push_str(&format!("[{} \"{}\"]\n", entry.key, entry.value));
    }
    out.push_str(&format!(
        "after {n} moves\n{}SFEN: {}\n",
        pos.board_text(),
        pos.to_sfen()
    ));
    out
}
