//! kifu's JSON form of a cetkaik record (what `kifu convert --to json` writes), read back into
//! the same record as a CKKA file: every move is kept in its ⓪ text, so nothing of the game is
//! lost either way, and the replay checks the moves, captures and hands as it does for CKKA.

use super::body::parse_body;
use super::record::{CkkaRecord, Element, ElementKind, InfoItem, NameEntry, NamesLine, Notation};
use kifu_cetkaik::numeral::to_pekzep;
use kifu_cetkaik::rules::Rules;
use kifu_record::{Diagnostic, DiagnosticKind, Span};
use serde_json::Value;

/// Whether the text is a JSON object with a `seasons` array (kifu's form, not cerke_noter's).
pub fn looks_like_kifu_json(text: &str) -> bool {
    super::noter::looks_like_noter(text)
        && super::noter::json_kind(text) == Some(super::noter::JsonKind::Kifu)
}

/// Finds a JSON string literal in the text at or after `*from`, moving `*from` past it.
fn locate(text: &str, from: &mut usize, value: &str) -> Span {
    let literal = serde_json::to_string(value).unwrap_or_default();
    match text.get(*from..).and_then(|t| t.find(&literal)) {
        Some(i) => {
            let start = *from + i;
            *from = start + literal.len();
            Span::new(start, *from)
        }
        None => Span::point(*from),
    }
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// Parses one snippet of ⓪ text standing for a JSON event; its elements and problems are placed
/// at the event's string in the file.
fn snippet(
    text: &str,
    at: Span,
    what: &str,
    body: &mut Vec<Element>,
    diags: &mut Vec<Diagnostic>,
) -> usize {
    let mut inner = Vec::new();
    let (elements, _) = parse_body(text, 0, &mut inner);
    for d in inner {
        let message = format!("{what} `{text}`: {}", d.message);
        diags.push(if d.is_error() {
            Diagnostic::error(DiagnosticKind::Syntax, at, message)
        } else {
            Diagnostic::warning(DiagnosticKind::Syntax, at, message)
        });
    }
    let n = elements.len();
    body.extend(elements.into_iter().map(|e| Element { span: at, ..e }));
    n
}

/// Reads kifu's JSON form. A text that is not such an object gives one error and an empty
/// record.
pub fn parse_json(text: &str) -> (CkkaRecord, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut record = CkkaRecord {
        notation: Some(Notation::Full),
        ..CkkaRecord::default()
    };
    let whole = Span::new(0, text.len());
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let at = byte_offset(text, e.line(), e.column());
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                Span::new(at, (at + 1).min(text.len())),
                format!("invalid JSON: {e}"),
            ));
            return (record, diags);
        }
    };
    let Some(seasons) = value.get("seasons").and_then(Value::as_array) else {
        diags.push(Diagnostic::error(
            DiagnosticKind::Syntax,
            whole,
            "not a cetkaik record: a JSON object with a `seasons` array was expected",
        ));
        return (record, diags);
    };
    let mut cursor = 0;
    if let Some(name) = str_of(&value, "rules") {
        let at = locate(text, &mut cursor, name);
        match Rules::by_name(name) {
            Some(r) => record.rules = Some(r),
            None => diags.push(Diagnostic::error(
                DiagnosticKind::Unknown,
                at,
                format!("unknown rule set `{name}`"),
            )),
        }
    }
    for item in value
        .get("header")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(v) = str_of(item, "value") else {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                Span::point(cursor),
                "a header item without a string `value`",
            ));
            continue;
        };
        let span = locate(text, &mut cursor, v);
        record.items.push(InfoItem {
            key: str_of(item, "key").map(str::to_string),
            value: v.to_string(),
            span,
        });
    }
    if let Some(players) = value.get("players").and_then(Value::as_array) {
        let entry = |p: &Value| NameEntry {
            name: str_of(p, "name").unwrap_or_default().to_string(),
            score: p
                .get("score")
                .and_then(Value::as_i64)
                .and_then(|s| i32::try_from(s).ok()),
        };
        match players.as_slice() {
            [a, b] => {
                record.names = Some(NamesLine {
                    first: entry(a),
                    second: entry(b),
                    span: Span::point(cursor),
                })
            }
            _ => diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                Span::point(cursor),
                "`players` must name two players",
            )),
        }
    }
    for season in seasons {
        for event in season
            .get("events")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            match str_of(event, "type") {
                Some("move") => {
                    let Some(mv) = str_of(event, "move") else {
                        diags.push(Diagnostic::error(
                            DiagnosticKind::Syntax,
                            Span::point(cursor),
                            "a move event without its `move` text",
                        ));
                        continue;
                    };
                    let at = locate(text, &mut cursor, mv);
                    let mut written = mv.to_string();
                    if let Some(c) = str_of(event, "captured") {
                        written.push_str(" 手");
                        written.push_str(c);
                    }
                    let before = record.body.len();
                    snippet(&written, at, "move", &mut record.body, &mut diags);
                    let comments: Vec<String> = event
                        .get("comments")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|c| c.as_str().map(str::to_string))
                        .collect();
                    if let Some(Element {
                        kind: ElementKind::Move { comments: kept, .. },
                        ..
                    }) = record.body.get_mut(before)
                    {
                        kept.extend(comments);
                    }
                }
                Some(word @ ("再行" | "終季")) => {
                    let at = locate(text, &mut cursor, word);
                    let hands: Vec<&str> = event
                        .get("hands")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .collect();
                    let mut written = String::new();
                    if !hands.is_empty() {
                        written = format!("或為{}", hands.join("加"));
                        if word == "終季" {
                            let gain = event.get("gain").and_then(Value::as_i64).unwrap_or(0);
                            written.push_str("而手");
                            written.push_str(&to_pekzep(gain as i32));
                        }
                        written.push('\n');
                    }
                    written.push_str(word);
                    snippet(&written, at, "declaration", &mut record.body, &mut diags);
                }
                other => diags.push(Diagnostic::error(
                    DiagnosticKind::Unknown,
                    Span::point(cursor),
                    format!(
                        "unknown event type {}",
                        other.map_or("(none)".to_string(), |o| format!("`{o}`"))
                    ),
                )),
            }
        }
    }
    if value.get("end_marker").and_then(Value::as_bool) == Some(true) {
        record.body.push(Element {
            kind: ElementKind::GameEnd,
            span: Span::point(text.len()),
        });
    }
    super::with_record_check(text, (record, diags))
}

