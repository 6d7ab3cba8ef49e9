//! Chu games as JSON. Writes one object:
//! `{"headers": {…}, "sfen": "…", "rules": "lishogi", "moves": [{"usi": "7j7h", "csl": "Ln-7h",
//! "comments": […], "time_ms": 1000, "total_ms": 1000, "variations": [[…], …]}], "result": "…",
//! "winner": "sente"}`, where `variations` holds alternatives to the move they are on (each a
//! list of moves, which may end with `{"ending": "resign"}`). Reads that, lishogi's export
//! (`initial_sfen` or `initialSfen`, `moves` as one space-separated string, `status`,
//! `winner`), a JSON array of such objects, or NDJSON (one object per line).

use kifu_chu::notation::western;
use kifu_chu::{Chu, Position, RuleSet, parse_usi};
use kifu_record::{
    Diagnostic, DiagnosticKind, EndingKind, NodeId, NodeItem, Outcome, RecordFormat, RecordRead,
    Records, Side, Span,
};
use serde_json::{Map, Value, json};

use super::endings::{lishogi_ending, lishogi_status};
use super::replay::Replay;
use super::{ChuRecord, add_comment, comment_texts, push_header};

/// JSON: one object, an array of them, or NDJSON.
pub static JSON: Json = Json;

/// The JSON format (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct Json;

impl RecordFormat<Chu> for Json {
    fn name(&self) -> &'static str {
        "json"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["ndjson", "jsonl"]
    }

    /// An object first, or an array of objects.
    fn sniff(&self, text: &str) -> bool {
        let t = text.trim_start_matches('\u{feff}').trim_start();
        t.starts_with('{') || t.starts_with('[') && t[1..].trim_start().starts_with('{')
    }

    fn holds_many(&self) -> bool {
        true
    }

    fn records<'t>(&self, text: &'t str) -> Records<'t, Chu> {
        Box::new(records(text).map(|(record, diagnostics)| RecordRead {
            record,
            diagnostics,
        }))
    }

    fn write(&self, records: &[ChuRecord]) -> kifu_record::Written {
        let mut written = super::write_records(records, "JSON", true, |_| String::new(), losses);
        written.text = write_many(records);
        written
    }

    fn writes_in_parts(&self) -> bool {
        true
    }

    /// NDJSON lines: a file of several games is one line each.
    fn write_part(&self, records: &[ChuRecord], before: usize) -> kifu_record::Written {
        super::write_games(records, before, true, ndjson_line, losses)
    }
}

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
                        diags.push(Diagnostic::syntax(
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
pub fn records(text: &str) -> Box<dyn Iterator<Item = (ChuRecord, Vec<Diagnostic>)> + Send + '_> {
    let first_line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    if serde_json::from_str::<Value>(first_line).is_err() {
        let (mut records, diags) = parse_many(text);
        if records.is_empty() {
            records.push(ChuRecord::new(Position::startpos()));
        }
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
                Some((ChuRecord::new(Position::startpos()), diags))
            }
        }
    }))
}

