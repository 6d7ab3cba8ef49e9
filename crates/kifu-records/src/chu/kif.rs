//! lishogi's chu KIF export: `key：value` headers, a `手数----指手` line, then one move per line
//! (`  12   6八獅子 （←7十）`), a lion-type double move on two lines (`一歩目` / `二歩目`), `仝` for
//! the previous destination, `*` comments and a closing word (`投了` …). A custom start position is
//! a board diagram (and `後手番`); a pending counter-strike square, which a diagram cannot show, is
//! added as a `#SFEN <sfen>` line, an extension of this crate that it also reads.
//!
//! Times and variations follow the Kakinoki KIF page: `(mm:ss/hh:mm:ss)` after a move is its
//! time and the mover's total, and a `変化：N手` block is an alternative to move N of the line
//! read last that reaches it (a `+` after a move marks that it has one).

use kifu_chu::notation::{
    Dialect, NotationError, japanese_square, kif_name, parse_move, step_squares,
};
use kifu_chu::{Chu, Color, Move, Position, RuleSet, START_SFEN, Square};
use kifu_record::{
    Diagnostic, DiagnosticKind, EndingKind, NodeId, RecordFormat, RecordRead, Records, Span,
};

use super::endings::{ending_from_word, kif_word};
use super::replay::Replay;
use super::{ChuRecord, add_comment, comment_texts, header_value, push_header, span};

/// lishogi's chu KIF.
pub static KIF: Kif = Kif;

/// The KIF format (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct Kif;

impl RecordFormat<Chu> for Kif {
    fn name(&self) -> &'static str {
        "kif"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["kifu"]
    }

    /// A `手数----` line, a lion's `一歩目`, or a `手合割：`/`先手：` header in the first lines.
    fn sniff(&self, text: &str) -> bool {
        text.contains("手数----")
            || text.contains("一歩目")
            || text
                .lines()
                .take(10)
                .any(|l| l.contains("手合割：") || l.starts_with("先手："))
    }

    fn records<'t>(&self, text: &'t str) -> Records<'t, Chu> {
        let (record, diagnostics) = parse(text);
        Box::new(std::iter::once(RecordRead {
            record,
            diagnostics,
        }))
    }

    fn write(&self, records: &[ChuRecord]) -> kifu_record::Written {
        super::write_records(records, "KIF", false, write, losses)
    }
}

/// Closing words read after the last move: the ones with a shared meaning (see
/// [`ending_from_word`]) and shogi's, which chu has no rule for and keeps as written.
const ENDINGS: &[&str] = &[
    "投了",
    "中断",
    "千日手",
    "詰み",
    "反則勝ち",
    "反則負け",
    "切れ負け",
    "持将棋",
    "入玉勝ち",
];

/// A move's time and the mover's total, in milliseconds.
type Times = (Option<u64>, Option<u64>);

/// Removes a trailing variation mark `+` and time `(00:05/00:00:10)` and reads the time.
fn strip_time(s: &str) -> (&str, Times) {
    let t = s.trim_end();
    let t = t.strip_suffix('+').map_or(t, str::trim_end);
    if t.ends_with(')')
        && let Some(open) = t.rfind('(')
        && t[open..].contains(':')
    {
        return (t[..open].trim_end(), read_times(&t[open + 1..t.len() - 1]));
    }
    (t, (None, None))
}

/// `mm:ss/hh:mm:ss` (blanks allowed) → (time, total).
fn read_times(text: &str) -> Times {
    let seconds = |part: &str| -> Option<u64> {
        part.trim().split(':').try_fold(0u64, |acc, n| {
            Some(acc * 60 + n.trim().parse::<u64>().ok()?)
        })
    };
    let (time, total) = text.split_once('/').unwrap_or((text, ""));
    (
        seconds(time).map(|s| s * 1000),
        seconds(total).map(|s| s * 1000),
    )
}

