//! Building a record from KIF lines: header, board diagram, moves, comments, bookmarks and
//! variations, each move replayed with the rules.

use kifu_record::{
    Bookmark, Comment, CommentKind, Diagnostic, DiagnosticKind, HeaderEntry, HeaderField, MoveTree,
    NodeId, NodeItem, RecordCheck, Span,
};
use kifu_shogi::ShogiEnding;

use super::board::Diagram;
use super::lines::{KifLine, KifTally};
use super::syntax::{
    Body, PlainMoveLine, ending_word, fixed_move_line, move_line, plain_move_line, summary_ending,
};
use crate::shogi::line::Line;
use crate::shogi::replay::{Replay, Resolved};
use crate::shogi::{Parsed, RecordRead, ShogiRecord, StartPosition};
use kifu_shogi::notation::ki2;
use kifu_shogi::notation::kif::{Action, Destination, KifMove};
use kifu_shogi::{Color, Handicap, Move, Position, Square};

/// Reads a KIF or KIFU text (one game; variations included).
pub fn read(text: &str) -> Parsed {
    Parsed::collect([read_one(text)])
}

/// Reads the one game of a KIF, KIFU or KI2 text.
pub(crate) fn read_one(text: &str) -> RecordRead {
    read_lines(text, true)
}

/// What the one game of a KIF, KIFU or KI2 text holds in moves and what is wrong with it,
/// replayed into a tally without building the record (`kifu check`); a text with variations
/// is read into its record instead ([`Branch::variation`]). The same as
/// `RecordCheck::from(read_one(text))`.
pub(crate) fn check_one(text: &str) -> RecordCheck {
    check_lines(text, true)
}

/// [`check_one`], with the plain paths on or off as [`read_lines`] has them.
pub(super) fn check_lines(text: &str, plain: bool) -> RecordCheck {
    let read = read_into::<KifTally>(text, plain);
    if read.gave_up {
        return RecordCheck::from(read_lines(text, plain));
    }
    RecordCheck::checked(
        read.moves.tally.moves(),
        read.moves.len(),
        read.record.start_span,
        read.known_field || read.record.header.has_known_field(),
        read.diagnostics,
        0,
    )
}

/// [`read_one`], with the plain move lines read by [`Reader::plain_move`] and plain KI2 moves
/// by [`ki2::parse_well_formed`] and [`ki2::resolve_plain`] (`plain`), or every line by the
/// general path (for tests that hold the two to the same record and diagnostics).
pub(super) fn read_lines(text: &str, plain: bool) -> RecordRead {
    let read = read_into::<MoveTree<Move, ShogiEnding>>(text, plain);
    let mut record = read.record;
    record.moves = read.moves;
    RecordRead::checked(record, read.diagnostics, 0)
}

/// A text read into a line of play `L`: the record without its moves, the moves, the
/// diagnostics, and whether the reading gave up at a variation `L` cannot hold.
struct ReadInto<L> {
    record: ShogiRecord,
    moves: L,
    diagnostics: Vec<Diagnostic>,
    gave_up: bool,
    /// Whether the text has a header entry of a known field that `record` left out.
    known_field: bool,
}

/// What a line of play does with `変化：N手`: the move tree branches; a tally cannot, and
/// gives up the reading ([`Reader::gave_up`]) for its caller to read the text again into a
/// tree.
trait Branch: KifLine + Sized {
    fn variation(reader: &mut Reader<'_, '_, Self>, n: u32, span: Span);
}

impl Branch for MoveTree<Move, ShogiEnding> {
    fn variation(reader: &mut Reader<'_, '_, Self>, n: u32, span: Span) {
        reader.branch(n, span);
    }
}

impl Branch for KifTally {
    fn variation(reader: &mut Reader<'_, '_, Self>, _: u32, _: Span) {
        reader.gave_up = true;
    }
}

