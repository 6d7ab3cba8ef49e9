//! Chu shogi record formats: the CSL notation (Western and Japanese), lishogi's chu KIF, USI
//! move lists and JSON/NDJSON, each a [`RecordFormat<Chu>`] in one table, [`FORMATS`].
//!
//! Every reader replays the moves with the rules of `kifu-chu` ([`GameState`](kifu_chu::GameState), lishogi rules
//! unless the record names JCSA's) and returns diagnostics with byte spans (render them with
//! [`kifu_record::SourceText`]); after the first illegal move the rest of a line is not
//! replayed. Result words (`resign`, `1-0`, `投了` …) become ending nodes, well-known header
//! keys [`HeaderField`]s, comments [`Comment`]s on the node they follow.
//!
//! ```
//! use kifu_records::chu::{self, csl};
//! use kifu_record::EndingKind;
//!
//! let read = chu::detect("1. Ln-7h 2. Ln-6e\nresign\n").records("1. Ln-7h 2. Ln-6e\nresign\n").next().unwrap();
//! assert!(read.diagnostics.is_empty());
//! assert_eq!(read.record.ending().unwrap().kind, EndingKind::Resign);
//! let usi = chu::by_name("usi").unwrap().write(&[read.record]);
//! assert_eq!(usi.text, "position startpos moves 7j7h 6c6e\n");
//! assert_eq!(usi.warnings, ["USI has no result: resignation dropped"]);
//! # let _ = csl::CSL;
//! ```
//!
//! What each format holds (a writer lists what it had to drop):
//!
//! | | header | custom start | rule set | variations | times | comments | endings |
//! |---|---|---|---|---|---|---|---|
//! | CSL | `[Key "value"]` | `[SFEN …]` | `[Rules …]` | no | no | `{…}`, `;` | result words |
//! | KIF | `key：value` | board diagram | `Rules：` | `変化：` | `(mm:ss/hh:mm:ss)` | `*` | closing words |
//! | USI | no | SFEN | no | no | no | no | no |
//! | JSON | `headers` | `sfen` | `rules` | `variations` | `time_ms`, `total_ms` | `comments` | `result`/`status`, `winner` |

pub mod csl;
mod endings;
pub mod json;
pub mod kif;
mod kif_board;
mod replay;
pub mod usi;

use kifu_chu::{Chu, Move};
use kifu_record::{
    Comment, CommentKind, Diagnostic, DiagnosticKind, HeaderEntry, HeaderField, NodeId, Record,
    RecordFormat, Span,
};

pub use endings::{ending_from_word, lishogi_ending};

/// A chu shogi game record.
pub type ChuRecord = Record<Chu>;

/// Every chu record format, the ones users name first.
pub static FORMATS: &[&dyn RecordFormat<Chu>] = &[
    &csl::CSL,
    &csl::CSL_JAPANESE,
    &kif::KIF,
    &usi::USI,
    &json::JSON,
];

/// The format a user names (`csl`, `csl-ja`, `kif`, `usi`, `json`, and the aliases `csl-jp`,
/// `ja`, `kifu`, `sfen`, `ndjson`), in any case.
pub fn by_name(name: &str) -> Option<&'static dyn RecordFormat<Chu>> {
    let name = name.to_ascii_lowercase();
    let canonical = match name.as_str() {
        "csl-jp" | "ja" => "csl-ja",
        "kifu" => "kif",
        "sfen" => "usi",
        "ndjson" => "json",
        other => other,
    };
    FORMATS.iter().copied().find(|f| f.name() == canonical)
}

/// The format a file name's extension stands for (`csl`, `txt`, `kif`, `kifu`, `usi`, `sfen`,
/// `json`, `ndjson`, `jsonl`); `None` for other files (a directory walk should skip them).
pub fn by_extension(ext: &str) -> Option<&'static dyn RecordFormat<Chu>> {
    let ext = ext.to_ascii_lowercase();
    [
        &csl::CSL as &dyn RecordFormat<Chu>,
        &kif::KIF,
        &usi::USI,
        &json::JSON,
    ]
    .into_iter()
    .find(|f| f.name() == ext || f.extensions().contains(&ext.as_str()))
}