/// `mm:ss/hh:mm:ss` for a time and total in milliseconds (whole seconds).
fn write_times(time_ms: Option<u64>, total_ms: Option<u64>) -> String {
    let time = time_ms.unwrap_or(0) / 1000;
    let total = total_ms.unwrap_or(0) / 1000;
    format!(
        "({:02}:{:02}/{:02}:{:02}:{:02})",
        time / 60,
        time % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    )
}

/// The variation heading `変化：N手` → N.
fn variation_ply(line: &str) -> Option<u32> {
    let rest = line.strip_prefix("変化")?;
    let rest = rest.trim_start_matches(['：', ':']).trim();
    rest.trim_end_matches('手').trim().parse().ok()
}

/// Reads a lishogi chu KIF, with its variations and times.
pub fn parse(text: &str) -> (ChuRecord, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut record = ChuRecord::new(Position::startpos());
    let mut replay: Option<Replay> = None;
    let mut previous = None;
    // (origin, first-step square) of a double move whose 二歩目 line is still to come.
    let mut first_step: Option<((Square, Square), Span)> = None;
    let mut board: Option<Position> = None;
    let mut board_rows = 0u8;
    let mut board_start = 0;
    let mut ended_at: Option<String> = None;
    // The node comments attach to: the last move or ending read.
    let mut last = record.moves.root();
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let base = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim_start();
        let lead = line.len() - trimmed.len();
        let whole = span(base, lead, line.len());
        if trimmed.is_empty() || trimmed.starts_with("手数") {
            continue;
        }
        if let Some(sfen) = trimmed.strip_prefix("#SFEN") {
            match Position::from_sfen(sfen.trim()) {
                Ok(p) if replay.is_none() => {
                    record.start = p.with_rules(record.start.rules());
                    record.start_span = whole;
                }
                Ok(_) => diags.push(Diagnostic::syntax(whole, "start position after the moves")),
                Err(e) => diags.push(Diagnostic::syntax(whole, e.to_string())),
            }
            continue;
        }
        if trimmed.starts_with("まで") {
            // The closing summary ("まで81手で先手の勝ち").
            continue;
        }
        if trimmed.starts_with("変化") {
            let Some(ply) = variation_ply(trimmed) else {
                diags.push(Diagnostic::syntax(
                    whole,
                    "a variation heading without its move number",
                ));
                continue;
            };
            // The alternative replaces move `ply` of the line read last that reaches it.
            let mut at = replay.as_ref().map_or(record.moves.root(), |r| r.node);
            while record.moves[at].ply() >= ply {
                at = record.moves.parent(at).unwrap_or(record.moves.root());
                if at == record.moves.root() {
                    break;
                }
            }
            if record.moves[at].ply() + 1 != ply || record.moves[at].is_ending() {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Inconsistent,
                    whole,
                    format!("a variation at move {ply}, which no line read so far reaches"),
                ));
                replay = Some(Replay::at(&record, at));
                if let Some(r) = replay.as_mut() {
                    r.broken = true;
                }
                continue;
            }
            previous = record.moves[at].mv().map(|m| m.to());
            replay = Some(Replay::at(&record, at));
            ended_at = None;
            first_step = None;
            last = at;
            continue;
        }
        if trimmed.starts_with('#') {
            continue;
        }
        if let Some(c) = trimmed.strip_prefix('*') {
            add_comment(&mut record, last, c.trim().to_string(), whole);
            continue;
        }
        if trimmed.starts_with('|') {
            if replay.is_some() {
                diags.push(Diagnostic::syntax(whole, "board diagram after the moves"));
                continue;
            }
            if board.is_none() {
                board_start = base + lead;
            }
            let mut pos = board
                .take()
                .unwrap_or_else(|| Position::empty().with_rules(record.start.rules()));
            if board_rows >= 12 {
                diags.push(Diagnostic::syntax(whole, "more than 12 board rows"));
            } else if let Err(e) = super::kif_board::read_row(trimmed, board_rows, &mut pos) {
                diags.push(Diagnostic::syntax(whole, e.to_string()));
            }
            board_rows += 1;
            if board_rows == 12 {
                record.start = pos.clone();
                record.start_span = Span::new(board_start, whole.end as usize);
            }
            board = Some(pos);
            continue;
        }
        if trimmed.starts_with('+') || trimmed.starts_with("１２") {
            continue;
        }
        if trimmed == "後手番" || trimmed == "上手番" {
            record.start.set_turn(Color::White);
            continue;
        }
        if trimmed == "先手番" || trimmed == "下手番" {
            record.start.set_turn(Color::Black);
            continue;
        }
        let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            if let Some((k, v)) = trimmed.split_once('：').or_else(|| trimmed.split_once(':')) {
                if k == "手合割"
                    && !["平手", "中将棋", "chushogi", "chuushogi", ""].contains(&v.trim())
                {
                    diags.push(Diagnostic::warning(
                        DiagnosticKind::Unknown,
                        whole,
                        format!("unknown 手合割 `{}`; using the standard start", v.trim()),
                    ));
                }
                if k.trim().eq_ignore_ascii_case("Rules") {
                    match v.trim().parse::<RuleSet>() {
                        Ok(r) => record.start.set_rules(r),
                        Err(e) => diags.push(Diagnostic::warning(
                            DiagnosticKind::Unknown,
                            whole,
                            format!("{e}; using lishogi rules"),
                        )),
                    }
                }
                push_header(&mut record, k.trim(), v.trim().to_string(), whole);
            } else if trimmed.contains('←') {
                // Shaped like a move (it names an origin square): not a line to pass over.
                diags.push(Diagnostic::syntax(
                    whole,
                    "a move without its number: KIF moves start with the ply number",
                ));
            } else {
                diags.push(Diagnostic::warning(
                    DiagnosticKind::Unknown,
                    whole,
                    "line not understood, ignored",
                ));
            }
            continue;
        }
        let replay = replay.get_or_insert_with(|| Replay::new(&record));
        let body_start = lead + digits;
        let (body, times) = strip_time(&line[body_start..]);
        let body_trim = body.trim_start();
        let body_off = body_start + (body.len() - body_trim.len());
        let sp = span(base, body_off, body_off + body_trim.len());
        if let Some(w) = ENDINGS.iter().find(|w| body_trim.starts_with(**w)) {
            if let Some(earlier) = &ended_at {
                diags.push(Diagnostic::error(
                    DiagnosticKind::AfterEnd,
                    sp,
                    format!("a second ending `{w}` after `{earlier}`"),
                ));
                continue;
            }
            let kind = ending_from_word(w).unwrap_or_else(|| {
                diags.push(Diagnostic::warning(
                    DiagnosticKind::Unknown,
                    sp,
                    format!("`{w}` is a shogi ending chu has no rule for; kept as written"),
                ));
                EndingKind::Unknown(w.to_string())
            });
            last = record.moves.add_ending(replay.node, kind, sp);
            record.moves[last].set_time_ms(times.0);
            record.moves[last].set_total_ms(times.1);
            ended_at = Some(w.to_string());
            continue;
        }
        if let Some(w) = &ended_at {
            // Nothing may follow the game's closing word: the ply is not part of the game.
            diags.push(Diagnostic::error(
                DiagnosticKind::AfterEnd,
                sp,
                format!("a move after the ending `{w}`"),
            ));
            replay.broken = true;
            continue;
        }
        if replay.broken {
            // Legality cannot be checked any more, but unreadable text still can.
            let body = body_trim
                .strip_prefix("一歩目")
                .or_else(|| body_trim.strip_prefix("二歩目"))
                .unwrap_or(body_trim);
            if let Err(e @ NotationError::Syntax { .. }) =
                parse_move(replay.position(), body, Dialect::Csl, previous)
            {
                diags.push(Diagnostic::syntax(sp, format!("`{body_trim}`: {e}")));
            }
            continue;
        }
        if let Some(step) = body_trim.strip_prefix("一歩目") {
            match step_squares(step, previous) {
                Some((mid, Some(from))) => first_step = Some(((from, mid), sp)),
                _ => {
                    diags.push(Diagnostic::syntax(
                        sp,
                        format!("cannot read the first step `{}`", step.trim()),
                    ));
                    replay.broken = true;
                }
            }
            continue;
        }
        let m = if let Some(step) = body_trim.strip_prefix("二歩目") {
            let Some(((from, mid), _)) = first_step.take() else {
                diags.push(Diagnostic::syntax(sp, "二歩目 without 一歩目"));
                replay.broken = true;
                continue;
            };
            match step_squares(step, None) {
                Some((to, _)) => Move::double(from, mid, to),
                None => {
                    diags.push(Diagnostic::syntax(
                        sp,
                        format!("cannot read the second step `{}`", step.trim()),
                    ));
                    replay.broken = true;
                    continue;
                }
            }
        } else {
            if replay.over(&record, sp, &mut diags) {
                replay.broken = true;
                continue;
            }
            // KIF marks only promotion; no 成 means the piece did not promote.
            let text = if body_trim.contains('成') {
                body_trim.to_string()
            } else {
                format!("{body_trim} 不成")
            };
            match parse_move(replay.position(), &text, Dialect::Csl, previous) {
                Ok(p) => p.mv,
                Err(e) => {
                    let ply = replay.next_ply(&record);
                    diags.push(Diagnostic::illegal_move(
                        sp,
                        format!("ply {ply}: `{body_trim}`: {e}"),
                    ));
                    replay.broken = true;
                    continue;
                }
            }
        };
        if replay.over(&record, sp, &mut diags) {
            replay.broken = true;
            continue;
        }
        if replay.play(&mut record, m, sp, &mut diags) {
            previous = Some(m.to());
            last = replay.node;
            record.moves[last].set_time_ms(times.0);
            record.moves[last].set_total_ms(times.1);
        }
    }
    if replay.is_none() && record.header.is_empty() && board.is_none() {
        diags.push(super::no_record(text, "KIF"));
    }
    (record, diags)
}