/// The byte offset of a 1-based line and column as serde_json reports them.
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let mut at = (start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cetkaik::{self, write};

    #[test]
    fn not_json_or_not_a_cetkaik_object_is_an_error() {
        let (_, d) = parse_json("{\"moves\": []}");
        assert!(d[0].message.contains("`seasons`"), "{d:?}");
        let (_, d) = parse_json("{\"seasons\": [");
        assert!(d[0].message.starts_with("invalid JSON"), "{d:?}");
    }

    #[test]
    fn a_bad_move_is_reported_at_its_string() {
        let text = r#"{"seasons":[{"events":[{"type":"move","move":"MAU弓MAIMY橋一"},{"type":"move","move":"QQ弓"}]}]}"#;
        let (game, d) = cetkaik::check(text, Rules::standard());
        assert!(d.iter().any(Diagnostic::is_error), "{d:?}");
        let err = d.iter().find(|d| d.is_error()).unwrap();
        assert_eq!(&text[err.span.range()], "\"QQ弓\"", "{d:?}");
        assert_eq!(game.seasons[0].events.len(), 1);
    }

    #[test]
    fn the_corpus_record_reads_back_from_json() {
        let text = kifu_testkit::corpus::text("cetkaik/cerke_online/case4_2022-09-08.ckka");
        let (game, d) = cetkaik::check(&text, Rules::cerke_online());
        assert!(!d.iter().any(Diagnostic::is_error), "{d:?}");
        let json = write::write_json(&game);
        assert!(looks_like_kifu_json(&json));
        let (again, d) = cetkaik::check(&json, Rules::standard());
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(again.to_json(), game.to_json());
        assert_eq!(
            write::write(&again, Notation::Full),
            write::write(&game, Notation::Full)
        );
    }
}
