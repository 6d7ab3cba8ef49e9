//! USI move lists, one game per line: `position sfen <sfen> moves 7i7h …`,
//! `position startpos moves …`, or just the moves from the start position.

use kifu_chu::{Chu, Position, START_SFEN, parse_usi};
use kifu_record::{Diagnostic, DiagnosticKind, RecordFormat, RecordRead, Records, Span};

use super::ChuRecord;
use super::replay::Replay;

/// USI move lists, one game per line.
pub static USI: Usi = Usi;

/// The USI list format (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct Usi;

impl RecordFormat<Chu> for Usi {
    fn name(&self) -> &'static str {
        "usi"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["sfen"]
    }

    /// `position`, `startpos` or `sfen` first, or a first word that is a USI move in a text
    /// without the `.` of numbered moves.
    fn sniff(&self, text: &str) -> bool {
        let t = text.trim_start_matches('\u{feff}').trim_start();
        let first = t.split_whitespace().next().unwrap_or("");
        ["position", "startpos", "sfen"].contains(&first)
            || parse_usi(first).is_some() && !t.contains('.')
    }

    fn holds_many(&self) -> bool {
        true
    }

    /// One game per line, read as the line is reached; a text without any game gives one
    /// empty record with the error.
    fn records<'t>(&self, text: &'t str) -> Records<'t, Chu> {
        let mut games = records(text).peekable();
        if games.peek().is_none() {
            return Box::new(std::iter::once(RecordRead {
                record: ChuRecord::new(Position::startpos()),
                diagnostics: vec![super::no_record(text, "USI")],
            }));
        }
        Box::new(games.map(|(record, diagnostics)| RecordRead {
            record,
            diagnostics,
        }))
    }

    fn write(&self, records: &[ChuRecord]) -> kifu_record::Written {
        super::write_records(records, "USI", true, write, losses)
    }

    fn writes_in_parts(&self) -> bool {
        true
    }

    fn write_part(&self, records: &[ChuRecord], before: usize) -> kifu_record::Written {
        super::write_games(records, before, true, write, losses)
    }
}

/// Reads every game of a USI list (empty lines and `#` comments are skipped).
pub fn parse_many(text: &str) -> (Vec<ChuRecord>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut records = Vec::new();
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let base = offset;
        offset += raw.len();
        let line = raw.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        records.push(parse_line(line, base, &mut diags));
    }
    if records.is_empty() {
        diags.push(super::no_record(text, "USI"));
    }
    (records, diags)
}

/// The games of a USI list one at a time, each with its own diagnostics (spans are offsets into
/// the whole text), without holding the others.
pub fn records(text: &str) -> impl Iterator<Item = (ChuRecord, Vec<Diagnostic>)> + '_ {
    let mut offset = 0;
    text.split_inclusive('\n').filter_map(move |raw| {
        let base = offset;
        offset += raw.len();
        let line = raw.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            return None;
        }
        let mut diags = Vec::new();
        let record = parse_line(line, base, &mut diags);
        Some((record, diags))
    })
}

/// Reads the first game of a USI list.
pub fn parse(text: &str) -> (ChuRecord, Vec<Diagnostic>) {
    let (mut records, mut diags) = parse_many(text);
    if records.is_empty() {
        return (ChuRecord::new(Position::startpos()), diags);
    }
    if records.len() > 1 {
        diags.push(Diagnostic::warning(
            DiagnosticKind::Unknown,
            Span::new(0, 0),
            format!("{} games; only the first is kept", records.len()),
        ));
    }
    (records.swap_remove(0), diags)
}

fn parse_line(line: &str, base: usize, diags: &mut Vec<Diagnostic>) -> ChuRecord {
    let tokens: Vec<(&str, usize)> = line
        .split_whitespace()
        .map(|t| (t, base + (t.as_ptr() as usize - line.as_ptr() as usize)))
        .collect();
    let mut i = 0;
    if tokens.first().is_some_and(|(t, _)| *t == "position") {
        i += 1;
    }
    let mut record = ChuRecord::new(Position::startpos());
    match tokens.get(i).map(|t| t.0) {
        Some("startpos") => i += 1,
        Some("sfen") => {
            let start = i + 1;
            let mut end = start;
            while end < tokens.len() && tokens[end].0 != "moves" {
                end += 1;
            }
            let sfen: Vec<&str> = tokens[start..end].iter().map(|t| t.0).collect();
            let sp = Span::new(
                tokens[i].1,
                tokens.get(end - 1).map_or(tokens[i].1, |t| t.1 + t.0.len()),
            );
            match Position::from_sfen(&sfen.join(" ")) {
                Ok(p) => {
                    record.start = p;
                    record.start_span = sp;
                }
                Err(e) => {
                    diags.push(Diagnostic::error(DiagnosticKind::Syntax, sp, e.to_string()));
                    return record;
                }
            }
            i = end;
        }
        _ => {}
    }
    if tokens.get(i).is_some_and(|t| t.0 == "moves") {
        i += 1;
    }
    let mut replay = Replay::new(&record);
    for &(t, o) in &tokens[i..] {
        let sp = Span::new(o, o + t.len());
        if !replay.broken && replay.over(&record, sp, diags) {
            replay.broken = true;
            continue;
        }
        let Some(m) = parse_usi(t) else {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                sp,
                format!("`{t}` is not a USI move"),
            ));
            replay.broken = true;
            continue;
        };
        if replay.broken {
            // Legality is unknown past an error; only unreadable moves are still reported.
            continue;
        }
        replay.play(&mut record, m, sp, diags);
    }
    record
}

/// What [`write`](fn@write) cannot hold of a record: headers, comments, the ending, variations, times,
/// the rule set.
pub fn losses(record: &ChuRecord) -> Vec<String> {
    let mut out = Vec::new();
    let headers: Vec<&str> = record
        .header
        .entries()
        .iter()
        .map(|e| e.key.as_str())
        .filter(|k| !k.eq_ignore_ascii_case("SFEN"))
        .collect();
    if !headers.is_empty() {
        out.push(format!(
            "USI has no headers: {} dropped",
            headers.join(", ")
        ));
    }
    let comments: usize = record
        .moves
        .ids()
        .map(|id| record.moves[id].comments().len())
        .sum();
    if comments > 0 {
        out.push(format!("USI has no comments: {comments} dropped"));
    }
    if let Some(ending) = record.ending() {
        out.push(format!("USI has no result: {} dropped", ending.kind));
    }
    out.extend(super::line_only_losses(record, "USI"));
    if record.start.rules() != kifu_chu::RuleSet::default() {
        out.push("USI cannot name the rule set: JCSA rules dropped".to_string());
    }
    out
}

/// Writes one line: `position startpos moves …` or `position sfen … moves …`.
pub fn write(record: &ChuRecord) -> String {
    let sfen = record.start.to_sfen();
    let mut out = if sfen == START_SFEN {
        "position startpos".to_string()
    } else {
        format!("position sfen {sfen}")
    };
    let moves = super::main_line_moves(record);
    if !moves.is_empty() {
        out.push_str(" moves");
        for m in moves {
            out.push(' ');
            out.push_str(&m.to_string());
        }
    }
    out.push('\n');
    out
}
