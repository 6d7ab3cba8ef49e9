//! Reading JKF: the JSON is parsed as a whole, then every move is replayed like any other
//! format's. JSON values carry no source positions, so move diagnostics point at the start of
//! the text and name the ply.

use serde_json::{Map, Value};

use kifu_record::{
    Bookmark, Comment, CommentKind, Diagnostic, DiagnosticKind, HeaderEntry, NodeId, Span,
};

use crate::shogi::replay::{Replay, Resolved};
use crate::shogi::{Parsed, RecordRead, ShogiRecord, StartPosition, csa};
use kifu_shogi::{Color, Hand, Handicap, Move, Piece, PieceKind, Position, Square};

/// Reads one JKF document.
pub fn read(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    if text.trim().is_empty() {
        parsed.diagnostics.push(Diagnostic::error(
            DiagnosticKind::NoRecord,
            Span::point(0),
            "no game record here: the text is empty",
        ));
        return parsed;
    }
    let json: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let at = offset_of(text, e.line(), e.column());
            parsed.diagnostics.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                Span::point(at),
                format!("not valid JSON: {e}"),
            ));
            return parsed;
        }
    };
    let Some(doc) = json.as_object() else {
        parsed.diagnostics.push(Diagnostic::error(
            DiagnosticKind::Syntax,
            Span::point(0),
            "a JKF document is a JSON object",
        ));
        return parsed;
    };
    let mut reader = Reader {
        text,
        diags: &mut parsed.diagnostics,
        record: ShogiRecord::new(StartPosition::handicap(Handicap::Even)),
        move_spans: key_spans(text, "move").into_iter(),
        special_spans: key_spans(text, "special").into_iter(),
    };
    reader.header(doc.get("header"));
    reader.initial(doc.get("initial"));
    match doc.get("moves").and_then(Value::as_array) {
        Some(moves) => {
            let root = reader.record.moves.root();
            let start = reader.record.start.position.clone();
            reader.line(moves, root, start, true);
        }
        None => reader.error("`moves` (an array) is missing"),
    }
    let mut record = reader.record;
    // A document that gives a start position holds a game (a problem's, say) even with no
    // moves and no header field kifu knows: `initial` is where it starts. (Only then: the
    // writers take a start span as a position the source stated, which JKF's presets are
    // not.)
    let key = "\"initial\"";
    if record.is_empty()
        && doc.get("initial").is_some_and(Value::is_object)
        && let Some(at) = text.find(key)
    {
        record.start_span = Span::new(at, at + key.len());
    }
    let mut diagnostics = std::mem::take(&mut parsed.diagnostics);
    if !diagnostics.iter().any(Diagnostic::is_error) {
        // An object without moves or header (`{}`) is no record, like any empty text.
        let read = RecordRead::checked(record, diagnostics, 0);
        return Parsed::collect([read]);
    }
    parsed.records.push(record);
    parsed.diagnostics.append(&mut diagnostics);
    parsed
}

fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}

struct Reader<'t, 'd> {
    text: &'t str,
    diags: &'d mut Vec<Diagnostic>,
    record: ShogiRecord,
    /// Where each `"move": {…}` and `"special": "…"` is, in text order, which is the order
    /// they are read in (an entry's forks come before the next entry).
    move_spans: std::vec::IntoIter<Span>,
    special_spans: std::vec::IntoIter<Span>,
}

/// Spans of `"key": value` pairs in a JSON text, outside strings, in order.
fn key_spans(text: &str, key: &str) -> Vec<Span> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'"' {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < b.len() && b[i] != b'"' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        let end = (i + 1).min(b.len());
        i = end;
        if text.get(start + 1..end - 1) != Some(key) {
            continue;
        }
        let mut j = end;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if b.get(j) != Some(&b':') {
            continue;
        }
        j += 1;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        out.push(Span::new(start, value_end(b, j)));
    }
    out
}

/// The end of the JSON value starting at `i` (objects and strings; others up to a delimiter).
fn value_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    let mut in_string = false;
    while i < b.len() {
        let c = b[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => {
                    in_string = false;
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
        } else {
            match c {
                b'"' => in_string = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth == 0 => return i,
                b'}' | b']' => {
                    depth -= 1;
                    if depth == 0 {
                        return i + 1;
                    }
                }
                b',' if depth == 0 => return i,
                _ => {}
            }
        }
        i += 1;
    }
    b.len()
}

fn kind_of(code: &str) -> Option<PieceKind> {
    PieceKind::from_csa(code)
}

fn square(v: Option<&Value>) -> Option<Square> {
    let o = v?.as_object()?;
    let x = o.get("x")?.as_u64()?;
    let y = o.get("y")?.as_u64()?;
    Square::new(u8::try_from(x).ok()?, u8::try_from(y).ok()?)
}