/// Guesses the format of a text: JSON by its first character, USI by `position`/`startpos` or
/// a first word that is a USI move, KIF by its `手数----指手` line or `key：value` headers, CSL
/// otherwise.
pub fn detect(text: &str) -> &'static dyn RecordFormat<Chu> {
    [&json::JSON as &dyn RecordFormat<Chu>, &usi::USI, &kif::KIF]
        .into_iter()
        .find(|f| f.sniff(text))
        .unwrap_or(&csl::CSL)
}

/// Whether a text is a chu record by its content, whatever its file is called (lishogi's exports
/// and kifu's own share `.kif`, `.json` and `.usi` with shogi): the chu start position or name, a
/// 12×12 board diagram, chu JSON (`"rules": "lishogi"` or `"jcsa"`), a CSL record that replays
/// from the chu start, or USI moves that leave the 9×9 board.
///
/// ```
/// assert!(kifu_records::chu::claims_text("手合割：中将棋\n"));
/// assert!(kifu_records::chu::claims_text("startpos 7i7h 10c10d"));
/// assert!(!kifu_records::chu::claims_text("startpos 7g7f 3c3d"));
/// ```
pub fn claims_text(text: &str) -> bool {
    let names_chu = |t: &str| CHU_NAMES.iter().any(|name| t.contains(name));
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('{') || t.starts_with('[') && t[1..].trim_start().starts_with('{') {
        // A JSON document is judged whole: its keys come in any order, `moves` before `rules`.
        return names_chu(t)
            || t.contains("\"rules\": \"lishogi\"")
            || t.contains("\"rules\": \"jcsa\"")
            || t.contains("\"rules\":\"lishogi\"")
            || t.contains("\"rules\":\"jcsa\"");
    }
    // The start position, the game's name and a board diagram stand in a record's head,
    // before its moves, and within the first lines, which are all any sniffer reads.
    if names_chu_early(t) {
        return true;
    }
    // CSL records (PGN-like headers, numbered moves) replay from the chu start or are not chu.
    if (t.starts_with('[') || t.starts_with("1.")) && detect(t).name() == "csl" {
        let (record, diagnostics) = csl::parse(t);
        return !main_line_moves(&record).is_empty() && !diagnostics.iter().any(|d| d.is_error());
    }
    let first = t.split_whitespace().next().unwrap_or("");
    let usi_list =
        ["position", "startpos", "sfen"].contains(&first) || kifu_chu::parse_usi(first).is_some();
    usi_list
        && t.split_whitespace()
            .take(200)
            .any(|w| kifu_chu::parse_usi(w).is_some() && kifu_shogi::usi::parse_move(w).is_err())
}

/// What names chu in a record's first lines: the game's name, the start position in SFEN, the
/// file numbers of a 12×12 board diagram.
const CHU_NAMES: [&str; 3] = ["中将棋", "lfcsgekgscfl", "１２ １１"];