fn step(dest: Square, name: &str, promo: bool, from: Square, previous: Option<Square>) -> String {
    let d = if previous == Some(dest) {
        "仝".to_string()
    } else {
        japanese_square(dest)
    };
    format!(
        "{d}{name}{} （←{}）",
        if promo { "成" } else { "" },
        japanese_square(from)
    )
}

/// lishogi's KIF board diagram of a position (for display).
pub fn board_diagram(pos: &Position) -> String {
    super::kif_board::write(pos)
}

/// What [`write`](fn@write) cannot hold of a record: an ending KIF has no closing word for, times
/// finer than a second.
pub fn losses(record: &ChuRecord) -> Vec<String> {
    let tree = &record.moves;
    let mut out = Vec::new();
    for id in tree.ids() {
        if let Some(ending) = tree[id].ending()
            && kif_word(&ending.kind).is_none()
            && !matches!(&ending.kind, EndingKind::Unknown(w) if ENDINGS.contains(&w.as_str()))
        {
            out.push(format!(
                "KIF has no closing word for the result {}; it is not written",
                ending.kind
            ));
        }
    }
    let fractions = tree
        .ids()
        .filter(|&id| {
            [tree[id].time_ms(), tree[id].total_ms()]
                .into_iter()
                .flatten()
                .any(|ms| ms % 1000 != 0)
        })
        .count();
    if fractions > 0 {
        out.push(format!(
            "KIF writes whole seconds: the times of {fractions} move(s) rounded down"
        ));
    }
    out
}

