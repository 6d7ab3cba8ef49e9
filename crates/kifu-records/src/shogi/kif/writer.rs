//! Writing KIF the way Kakinoki's programs lay it out, variations included.
//!
//! The text is the same for `.kif` and `.kifu`; encode it with [`kifu_record::encode`]
//! (Shift_JIS for `.kif`, which reports characters CP932 cannot hold).

use kifu_shogi::ShogiEnding;
use std::fmt::Write as _;

use kifu_record::{Comment, CommentKind, EndingKind, HeaderField, Node, NodeId, NodeItem, Side};

use crate::shogi::{ShogiRecord, Written, side_of};
use kifu_shogi::{Color, Handicap, Move, Position};

/// Writes one record as KIF text.
pub fn write(record: &ShogiRecord) -> Written {
    write_as(record, false)
}

/// Writes KIF, or KI2 (the same header and variations; JSA notation several moves to a line,
/// no times, the result only in the `まで` line).
pub(crate) fn write_as(record: &ShogiRecord, ki2: bool) -> Written {
    let mut w = Writer {
        out: String::with_capacity(256 + record.moves.len() * 40),
        warnings: Vec::new(),
        handicap_game: record.start.handicap.is_some_and(|h| h != Handicap::Even),
        ki2,
        dropped_times: false,
        truncated_times: 0,
        last_field_width: 0,
    };
    w.header(record);
    if !ki2 {
        w.out.push_str("手数----指手---------消費時間--\n");
    }
    let tree = &record.moves;
    w.comments(&tree[tree.root()]);
    let written = w.write_line(record, tree.root(), tree.main_child(tree.root()));
    w.variations(record, &written, false);
    if w.dropped_times {
        w.warnings.push("KI2 cannot hold times; dropped".to_owned());
    }
    if w.truncated_times > 0 {
        w.warnings.push(format!(
            "{} time(s) had milliseconds; KIF holds whole seconds, the fractions were dropped",
            w.truncated_times
        ));
    }
    Written {
        text: w.out,
        warnings: w.warnings,
    }
}

struct Writer {
    out: String,
    warnings: Vec<String>,
    handicap_game: bool,
    ki2: bool,
    dropped_times: bool,
    /// Times with a fraction of a second, written as whole seconds.
    truncated_times: u32,
    last_field_width: usize,
}

/// The KIF key for a header entry read from another format (JKF's keys are KIF's too).
pub(crate) fn kif_key(field: HeaderField, handicap_game: bool) -> Option<&'static str> {
    Some(match field {
        HeaderField::FirstPlayer if handicap_game => "下手",
        HeaderField::SecondPlayer if handicap_game => "上手",
        HeaderField::FirstPlayer => "先手",
        HeaderField::SecondPlayer => "後手",
        HeaderField::FirstPlayerShort => "先手省略名",
        HeaderField::SecondPlayerShort => "後手省略名",
        HeaderField::Event => "棋戦",
        HeaderField::Site => "場所",
        HeaderField::StartTime => "開始日時",
        HeaderField::EndTime => "終了日時",
        HeaderField::TimeControl => "持ち時間",
        HeaderField::Opening => "戦型",
        HeaderField::Handicap => "手合割",
        HeaderField::Title => "表題",
        HeaderField::Note => "備考",
        _ => return None,
    })
}

