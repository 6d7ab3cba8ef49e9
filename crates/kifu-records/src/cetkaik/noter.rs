//! cerke_noter's app file: `{"black":…, "red":…, "first":"black"|"red", "season":…,
//! "note":["meAxeze3", …]}`, read into the same record as a CKKA file in notation ③.

use super::game_record::{Event, GameRecord};
use super::record::{CkkaRecord, Element, ElementKind, InfoItem, Notation};
use super::write::mrf::mrf_text;
use kifu_cetkaik::notation::machine::parse_mrf;
use kifu_cetkaik::piece::Side;
use kifu_record::{Diagnostic, DiagnosticKind, Span};
use serde_json::value::RawValue;

/// Whether the text opens like a JSON object (`{` then `"`): a cheap first test before
/// parsing; a CKKA header item may open so too.
pub fn looks_like_noter(text: &str) -> bool {
    let mut chars = text.chars().filter(|c| !c.is_whitespace());
    chars.next() == Some('{') && chars.next() == Some('"')
}

/// What a JSON text is, by its top-level keys.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum JsonKind {
    /// cerke_noter's app file: a `note` array.
    Noter,
    /// kifu's JSON form: a `seasons` array.
    Kifu,
    /// Another JSON value.
    Other,
}

/// The kind of JSON the text is, or `None` when it is not JSON.
pub fn json_kind(text: &str) -> Option<JsonKind> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let is_array = |key: &str| value.get(key).is_some_and(serde_json::Value::is_array);
    Some(if is_array("note") {
        JsonKind::Noter
    } else if is_array("seasons") {
        JsonKind::Kifu
    } else {
        JsonKind::Other
    })
}

/// The `note` array with each entry as the text it was written as, so that diagnostics
/// point into the file.
#[derive(serde::Deserialize)]
struct Notes<'t> {
    #[serde(borrow)]
    note: Vec<&'t RawValue>,
}

/// Where a slice borrowed from `text` lies in it.
fn span_in(text: &str, part: &str) -> Span {
    let start = part.as_ptr() as usize - text.as_ptr() as usize;
    Span::new(start, start + part.len())
}

/// Reads a cerke_noter file; `None` if the text is not a JSON object with a `note` array.
pub fn parse_noter(text: &str) -> Option<(CkkaRecord, Vec<Diagnostic>)> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let obj = value.as_object()?;
    let notes: Notes<'_> = serde_json::from_str(text).ok()?;
    let mut diags = Vec::new();
    let mut items = Vec::new();
    let item = |key: &str, value: String| InfoItem {
        key: Some(key.to_string()),
        value,
        span: Span::default(),
    };
    let plain = |v: &serde_json::Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
    if let Some(v) = obj.get("black") {
        items.push(item("黒名", plain(v)));
    }
    if let Some(v) = obj.get("red") {
        items.push(item("赤名", plain(v)));
    }
    if let Some(v) = obj.get("first").and_then(|v| v.as_str()) {
        items.push(item(
            "一位色",
            if v == "red" { "赤" } else { "黒" }.to_string(),
        ));
    }
    if let Some(v) = obj.get("season") {
        items.push(item("季", plain(v)));
    }
    let mut body = Vec::new();
    for raw in notes.note {
        let span = span_in(text, raw.get());
        let Ok(s) = serde_json::from_str::<String>(raw.get()) else {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                span,
                "a note entry is not a string",
            ));
            continue;
        };
        match parse_mrf(&s) {
            Ok(m) => {
                let comments = m.final_hands.into_iter().map(|f| format!("={f}")).collect();
                body.push(Element {
                    kind: ElementKind::Move {
                        note: m.note,
                        comments,
                    },
                    span,
                });
                if let Some(d) = m.declaration {
                    body.push(Element {
                        kind: ElementKind::Declaration(d),
                        span,
                    });
                }
            }
            Err(msg) => diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                span,
                msg.to_string(),
            )),
        }
    }
    Some((
        CkkaRecord {
            items,
            names: None,
            body,
            notation: Some(Notation::Mrf),
            rules: None,
        },
        diags,
    ))
}

/// Writes a game as a cerke_noter file.
pub fn write_noter(game: &GameRecord) -> String {
    let info = |key: &str| {
        game.items
            .iter()
            .find(|i| i.key.as_deref() == Some(key))
            .map(|i| i.value.clone())
    };
    let mut note = Vec::new();
    for season in &game.seasons {
        for (k, e) in season.events.iter().enumerate() {
            if let Event::Move(m) = e {
                let next = match season.events.get(k + 1) {
                    Some(Event::Declaration(d)) => Some(d),
                    _ => None,
                };
                let literal = mrf_text(m, next);
                note.push(serde_json::from_str::<String>(&literal).unwrap_or_default());
            }
        }
    }
    let mut obj = serde_json::Map::new();
    if let Some(b) = info("黒名") {
        obj.insert("black".into(), b.into());
    }
    if let Some(r) = info("赤名") {
        obj.insert("red".into(), r.into());
    }
    let first = if game.first_side() == Side::IASide {
        "black"
    } else {
        "red"
    };
    obj.insert("first".into(), first.into());
    if let Some(s) = info("季") {
        obj.insert("season".into(), s.into());
    }
    obj.insert("note".into(), note.into());
    serde_json::to_string_pretty(&serde_json::Value::Object(obj)).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cetkaik;
    use kifu_cetkaik::rules::Rules;

    const APP: &str = r#"{"black": "kuai1", "red": "iei2", "first": "red", "season": "夏",
      "note": ["meAxeze3", "mauAmaimy1", "zoMnine", "ziaKxiacau", "caCcizo4", "zaiVzo", "ziVzo",
               "caiPcy", "BVzi", "myAmima2", "paOma", "pauScaucai", "zoVto", "miaHxaito4=tymor",
               "tiPto3", "caiScixe1=taxt=FHCV/HT"]}"#;

    #[test]
    fn the_app_file_reads_and_writes_back() {
        assert!(looks_like_noter(APP));
        assert!(!looks_like_noter("{律:官定}\nKA兵KE"));
        let (game, d) = cetkaik::check(APP, Rules::standard());
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(game.first_side(), Side::ASide);
        assert_eq!(game.seasons[0].events.len(), 18);
        let written = write_noter(&game);
        let (again, d) = cetkaik::check(&written, Rules::standard());
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(again.final_scores, game.final_scores);
        assert!(written.contains("\"caiScixe1=taxt=FHCV/HT\""), "{written}");
    }

    #[test]
    fn a_bad_note_is_reported_at_its_string() {
        let text = r#"{"note": ["meAxeze3", "qqZ"]}"#;
        let (_, d) = cetkaik::parse(text);
        assert_eq!(d.len(), 1);
        assert_eq!(&text[d[0].span.range()], "\"qqZ\"");
    }
}