/// The closing word of an ending, if KIF has one.
fn closing_word(kind: &EndingKind<kifu_chu::Outcome>) -> Option<&str> {
    match kind {
        EndingKind::Unknown(w) if ENDINGS.contains(&w.as_str()) => Some(w),
        other => kif_word(other),
    }
}

/// Writes a lishogi-style chu KIF, with its variations (`変化：N手`) and times.
pub fn write(record: &ChuRecord) -> String {
    let mut out = String::new();
    for entry in record.header.entries() {
        out.push_str(&format!("{}：{}\n", entry.key, entry.value));
    }
    if header_value(record, "手合割").is_none() && record.start.to_sfen() == START_SFEN {
        out.push_str("手合割：中将棋\n");
    }
    if header_value(record, "Rules").is_none() && record.start.rules() == RuleSet::JCSA {
        out.push_str("Rules：JCSA\n");
    }
    if record.start.to_sfen() != START_SFEN {
        out.push_str(&super::kif_board::write(&record.start));
        // A diagram cannot say where a counter-strike is pending.
        if record.start.counter_strike().is_some() {
            out.push_str(&format!("#SFEN {}\n", record.start.to_sfen()));
        }
    }
    out.push_str("手数----指手---------消費時間--\n");
    let tree = &record.moves;
    for c in comment_texts(record, tree.root()) {
        out.push_str(&format!("*{c}\n"));
    }
    let timed = tree
        .ids()
        .any(|id| tree[id].time_ms().is_some() || tree[id].total_ms().is_some());
    write_line(
        record,
        tree.root(),
        tree.main_child(tree.root()),
        timed,
        &mut out,
    );
    out
}