fn width(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

impl Writer {
    fn header(&mut self, record: &ShogiRecord) {
        let mut handicap_written = false;
        // A board diagram for every start the 手合割 name alone does not give to every reader:
        // custom boards (a handicap board with 下手 to move among them) and the handicaps
        // tsshogi (三枚, 五枚, 左五枚, 左・右七枚落ち) or cshogi and python-shogi (左・右七枚落ち)
        // do not know. Readers take the diagram over the name.
        let with_diagram = !record.start.handicap.is_some_and(every_reader_knows);
        for e in record.header.entries() {
            let is_kif_key = !e.key.is_ascii();
            let key = match e.field {
                Some(HeaderField::Handicap) => {
                    handicap_written = true;
                    match record.start.handicap {
                        Some(h) if name_refused_by_some_reader(h) => continue,
                        // Keep the name as written when it names this start.
                        Some(h)
                            if Handicap::from_kif_name(
                                e.value.trim_end_matches(['\u{3000}', ' ']),
                            ) == Some(h) => {}
                        Some(h) => {
                            let _ = writeln!(self.out, "手合割：{}", h.kif_name());
                            continue;
                        }
                        None => {}
                    }
                    "手合割"
                }
                _ if is_kif_key => e.key.as_str(),
                Some(field) => match kif_key(field, self.handicap_game) {
                    Some(k) => k,
                    None => e.key.as_str(),
                },
                None => e.key.as_str(),
            };
            let value = e.value.replace(['\r', '\n'], " ");
            let _ = writeln!(self.out, "{key}：{value}");
        }
        match record.start.handicap {
            Some(h) if !handicap_written && !name_refused_by_some_reader(h) => {
                let _ = writeln!(self.out, "手合割：{}", h.kif_name());
            }
            _ => {}
        }
        if with_diagram {
            super::board::write_diagram(&mut self.out, &record.start.position, false);
            // The diagram's title line says how many moves led to it (Kifu for Windows'
            // `手数＝N`): without it a reader starts counting at 1.
            let played = record.start.position.move_number().saturating_sub(1);
            if played > 0 {
                let _ = writeln!(self.out, "手数＝{played}");
            }
        }
    }

    fn comments(&mut self, node: &Node<Move, ShogiEnding>) {
        for c in node.comments() {
            let marker = if c.kind == CommentKind::Engine {
                "**"
            } else {
                "*"
            };
            if c.text.is_empty() {
                self.out.push_str(marker);
                self.out.push('\n');
            }
            let gap = match c.kind {
                CommentKind::Engine => Comment::engine_gap(&c.text),
                _ => "",
            };
            for line in c.text.lines() {
                self.out.push_str(marker);
                self.out.push_str(gap);
                self.out.push_str(line);
                self.out.push('\n');
            }
        }
        for b in node.bookmarks() {
            let _ = writeln!(self.out, "&{}", b.name);
        }
    }

    fn write_line(
        &mut self,
        record: &ShogiRecord,
        parent: NodeId,
        first: Option<NodeId>,
    ) -> Vec<NodeId> {
        if self.ki2 {
            self.line_ki2(record, parent, first)
        } else {
            self.line(record, parent, first)
        }
    }

    /// KI2: `▲７六歩    △３四歩` six to a line, each padded to 12 columns; a line ends early
    /// where a comment or bookmark follows a move.
    fn line_ki2(
        &mut self,
        record: &ShogiRecord,
        parent: NodeId,
        first: Option<NodeId>,
    ) -> Vec<NodeId> {
        let tree = &record.moves;
        let (mut pos, _) = state_at(record, parent);
        // A line's first move names its square, never `同`: the text before a 変化 block is
        // another line, and Kifu for JS's KI2 reader cannot resolve a `同` there.
        let mut prev_to = None;
        let mut nodes = Vec::new();
        let mut on_line = 0;
        let mut first = first;
        while let Some(id) = first {
            nodes.push(id);
            let node = &tree[id];
            self.dropped_times |= node.time_ms().is_some();
            match &node.item {
                NodeItem::Move(mv) => {
                    let mark = if pos.turn() == Color::Black {
                        '▲'
                    } else {
                        '△'
                    };
                    let written = kifu_shogi::notation::ki2::write(&pos, *mv, prev_to);
                    // KI2 names a move by its piece and destination, resolved among the legal
                    // moves: an illegal move's words name a legal move (and read back as it)
                    // or none (and do not read back at all).
                    if node.illegal {
                        self.warnings.push(format!(
                            "ply {}: KI2 cannot hold the illegal move {} (`{written}`): its words \
                             are read among the legal moves",
                            node.ply(),
                            mv.usi()
                        ));
                    }
                    let text = format!("{mark}{written}");
                    prev_to = Some(mv.to());
                    if !node.illegal {
                        pos.play_unchecked(*mv);
                    }
                    if on_line > 0 {
                        let pad = 12usize.saturating_sub(self.last_field_width).max(1);
                        let _ = write!(self.out, "{:pad$}", "");
                    }
                    self.last_field_width = width(&text);
                    self.out.push_str(&text);
                    on_line += 1;
                }
                NodeItem::End(kind) => {
                    let mover = side_of(pos.turn());
                    if self.summary(kind, mover, 0).is_none() {
                        self.warnings.push(format!(
                            "ply {}: KI2 can only state the result in a `まで` line; the ending {kind} was dropped",
                            node.ply()
                        ));
                    }
                }
                NodeItem::Start => {}
            }
            let annotated = !node.comments().is_empty() || !node.bookmarks().is_empty();
            if on_line > 0 && (on_line == 6 || annotated) {
                self.out.push('\n');
                on_line = 0;
            }
            self.comments(node);
            first = tree.main_child(id);
        }
        if on_line > 0 {
            self.out.push('\n');
        }
        self.summary_line(tree, &nodes, &pos);
        nodes
    }

    fn summary_line(
        &mut self,
        tree: &kifu_record::MoveTree<Move, ShogiEnding>,
        nodes: &[NodeId],
        pos: &Position,
    ) {
        if let Some(&last) = nodes.last()
            && let NodeItem::End(kind) = &tree[last].item
        {
            let played = tree[last].ply() - 1;
            let mover = side_of(pos.turn());
            if let Some(summary) = self.summary(kind, mover, played) {
                self.out.push_str(&summary);
                self.out.push('\n');
            }
        }
    }

    /// Writes the line that starts with `first` (a child of `parent`) and follows first
    /// children from there; returns its nodes.
    fn line(&mut self, record: &ShogiRecord, parent: NodeId, first: Option<NodeId>) -> Vec<NodeId> {
        let tree = &record.moves;
        let (mut pos, mut totals) = state_at(record, parent);
        let mut prev_to = tree[parent].mv().map(|m| m.to());
        let mut nodes = Vec::new();
        let mut first = first;
        while let Some(id) = first {
            nodes.push(id);
            let node = &tree[id];
            let mover = pos.turn();
            let text = match &node.item {
                NodeItem::Move(mv) => {
                    let t = kifu_shogi::notation::kif::write(&pos, *mv, prev_to);
                    prev_to = Some(mv.to());
                    if !node.illegal {
                        pos.play_unchecked(*mv);
                    }
                    t
                }
                NodeItem::End(kind) => self.ending_word(kind, side_of(mover), node.ply()),
                NodeItem::Start => String::new(),
            };
            let _ = write!(self.out, "{:>4} {text}", node.ply());
            if let Some(ms) = node.time_ms() {
                if ms % 1000 != 0 {
                    self.truncated_times += 1;
                }
                let total = &mut totals[mover.index()];
                *total = node.total_ms().unwrap_or(total.saturating_add(ms));
                let pad = 13usize.saturating_sub(width(&text)).max(1);
                let secs = ms / 1000;
                let t = *total / 1000;
                let _ = write!(
                    self.out,
                    "{:pad$}({:>2}:{:02}/{:02}:{:02}:{:02})",
                    "",
                    secs / 60,
                    secs % 60,
                    t / 3600,
                    t / 60 % 60,
                    t % 60
                );
            }
            if tree.next_sibling(id).is_some() {
                if node.time_ms().is_none() {
                    let pad = 13usize.saturating_sub(width(&text)).max(1);
                    let _ = write!(self.out, "{:pad$}", "");
                }
                self.out.push('+');
            }
            self.out.push('\n');
            self.comments(node);
            first = tree.main_child(id);
        }
        self.summary_line(tree, &nodes, &pos);
        nodes
    }

    /// The variations of a written line, last branch point first, recursively. The siblings
    /// of an alternative line's first move are its caller's to write.
    fn variations(&mut self, record: &ShogiRecord, line: &[NodeId], is_alternative: bool) {
        // An explicit stack, not recursion: nesting depth comes from the input and may be
        // deep enough to overflow the call stack.
        struct Frame {
            nodes: Vec<NodeId>,
            /// Index of the node whose alternatives are being written; counts down.
            at: usize,
            lowest: usize,
            next_alt: Option<NodeId>,
        }
        let frame = |nodes: Vec<NodeId>, is_alternative: bool| Frame {
            at: nodes.len(),
            lowest: usize::from(is_alternative),
            nodes,
            next_alt: None,
        };
        let tree = &record.moves;
        let mut stack = vec![frame(line.to_vec(), is_alternative)];
        while let Some(top) = stack.last_mut() {
            if let Some(a) = top.next_alt {
                top.next_alt = tree.next_sibling(a);
                let _ = write!(self.out, "\n変化：{}手\n", tree[a].ply());
                let parent = tree.parent(a).expect("an alternative has a parent");
                let sub = self.write_line(record, parent, Some(a));
                stack.push(frame(sub, true));
            } else if top.at > top.lowest {
                top.at -= 1;
                top.next_alt = tree.next_sibling(top.nodes[top.at]);
            } else {
                stack.pop();
            }
        }
    }

    fn ending_word(&mut self, kind: &EndingKind<ShogiEnding>, mover: Side, ply: u32) -> String {
        let word = match kind {
            EndingKind::Resign => "投了",
            EndingKind::Abort => "中断",
            EndingKind::Repetition => "千日手",
            EndingKind::Game(ShogiEnding::Impasse) => "持将棋",
            EndingKind::Checkmate => "詰み",
            EndingKind::NoCheckmate => "不詰",
            EndingKind::TimeLoss => "切れ負け",
            EndingKind::IllegalMoveWin => "反則勝ち",
            EndingKind::IllegalMoveLoss => "反則負け",
            EndingKind::IllegalAction(offender) if *offender == mover => "反則負け",
            EndingKind::IllegalAction(_) => "反則勝ち",
            EndingKind::Game(ShogiEnding::DeclareWin) => "入玉勝ち",
            EndingKind::MaxMoves => "最大手数",
            EndingKind::Sealed => "封じ手",
            EndingKind::DefaultWin => "不戦勝",
            EndingKind::DefaultLoss => "不戦敗",
            EndingKind::Game(ShogiEnding::Try) => "トライ",
            // A word of no program's is kept as written, if it reads back as an ending (one
            // that looks like a move, `1CHUDAN`, would not).
            EndingKind::Unknown(word) => {
                let line = format!("{ply:>4} {word}");
                let kept = super::syntax::move_line(&line).is_some_and(|l| {
                    l.body
                        == Ok(super::syntax::Body::Ending(EndingKind::Unknown(
                            word.clone(),
                        )))
                });
                if kept {
                    return word.clone();
                }
                self.warnings.push(format!(
                    "ply {ply}: KIF cannot hold the ending `{word}` (it would read as a move); written as 中断"
                ));
                "中断"
            }
            other @ (EndingKind::Game(ShogiEnding::DeclareDraw)
            | EndingKind::TakeBack
            | EndingKind::Error
            | EndingKind::Result(_)) => {
                let (word, note) = match other {
                    EndingKind::Game(ShogiEnding::DeclareDraw) => ("持将棋", "written as 持将棋"),
                    _ => ("中断", "written as 中断"),
                };
                self.warnings.push(format!(
                    "ply {ply}: KIF has no word for the ending {other}; {note}"
                ));
                word
            }
        };
        word.to_owned()
    }

    fn side_name(&self, side: Side) -> &'static str {
        match (side, self.handicap_game) {
            (Side::First, false) => "先手",
            (Side::Second, false) => "後手",
            (Side::First, true) => "下手",
            (Side::Second, true) => "上手",
        }
    }

    /// Kakinoki's `まで…` line.
    fn summary(&self, kind: &EndingKind<ShogiEnding>, mover: Side, played: u32) -> Option<String> {
        let head = format!("まで{played}手で");
        let winner = |s: Side| self.side_name(s);
        Some(match kind {
            EndingKind::Resign => format!("{head}{}の勝ち", winner(mover.opponent())),
            EndingKind::TimeLoss => {
                format!("{head}時間切れにより{}の勝ち", winner(mover.opponent()))
            }
            EndingKind::IllegalMoveWin => format!("{head}{}の反則勝ち", winner(mover)),
            EndingKind::IllegalMoveLoss => format!("{head}{}の反則負け", winner(mover)),
            // Readers take `Xの反則負け` as the mover's loss whoever X is (tsshogi, Kifu for JS):
            // the side that did not foul is named with 反則勝ち unless the mover fouled.
            EndingKind::IllegalAction(o) if *o == mover => {
                format!("{head}{}の反則負け", winner(*o))
            }
            EndingKind::IllegalAction(o) => {
                format!("{head}{}の反則勝ち", winner(o.opponent()))
            }
            EndingKind::Game(ShogiEnding::DeclareWin) => {
                format!("{head}{}の入玉勝ち", winner(mover))
            }
            EndingKind::Checkmate => format!("{head}詰み"),
            EndingKind::Abort => format!("{head}中断"),
            EndingKind::Repetition => format!("{head}千日手"),
            EndingKind::Game(ShogiEnding::Impasse) => format!("{head}持将棋"),
            EndingKind::NoCheckmate => format!("{head}不詰"),
            EndingKind::Sealed => format!("{head}封じ手"),
            _ => return None,
        })
    }
}

