//! USI move lists as a record format: one game per line, `position startpos moves 7g7f …`,
//! `position sfen <sfen> moves …`, or the same without `position`, or bare moves from the
//! even start (the lishogi fixture's shape). Lines starting with `#` are skipped.

use kifu_record::{
    Diagnostic, DiagnosticKind, EndingKind, NodeItem, Record, RecordFormat,
    Records as BoxedRecords, Span,
};
use kifu_shogi::{Shogi, ShogiEnding};

use crate::shogi::replay::Replay;
use crate::shogi::{Parsed, RecordRead, ShogiRecord, StartPosition, Written};
use kifu_shogi::{Handicap, Position};

/// USI move lists as a table entry: one game per line, as many lines as games.
///
/// ```
/// use kifu_record::RecordFormat;
/// use kifu_records::shogi::usi_record::USI;
///
/// let text = "position startpos moves 7g7f 3c3d\n2g2f 8c8d resign\n";
/// let games: Vec<_> = USI.records(text).map(|read| read.record).collect();
/// assert_eq!(games.len(), 2);
/// assert_eq!(USI.write(&games).text, "position startpos moves 7g7f 3c3d\nposition startpos moves 2g2f 8c8d resign\n");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UsiFormat;

/// USI move lists (`.usi`, `.sfen`, `.txt`).
pub const USI: UsiFormat = UsiFormat;

/// A line that starts like a USI `position` command or its arguments (the USI protocol's
/// `position [sfen <sfenstring> | startpos] moves <move1> … <movei>`).
pub(crate) fn is_position_line(line: &str) -> bool {
    line.starts_with("position ") || line.starts_with("startpos") || line.starts_with("sfen ")
}

/// A line whose first word is a USI move (`7g7f`, `P*5e`): a bare move list.
pub(crate) fn starts_with_move(line: &str) -> bool {
    let first_word = line.split_ascii_whitespace().next().unwrap_or("");
    kifu_shogi::usi::parse_move(first_word).is_ok()
}

impl RecordFormat<Shogi> for UsiFormat {
    fn name(&self) -> &'static str {
        "usi"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["sfen", "txt"]
    }

    fn sniff(&self, text: &str) -> bool {
        crate::sniffing::first_lines(text)
            .any(|line| is_position_line(line) || starts_with_move(line))
    }

    fn holds_many(&self) -> bool {
        true
    }

    fn records<'t>(&self, text: &'t str) -> BoxedRecords<'t, Shogi> {
        Box::new(Records::new(text))
    }

    fn write(&self, records: &[Record<Shogi>]) -> Written {
        write(records)
    }

    fn writes_in_parts(&self) -> bool {
        true
    }

    fn write_part(&self, records: &[Record<Shogi>], before: usize) -> Written {
        write_from(records, before, true)
    }
}

/// Reads every game of a USI text, one per non-empty line.
pub fn read(text: &str) -> Parsed {
    Parsed::collect(Records::new(text))
}

/// The games of a USI text one line at a time (see [`kifu_record::RecordFormat::records`] of [`USI`]).
pub struct Records<'t> {
    text: &'t str,
    /// Offset of the next line.
    pos: usize,
    yielded: bool,
}

impl<'t> Records<'t> {
    /// The games of `text`, none read yet.
    pub fn new(text: &'t str) -> Records<'t> {
        Records {
            text,
            pos: 0,
            yielded: false,
        }
    }
}

impl Iterator for Records<'_> {
    type Item = RecordRead;

    fn next(&mut self) -> Option<RecordRead> {
        let text = self.text;
        while self.pos < text.len() {
            let start = self.pos;
            let rest = &text[start..];
            let len = rest.bytes().position(|b| b == b'\n').unwrap_or(rest.len());
            let line = rest[..len].strip_suffix('\r').unwrap_or(&rest[..len]);
            self.pos += len + 1;
            if !line.trim().is_empty() && !line.trim_start().starts_with('#') {
                let mut diagnostics = Vec::new();
                let record = read_line(text, line, start, &mut diagnostics);
                self.yielded = true;
                return Some(RecordRead::checked(record, diagnostics, start));
            }
        }
        if !std::mem::replace(&mut self.yielded, true) {
            let empty = ShogiRecord::new(StartPosition::handicap(Handicap::Even));
            return Some(RecordRead::checked(empty, Vec::new(), 0));
        }
        None
    }
}

/// Words of a line with their byte offsets in the whole text.
fn words(line: &str, offset: usize) -> impl Iterator<Item = (&str, Span)> {
    line.split_ascii_whitespace().map(move |w| {
        let at = w.as_ptr() as usize - line.as_ptr() as usize + offset;
        (w, Span::new(at, at + w.len()))
    })
}