/// Writes the line that starts with `first` (a child of `from`), then, from its deepest move
/// back, the alternatives to each of its moves, as the Kakinoki KIF page orders them.
fn write_line(
    record: &ChuRecord,
    from: NodeId,
    first: Option<NodeId>,
    timed: bool,
    out: &mut String,
) {
    let tree = &record.moves;
    let mut game = Replay::at(record, from);
    let mut previous = tree[from].mv().map(|m| m.to());
    let mut line = Vec::new();
    let mut next = first;
    while let Some(id) = next {
        line.push(id);
        let node = &tree[id];
        let n = node.ply();
        let has_alternative = tree.next_sibling(id).is_some();
        let mark = if has_alternative { "+" } else { "" };
        let time = if timed && (node.time_ms().is_some() || node.total_ms().is_some()) {
            format!("   {}", write_times(node.time_ms(), node.total_ms()))
        } else {
            String::new()
        };
        match &node.item {
            kifu_record::NodeItem::Move(m) => {
                let m = *m;
                let pos = game.position();
                let name = pos.piece_at(m.from()).map_or("", kif_name);
                match m.mid() {
                    Some(mid) => {
                        out.push_str(&format!(
                            "{n:>4}一歩目 {}\n",
                            step(mid, name, false, m.from(), previous)
                        ));
                        out.push_str(&format!(
                            "{n:>4}二歩目 {}{time}{mark}\n",
                            step(m.to(), name, false, mid, None)
                        ));
                    }
                    None => out.push_str(&format!(
                        "{n:>4}   {}{time}{mark}\n",
                        step(m.to(), name, m.is_promotion(), m.from(), previous)
                    )),
                }
                previous = Some(m.to());
                game.game.play_unchecked(m);
            }
            kifu_record::NodeItem::End(kind) => {
                if let Some(word) = closing_word(kind) {
                    out.push_str(&format!("{n:>4}   {word}{time}{mark}\n"));
                }
            }
            kifu_record::NodeItem::Start => {}
        }
        for c in comment_texts(record, id) {
            out.push_str(&format!("*{c}\n"));
        }
        next = tree.main_child(id);
    }
    for &id in line.iter().rev() {
        let Some(parent) = tree.parent(id) else {
            continue;
        };
        if tree.main_child(parent) != Some(id) {
            continue;
        }
        for alternative in tree.variations(parent) {
            out.push_str(&format!("\n変化：{}手\n", tree[alternative].ply()));
            write_line(record, parent, Some(alternative), timed, out);
        }
    }
}