/// Whether every reader in use sets up this 手合割 (or JKF preset) from its name alone.
pub(crate) fn every_reader_knows(h: Handicap) -> bool {
    matches!(
        h,
        Handicap::Even
            | Handicap::Lance
            | Handicap::RightLance
            | Handicap::Bishop
            | Handicap::Rook
            | Handicap::RookLance
            | Handicap::TwoPieces
            | Handicap::FourPieces
            | Handicap::SixPieces
            | Handicap::EightPieces
            | Handicap::TenPieces
    )
}

/// Names cshogi and python-shogi refuse outright (an error, not a fallback to the board): the
/// diagram alone says these starts, and kifu reads it back as the same handicap.
fn name_refused_by_some_reader(h: Handicap) -> bool {
    matches!(h, Handicap::LeftSevenPieces | Handicap::RightSevenPieces)
}

/// The position before the children of `node`, and each side's total time so far.
fn state_at(record: &ShogiRecord, node: NodeId) -> (Position, [u64; 2]) {
    let tree = &record.moves;
    let mut pos = record.start.position.clone();
    let mut totals = [0u64; 2];
    for id in tree.path_to(node) {
        let n = &tree[id];
        let mover = pos.turn().index();
        if let Some(ms) = n.time_ms() {
            totals[mover] = n.total_ms().unwrap_or(totals[mover].saturating_add(ms));
        }
        if let NodeItem::Move(mv) = n.item
            && !n.illegal
        {
            pos.play_unchecked(mv);
        }
    }
    (pos, totals)
}