fn read_into<L: Branch>(text: &str, plain: bool) -> ReadInto<L> {
    let mut diagnostics = Vec::new();
    let mut r = Reader {
        text,
        diags: &mut diagnostics,
        record: ShogiRecord::new(StartPosition::handicap(Handicap::Even)),
        moves: L::with_capacity(estimate_nodes(text.len())),
        diagram: Diagram::default(),
        line: None,
        lines: Vec::new(),
        orphans: None,
        numbering_offset: 0,
        skip_block: false,
        last: None,
        plain,
        gave_up: false,
        known_field: false,
    };
    let mut start = 0;
    while start < text.len() && !r.gave_up {
        // The usual move line, read with its end of line; anything else, and a move the
        // plain path does not take, is split off and read by `Reader::line`.
        if plain
            && let Some((read, len)) = fixed_move_line(&text.as_bytes()[start..])
            && r.plain_move(&read, start)
        {
            start += len;
            continue;
        }
        let rest = &text[start..];
        let len = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
        // `\r\r\n` occurs in files that went through two CRLF conversions.
        let line = rest[..len].trim_end_matches('\r');
        r.line(line, start);
        start += len + 1;
    }
    let gave_up = r.gave_up;
    if !gave_up {
        r.finish();
    }
    let (record, moves, known_field) = (r.record, r.moves, r.known_field);
    ReadInto {
        record,
        moves,
        diagnostics,
        gave_up,
        known_field,
    }
}

impl<L: Branch> Reader<'_, '_, L> {
    /// Closes the last line and reports the variations that found nothing to branch from.
    fn finish(&mut self) {
        self.close_line();
        if let Some((span, count)) = self.orphans {
            self.diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                span,
                format!(
                    "{count} variation(s) branch from moves that were left out after an \
                     error reported above; not read"
                ),
            ));
        }
    }
}

/// Room for the nodes of a text of `len` bytes: a KIF move line with its time is about 36
/// bytes of UTF-8, a KI2 move about 12; capped so that a long commentary does not reserve
/// much. Growing the tree move by move cost about 40 instructions a ply.
fn estimate_nodes(len: usize) -> usize {
    (len.min(16_384) / 32).clamp(16, 512)
}

struct Reader<'t, 'd, L: Branch> {
    text: &'t str,
    diags: &'d mut Vec<Diagnostic>,
    /// The header and the start; its moves are in `moves` while the text is read.
    record: ShogiRecord,
    /// The moves read, replayed.
    moves: L,
    diagram: Diagram,
    /// The line of play being read; `None` until the first move.
    line: Option<Replay<L>>,
    /// Lines read so far that a variation may branch from: (first ply, last node).
    lines: Vec<LineOfPlay<L::Node>>,
    /// Variations that branch from moves that were never read (left out after an error, or
    /// inside a variation that could not be placed): their span and count, reported once
    /// instead of one error each.
    orphans: Option<(Span, u32)>,
    /// How far the move numbers of the current line are off (numbered minus actual ply),
    /// so a line numbered consistently wrong is reported once, not at every move.
    numbering_offset: i64,
    /// Set when a variation cannot be placed: its moves are skipped.
    skip_block: bool,
    /// Where the last line read ended and the position there, so a variation can get to its
    /// branch point by undoing and replaying a few moves instead of the whole game.
    last: Option<(L::Node, Position)>,
    /// Whether move lines of the plain shape take [`Reader::plain_move`], and plain KI2
    /// moves [`ki2::parse_well_formed`] and [`ki2::resolve_plain`].
    plain: bool,
    /// Set when `L` cannot hold what the text holds (a variation in a tally): the reading
    /// stops, and the caller reads the text again into a tree.
    gave_up: bool,
    /// Whether a header entry of a known field was left out of the record's header (only
    /// when `L` does not keep the record).
    known_field: bool,
}

/// A line of play read so far that a later variation may branch from.
#[derive(Clone, Copy)]
struct LineOfPlay<N> {
    /// The ply of its first move.
    first: u32,
    /// Its last node.
    last: N,
    /// True if some of its moves were not read (after an error), or none at all (a
    /// variation that could not be placed): a variation that finds no branch point in it
    /// branches from one of those.
    broken: bool,
}

pub(crate) fn header_field(key: &str) -> Option<HeaderField> {
    Some(match key {
        "先手" | "下手" => HeaderField::FirstPlayer,
        "後手" | "上手" => HeaderField::SecondPlayer,
        "先手省略名" | "下手省略名" => HeaderField::FirstPlayerShort,
        "後手省略名" | "上手省略名" => HeaderField::SecondPlayerShort,
        "棋戦" => HeaderField::Event,
        "場所" => HeaderField::Site,
        "開始日時" | "対局日" => HeaderField::StartTime,
        "終了日時" => HeaderField::EndTime,
        "持ち時間" => HeaderField::TimeControl,
        "戦型" => HeaderField::Opening,
        "手合割" => HeaderField::Handicap,
        "表題" => HeaderField::Title,
        "備考" => HeaderField::Note,
        _ => return None,
    })
}

