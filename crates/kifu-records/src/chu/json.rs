//! Chu games as JSON. Writes one object:
//! `{"headers": {…}, "sfen": "…", "rules": "lishogi", "moves": [{"usi": "7j7h", "csl": "Ln-7h",
//! "comments": […]}], "result": "…"}`. Reads that, lishogi's export (`initial_sfen` or
//! `initialSfen`, `moves` as one space-separated string, `status`, `winner`), a JSON array of such
//! objects, or NDJSON (one object per line).

use kifu_record::{Diagnostic, DiagnosticKind, Span};
use serde_json::{Map, Value, json};

use super::{ChuRecord, RecordMove, Replay};
use crate::notation::western;
use crate::position::Position;
use crate::rules::RuleSet;
use crate::usi::parse_usi;

/// lishogi statuses that the final position must show.
const BOARD_STATUSES: &[&str] = &[
    "royalsLost",
    "bareKing",
    "repetition",
    "stalemate",
    "perpetualCheck",
];

/// Reads every game of a JSON document, array or NDJSON file.
pub fn parse_many(text: &str) -> (Vec<ChuRecord>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut out = Vec::new();
    let objects: Vec<(Value, usize)> = match serde_json::from_str::<Value>(text) {
        Ok(Value::Array(items)) => items.into_iter().map(|v| (v, 0)).collect(),
        Ok(v) => vec![(v, 0)],
        Err(whole) => {
            let mut objs = Vec::new();
            let mut offset = 0;
            for line in text.split_inclusive('\n') {
                let base = offset;
                offset += line.len();
                if line.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<Value>(line) {
                    Ok(v) => objs.push((v, base)),
                    Err(e) => {
                        let msg = if objs.is_empty() {
                            whole.to_string()
                        } else {
                            e.to_string()
                        };
                        diags.push(Diagnostic::error(
                            DiagnosticKind::Syntax,
                            Span::new(base, base + line.trim_end().len()),
                            format!("invalid JSON: {msg}"),
                        ));
                    }
                }
            }
            objs
        }
    };
    for (v, base) in objects {
        let end = text[base..].find('\n').map_or(text.len(), |e| base + e);
        out.push(read_object(&v, text, base, end, &mut diags));
    }
    if out.is_empty() && !diags.iter().any(Diagnostic::is_error) {
        diags.push(super::no_record(text, "JSON"));
    }
    (out, diags)
}

/// The games of an NDJSON file one at a time, each with its own diagnostics (spans are offsets
/// into the whole text), without holding the others. A text that is one JSON document (an
/// object or an array) is read whole.
pub fn records(text: &str) -> Box<dyn Iterator<Item = (ChuRecord, Vec<Diagnostic>)> + '_> {
    let first_line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    if serde_json::from_str::<Value>(first_line).is_err() {
        let (records, diags) = parse_many(text);
        let mut diags = Some(diags);
        return Box::new(
            records
                .into_iter()
                .map(move |r| (r, diags.take().unwrap_or_default())),
        );
    }
    let mut offset = 0;
    Box::new(text.split_inclusive('\n').filter_map(move |line| {
        let base = offset;
        offset += line.len();
        if line.trim().is_empty() {
            return None;
        }
        let mut diags = Vec::new();
        let end = base + line.trim_end().len();
        match serde_json::from_str::<Value>(line) {
            Ok(v) => Some((read_object(&v, text, base, end, &mut diags), diags)),
            Err(e) => {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    Span::new(base, end),
                    format!("invalid JSON: {e}"),
                ));
                Some((ChuRecord::default(), diags))
            }
        }
    }))
}

/// Reads the first game of a JSON text.
pub fn parse(text: &str) -> (ChuRecord, Vec<Diagnostic>) {
    let (mut records, diags) = parse_many(text);
    if records.is_empty() {
        return (ChuRecord::default(), diags);
    }
    (records.swap_remove(0), diags)
}

fn str_field<'a>(v: &'a Value, names: &[&str]) -> Option<&'a str> {
    names.iter().find_map(|n| v.get(*n).and_then(Value::as_str))
}

/// Span of `needle` in the text at or after `from` (within the object's line), for diagnostics.
fn locate(text: &str, from: usize, end: usize, needle: &str) -> Span {
    match text.get(from..end).and_then(|t| t.find(needle)) {
        Some(i) => Span::new(from + i, from + i + needle.len()),
        None => Span::new(from, from),
    }
}