fn time_ms(v: Option<&Value>) -> Option<u64> {
    let o = v?.as_object()?;
    let n = |k: &str| o.get(k).and_then(Value::as_u64).unwrap_or(0);
    n("h")
        .checked_mul(3600)?
        .checked_add(n("m").checked_mul(60)?)?
        .checked_add(n("s"))?
        .checked_mul(1000)
}

impl Reader<'_, '_> {
    fn error(&mut self, message: impl Into<String>) {
        self.diags.push(Diagnostic::error(
            DiagnosticKind::Syntax,
            Span::point(0),
            message,
        ));
    }

    fn header(&mut self, header: Option<&Value>) {
        let Some(h) = header else {
            return self.error("`header` is missing");
        };
        let Some(h) = h.as_object() else {
            return self.error("`header` is an object of strings");
        };
        for (key, value) in h {
            let value = match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            self.record.header.push(HeaderEntry {
                key: key.clone(),
                value,
                field: crate::shogi::kif::header_field(key),
                span: Span::default(),
            });
        }
    }

    fn initial(&mut self, initial: Option<&Value>) {
        let Some(initial) = initial.and_then(Value::as_object) else {
            return;
        };
        let preset = initial
            .get("preset")
            .and_then(Value::as_str)
            .unwrap_or("HIRATE");
        if let Some(h) = Handicap::from_jkf_preset(preset) {
            self.record.start = StartPosition::handicap(h);
            return;
        }
        if preset != "OTHER" {
            return self.error(format!("unknown preset `{preset}`"));
        }
        let Some(data) = initial.get("data").and_then(Value::as_object) else {
            return self.error("preset OTHER needs `data`");
        };
        match position_of(data) {
            Ok(p) => self.record.start = StartPosition::custom(p),
            Err(e) => self.error(format!("initial position: {e}")),
        }
    }

    fn comments(&mut self, entry: &Map<String, Value>, node: Option<NodeId>, replay: &mut Replay) {
        let mut list: Vec<&str> = Vec::new();
        if let Some(cs) = entry.get("comments").and_then(Value::as_array) {
            list.extend(cs.iter().filter_map(Value::as_str));
        }
        if let Some(c) = entry.get("comment").and_then(Value::as_str) {
            list.extend(c.lines());
        }
        for text in list {
            if let Some(name) = text.strip_prefix('&') {
                if let Some(id) = node.or_else(|| replay.annotated_node()) {
                    self.record.moves[id].bookmarks_mut().push(Bookmark {
                        name: name.to_owned(),
                        span: Span::default(),
                    });
                }
                continue;
            }
            let comment = match text.strip_prefix('*') {
                Some(engine) => Comment::new(CommentKind::Engine, engine, Span::default()),
                None => Comment::new(CommentKind::Text, text, Span::default()),
            };
            match node {
                Some(id) => self.record.moves[id].comments_mut().push(comment),
                None => replay.comment(&mut self.record.moves, comment),
            }
        }
    }

    /// Reads a list of entries that continues from `parent`; `first` marks the top level,
    /// whose entry 0 holds the start position's comments.
    fn line(&mut self, entries: &[Value], parent: NodeId, position: Position, first: bool) {
        let mut replay = Replay::new(position, parent);
        for (i, entry) in entries.iter().enumerate() {
            let Some(entry) = entry.as_object() else {
                self.error("a move entry is a JSON object");
                continue;
            };
            if first && i == 0 && !entry.contains_key("move") && !entry.contains_key("special") {
                let root = self.record.moves.root();
                self.comments(entry, Some(root), &mut replay);
                continue;
            }
            let before = replay.cursor;
            let before_position = entry.contains_key("forks").then(|| replay.position.clone());
            if let Some(m) = entry.get("move") {
                let resolved = if replay.is_closed() {
                    Err((None, String::new()))
                } else {
                    to_move(&replay.position, m)
                };
                let text = self.text;
                let span = self.move_spans.next().unwrap_or_default();
                replay.play(&mut self.record.moves, resolved, span, text, self.diags);
            } else if let Some(special) = entry.get("special").and_then(Value::as_str) {
                let kind = match special {
                    // KIF parsers leave the sign to a normaliser: the previous move was illegal.
                    "ILLEGAL_ACTION" => kifu_record::EndingKind::IllegalMoveWin,
                    s => csa::ending_kind(s),
                };
                let span = self.special_spans.next().unwrap_or_default();
                replay.end(&mut self.record.moves, kind, span, self.diags);
            } else {
                // Silently skipping it would shift every later move by one ply.
                self.error(format!(
                    "move entry {i} has neither `move` nor `special` (a string)"
                ));
            }
            if let Some(t) = entry.get("time").and_then(Value::as_object) {
                let now = time_ms(t.get("now"));
                let total = time_ms(t.get("total"));
                let _ = replay.time(&mut self.record.moves, now, total);
            }
            self.comments(entry, None, &mut replay);
            if let (Some(forks), Some(pos)) = (
                entry.get("forks").and_then(Value::as_array),
                before_position,
            ) {
                for fork in forks {
                    match fork.as_array() {
                        Some(f) => self.line(f, before, pos.clone(), false),
                        None => self.error("a fork is an array of move entries"),
                    }
                }
            }
        }
        replay.finish(&mut self.record.moves, self.diags);
        // A fork is read where its entry is, but an illegal move becomes a node only once the
        // entry after it excuses it: forks read before this line's own node was made came
        // first among their parent's children. This line's nodes go first again (a fork's
        // first node stays a variation of its parent).
        let path = self.record.moves.path_to(replay.cursor);
        let from = path.iter().position(|&n| n == parent).map_or(0, |i| i + 1);
        for (k, &node) in path[from..].iter().enumerate() {
            if first || k > 0 {
                self.record.moves.promote(node);
            }
        }
    }
}