fn trim_value(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}')
}

impl<L: Branch> Reader<'_, '_, L> {
    fn line(&mut self, line: &str, start: usize) {
        if self.plain
            && let Some(plain) = plain_move_line(line.as_bytes())
            && self.plain_move(&plain, start)
        {
            return;
        }
        let span = Span::new(start, start + line.len());
        let trimmed = line.trim_start_matches([' ', '\u{3000}', '\t']);
        let Some(first) = trimmed.chars().next() else {
            return;
        };
        match first {
            '#' => {}
            '*' => self.comment(&trimmed[1..], span),
            '&' => self.bookmark(&trimmed[1..], span),
            '|' => self.diagram.row(trimmed, span, self.diags),
            '0'..='9' => self.move_line(line, start),
            _ => self.other(trimmed, span),
        }
    }

    fn other(&mut self, line: &str, span: Span) {
        if let Some(rest) = line.strip_prefix("変化") {
            // `変化：3手`, and `変化：3手目` as some programs write it (tsshogi reads both).
            let n = rest
                .trim_start_matches(['：', ':'])
                .trim_end()
                .trim_end_matches('目')
                .trim_matches(|c: char| c == '手' || c.is_whitespace() || c == '\u{3000}')
                .parse::<u32>();
            match n {
                Ok(n) if n >= 1 => L::variation(self, n, span),
                _ => self.diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    span,
                    "a variation line is `変化：N手`",
                )),
            }
            return;
        }
        if line.starts_with("まで") {
            return self.summary(line, span);
        }
        if let Some(title) = line.strip_prefix("手数＝") {
            return self.diagram.title(title, span, self.diags);
        }
        if line.starts_with("手数----") || line.starts_with("+--") {
            return;
        }
        if line.starts_with(['９', '１']) && line.contains('８') {
            return; // the file numbers above a diagram
        }
        match line {
            "先手番" | "下手番" => return self.set_side(Color::Black, span),
            "後手番" | "上手番" => return self.set_side(Color::White, span),
            "盤面回転" | "盤面反転" => return,
            _ => {}
        }
        if line.starts_with(['▲', '△', '☗', '☖', '▼', '▽']) {
            return self.ki2_line(line, span.start as usize);
        }
        let Some(sep) = line.find(['：', ':']) else {
            self.diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                span,
                "not a KIF line; ignored",
            ));
            return;
        };
        let key = line[..sep].trim();
        let value = &line[sep + line[sep..].chars().next().map_or(1, char::len_utf8)..];
        match key {
            "先手の持駒" | "下手の持駒" => {
                self.diagram.hand(Color::Black, value, span, self.diags)
            }
            "後手の持駒" | "上手の持駒" => {
                self.diagram.hand(Color::White, value, span, self.diags)
            }
            _ if key.is_empty() => {
                self.diags.push(Diagnostic::warning(
                    DiagnosticKind::Syntax,
                    span,
                    "not a KIF line; ignored",
                ));
            }
            _ => {
                let field = header_field(key);
                // A tally's check asks of the header only whether a field is a known one,
                // and the start asks for the handicap: the other entries are not copied.
                if !L::KEEPS_RECORD && field != Some(HeaderField::Handicap) {
                    self.known_field |= field.is_some();
                    return;
                }
                self.record.header.push(HeaderEntry {
                    key: key.to_owned(),
                    value: value.to_owned(),
                    field,
                    span,
                });
            }
        }
    }

    fn set_side(&mut self, color: Color, span: Span) {
        if self.line.is_some() {
            self.diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                span,
                "a side to move after the moves started; ignored",
            ));
            return;
        }
        self.diagram.side = Some(color);
    }

    /// Sets up the start position at the first move (or at the end of a game without moves).
    fn start(&mut self) -> &mut Replay<L> {
        if self.line.is_none() {
            let handicap = self
                .record
                .header
                .get(HeaderField::Handicap)
                .map(trim_value)
                .and_then(|name| (!name.is_empty()).then(|| (name, Handicap::from_kif_name(name))));
            let start = if self.diagram.started() {
                let default = match handicap {
                    Some((_, Some(h))) => h.first_to_move(),
                    _ => Color::Black,
                };
                let side = self.diagram.side.unwrap_or(default);
                self.record.start_span = self.diagram.span.unwrap_or_default();
                self.diagram.position(side, self.diags)
            } else {
                match handicap {
                    // The record was made with the even start: nearly every file says 平手,
                    // and setting it up again was a position copied and one dropped a file.
                    Some((_, Some(Handicap::Even))) => None,
                    Some((_, Some(h))) => Some(StartPosition::handicap(h)),
                    Some((name, None)) => {
                        let span = self
                            .record
                            .header
                            .entry(HeaderField::Handicap)
                            .map(|e| e.span);
                        self.diags.push(Diagnostic::warning(
                            DiagnosticKind::Unknown,
                            span.unwrap_or_default(),
                            format!(
                                "unknown 手合割 `{name}` without a board diagram; read as 平手"
                            ),
                        ));
                        None
                    }
                    None => None,
                }
            };
            if let Some(start) = start {
                self.record.start = start;
            }
            let root = self.moves.root();
            self.line = Some(Replay::new(self.record.start.position.clone(), root));
            self.lines.push(LineOfPlay {
                first: 1,
                last: root,
                broken: false,
            });
        }
        self.line.as_mut().expect("just set")
    }

    fn comment(&mut self, body: &str, span: Span) {
        let (kind, text) = match body.strip_prefix('*') {
            Some(rest) => (CommentKind::Engine, rest),
            None => (CommentKind::Text, body),
        };
        let comment = Comment::new(kind, text, span);
        if self.skip_block {
            return;
        }
        match &mut self.line {
            Some(line) => line.comment(&mut self.moves, comment),
            None => {
                let root = self.moves.root();
                self.moves.add_comment(root, comment);
            }
        }
    }

    fn bookmark(&mut self, name: &str, span: Span) {
        if self.skip_block {
            return;
        }
        let node = match &self.line {
            Some(line) => line.annotated_node(),
            None => Some(self.moves.root()),
        };
        if let Some(node) = node {
            self.moves.add_bookmark(
                node,
                Bookmark {
                    name: name.trim_end().to_owned(),
                    span,
                },
            );
        }
    }

    fn move_line(&mut self, line: &str, start: usize) {
        let Some(parsed) = move_line(line) else {
            let span = Span::new(start, start + line.len());
            self.diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                span,
                "not a KIF line; ignored",
            ));
            return;
        };
        if self.skip_block {
            return;
        }
        let text = self.text;
        let body_span = Span::new(start + parsed.body_at.0, start + parsed.body_at.1);
        self.start();
        let replay = self.line.as_mut().expect("started");
        let tree = &mut self.moves;
        let expected = replay.next_ply(tree);
        let offset = i64::from(parsed.ply) - i64::from(expected);
        if offset != self.numbering_offset && !replay.is_closed() {
            self.numbering_offset = offset;
            self.diags.push(Diagnostic::warning(
                DiagnosticKind::Inconsistent,
                body_span,
                format!(
                    "numbered {} but it is move {expected} of its line (later moves numbered \
                     the same way are not reported)",
                    parsed.ply
                ),
            ));
        }
        match parsed.body {
            Ok(Body::Move(m)) => {
                let resolved = if replay.is_closed() {
                    Err((None, String::new()))
                } else {
                    resolve(&replay.position, tree.move_at(replay.cursor), &m)
                };
                replay.play(tree, resolved, body_span, text, self.diags);
            }
            Ok(Body::Ending(kind)) => {
                // An unknown word is kept (with a warning) only if nothing follows it.
                replay.end(tree, kind, body_span, self.diags);
            }
            Err(reason) => {
                replay.play(
                    tree,
                    Err((None, reason.to_string())),
                    body_span,
                    text,
                    self.diags,
                );
            }
        }
        if let Some(times) = parsed.times {
            match times {
                Ok(t) => {
                    let _ = replay.time(tree, Some(t.spent_ms), t.total_ms);
                }
                Err(reason) => {
                    let span = Span::new(start + parsed.body_at.1, start + line.len());
                    self.diags
                        .push(Diagnostic::error(DiagnosticKind::Syntax, span, reason));
                }
            }
        }
        if let Some((a, b)) = parsed.trailing {
            self.diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                Span::new(start + a, start + b),
                "unexpected text after the move; ignored",
            ));
        }
    }

    /// Plays a move line of the plain shape when [`Reader::move_line`] would play it with
    /// nothing to report: the line of play is open, the number is as expected, and the move
    /// names the piece on its origin square and is legal. Returns false, having changed
    /// nothing, for anything else, which `move_line` then reads and reports.
    ///
    /// This is the whole of the work for nearly every line of a KIF file: the move is
    /// resolved from the bytes read once, checked by the rules and handed to
    /// [`Replay::accept`], without the general path's parse into owned parts and its error
    /// plumbing. Always inlined: out of line, the call and the line read passed through
    /// memory were about 25 instructions a move.
    #[inline(always)]
    fn plain_move(&mut self, plain: &PlainMoveLine, start: usize) -> bool {
        if self.skip_block {
            return false;
        }
        // The first move sets up the start, as `move_line` does for any numbered line it
        // reads outside a skipped block (once: a second call finds the line open).
        if self.line.is_none() {
            self.start();
        }
        let Some(replay) = self.line.as_mut() else {
            return false;
        };
        if replay.is_closed() {
            return false;
        }
        let tree = &mut self.moves;
        let expected = replay.next_ply(tree);
        if i64::from(plain.ply) - i64::from(expected) != self.numbering_offset {
            return false;
        }
        let m = plain.mv;
        let to = match m.to {
            Destination::Square(f, r) => Square::new(f, r),
            Destination::Same => tree.move_at(replay.cursor).map(|prev| prev.to()),
        };
        let Some(to) = to else {
            return false;
        };
        let mv = match (m.action, m.from) {
            (Action::Drop, _) if m.piece.is_hand_kind() => Move::drop(m.piece, to),
            (Action::Drop, _) | (_, None) => return false,
            (action, Some((f, r))) => {
                let Some(from) = Square::new(f, r) else {
                    return false;
                };
                match replay.position.piece_at(from) {
                    Some(p) if p.kind == m.piece => {
                        Move::normal(from, to, action == Action::Promote)
                    }
                    _ => return false,
                }
            }
        };
        if replay.position.check_move(mv).is_err() {
            return false;
        }
        let span = Span::new(start + plain.body_at.0, start + plain.body_at.1);
        replay.accept(tree, mv, span);
        // The node was made just now, on an open line: `Replay::time` would find nothing
        // held back and no time set, and set it there.
        if let Some(t) = plain.times {
            tree.set_time(replay.cursor, Some(t.spent_ms), t.total_ms);
        }
        true
    }

    /// KI2 moves: `▲７六歩    △３四歩`, any number to a line.
    fn ki2_line(&mut self, line: &str, start: usize) {
        if self.skip_block {
            return;
        }
        self.start();
        let text = self.text;
        let plain = self.plain;
        let mut at = 0;
        while at < line.len() {
            let rest = &line[at..];
            let skip = rest.len() - rest.trim_start_matches([' ', '\u{3000}', '\t']).len();
            at += skip;
            if at >= line.len() {
                break;
            }
            let replay = self.line.as_mut().expect("started");
            let tree = &mut self.moves;
            // The usual shape straight from the bytes, else the general parser (which says
            // what is wrong); both read the same move where the first reads one.
            let parsed = match plain.then(|| ki2::parse_well_formed(&line.as_bytes()[at..])) {
                Some(Some(read)) => Ok(read),
                _ => ki2::parse(&line[at..]),
            };
            match parsed {
                Ok((m, len)) => {
                    let span = Span::new(start + at, start + at + len);
                    let prev = tree.move_at(replay.cursor).map(|m| m.to());
                    // The plain `▲７六歩` that names one legal move goes straight into the
                    // line; anything else `play` checks and reports.
                    if plain
                        && !replay.is_closed()
                        && let Some(mv) = ki2::resolve_plain(&replay.position, prev, &m)
                    {
                        replay.accept(tree, mv, span);
                        at += len;
                        continue;
                    }
                    let resolved = if replay.is_closed() {
                        Err((None, String::new()))
                    } else {
                        ki2::resolve(&replay.position, prev, &m).map_err(|e| (None, e.to_string()))
                    };
                    replay.play(tree, resolved, span, text, self.diags);
                    at += len;
                }
                Err(reason) => {
                    let len = line[at..]
                        .char_indices()
                        .skip(1)
                        .find(|&(_, c)| matches!(c, '▲' | '△' | '☗' | '☖' | '▼' | '▽'))
                        .map_or(line.len() - at, |(i, _)| i);
                    let span = Span::new(start + at, start + at + len);
                    // Shogi DB2 writes the result inline, as the mover's "move": `△投了`.
                    let word = line[at..at + len]
                        .trim_start_matches(['▲', '△', '☗', '☖', '▼', '▽'])
                        .trim_end_matches([' ', '\u{3000}', '\t']);
                    match ending_word(word) {
                        Some(kind) => {
                            let span = Span::new(
                                span.start as usize,
                                span.start as usize + {
                                    line[at..at + len]
                                        .trim_end_matches([' ', '\u{3000}', '\t'])
                                        .len()
                                },
                            );
                            replay.end(tree, kind, span, self.diags);
                        }
                        None => replay.play(
                            tree,
                            Err((None, reason.to_string())),
                            span,
                            text,
                            self.diags,
                        ),
                    }
                    at += len;
                }
            }
        }
    }

    /// `まで64手で先手の勝ち`: the result, which KI2 writes only here. A line that already
    /// ended (KIF writes the ending as a move) ignores it.
    fn summary(&mut self, line: &str, span: Span) {
        if self.skip_block {
            return;
        }
        // `まで0手で中断`: a game that ended before its first move.
        self.start();
        let replay = self.line.as_mut().expect("started");
        // An illegal move waiting to be excused is not an ending: `まで2手で後手の反則負け`
        // after it is what excuses it.
        if replay.has_ended() {
            return;
        }
        let mover = replay.side_to_move_after_all();
        let Some(kind) = summary_ending(line, mover) else {
            self.diags.push(Diagnostic::warning(
                DiagnosticKind::Unknown,
                span,
                "a `まで` line with a result not understood; ignored",
            ));
            return;
        };
        replay.end(&mut self.moves, kind, span, self.diags);
    }

    /// Ends the line being read and records where it got to.
    fn close_line(&mut self) {
        self.numbering_offset = 0;
        if let Some(mut line) = self.line.take() {
            let broken = line.is_broken();
            line.finish(&mut self.moves, self.diags);
            if let Some(top) = self.lines.last_mut() {
                top.last = line.cursor;
                top.broken |= broken;
            }
            self.last = Some((line.cursor, line.position));
        } else if self.lines.is_empty() {
            // A game without moves still gets its start position.
            self.start();
            if let Some(mut line) = self.line.take() {
                line.finish(&mut self.moves, self.diags);
            }
        }
    }
}

