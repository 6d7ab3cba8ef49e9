//! Games in CSL notation: optional PGN-style headers (`[Black "…"]`, `[SFEN "…"]` for a custom
//! start, `[Rules "JCSA"]`), then the moves, one per line or numbered (`1. Ln-7h 2. …`), in
//! Western or Japanese notation, with `{…}` and `;` comments and an optional result at the end.

use kifu_chu::notation::{Dialect, NotationError, japanese, parse_move, western};
use kifu_chu::{Chu, Move, Position, RuleSet, START_SFEN};
use kifu_record::{
    Diagnostic, DiagnosticKind, EndingKind, RecordFormat, RecordRead, Records, Span,
};

use super::endings::{csl_word, ending_from_word};
use super::replay::Replay;
use super::{ChuRecord, add_comment, comment_texts, header_value, push_header, span};

/// The CSL notation: Western when written, any mix when read.
pub static CSL: Csl = Csl { japanese: false };
/// The CSL notation written in Japanese (`1. 7八獅`).
pub static CSL_JAPANESE: Csl = Csl { japanese: true };

/// A CSL record format; `japanese` says which notation the writer uses (the reader takes both).
#[derive(Clone, Copy, Debug)]
pub struct Csl {
    /// The writer writes Japanese CSL (the reader takes both).
    pub japanese: bool,
}

impl RecordFormat<Chu> for Csl {
    fn name(&self) -> &'static str {
        if self.japanese { "csl-ja" } else { "csl" }
    }

    fn extensions(&self) -> &'static [&'static str] {
        if self.japanese { &[] } else { &["txt"] }
    }

    /// Both notations are written to `.csl` files.
    fn file_extension(&self) -> &'static str {
        "csl"
    }

    /// Anything that is not another chu format is read as CSL (see [`super::detect`]).
    fn sniff(&self, _text: &str) -> bool {
        true
    }

    fn records<'t>(&self, text: &'t str) -> Records<'t, Chu> {
        let (record, diagnostics) = parse(text);
        Box::new(std::iter::once(RecordRead {
            record,
            diagnostics,
        }))
    }

    fn write(&self, records: &[ChuRecord]) -> kifu_record::Written {
        let japanese = self.japanese;
        super::write_records(
            records,
            self.name(),
            false,
            |r| {
                if japanese {
                    write_japanese(r)
                } else {
                    write(r)
                }
            },
            losses,
        )
    }
}