fn to_move(pos: &Position, m: &Value) -> Resolved {
    let bad = |why: &str| Err((None, why.to_owned()));
    let Some(m) = m.as_object() else {
        return bad("`move` is an object");
    };
    let Some(to) = square(m.get("to")) else {
        return bad("`move.to` is missing or off the board");
    };
    let Some(kind) = m.get("piece").and_then(Value::as_str).and_then(kind_of) else {
        return bad("`move.piece` is missing or not a CSA piece code");
    };
    let color = match m.get("color").and_then(Value::as_u64) {
        Some(0) => Some(Color::Black),
        Some(1) => Some(Color::White),
        _ => None,
    };
    let mv = match m.get("from") {
        None | Some(Value::Null) => {
            if !kind.is_hand_kind() {
                return bad("a drop of a piece that cannot be held in hand");
            }
            Move::drop(kind, to)
        }
        from => {
            let Some(from) = square(from) else {
                return bad("`move.from` is off the board");
            };
            let promote = m.get("promote").and_then(Value::as_bool) == Some(true);
            let mv = Move::normal(from, to, promote);
            if let Some(p) = pos.piece_at(from)
                && p.kind != kind
            {
                return Err((
                    Some(mv),
                    format!(
                        "the piece on {}{} is {}, not {}",
                        from.file(),
                        from.rank(),
                        p.kind.csa(),
                        kind.csa()
                    ),
                ));
            }
            mv
        }
    };
    if let Some(c) = color
        && c != pos.turn()
    {
        return Err((
            Some(mv),
            format!(
                "it is {}'s turn, but the move has color {}",
                pos.turn(),
                c.index()
            ),
        ));
    }
    Ok(mv)
}

fn position_of(data: &Map<String, Value>) -> Result<Position, String> {
    let side = match data.get("color").and_then(Value::as_u64) {
        Some(1) => Color::White,
        _ => Color::Black,
    };
    let board = data
        .get("board")
        .and_then(Value::as_array)
        .ok_or("`board` is missing")?;
    let mut pieces = Vec::new();
    for (x, file) in board.iter().enumerate().take(9) {
        let file = file.as_array().ok_or("`board` is 9 arrays of 9 cells")?;
        for (y, cell) in file.iter().enumerate().take(9) {
            let Some(cell) = cell.as_object() else {
                continue;
            };
            let Some(code) = cell.get("kind").and_then(Value::as_str) else {
                continue;
            };
            let kind = kind_of(code).ok_or_else(|| format!("unknown piece `{code}`"))?;
            let color = if cell.get("color").and_then(Value::as_u64) == Some(1) {
                Color::White
            } else {
                Color::Black
            };
            let sq = Square::new(x as u8 + 1, y as u8 + 1).expect("in range");
            pieces.push((sq, Piece::new(color, kind)));
        }
    }
    let mut hands = [Hand::EMPTY; 2];
    if let Some(hs) = data.get("hands").and_then(Value::as_array) {
        for (i, h) in hs.iter().enumerate().take(2) {
            for (code, n) in h.as_object().into_iter().flatten() {
                let kind = kind_of(code)
                    .filter(|k| k.is_hand_kind())
                    .ok_or_else(|| format!("`{code}` cannot be in hand"))?;
                let n = n
                    .as_u64()
                    .filter(|&n| n <= 18)
                    .ok_or("a hand count is 0 to 18")?;
                hands[i].set(kind, n as u8);
            }
        }
    }
    // 二歩 or a stuck piece on the initial board is the author's business; play survives it.
    Position::from_parts_lenient(pieces, hands, side, 1)
        .map(|(p, _)| p)
        .map_err(|e| e.to_string())
}