impl Reader<'_, '_, MoveTree<Move, ShogiEnding>> {
    /// `変化：N手`: the next moves are an alternative to ply `n` of the most recent line that
    /// started before it.
    fn branch(&mut self, n: u32, span: Span) {
        if self.lines.is_empty() {
            self.diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                span,
                "a variation before any move; ignored",
            ));
            return;
        }
        self.close_line();
        self.skip_block = false;
        while self.lines.len() > 1 && self.lines.last().is_some_and(|l| l.first >= n) {
            self.lines.pop();
        }
        let tree = &self.moves;
        let from = *self.lines.last().expect("the main line is never popped");
        let parent = std::iter::successors(Some(from.last), |&id| tree.parent(id))
            .find(|&id| tree[id].ply() < n);
        let parent = match parent {
            Some(p) if tree[p].ply() == n - 1 && !tree[p].is_ending() => p,
            _ if from.broken => {
                // It branches from a move that was not read; the error that left that move
                // out is reported already.
                let orphans = self.orphans.get_or_insert((span, 0));
                orphans.0 = orphans.0.join(span);
                orphans.1 += 1;
                self.skip_block = true;
                self.lines.push(LineOfPlay {
                    first: n,
                    last: from.last,
                    broken: true,
                });
                return;
            }
            _ => {
                self.diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    span,
                    format!(
                        "no move {} to branch from in the line this variation belongs to",
                        n - 1
                    ),
                ));
                self.skip_block = true;
                self.lines.push(LineOfPlay {
                    first: n,
                    last: from.last,
                    broken: true,
                });
                return;
            }
        };
        if tree[parent].illegal {
            self.diags.push(Diagnostic::error(
                DiagnosticKind::IllegalMove,
                span,
                "a variation after an illegal move",
            ));
            self.skip_block = true;
            self.lines.push(LineOfPlay {
                first: n,
                last: parent,
                broken: true,
            });
            return;
        }
        let position = match self.last.take() {
            Some((at, position)) => move_position(tree, position, at, parent),
            None => {
                // The record holds its moves only once the text is read: lend it the tree.
                std::mem::swap(&mut self.record.moves, &mut self.moves);
                let position = crate::shogi::position_at(&self.record, parent);
                std::mem::swap(&mut self.record.moves, &mut self.moves);
                position
            }
        };
        self.line = Some(Replay::new(position, parent));
        self.lines.push(LineOfPlay {
            first: n,
            last: parent,
            broken: false,
        });
    }
}