fn read_object(
    v: &Value,
    text: &str,
    base: usize,
    end: usize,
    diags: &mut Vec<Diagnostic>,
) -> ChuRecord {
    let whole = Span::new(base, end);
    let mut record = ChuRecord::default();
    if !v.is_object() {
        diags.push(Diagnostic::error(
            DiagnosticKind::Syntax,
            whole,
            "a game must be a JSON object",
        ));
        return record;
    }
    if let Some(Value::Object(h)) = v.get("headers") {
        for (k, val) in h {
            record.headers.push((
                k.clone(),
                val.as_str().map_or_else(|| val.to_string(), String::from),
            ));
        }
    }
    if let Some(Value::Array(comments)) = v.get("comments") {
        record.comments = comments
            .iter()
            .filter_map(|c| c.as_str().map(String::from))
            .collect();
    }
    if let Some(id) = str_field(v, &["id"]) {
        record.headers.push(("Id".into(), id.into()));
    }
    if let Some(sfen) = str_field(v, &["sfen", "initial_sfen", "initialSfen", "initialFen"]) {
        match Position::from_sfen(sfen) {
            Ok(p) => record.start = p,
            Err(e) => {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    locate(text, base, end, sfen),
                    e.to_string(),
                ));
                return record;
            }
        }
    }
    if let Some(rules) = str_field(v, &["rules"]) {
        match RuleSet::from_name(rules) {
            Some(r) => record.start.set_rules(r),
            None => diags.push(Diagnostic::warning(
                DiagnosticKind::Unknown,
                whole,
                format!("unknown rule set `{rules}`"),
            )),
        }
    }
    let moves: Vec<(String, Vec<String>)> = match v.get("moves") {
        Some(Value::String(s)) => s
            .split_whitespace()
            .map(|m| (m.to_string(), Vec::new()))
            .collect(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|it| match it {
                Value::String(s) => (s.clone(), Vec::new()),
                other => (
                    str_field(other, &["usi"]).unwrap_or_default().to_string(),
                    other
                        .get("comments")
                        .and_then(Value::as_array)
                        .map(|c| {
                            c.iter()
                                .filter_map(|x| x.as_str().map(String::from))
                                .collect()
                        })
                        .unwrap_or_default(),
                ),
            })
            .collect(),
        None => Vec::new(),
        Some(_) => {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                whole,
                "`moves` must be a string or an array",
            ));
            Vec::new()
        }
    };
    let mut replay = Replay::new(record.start.clone());
    let mut cursor = base;
    for (usi, comments) in moves {
        let sp = locate(text, cursor, end, &usi);
        cursor = sp.end as usize;
        if replay.over(sp, diags) {
            break;
        }
        let Some(m) = parse_usi(&usi) else {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                sp,
                format!("`{usi}` is not a USI move"),
            ));
            break;
        };
        if !replay.play(m, sp, diags) {
            break;
        }
        record.moves.push(RecordMove { mv: m, comments });
    }
    let status = str_field(v, &["result", "status"]);
    record.result = status.map(|s| match str_field(v, &["winner"]) {
        Some(w) => format!("{s} {w}"),
        None => s.to_string(),
    });
    if let Some(s) = status
        && BOARD_STATUSES.contains(&s)
        && !replay.broken
    {
        let winner = match str_field(v, &["winner"]) {
            Some("sente" | "black") => Some(crate::Color::Black),
            Some("gote" | "white") => Some(crate::Color::White),
            _ => None,
        };
        match replay.game.outcome() {
            Some(o) if o.reason.lishogi_status() == s && o.winner == winner => {}
            Some(o) => diags.push(Diagnostic::error(
                DiagnosticKind::Inconsistent,
                whole,
                format!("the record says `{s}` but the game ended: {o}"),
            )),
            None => diags.push(Diagnostic::error(
                DiagnosticKind::Inconsistent,
                whole,
                format!("the record says `{s}` but the final position is not over"),
            )),
        }
    }
    record
}

/// What [`write`] cannot hold of a record: a header key given twice (a JSON object holds one),
/// the order of the headers (the object's keys are written sorted).
pub fn losses(record: &ChuRecord) -> Vec<String> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for (k, _) in &record.headers {
        if seen.contains(&k.as_str()) {
            out.push(format!(
                "JSON holds one `{k}` header; an earlier value is dropped"
            ));
        }
        seen.push(k);
    }
    if seen.windows(2).any(|w| w[0] > w[1]) {
        out.push("JSON writes the headers in key order, not in the order read".to_string());
    }
    out
}

/// Writes several games: one pretty object for one game, NDJSON (one compact object a line)
/// for more, so that the file reads back game by game.
pub fn write_many(records: &[ChuRecord]) -> String {
    if let [one] = records {
        return write(one);
    }
    records
        .iter()
        .map(|r| {
            let v: Value = serde_json::from_str(&write(r)).unwrap_or(Value::Null);
            let mut line = v.to_string();
            line.push('\n');
            line
        })
        .collect()
}

/// Writes one game as a JSON object (pretty-printed).
pub fn write(record: &ChuRecord) -> String {
    let mut headers = Map::new();
    for (k, v) in &record.headers {
        headers.insert(k.clone(), Value::String(v.clone()));
    }
    let mut pos = record.start.clone();
    let moves: Vec<Value> = record
        .moves
        .iter()
        .map(|m| {
            let mut o = json!({"usi": m.mv.to_string(), "csl": western(&pos, m.mv)});
            if !m.comments.is_empty() {
                o["comments"] = json!(m.comments);
            }
            pos.play_unchecked(m.mv);
            o
        })
        .collect();
    let rules = if record.start.rules() == RuleSet::JCSA {
        "jcsa"
    } else {
        "lishogi"
    };
    let mut doc = json!({
        "headers": headers,
        "sfen": record.start.to_sfen(),
        "rules": rules,
        "moves": moves,
    });
    if !record.comments.is_empty() {
        doc["comments"] = json!(record.comments);
    }
    if let Some(r) = &record.result {
        doc["result"] = json!(r);
    }
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
