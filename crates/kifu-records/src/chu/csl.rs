//! Games in CSL notation: optional PGN-style headers (`[Black "…"]`, `[SFEN "…"]` for a custom
//! start, `[Rules "JCSA"]`), then the moves, one per line or numbered (`1. Ln-7h 2. …`), in
//! Western or Japanese notation, with `{…}` and `;` comments and an optional result at the end.

use kifu_record::{Diagnostic, DiagnosticKind, Span};

use super::{ChuRecord, RecordMove, Replay, span};
use crate::notation::{Dialect, NotationError, japanese, parse_move, western};
use crate::position::{Position, START_SFEN};
use crate::rules::RuleSet;

/// Result words accepted after the last move.
const RESULTS: &[&str] = &[
    "1-0",
    "0-1",
    "1/2-1/2",
    "½-½",
    "*",
    "resign",
    "resigns",
    "resigned",
    "draw",
    "投了",
    "千日手",
    "中断",
];

enum Item<'a> {
    Header(&'a str, String, Span),
    Comment(String),
    Text(&'a str, usize),
}

/// Splits the text into headers, comments and move text, keeping byte offsets.
fn items<'a>(text: &'a str, diags: &mut Vec<Diagnostic>) -> Vec<Item<'a>> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut text_start = 0;
    let b = text.as_bytes();
    let flush = |out: &mut Vec<Item<'a>>, from: usize, to: usize| {
        if from < to {
            out.push(Item::Text(&text[from..to], from));
        }
    };
    while i < b.len() {
        match b[i] {
            b'{' => {
                flush(&mut out, text_start, i);
                let end = text[i..].find('}').map(|e| i + e);
                let close = end.unwrap_or(text.len());
                if end.is_none() {
                    diags.push(Diagnostic::error(
                        DiagnosticKind::Syntax,
                        Span::new(i, i + 1),
                        "comment `{` is never closed",
                    ));
                }
                out.push(Item::Comment(text[i + 1..close].trim().to_string()));
                i = (close + 1).min(text.len());
                text_start = i;
            }
            b';' => {
                flush(&mut out, text_start, i);
                let end = text[i..].find('\n').map_or(text.len(), |e| i + e);
                out.push(Item::Comment(text[i + 1..end].trim().to_string()));
                i = end;
                text_start = i;
            }
            b'[' if text[text_start..i].trim().is_empty() => {
                flush(&mut out, text_start, i);
                let end = text[i..].find(']').map(|e| i + e);
                match end.and_then(|e| parse_header(&text[i + 1..e]).map(|h| (e, h))) {
                    Some((e, (k, v))) => {
                        out.push(Item::Header(k, v, Span::new(i, e + 1)));
                        i = e + 1;
                    }
                    None => {
                        let e = text[i..].find('\n').map_or(text.len(), |e| i + e);
                        diags.push(Diagnostic::warning(
                            DiagnosticKind::Syntax,
                            Span::new(i, e),
                            "unreadable header line ignored",
                        ));
                        i = e;
                    }
                }
                text_start = i;
            }
            b'\n' => {
                flush(&mut out, text_start, i);
                i += 1;
                text_start = i;
            }
            _ => i += 1,
        }
    }
    flush(&mut out, text_start, text.len());
    out
}

/// `Key "value"` → (key, value).
fn parse_header(inner: &str) -> Option<(&str, String)> {
    let inner = inner.trim();
    let (key, rest) = inner.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    (!key.is_empty()).then(|| (key, value.replace("\\\"", "\"")))
}

/// Splits a line of move text at move numbers (`1.`, `12...`), returning (text, offset) pieces.
fn segments(line: &str, base: usize) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        let at_token_start = i == 0 || b[i - 1].is_ascii_whitespace();
        if at_token_start && b[i].is_ascii_digit() {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j < b.len() && b[j] == b'.' {
                out.push((&line[start..i], base + start));
                while j < b.len() && b[j] == b'.' {
                    j += 1;
                }
                start = j;
                i = j;
                continue;
            }
        }
        i += 1;
    }
    out.push((&line[start..], base + start));
    out.into_iter()
        .map(|(s, o)| {
            let lead = s.len() - s.trim_start().len();
            (s.trim(), o + lead)
        })
        .filter(|(s, _)| !s.is_empty())
        .collect()
}