/// Reads the first game of a JSON text.
pub fn parse(text: &str) -> (ChuRecord, Vec<Diagnostic>) {
    let (mut records, diags) = parse_many(text);
    if records.is_empty() {
        return (ChuRecord::new(Position::startpos()), diags);
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
    let mut record = ChuRecord::new(Position::startpos());
    if !v.is_object() {
        diags.push(Diagnostic::syntax(whole, "a game must be a JSON object"));
        return record;
    }
    if let Some(Value::Object(h)) = v.get("headers") {
        for (k, val) in h {
            let value = val.as_str().map_or_else(|| val.to_string(), String::from);
            push_header(&mut record, k, value, locate(text, base, end, k));
        }
    }
    let root = record.moves.root();
    for c in strings(v.get("comments")) {
        let sp = locate(text, base, end, &c);
        add_comment(&mut record, root, c, sp);
    }
    if let Some(id) = str_field(v, &["id"]) {
        push_header(&mut record, "Id", id.into(), locate(text, base, end, id));
    }
    if let Some(sfen) = str_field(v, &["sfen", "initial_sfen", "initialSfen", "initialFen"]) {
        let sp = locate(text, base, end, sfen);
        match Position::from_sfen(sfen) {
            Ok(p) => {
                record.start = p;
                record.start_span = sp;
            }
            Err(e) => {
                diags.push(Diagnostic::syntax(sp, e.to_string()));
                return record;
            }
        }
    }
    if let Some(rules) = str_field(v, &["rules"]) {
        match rules.parse::<RuleSet>() {
            Ok(r) => record.start.set_rules(r),
            Err(e) => diags.push(Diagnostic::warning(
                DiagnosticKind::Unknown,
                whole,
                e.to_string(),
            )),
        }
    }
    let items: Vec<Value> = match v.get("moves") {
        Some(Value::String(s)) => s.split_whitespace().map(|m| json!(m)).collect(),
        Some(Value::Array(items)) => items.clone(),
        None => Vec::new(),
        Some(_) => {
            diags.push(Diagnostic::syntax(
                whole,
                "`moves` must be a string or an array",
            ));
            Vec::new()
        }
    };
    let mut cursor = base;
    let mut replay = Replay::new(&record);
    read_line(
        &items,
        &mut record,
        &mut replay,
        text,
        &mut cursor,
        end,
        diags,
    );
    let status = str_field(v, &["result", "status"]);
    let winner = match str_field(v, &["winner"]) {
        Some("sente" | "black") => Some(Side::First),
        Some("gote" | "white") => Some(Side::Second),
        _ => None,
    };
    if let Some(s) = status {
        let sp = locate(text, base, end, s);
        let kind = lishogi_ending(s, winner);
        if let EndingKind::Unknown(word) = &kind {
            diags.push(Diagnostic::warning(
                DiagnosticKind::Unknown,
                sp,
                format!("unknown status `{word}`, kept as written"),
            ));
        }
        // lishogi's statuses are judgements under lishogi's rules; a record that names other
        // rules may end where they do not.
        if !replay.broken && record.start.rules() == RuleSet::LISHOGI {
            check_status(&kind, s, winner, &replay, whole, diags);
        }
        match record.moves.main_child(replay.node) {
            // The moves list closed with the ending itself (to carry its time): the status
            // names the same ending, with its winner.
            Some(ending) if record.moves[ending].is_ending() => {
                record.moves[ending].item = NodeItem::End(kind);
            }
            _ => {
                record.moves.add_ending(replay.node, kind, sp);
            }
        }
    }
    record
}

/// lishogi states endings the board decides (a captured royal, a bare king …) and endings a
/// player chose with the winner: both must agree with the replayed game.
fn check_status(
    kind: &EndingKind<kifu_chu::Outcome>,
    status: &str,
    winner: Option<Side>,
    replay: &Replay,
    whole: Span,
    diags: &mut Vec<Diagnostic>,
) {
    let board = replay.game.outcome();
    let decided_on_board =
        matches!(kind, EndingKind::Game(_) | EndingKind::Repetition) || status == "stalemate";
    if decided_on_board {
        let winner = winner.map(kifu_chu::color_of);
        match board {
            Some(o) if o.reason.lishogi_status() == status && o.winner == winner => {}
            Some(o) => diags.push(Diagnostic::error(
                DiagnosticKind::Inconsistent,
                whole,
                format!("the record says `{status}` but the game ended: {o}"),
            )),
            None => diags.push(Diagnostic::error(
                DiagnosticKind::Inconsistent,
                whole,
                format!("the record says `{status}` but the final position is not over"),
            )),
        }
        return;
    }
    let mover = kifu_chu::side_of(replay.position().turn());
    if let Some(w) = winner
        && !matches!(kind, EndingKind::Unknown(_))
        && kind.outcome(mover) != Outcome::Win(w)
    {
        diags.push(Diagnostic::warning(
            DiagnosticKind::Inconsistent,
            whole,
            format!(
                "the record says `{status}` won by {w}, but {kind} at this move gives {}",
                kind.outcome(mover)
            ),
        ));
    }
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|c| {
            c.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Reads a list of moves from where `replay` stands, with their comments, times and
/// variations (alternatives to the move they are on); stops at the first move it cannot play.
fn read_line(
    items: &[Value],
    record: &mut ChuRecord,
    replay: &mut Replay,
    text: &str,
    cursor: &mut usize,
    end: usize,
    diags: &mut Vec<Diagnostic>,
) {
    for item in items {
        if let Some(status) = item.get("ending").and_then(Value::as_str) {
            let sp = locate(text, *cursor, end, status);
            let node = record
                .moves
                .add_ending(replay.node, lishogi_ending(status, None), sp);
            for c in strings(item.get("comments")) {
                add_comment(record, node, c, sp);
            }
            record.moves[node].set_time_ms(item.get("time_ms").and_then(Value::as_u64));
            record.moves[node].set_total_ms(item.get("total_ms").and_then(Value::as_u64));
            return;
        }
        let usi = match item {
            Value::String(s) => s.as_str(),
            other => str_field(other, &["usi"]).unwrap_or_default(),
        };
        let sp = locate(text, *cursor, end, usi);
        *cursor = sp.end as usize;
        let parent = replay.node;
        if replay.over(record, sp, diags) {
            replay.broken = true;
            return;
        }
        let Some(m) = parse_usi(usi) else {
            diags.push(Diagnostic::syntax(sp, format!("`{usi}` is not a USI move")));
            replay.broken = true;
            return;
        };
        if !replay.play(record, m, sp, diags) {
            return;
        }
        let node = replay.node;
        for c in strings(item.get("comments")) {
            add_comment(record, node, c, sp);
        }
        record.moves[node].set_time_ms(item.get("time_ms").and_then(Value::as_u64));
        record.moves[node].set_total_ms(item.get("total_ms").and_then(Value::as_u64));
        if let Some(Value::Array(variations)) = item.get("variations") {
            for variation in variations {
                let Value::Array(line) = variation else {
                    diags.push(Diagnostic::syntax(
                        sp,
                        "a variation must be a list of moves",
                    ));
                    continue;
                };
                let mut branch = Replay::at(record, parent);
                read_line(line, record, &mut branch, text, cursor, end, diags);
            }
        }
    }
}

/// What [`write`](fn@write) cannot hold of a record: a header key given twice (a JSON object holds one),
/// the order of the headers (the object's keys are written sorted).
pub fn losses(record: &ChuRecord) -> Vec<String> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for entry in record.header.entries() {
        let k = entry.key.as_str();
        if seen.contains(&k) {
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
    records.iter().map(ndjson_line).collect()
}

/// One game as a line of NDJSON.
fn ndjson_line(record: &ChuRecord) -> String {
    let v: Value = serde_json::from_str(&write(record)).unwrap_or(Value::Null);
    let mut line = v.to_string();
    line.push('\n');
    line
}

/// Writes one game as a JSON object (pretty-printed).
pub fn write(record: &ChuRecord) -> String {
    let mut headers = Map::new();
    for entry in record.header.entries() {
        headers.insert(entry.key.clone(), Value::String(entry.value.clone()));
    }
    let tree = &record.moves;
    let moves = line_json(record, tree.root(), tree.main_child(tree.root()));
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
    let comments: Vec<&str> = comment_texts(record, tree.root()).collect();
    if !comments.is_empty() {
        doc["comments"] = json!(comments);
    }
    if let Some(ending) = record.ending() {
        doc["result"] = json!(lishogi_status(&ending.kind));
        match record.outcome() {
            Outcome::Win(Side::First) => doc["winner"] = json!("sente"),
            Outcome::Win(Side::Second) => doc["winner"] = json!("gote"),
            _ => {}
        }
    }
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// The moves of the line from `first` (a child of `from`) as JSON, each with the alternatives
/// to it; an ending off the main line closes its list as `{"ending": …}`.
fn line_json(record: &ChuRecord, from: NodeId, first: Option<NodeId>) -> Vec<Value> {
    let tree = &record.moves;
    let mut game = Replay::at(record, from);
    let mut out = Vec::new();
    let mut next = first;
    while let Some(id) = next {
        let node = &tree[id];
        let mut o = match &node.item {
            NodeItem::Move(m) => {
                let o = json!({"usi": m.to_string(), "csl": western(game.position(), *m)});
                game.game.play_unchecked(*m);
                o
            }
            // The main line's ending is the top-level result; it is repeated here only to
            // carry its time or comments.
            NodeItem::End(kind)
                if !tree.is_main_line(id)
                    || node.time_ms().is_some()
                    || node.total_ms().is_some()
                    || !node.comments().is_empty() =>
            {
                json!({"ending": lishogi_status(kind)})
            }
            _ => break,
        };
        let comments: Vec<&str> = comment_texts(record, id).collect();
        if !comments.is_empty() {
            o["comments"] = json!(comments);
        }
        if let Some(t) = node.time_ms() {
            o["time_ms"] = json!(t);
        }
        if let Some(t) = node.total_ms() {
            o["total_ms"] = json!(t);
        }
        let parent = tree.parent(id).unwrap_or(tree.root());
        if tree.main_child(parent) == Some(id) {
            let variations: Vec<Value> = tree
                .variations(parent)
                .map(|alt| Value::Array(line_json(record, parent, Some(alt))))
                .collect();
            if !variations.is_empty() {
                o["variations"] = Value::Array(variations);
            }
        }
        out.push(o);
        next = tree.main_child(id);
    }
    out
}
