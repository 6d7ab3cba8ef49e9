//! The body: a sequence of moves and progress elements in any of the four notations.

use super::header::names_line;
use super::phonetic_lines::{phonetic_declaration, phonetic_hand_line};
use super::progress::{after_hop, hand_line, keyword};
use super::record::{Element, ElementKind, Notation, Who};
use kifu_cetkaik::notation::cursor::{Cursor, is_separator};
use kifu_cetkaik::notation::kanji::{board_move, drop_move};
use kifu_cetkaik::notation::machine::parse_mrf;
use kifu_cetkaik::notation::phonetic::{looks_phonetic, phonetic_drop, phonetic_move};
use kifu_cetkaik::profession::Profession;
use kifu_record::{Diagnostic, DiagnosticKind, Span};
use std::collections::VecDeque;

const COLUMNS: &str = "KLNTZXCMP";

/// Records the notation a move is written in: ⓪ marks anywhere make the record ⓪; otherwise
/// the first move decides.
fn note(n: Notation, notation: &mut Option<Notation>) {
    if notation.is_none() || n == Notation::Full {
        *notation = Some(n);
    }
}

/// Parses the body from `start`; returns the elements and the notation seen.
pub fn parse_body(
    text: &str,
    start: usize,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Element>, Option<Notation>) {
    let mut parser = BodyParser::new(text, start);
    let mut out = VecDeque::new();
    while parser.step(&mut out, diags) {}
    (Vec::from(out), parser.notation)
}

/// The body read one element at a time, so that a caller may replay and drop what it has
/// read before reading on (a match is read season by season).
#[derive(Clone)]
pub struct BodyParser<'t> {
    c: Cursor<'t>,
    /// The notation seen so far: ⓪ marks anywhere make the record ⓪; otherwise the first
    /// move decides.
    pub notation: Option<Notation>,
}

impl<'t> BodyParser<'t> {
    /// A parser of `text`'s body, which starts at byte `start`.
    pub fn new(text: &'t str, start: usize) -> BodyParser<'t> {
        BodyParser {
            c: Cursor::new(text, start),
            notation: None,
        }
    }

    /// Reads the next element (or two: a notation ③ string may carry a declaration) onto the
    /// end of `out`; a comment `{…}` goes to the move it follows, which must still be in
    /// `out` if it is one (the last element of `out` that is no capture comment). False at
    /// the end of the text.
    pub fn step(&mut self, out: &mut VecDeque<Element>, diags: &mut Vec<Diagnostic>) -> bool {
        let text = self.c.text;
        let c = &mut self.c;
        let notation = &mut self.notation;
        c.skip_separators();
        let Some(ch) = c.peek() else { return false };
        let begin = c.pos;
        let kind: Option<ElementKind> = if c.at_raw('{') && (ch == '{' || ch == '#') {
            match c.raw_string('{', '}') {
                // A comment belongs to the move before it, also across its capture comment.
                Ok(comment) => match out
                    .iter_mut()
                    .rev()
                    .find(|e| !matches!(e.kind, ElementKind::Capture { .. }))
                {
                    Some(Element {
                        kind: ElementKind::Move { comments, .. },
                        ..
                    }) => {
                        comments.push(comment.to_string());
                    }
                    _ => diags.push(Diagnostic::warning(
                        DiagnosticKind::Syntax,
                        c.span_from(begin),
                        "a comment that follows no move is kept nowhere",
                    )),
                },
                Err(msg) => diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    c.span_from(begin),
                    msg.to_string(),
                )),
            }
            return true;
        } else if ch == '"' {
            let (kind, decl) = mrf_string(c, diags);
            if kind.is_some() {
                note(Notation::Mrf, notation);
            }
            if let Some(k) = kind {
                out.push_back(Element {
                    kind: k,
                    span: c.span_from(begin),
                });
            }
            if let Some(d) = decl {
                out.push_back(Element {
                    kind: ElementKind::Declaration(d),
                    span: c.span_from(begin),
                });
            }
            return true;
        } else if COLUMNS.contains(ch) {
            if looks_phonetic(c) {
                note(Notation::Phonetic, notation);
                phonetic_move(c, diags).map(|m| ElementKind::Move {
                    note: m,
                    comments: Vec::new(),
                })
            } else {
                let mut explicit = false;
                let m = board_move(c, diags, &mut explicit);
                if m.is_some() {
                    note(
                        if explicit {
                            Notation::Full
                        } else {
                            Notation::Abbreviated
                        },
                        notation,
                    );
                }
                m.map(|m| ElementKind::Move {
                    note: m,
                    comments: Vec::new(),
                })
            }
        } else if c.at_raw('[') && (ch == '[' || ch == '#') {
            bracketed(c, diags)
        } else if c.rest().starts_with("或 zau ") {
            c.eat("或 ");
            phonetic_hand_line(c, Who::Unknown, diags).map(ElementKind::HandLine)
        } else if ch == '為' || c.rest().starts_with("或為") {
            c.eat("或");
            hand_line(c, Who::Unknown, diags).map(ElementKind::HandLine)
        } else if matches!(ch, '黒' | '赤' | '或' | '無')
            && c.rest()
                .chars()
                .nth(1)
                .is_some_and(|p| Profession::from_kanji(p).is_some() || p == '片')
        {
            drop_move(c, diags).map(|m| ElementKind::Move {
                note: m,
                comments: Vec::new(),
            })
        } else if ch == '手' {
            after_hop(c, diags)
        } else if let Some(k) = keyword(c) {
            Some(k)
        } else if let Some(d) = phonetic_declaration(c) {
            Some(ElementKind::Declaration(d))
        } else if c.rest().starts_with("huok2 ") || c.rest().starts_with("kok1 ") {
            phonetic_drop(c, diags).map(|m| ElementKind::Move {
                note: m,
                comments: Vec::new(),
            })
        } else {
            c.skip_to_separator();
            if c.pos == begin {
                c.bump();
            }
            let bad = &text[begin..c.pos];
            diags.push(Diagnostic::error(
                DiagnosticKind::Unknown,
                c.span_from(begin),
                format!("unknown element `{bad}`"),
            ));
            None
        };
        if let Some(kind) = kind {
            out.push_back(Element {
                kind,
                span: c.span_from(begin),
            });
        } else if c.pos == begin {
            // Never loop on the same place.
            c.bump();
        }
        // Whatever is glued after an element must be another element or a separator.
        if let Some(next) = c.peek()
            && !is_separator(next)
            && !matches!(next, '手' | '{' | '#' | '"' | '終' | '再')
            && out.back().is_some_and(|e| e.span.start as usize == begin)
            && !COLUMNS.contains(next)
            && !matches!(
                next,
                '黒' | '赤' | '或' | '為' | '春' | '夏' | '秋' | '冬' | '上' | '下' | '星' | '['
            )
        {
            let s = c.pos;
            c.skip_to_separator();
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                Span::new(s, c.pos),
                format!("unexpected `{}` after the element", &text[s..c.pos]),
            ));
        }
        true
    }
}