/// Whether one of [`CHU_NAMES`] stands in the text's head, before its moves
/// ([`crate::sniffing::head_before_moves`]): where a chu record names itself (its
/// `手合割：中将棋`, its board diagram, its SFEN). Every `.kif` file opened asks this (shogi
/// and chu share the extension) and nearly none holds a name, so the search stops where the
/// moves begin: searching the whole text was 41 instructions a ply of `kifu check` over
/// shogi KIF, and a name in a comment among the moves is no claim.
fn names_chu_early(text: &str) -> bool {
    static FINDERS: std::sync::LazyLock<[memchr::memmem::Finder<'static>; 3]> =
        std::sync::LazyLock::new(|| CHU_NAMES.map(memchr::memmem::Finder::new));
    let head = crate::sniffing::head_before_moves(text).as_bytes();
    FINDERS.iter().any(|finder| finder.find(head).is_some())
}

/// The moves of the main line, in order.
pub fn main_line_moves(record: &ChuRecord) -> Vec<Move> {
    record
        .moves
        .main_line()
        .filter_map(|id| record.moves[id].mv().copied())
        .collect()
}

/// The meaning of a header key as chu records write it, in English (CSL, JSON) or Japanese
/// (KIF): `Black`/`先手` is the first player, `Date`/`開始日時` the start time …
pub fn header_field(key: &str) -> Option<HeaderField> {
    Some(match key.to_ascii_lowercase().as_str() {
        "black" | "sente" | "先手" | "下手" => HeaderField::FirstPlayer,
        "white" | "gote" | "後手" | "上手" => HeaderField::SecondPlayer,
        "event" | "棋戦" => HeaderField::Event,
        "site" | "場所" => HeaderField::Site,
        "date" | "startdate" | "開始日時" | "対局日" => HeaderField::StartTime,
        "enddate" | "終了日時" => HeaderField::EndTime,
        "timecontrol" | "持ち時間" => HeaderField::TimeControl,
        "opening" | "戦型" => HeaderField::Opening,
        "手合割" => HeaderField::Handicap,
        "title" | "表題" => HeaderField::Title,
        "note" | "備考" => HeaderField::Note,
        "rules" => HeaderField::Rules,
        _ => return None,
    })
}

/// Adds a header line as read, with its meaning when the key is well known.
pub(crate) fn push_header(record: &mut ChuRecord, key: &str, value: String, span: Span) {
    record.header.push(HeaderEntry {
        key: key.to_string(),
        value,
        field: header_field(key),
        span,
    });
}

/// A header value by its key as written, in any case.
pub(crate) fn header_value<'r>(record: &'r ChuRecord, key: &str) -> Option<&'r str> {
    record
        .header
        .entries()
        .iter()
        .find(|e| e.key.eq_ignore_ascii_case(key))
        .map(|e| e.value.as_str())
}

/// Adds a comment as read to `node`.
pub(crate) fn add_comment(record: &mut ChuRecord, node: NodeId, text: String, span: Span) {
    record.moves[node]
        .comments_mut()
        .push(Comment::new(CommentKind::Text, text, span));
}

/// The comments of a node as text.
pub(crate) fn comment_texts(record: &ChuRecord, node: NodeId) -> impl Iterator<Item = &str> {
    record.moves[node]
        .comments()
        .iter()
        .map(|c| c.text.as_str())
}

/// The error for a text in which a reader found nothing of a record.
pub(crate) fn no_record(text: &str, format: &str) -> Diagnostic {
    let reason = if text.trim().is_empty() {
        "the text is empty".to_string()
    } else {
        format!("nothing in it reads as a chu {format} record")
    };
    Diagnostic::error(
        DiagnosticKind::NoRecord,
        Span::new(0, text.len()),
        format!("no chu record: {reason}"),
    )
}

/// A span shifted by `base` bytes.
pub(crate) fn span(base: usize, start: usize, end: usize) -> Span {
    Span::new(base + start, base + end)
}

/// The warnings of a one-line format (CSL, USI) for what it cannot hold: variations, times and
/// endings off the main line.
pub(crate) fn line_only_losses(record: &ChuRecord, format: &str) -> Vec<String> {
    let tree = &record.moves;
    let mut out = Vec::new();
    let variations = tree
        .ids()
        .filter(|&id| {
            tree.parent(id)
                .is_some_and(|p| tree.main_child(p) != Some(id))
        })
        .count();
    if variations > 0 {
        out.push(format!(
            "{format} holds the main line only: {variations} variation(s) dropped"
        ));
    }
    let timed = tree
        .ids()
        .filter(|&id| tree[id].time_ms().is_some() || tree[id].total_ms().is_some())
        .count();
    if timed > 0 {
        out.push(format!(
            "{format} has no times: the times of {timed} move(s) dropped"
        ));
    }
    out
}