/// Turns `position` (the one after node `from`) into the one after node `to`: undo up to
/// their common ancestor, then play down. Moves kept although illegal were never played.
fn move_position(
    tree: &MoveTree<Move, ShogiEnding>,
    mut position: Position,
    from: NodeId,
    to: NodeId,
) -> Position {
    let played = |id: NodeId| match tree[id].item {
        NodeItem::Move(mv) if !tree[id].illegal => Some(mv),
        _ => None,
    };
    let (mut a, mut b) = (from, to);
    let mut down = Vec::new();
    while a != b {
        if tree[a].ply() >= tree[b].ply() {
            if played(a).is_some() {
                position.undo();
            }
            a = tree.parent(a).expect("the root is a common ancestor");
        } else {
            down.push(b);
            b = tree.parent(b).expect("the root is a common ancestor");
        }
    }
    for id in down.into_iter().rev() {
        if let Some(mv) = played(id) {
            position.play_unchecked(mv);
        }
    }
    position
}

/// The engine move a KIF move denotes, or why it is not one; `previous` is the move before
/// it, which `同` refers to.
fn resolve(position: &Position, previous: Option<Move>, m: &KifMove) -> Resolved {
    let to = match m.to {
        Destination::Square(f, r) => Square::new(f, r).expect("syntax checked the square"),
        Destination::Same => match previous {
            Some(prev) => prev.to(),
            None => return Err((None, "`同` but there is no previous move".to_owned())),
        },
    };
    if m.action == Action::Drop {
        if !m.piece.is_hand_kind() {
            return Err((None, format!("{} cannot be dropped", m.piece.kif_name())));
        }
        return Ok(Move::drop(m.piece, to));
    }
    let promote = m.action == Action::Promote;
    match m.from {
        Some((f, r)) => {
            let from = Square::new(f, r).expect("syntax checked the square");
            let mv = Move::normal(from, to, promote);
            match position.piece_at(from) {
                Some(p) if p.kind != m.piece => Err((
                    Some(mv),
                    format!(
                        "the piece on {f}{r} is {}, not {}",
                        p.kind.kif_name(),
                        m.piece.kif_name()
                    ),
                )),
                _ => Ok(mv),
            }
        }
        None => {
            // No origin written: the one legal move of that piece to that square (or a drop).
            let mut found = None;
            let mut count = 0;
            for mv in position.legal_moves().iter().copied() {
                let kind = match mv.from() {
                    Some(from) => position.piece_at(from).map(|p| p.kind),
                    None => mv.drop_kind(),
                };
                let wanted_promotion = mv.is_promotion() == promote;
                if mv.to() == to && kind == Some(m.piece) && wanted_promotion {
                    // Prefer a board move over a drop, as KIF writes 打 for drops.
                    if mv.from().is_some() || found.is_none() {
                        found = Some(mv);
                    }
                    count += usize::from(mv.from().is_some());
                }
            }
            match (found, count) {
                (Some(mv), 0 | 1) => Ok(mv),
                (Some(_), _) => Err((
                    None,
                    "several pieces can make this move; the origin is missing".to_owned(),
                )),
                (None, _) => Err((
                    None,
                    format!(
                        "no {} can move to {}{}",
                        m.piece.kif_name(),
                        to.file(),
                        to.rank()
                    ),
                )),
            }
        }
    }
}