enum Item<'a> {
    Header(&'a str, String, Span),
    Comment(String, Span),
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
                out.push(Item::Comment(
                    text[i + 1..close].trim().to_string(),
                    Span::new(i, (close + 1).min(text.len())),
                ));
                i = (close + 1).min(text.len());
                text_start = i;
            }
            b';' => {
                flush(&mut out, text_start, i);
                let end = text[i..].find('\n').map_or(text.len(), |e| i + e);
                out.push(Item::Comment(
                    text[i + 1..end].trim().to_string(),
                    Span::new(i, end),
                ));
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
    let mut record = ChuRecord::new(Position::startpos());
    let mut replay: Option<Replay> = None;
    let mut warned_unchecked = false;
    let mut previous = None;
    let mut result_at: Option<&str> = None;
    // The node comments attach to: the last move or ending read.
    let mut last = record.moves.root();
    let mut result_header: Option<(String, Span)> = None;
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
                            record.start = p.with_rules(record.start.rules());
                            record.start_span = sp;
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
                    result_header = Some((value, sp));
                    continue;
                } else if key.eq_ignore_ascii_case("Rules") {
                    match value.parse::<RuleSet>() {
                        Ok(r) => record.start.set_rules(r),
                        Err(e) => diags.push(Diagnostic::warning(
                            DiagnosticKind::Unknown,
                            sp,
                            format!("{e}; using lishogi rules"),
                        )),
                    }
                }
                push_header(&mut record, key, value, sp);
            }
            Item::Comment(c, sp) => add_comment(&mut record, last, c, sp),
            Item::Text(line, base) => {
                for (seg, off) in segments(line, base) {
                    let replay = replay.get_or_insert_with(|| Replay::new(&record));
                    let whole = [(seg, off)];
                    let pieces: Vec<(&str, usize)> = if let Some(kind) = ending_from_word(seg) {
                        last = end_line(
                            &mut record,
                            replay,
                            kind,
                            seg,
                            span(off, 0, seg.len()),
                            result_at,
                            &mut diags,
                        );
                        result_at.get_or_insert(seg);
                        continue;
                    } else if seg.contains(char::is_whitespace)
                        && matches!(
                            parse_move(replay.position(), seg, Dialect::Csl, previous),
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
                        if let Some(kind) = ending_from_word(t) {
                            last =
                                end_line(&mut record, replay, kind, t, sp, result_at, &mut diags);
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
                                parse_move(replay.position(), t, Dialect::Csl, None)
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
                        if replay.over(&record, sp, &mut diags) {
                            replay.broken = true;
                            continue;
                        }
                        let pos = replay.position().clone();
                        match parse_move(&pos, t, Dialect::Csl, previous) {
                            Ok(p) => {
                                for w in p.warnings {
                                    diags.push(Diagnostic::warning(DiagnosticKind::Syntax, sp, w));
                                }
                                if replay.play(&mut record, p.mv, sp, &mut diags) {
                                    previous = Some(p.mv.to());
                                    last = replay.node;
                                }
                            }
                            Err(e) => {
                                let ply = replay.next_ply(&record);
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
    if let Some((value, sp)) = result_header {
        match ending_from_word(&value) {
            _ if result_at.is_some() => {}
            Some(kind) => {
                let at = replay.as_ref().map_or(record.moves.root(), |r| r.node);
                record.moves.add_ending(at, kind, sp);
            }
            None => {
                diags.push(Diagnostic::warning(
                    DiagnosticKind::Unknown,
                    sp,
                    format!("unknown result `{value}`, kept as written"),
                ));
                let at = replay.as_ref().map_or(record.moves.root(), |r| r.node);
                record.moves.add_ending(at, EndingKind::Unknown(value), sp);
            }
        }
    }
    if nothing && diags.is_empty() {
        diags.push(super::no_record(text, "CSL"));
    }
    (record, diags)
}

/// Adds the ending a result word states after the last move read, once; returns its node.
fn end_line(
    record: &mut ChuRecord,
    replay: &Replay,
    kind: EndingKind<kifu_chu::Outcome>,
    word: &str,
    sp: Span,
    earlier: Option<&str>,
    diags: &mut Vec<Diagnostic>,
) -> kifu_record::NodeId {
    if let Some(earlier) = earlier {
        diags.push(Diagnostic::warning(
            DiagnosticKind::AfterEnd,
            sp,
            format!("a second result `{word}` after `{earlier}` is not kept"),
        ));
        return record.moves.main_line_end();
    }
    record.moves.add_ending(replay.node, kind, sp)
}

/// What the CSL writers cannot hold of a record: variations, times, a `}` inside a comment.
pub fn losses(record: &ChuRecord) -> Vec<String> {
    let mut out = super::line_only_losses(record, "CSL");
    let braces = record
        .moves
        .ids()
        .flat_map(|id| comment_texts(record, id))
        .filter(|c| c.contains('}'))
        .count();
    if braces > 0 {
        out.push(format!(
            "CSL comments cannot hold `}}`: written as `)` in {braces} comment(s)"
        ));
    }
    out
}

fn write_with(record: &ChuRecord, render: fn(&Position, Move) -> String, japanese: bool) -> String {
    let mut out = String::new();
    let mut has_sfen = false;
    for entry in record.header.entries() {
        has_sfen |= entry.key.eq_ignore_ascii_case("SFEN");
        out.push_str(&format!(
            "[{} \"{}\"]\n",
            entry.key,
            entry.value.replace('"', "\\\"")
        ));
    }
    if !has_sfen && record.start.to_sfen() != START_SFEN {
        out.push_str(&format!("[SFEN \"{}\"]\n", record.start.to_sfen()));
    }
    if header_value(record, "Rules").is_none() && record.start.rules() == RuleSet::JCSA {
        out.push_str("[Rules \"JCSA\"]\n");
    }
    // An ending without a result word goes into a header, kept as its word or description.
    let ending = record.ending().map(|e| e.kind);
    let word = ending.as_ref().and_then(|k| csl_word(k, japanese));
    if let (Some(kind), None) = (&ending, &word) {
        let text = match kind {
            EndingKind::Unknown(w) => w.clone(),
            other => other.to_string(),
        };
        out.push_str(&format!("[Result \"{}\"]\n", text.replace('"', "\\\"")));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    let tree = &record.moves;
    for c in comment_texts(record, tree.root()) {
        out.push_str(&format!("{{{}}}\n", c.replace('}', ")")));
    }
    let mut pos = record.start.clone();
    let mut end_comments = Vec::new();
    for id in tree.main_line() {
        let Some(&mv) = tree[id].mv() else {
            end_comments.extend(comment_texts(record, id));
            continue;
        };
        out.push_str(&format!("{}. {}", tree[id].ply(), render(&pos, mv)));
        for c in comment_texts(record, id) {
            out.push_str(&format!(" {{{}}}", c.replace('}', ")")));
        }
        out.push('\n');
        pos.play_unchecked(mv);
    }
    if let Some(w) = word {
        out.push_str(&w);
        for c in end_comments {
            out.push_str(&format!(" {{{}}}", c.replace('}', ")")));
        }
        out.push('\n');
    }
    // A record with no header, no move and no ending would be an empty file, which holds
    // no record: its start position says there is one.
    if out.is_empty() {
        out.push_str(&format!("[SFEN \"{}\"]\n", record.start.to_sfen()));
    }
    out
}

/// Writes the game in CSL Western notation, one numbered move per line.
pub fn write(record: &ChuRecord) -> String {
    write_with(record, western, false)
}

/// Writes the game in CSL Japanese notation (`1. 7八獅`).
pub fn write_japanese(record: &ChuRecord) -> String {
    write_with(record, japanese, true)
}