fn read_line(text: &str, line: &str, offset: usize, diags: &mut Vec<Diagnostic>) -> ShogiRecord {
    let mut record = ShogiRecord::new(StartPosition::handicap(Handicap::Even));
    let mut ws = words(line, offset).peekable();
    if ws.peek().is_some_and(|(w, _)| *w == "position") {
        ws.next();
    }
    // `sfen <board> <side> <hands> <number>`, or the four fields alone: a bare SFEN line (what
    // `kifu show --sfen` writes) is a record that starts there and has no moves.
    let sfen_start = match ws.peek().copied() {
        Some(("startpos", span)) => {
            ws.next();
            record.start_span = span;
            None
        }
        Some(("sfen", span)) => {
            ws.next();
            Some(span)
        }
        Some((word, span)) if word.contains('/') => Some(span),
        _ => None,
    };
    if let Some(span) = sfen_start {
        let mut fields: Vec<(&str, Span)> = Vec::with_capacity(4);
        while let Some(&(w, s)) = ws.peek() {
            if w == "moves" || fields.len() == 4 {
                break;
            }
            fields.push((w, s));
            ws.next();
        }
        let whole = fields.iter().fold(span, |acc, f| acc.join(f.1));
        record.start_span = whole;
        let sfen: Vec<&str> = fields.iter().map(|f| f.0).collect();
        // Leniently, as the other readers take a diagram: a start with 二歩 or a piece
        // that can never move is read with a warning, so that kifu reads back the USI it
        // writes for such a record.
        match Position::from_sfen_lenient(&sfen.join(" ")) {
            Ok((p, tolerated)) => {
                for e in tolerated {
                    diags.push(Diagnostic::warning(
                        DiagnosticKind::Syntax,
                        whole,
                        format!("unusual start position: {e}"),
                    ));
                }
                record.start = StartPosition::custom(p);
            }
            Err(e) => {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    whole,
                    format!("bad SFEN: {e}"),
                ));
                return record;
            }
        }
    }
    if ws.peek().is_some_and(|(w, _)| *w == "moves") {
        ws.next();
    }
    let root = record.moves.root();
    let mut replay = Replay::new(record.start.position.clone(), root);
    let mut ws = ws.peekable();
    while let Some((word, span)) = ws.next() {
        let last = ws.peek().is_none();
        let ending = match word {
            "resign" => Some(EndingKind::Resign),
            "win" => Some(EndingKind::Game(ShogiEnding::DeclareWin)),
            "draw" => Some(EndingKind::Game(ShogiEnding::Impasse)),
            // A word that ends the list and is no move (`rep_draw`, `timeout`, as match
            // programs log how a game ended) is how the game ended, in words kifu does not
            // know: kept as written, with the replay's warning, the moves before it still a
            // valid game.
            _ if last && is_ending_word(word) => Some(EndingKind::Unknown(word.to_string())),
            _ => None,
        };
        match ending {
            Some(kind) => {
                replay.end(&mut record.moves, kind, span, diags);
            }
            None => {
                let resolved = kifu_shogi::usi::parse_move(word).map_err(|e| (None, e.to_string()));
                replay.play(&mut record.moves, resolved, span, text, diags);
            }
        }
    }
    replay.finish(&mut record.moves, diags);
    record
}

/// A word that can only be an ending's name: a letter, then letters, digits, `_` or `-`,
/// and no USI move (`7g7f`, `P*5e` start with a digit or a capital and a `*`).
fn is_ending_word(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_lowercase())
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        && kifu_shogi::usi::parse_move(word).is_err()
}

/// Writes the main line of each record as `position … moves …`, one per line. Times,
/// comments, variations and endings other than the few USI words are listed as dropped.
pub fn write(records: &[ShogiRecord]) -> Written {
    write_from(records, 0, records.len() > 1)
}