/// Writes every record with a one-record writer: a format that holds one game per file keeps
/// the first and lists the others as dropped; `losses` lists what it cannot hold of each.
pub(crate) fn write_records(
    records: &[ChuRecord],
    format: &str,
    holds_many: bool,
    write_one: impl Fn(&ChuRecord) -> String,
    losses: impl Fn(&ChuRecord) -> Vec<String>,
) -> kifu_record::Written {
    let take = if holds_many {
        records.len()
    } else {
        records.len().min(1)
    };
    let mut written = kifu_record::Written::default();
    if records.len() > take {
        written.warnings.push(format!(
            "{format} holds one game per file; {} more dropped",
            records.len() - take
        ));
    }
    written.append(write_games(
        &records[..take],
        0,
        take > 1,
        write_one,
        losses,
    ));
    written
}

/// `records` as the part of a file after its first `before` games, each written by
/// `write_one`; `several` when the file holds more than one game (its warnings then name the
/// game).
pub(crate) fn write_games(
    records: &[ChuRecord],
    before: usize,
    several: bool,
    write_one: impl Fn(&ChuRecord) -> String,
    losses: impl Fn(&ChuRecord) -> Vec<String>,
) -> kifu_record::Written {
    let mut written = kifu_record::Written::default();
    for (i, record) in (before..).zip(records) {
        for loss in losses(record) {
            written.warnings.push(if several {
                format!("game {}: {loss}", i + 1)
            } else {
                loss
            });
        }
        written.text.push_str(&write_one(record));
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sniffing::{SNIFFED_LINES, begins_moves, first_lines};

    /// What [`names_chu_early`] stands in for: each name searched in the sniffed lines, one
    /// by one, up to the first that begins the moves.
    fn names_chu_in_head_lines(text: &str) -> bool {
        first_lines(text)
            .take_while(|line| !begins_moves(line))
            .any(|line| CHU_NAMES.iter().any(|name| line.contains(name)))
    }

    #[test]
    fn the_early_search_answers_as_the_head_lines_do_for_every_corpus_file() {
        let texts = crate::corpus_texts::every_corpus_text();
        assert!(texts.len() > 1_000, "{} corpus files", texts.len());
        let mut named = 0;
        for (path, text) in &texts {
            let early = names_chu_early(text);
            assert_eq!(early, names_chu_in_head_lines(text), "{}", path.display());
            named += usize::from(early);
        }
        assert!(named > 0, "no corpus file names chu in its first lines");
    }

    /// A name before, across and after the end of the sniffed prefix, after the first move
    /// line, and in texts of fewer lines than a prefix holds.
    #[test]
    fn a_name_counts_only_when_it_ends_inside_the_head() {
        let lines = "x\n".repeat(SNIFFED_LINES - 1);
        for name in CHU_NAMES {
            let inside = format!("{lines}{name}\nafter\n");
            let after = format!("{lines}y\n{name}\n");
            let (head, tail) = name.split_at(name.char_indices().nth(1).unwrap().0);
            let across = format!("{lines}{head}\n{tail}{name}\n");
            let short = format!("a\n{name}");
            let among_moves = format!("a\n   1 ７六歩(77)\n*{name}\n");
            let on_a_move_line = format!("▲７六歩 {name}\n");
            for (text, expected) in [
                (inside, true),
                (after, false),
                (across, false),
                (short, true),
                (among_moves, false),
                (on_a_move_line, false),
            ] {
                assert_eq!(names_chu_early(&text), expected, "{text:?}");
                assert_eq!(names_chu_in_head_lines(&text), expected, "{text:?}");
            }
        }
        assert!(!names_chu_early(""));
    }
}