fn mrf_string(
    c: &mut Cursor<'_>,
    diags: &mut Vec<Diagnostic>,
) -> (
    Option<ElementKind>,
    Option<kifu_cetkaik::match_state::Declaration>,
) {
    let start = c.pos;
    c.bump();
    let mut escaped = false;
    loop {
        match c.bump() {
            None | Some('\n') => {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    c.span_from(start),
                    "unterminated string",
                ));
                return (None, None);
            }
            Some('\\') if !escaped => escaped = true,
            Some('"') if !escaped => break,
            _ => escaped = false,
        }
    }
    let literal = &c.text[start..c.pos];
    let content: String = match serde_json::from_str(literal) {
        Ok(s) => s,
        Err(e) => {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                c.span_from(start),
                format!("bad JSON string: {e}"),
            ));
            return (None, None);
        }
    };
    match parse_mrf(&content) {
        Ok(m) => {
            let comments = m.final_hands.into_iter().map(|f| format!("={f}")).collect();
            (
                Some(ElementKind::Move {
                    note: m.note,
                    comments,
                }),
                m.declaration,
            )
        }
        Err(msg) => {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                c.span_from(start),
                msg.to_string(),
            ));
            (None, None)
        }
    }
}

/// `[name]為…` (hand line), `[name] zau …` (② hand line) or `[name]score [name]score` (tally).
fn bracketed(c: &mut Cursor<'_>, diags: &mut Vec<Diagnostic>) -> Option<ElementKind> {
    let start = c.pos;
    let name = match c.raw_string('[', ']') {
        Ok(n) => n.to_string(),
        Err(msg) => {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                c.span_from(start),
                msg.to_string(),
            ));
            return None;
        }
    };
    let after_name = c.pos;
    c.skip_spaces();
    if c.rest().starts_with('為') {
        return hand_line(c, Who::Named(name), diags).map(ElementKind::HandLine);
    }
    if c.rest().starts_with("zau ") {
        return phonetic_hand_line(c, Who::Named(name), diags).map(ElementKind::HandLine);
    }
    c.pos = start;
    match names_line(c, diags) {
        Some(line) => Some(ElementKind::FinalTally(line)),
        None => {
            c.pos = after_name;
            c.skip_to_separator();
            diags.push(Diagnostic::error(DiagnosticKind::Syntax,
                c.span_from(start),
                "`[name]` must start a hand line (`[name]為…`) or a tally (`[name]score [name]score`)",
            ));
            None
        }
    }
}