/// `records` as the lines of a USI file after its first `before`; `several` when the file
/// holds more than one record (its warnings then name the record).
fn write_from(records: &[ShogiRecord], before: usize, several: bool) -> Written {
    let mut out = Written::default();
    for (i, record) in (before..).zip(records) {
        let tree = &record.moves;
        let sfen = record.start.position.to_sfen();
        if record.start.handicap == Some(Handicap::Even) {
            out.text.push_str("position startpos");
        } else {
            out.text.push_str("position sfen ");
            out.text.push_str(&sfen);
        }
        let mut dropped = Vec::new();
        let mut first = true;
        let mut node = tree.root();
        let mut variations = 0;
        let mut annotated = !tree[node].comments().is_empty();
        let mut timed = false;
        while let Some(next) = tree.main_child(node) {
            variations += tree.variations(node).count();
            node = next;
            let n = &tree[node];
            annotated |= !n.comments().is_empty() || !n.bookmarks().is_empty();
            timed |= n.time_ms().is_some();
            match &n.item {
                NodeItem::Move(mv) => {
                    out.text.push_str(if first { " moves " } else { " " });
                    first = false;
                    out.text.push_str(&mv.to_string());
                }
                NodeItem::End(kind) => match kind {
                    EndingKind::Resign => {
                        out.text
                            .push_str(if first { " moves resign" } else { " resign" });
                    }
                    other => dropped.push(format!("the ending ({other})")),
                },
                NodeItem::Start => {}
            }
        }
        out.text.push('\n');
        if variations > 0 {
            dropped.push(format!("{variations} variation(s)"));
        }
        if timed {
            dropped.push("times".to_owned());
        }
        if annotated {
            dropped.push("comments and bookmarks".to_owned());
        }
        // A 手合割 naming the start the SFEN gives says nothing the USI line does not.
        let says_more = |e: &kifu_record::HeaderEntry| {
            e.field != Some(kifu_record::HeaderField::Handicap)
                || record.start.handicap.is_none()
                || Handicap::from_kif_name(e.value.trim_matches(['\u{3000}', ' ']))
                    != record.start.handicap
        };
        if record.header.entries().iter().any(says_more) {
            dropped.push("the header".to_owned());
        }
        if !dropped.is_empty() {
            let which = if several {
                format!("record {}: ", i + 1)
            } else {
                String::new()
            };
            out.warnings.push(format!(
                "{which}USI cannot hold {}; dropped",
                dropped.join(", ")
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_shogi::{Move, Square};

    #[test]
    fn forms_of_a_game_line() {
        let text =
            "position startpos moves 7g7f 3c3d\n7g7f 3c3d\nstartpos moves 7g7f 3c3d\n\n# comment\n";
        let parsed = read(text);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        assert_eq!(parsed.records.len(), 3);
        for r in &parsed.records {
            let moves: Vec<_> = r
                .moves
                .main_line()
                .filter_map(|id| r.moves[id].mv().copied())
                .collect();
            assert_eq!(
                moves[0],
                Move::normal(
                    Square::new(7, 7).unwrap(),
                    Square::new(7, 6).unwrap(),
                    false
                )
            );
            assert_eq!(moves.len(), 2);
        }
    }

    #[test]
    fn a_bare_sfen_line_is_a_record_without_moves() {
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
        for text in [
            format!("{sfen}\n"),
            format!("sfen {sfen}\n"),
            format!("position sfen {sfen}\n"),
        ] {
            let parsed = read(&text);
            assert!(
                parsed.diagnostics.is_empty(),
                "{text}: {:?}",
                parsed.diagnostics
            );
            let record = &parsed.records[0];
            assert_eq!(record.start.position.to_sfen(), sfen);
            assert_eq!(record.moves.main_line().count(), 0);
        }
        let parsed = read(&format!("{sfen} moves 3c3d\n"));
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        assert_eq!(parsed.records[0].moves.main_line().count(), 1);
    }

    #[test]
    fn an_unknown_word_ending_the_list_is_a_kept_ending() {
        let parsed = read("position startpos moves 7g7f 3c3d rep_draw\n");
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        assert_eq!(parsed.diagnostics.len(), 1);
        assert!(parsed.diagnostics[0].message.contains("rep_draw"));
        let tree = &parsed.records[0].moves;
        let last = tree.main_line().last().unwrap();
        assert!(matches!(
            &tree[last].item,
            NodeItem::End(EndingKind::Unknown(w)) if w == "rep_draw"
        ));
        // Inside the list, the same word is no move.
        assert!(read("position startpos moves 7g7f rep_draw 3c3d\n").has_errors());
    }

    #[test]
    fn sfen_start_and_errors_with_spans() {
        let text = "position sfen 4k4/9/9/9/9/9/4P4/9/4K4 b P 1 moves P*5c 5g5f\nsfen x b - 1\n";
        let parsed = read(text);
        let msgs: Vec<_> = parsed
            .diagnostics
            .iter()
            .map(|d| (&text[d.span.range()], d.message.as_str()))
            .collect();
        assert!(
            msgs[0].0 == "P*5c" && msgs[0].1.contains("二歩"),
            "{msgs:?}"
        );
        assert!(msgs.iter().any(|m| m.1.contains("bad SFEN")), "{msgs:?}");
        assert_eq!(parsed.records.len(), 2);
    }
}