fn describe(e: &NotationError, text: &str) -> String {
    match e {
        NotationError::Ambiguous { .. } => format!("`{text}` is {e}"),
        NotationError::NoMove { message } => format!("`{text}`: {message}"),
        NotationError::Syntax { message, .. } => format!("`{text}` is not a move: {message}"),
    }
}

/// Reads a CSL game.
pub fn parse(text: &str) -> (ChuRecord, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut record = ChuRecord::default();
    let mut replay: Option<Replay> = None;
    let mut warned_unchecked = false;
    let mut previous = None;
    let mut result_at: Option<&str> = None;
    let items = items(text, &mut diags);
    let nothing = items
        .iter()
        .all(|i| matches!(i, Item::Text(t, _) if t.trim().is_empty()));
    for item in items {
        match item {
            Item::Header(key, value, sp) => {
                if replay.is_some() {
                    diags.push(Diagnostic::warning(
                        DiagnosticKind::Syntax,
                        sp,
                        format!("header `{key}` after the moves"),
                    ));
                }
                if key.eq_ignore_ascii_case("SFEN") || key.eq_ignore_ascii_case("FEN") {
                    match Position::from_sfen(&value) {
                        Ok(p) if replay.is_none() => {
                            record.start = p.with_rules(record.start.rules())
                        }
                        Ok(_) => diags.push(Diagnostic::error(
                            DiagnosticKind::Syntax,
                            sp,
                            "start position given after the moves",
                        )),
                        Err(e) => {
                            diags.push(Diagnostic::error(DiagnosticKind::Syntax, sp, e.to_string()))
                        }
                    }
                } else if key.eq_ignore_ascii_case("Result") {
                    record.result = Some(value.clone());
                    continue;
                } else if key.eq_ignore_ascii_case("Rules") {
                    match RuleSet::from_name(&value) {
                        Some(r) => record.start.set_rules(r),
                        None => diags.push(Diagnostic::warning(
                            DiagnosticKind::Unknown,
                            sp,
                            format!("unknown rule set `{value}`; using lishogi rules"),
                        )),
                    }
                }
                record.headers.push((key.to_string(), value));
            }
            Item::Comment(c) => match record.moves.last_mut() {
                Some(m) => m.comments.push(c),
                None => record.comments.push(c),
            },
            Item::Text(line, base) => {
                for (seg, off) in segments(line, base) {
                    let replay = replay.get_or_insert_with(|| Replay::new(record.start.clone()));
                    let whole = [(seg, off)];
                    let pieces: Vec<(&str, usize)> = if RESULTS.contains(&seg) {
                        record.result = Some(seg.to_string());
                        result_at.get_or_insert(seg);
                        continue;
                    } else if seg.contains(char::is_whitespace)
                        && matches!(
                            parse_move(replay.game.position(), seg, Dialect::Csl, previous),
                            Err(NotationError::Syntax { .. })
                        )
                    {
                        seg.split_whitespace()
                            .map(|t| (t, off + (t.as_ptr() as usize - seg.as_ptr() as usize)))
                            .collect()
                    } else {
                        whole.to_vec()
                    };
                    for (t, o) in pieces {
                        let sp = span(o, 0, t.len());
                        if RESULTS.contains(&t) {
                            record.result = Some(t.to_string());
                            result_at.get_or_insert(t);
                            continue;
                        }
                        if let Some(r) = result_at {
                            diags.push(Diagnostic::error(
                                DiagnosticKind::AfterEnd,
                                sp,
                                format!("`{t}` after the result `{r}`: the game ended there"),
                            ));
                            replay.broken = true;
                            warned_unchecked = true;
                            continue;
                        }
                        if replay.broken {
                            // Legality is unknown from here on, but the text can still be
                            // unreadable: report that.
                            if let Err(e @ NotationError::Syntax { .. }) =
                                parse_move(replay.game.position(), t, Dialect::Csl, None)
                            {
                                diags.push(Diagnostic::error(
                                    DiagnosticKind::Syntax,
                                    sp,
                                    describe(&e, t),
                                ));
                            } else if !warned_unchecked {
                                diags.push(Diagnostic::warning(
                                    DiagnosticKind::Syntax,
                                    sp,
                                    "moves after an invalid move are not checked",
                                ));
                                warned_unchecked = true;
                            }
                            continue;
                        }
                        if replay.over(sp, &mut diags) {
                            replay.broken = true;
                            continue;
                        }
                        let pos = replay.game.position().clone();
                        match parse_move(&pos, t, Dialect::Csl, previous) {
                            Ok(p) => {
                                for w in p.warnings {
                                    diags.push(Diagnostic::warning(DiagnosticKind::Syntax, sp, w));
                                }
                                if replay.play(p.mv, sp, &mut diags) {
                                    previous = Some(p.mv.to());
                                    record.moves.push(RecordMove {
                                        mv: p.mv,
                                        comments: Vec::new(),
                                    });
                                }
                            }
                            Err(e) => {
                                let ply = replay.game.moves().len() + 1;
                                diags.push(Diagnostic::error(
                                    DiagnosticKind::IllegalMove,
                                    sp,
                                    format!("ply {ply}: {}", describe(&e, t)),
                                ));
                                replay.broken = true;
                            }
                        }
                    }
                }
            }
        }
    }
    if nothing && diags.is_empty() {
        diags.push(super::no_record(text, "CSL"));
    }
    (record, diags)
}

