//! lishogi's chu KIF export: `key：value` headers, a `手数----指手` line, then one move per line
//! (`  12   6八獅子 （←7十）`), a lion-type double move on two lines (`一歩目` / `二歩目`), `仝` for
//! the previous destination, `*` comments and a closing word (`投了` …). A custom start position is
//! a board diagram (and `後手番`); a pending counter-strike square, which a diagram cannot show, is
//! added as a `#SFEN <sfen>` line, an extension of this crate that it also reads.

use kifu_record::{Diagnostic, DiagnosticKind, Span};

use super::{ChuRecord, RecordMove, Replay, span};
use crate::moves::Move;
use crate::notation::{Dialect, japanese_square, kif_name, parse_move, step_squares};
use crate::position::{Position, START_SFEN};
use crate::square::Square;

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

/// Removes a trailing time `(00:05/00:00:10)` and surrounding blanks.
fn strip_time(s: &str) -> &str {
    let t = s.trim_end();
    if t.ends_with(')')
        && let Some(open) = t.rfind('(')
        && t[open..].contains(':')
    {
        return t[..open].trim_end();
    }
    t
}

/// Reads a lishogi chu KIF.
pub fn parse(text: &str) -> (ChuRecord, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut record = ChuRecord::default();
    let mut replay: Option<Replay> = None;
    let mut previous = None;
    // (origin, first-step square) of a double move whose 二歩目 line is still to come.
    let mut first_step: Option<((Square, Square), Span)> = None;
    let mut board: Option<Position> = None;
    let mut board_rows = 0u8;
    let mut ended_at: Option<&str> = None;
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
                Ok(p) if replay.is_none() => record.start = p,
                Ok(_) => diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    whole,
                    "start position after the moves",
                )),
                Err(e) => diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    whole,
                    e.to_string(),
                )),
            }
            continue;
        }
        if trimmed.starts_with("まで") {
            // The closing summary ("まで81手で先手の勝ち").
            continue;
        }
        if trimmed.starts_with("変化") {
            diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                whole,
                "variations are not kept; reading stops here",
            ));
            break;
        }
        if trimmed.starts_with('#') {
            continue;
        }
        if let Some(c) = trimmed.strip_prefix('*') {
            match record.moves.last_mut() {
                Some(m) => m.comments.push(c.trim().to_string()),
                None => record.comments.push(c.trim().to_string()),
            }
            continue;
        }
        if trimmed.starts_with('|') {
            if replay.is_some() {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    whole,
                    "board diagram after the moves",
                ));
                continue;
            }
            let mut pos = board
                .take()
                .unwrap_or_else(|| Position::empty().with_rules(record.start.rules()));
            if board_rows >= 12 {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    whole,
                    "more than 12 board rows",
                ));
            } else if let Err(e) = super::kif_board::read_row(trimmed, board_rows, &mut pos) {
                diags.push(Diagnostic::error(DiagnosticKind::Syntax, whole, e));
            }
            board_rows += 1;
            if board_rows == 12 {
                record.start = pos.clone();
            }
            board = Some(pos);
            continue;
        }
        if trimmed.starts_with('+') || trimmed.starts_with("１２") {
            continue;
        }
        if trimmed == "後手番" || trimmed == "上手番" {
            record.start.set_turn(crate::piece::Color::White);
            continue;
        }
        if trimmed == "先手番" || trimmed == "下手番" {
            record.start.set_turn(crate::piece::Color::Black);
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
                    match crate::rules::RuleSet::from_name(v.trim()) {
                        Some(r) => record.start.set_rules(r),
                        None => diags.push(Diagnostic::warning(
                            DiagnosticKind::Unknown,
                            whole,
                            format!("unknown rule set `{}`; using lishogi rules", v.trim()),
                        )),
                    }
                }
                record
                    .headers
                    .push((k.trim().to_string(), v.trim().to_string()));
            } else if trimmed.contains('←') {
                // Shaped like a move (it names an origin square): not a line to pass over.
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
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
        let replay = replay.get_or_insert_with(|| Replay::new(record.start.clone()));
        let body_start = lead + digits;
        let body = strip_time(&line[body_start..]);
        let body_trim = body.trim_start();
        let body_off = body_start + (body.len() - body_trim.len());
        let sp = span(base, body_off, body_off + body_trim.len());
        if let Some(w) = ENDINGS.iter().find(|w| body_trim.starts_with(**w)) {
            if let Some(earlier) = &record.result {
                diags.push(Diagnostic::error(
                    DiagnosticKind::AfterEnd,
                    sp,
                    format!("a second ending `{w}` after `{earlier}`"),
                ));
            }
            record.result = Some(w.to_string());
            ended_at = Some(w);
            continue;
        }
        if let Some(w) = ended_at {
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
            if let Err(e @ crate::notation::NotationError::Syntax { .. }) =
                parse_move(replay.game.position(), body, Dialect::Csl, previous)
            {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    sp,
                    format!("`{body_trim}`: {e}"),
                ));
            }
            continue;
        }
        if let Some(step) = body_trim.strip_prefix("一歩目") {
            match step_squares(step, previous) {
                Some((mid, Some(from))) => first_step = Some(((from, mid), sp)),
                _ => {
                    diags.push(Diagnostic::error(
                        DiagnosticKind::Syntax,
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
                diags.push(Diagnostic::error(
                    DiagnosticKind::IllegalMove,
                    sp,
                    "二歩目 without 一歩目",
                ));
                replay.broken = true;
                continue;
            };
            match step_squares(step, None) {
                Some((to, _)) => Move::double(from, mid, to),
                None => {
                    diags.push(Diagnostic::error(
                        DiagnosticKind::Syntax,
                        sp,
                        format!("cannot read the second step `{}`", step.trim()),
                    ));
                    replay.broken = true;
                    continue;
                }
            }
        } else {
            if replay.over(sp, &mut diags) {
                replay.broken = true;
                continue;
            }
            // KIF marks only promotion; no 成 means the piece did not promote.
            let text = if body_trim.contains('成') {
                body_trim.to_string()
            } else {
                format!("{body_trim} 不成")
            };
            match parse_move(replay.game.position(), &text, Dialect::Csl, previous) {
                Ok(p) => p.mv,
                Err(e) => {
                    let ply = replay.game.moves().len() + 1;
                    diags.push(Diagnostic::error(
                        DiagnosticKind::IllegalMove,
                        sp,
                        format!("ply {ply}: `{body_trim}`: {e}"),
                    ));
                    replay.broken = true;
                    continue;
                }
            }
        };
        if replay.over(sp, &mut diags) {
            replay.broken = true;
            continue;
        }
        if replay.play(m, sp, &mut diags) {
            previous = Some(m.to());
            record.moves.push(RecordMove {
                mv: m,
                comments: Vec::new(),
            });
        }
    }
    if replay.is_none() && record.headers.is_empty() && board.is_none() {
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

/// What [`write`] cannot hold of a record: a closing word KIF does not know.
pub fn losses(record: &ChuRecord) -> Vec<String> {
    match record.result.as_deref() {
        Some(r) if !ENDINGS.contains(&r) => vec![format!(
            "KIF has no closing word for the result `{r}`; it is not written"
        )],
        _ => Vec::new(),
    }
}

/// Writes a lishogi-style chu KIF.
pub fn write(record: &ChuRecord) -> String {
    let mut out = String::new();
    for (k, v) in &record.headers {
        out.push_str(&format!("{k}：{v}\n"));
    }
    if record.header("手合割").is_none() && record.start.to_sfen() == START_SFEN {
        out.push_str("手合割：中将棋\n");
    }
    if record.header("Rules").is_none() && record.start.rules() == crate::rules::RuleSet::JCSA {
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
    for c in &record.comments {
        out.push_str(&format!("*{c}\n"));
    }
    let mut pos = record.start.clone();
    let mut previous = None;
    for (i, rm) in record.moves.iter().enumerate() {
        let m = rm.mv;
        let n = i + 1;
        let name = pos.piece_at(m.from()).map_or("", kif_name);
        match m.mid() {
            Some(mid) => {
                out.push_str(&format!(
                    "{n:>4}一歩目 {}\n",
                    step(mid, name, false, m.from(), previous)
                ));
                out.push_str(&format!(
                    "{n:>4}二歩目 {}\n",
                    step(m.to(), name, false, mid, None)
                ));
            }
            None => out.push_str(&format!(
                "{n:>4}   {}\n",
                step(m.to(), name, m.is_promotion(), m.from(), previous)
            )),
        }
        for c in &rm.comments {
            out.push_str(&format!("*{c}\n"));
        }
        previous = Some(m.to());
        pos.play_unchecked(m);
    }
    if let Some(r) = record.result.as_deref().filter(|r| ENDINGS.contains(r)) {
        out.push_str(&format!("{:>4}   {r}\n", record.moves.len() + 1));
    }
    out
}