/// What the CSL writers cannot hold of a record: a `}` inside a comment.
pub fn losses(record: &ChuRecord) -> Vec<String> {
    let braces = record
        .comments
        .iter()
        .chain(record.moves.iter().flat_map(|m| &m.comments))
        .filter(|c| c.contains('}'))
        .count();
    if braces == 0 {
        return Vec::new();
    }
    vec![format!(
        "CSL comments cannot hold `}}`: written as `)` in {braces} comment(s)"
    )]
}

fn write_with(record: &ChuRecord, render: fn(&Position, crate::moves::Move) -> String) -> String {
    let mut out = String::new();
    let mut has_sfen = false;
    for (k, v) in &record.headers {
        has_sfen |= k.eq_ignore_ascii_case("SFEN");
        out.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "\\\"")));
    }
    if !has_sfen && record.start.to_sfen() != START_SFEN {
        out.push_str(&format!("[SFEN \"{}\"]\n", record.start.to_sfen()));
    }
    if record.header("Rules").is_none() && record.start.rules() == crate::rules::RuleSet::JCSA {
        out.push_str("[Rules \"JCSA\"]\n");
    }
    // A result word the move reader would not know goes into a header.
    let result_header = record.result.as_deref().filter(|r| !RESULTS.contains(r));
    if let Some(r) = result_header {
        out.push_str(&format!("[Result \"{}\"]\n", r.replace('"', "\\\"")));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    for c in &record.comments {
        out.push_str(&format!("{{{}}}\n", c.replace('}', ")")));
    }
    let mut pos = record.start.clone();
    for (i, m) in record.moves.iter().enumerate() {
        out.push_str(&format!("{}. {}", i + 1, render(&pos, m.mv)));
        for c in &m.comments {
            out.push_str(&format!(" {{{}}}", c.replace('}', ")")));
        }
        out.push('\n');
        pos.play_unchecked(m.mv);
    }
    if let Some(r) = record.result.as_deref().filter(|r| RESULTS.contains(r)) {
        out.push_str(r);
        out.push('\n');
    }
    out
}

/// Writes the game in CSL Western notation, one numbered move per line.
pub fn write(record: &ChuRecord) -> String {
    write_with(record, western)
}

/// Writes the game in CSL Japanese notation (`1. 7八獅`).
pub fn write_japanese(record: &ChuRecord) -> String {
    write_with(record, japanese)
}
