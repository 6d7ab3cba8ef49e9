//! Cetkaik (机戦) records: CKKA files in all four notations of the CKKA draft (⓪ full kanji,
//! ① abbreviated, ② phonetic, ③ cerke_noter machine strings, also as the noter app's JSON)
//! and kifu's JSON form — read with spans and diagnostics, replayed against the rules of
//! `kifu-cetkaik`, written back in any notation.
//!
//! [`RecordFormat::records`](kifu_record::RecordFormat::records) reads a match season by
//! season ([`stream`]): each season's record is handed out as soon as the season is read and
//! replayed, so memory follows one season, not the file. [`parse`], [`check`] and [`replay`](fn@replay)
//! take a file whole, for callers that want the match as one [`GameRecord`].
//!
//! ```
//! use kifu_cetkaik::Cetkaik;
//! use kifu_record::{Game, RecordFormat};
//! use kifu_records::cetkaik::FORMATS;
//!
//! // A match file is read as its seasons, one `Record<Cetkaik>` each, replayed with the rules.
//! let text = "{一位色:黒}\n[JV]二十 [SY]二十\nMAU弓MAIMY橋一\tME弓MIMU橋五\n";
//! let seasons: Vec<_> = FORMATS[0].records(text).collect();
//! assert!(seasons.iter().all(|s| s.diagnostics.is_empty()));
//! let season = &seasons[0].record;
//! let (_, start) = season.positions().next().unwrap();
//! let first = season.moves.main_line().next().unwrap();
//! let event = season.moves[first].mv().unwrap();
//! assert_eq!(Cetkaik::move_text(&start, event), "MAU弓MAIMY橋一");
//!
//! // Written back in notation ① (FORMATS[1]): seasons are grouped into one match again.
//! let written = FORMATS[1].write(&[season.clone()]);
//! assert_eq!(written.text, "{一位色:黒}\n[JV]二十 [SY]二十\nMAU弓MAIMY一    ME弓MIMU五\n");
//! assert!(written.warnings.is_empty());
//! ```

pub mod body;
pub mod format;
pub mod game_record;
pub mod header;
pub mod json;
pub mod noter;
pub mod phonetic_lines;
pub mod progress;
pub mod record;
pub mod replay;
pub mod seasons;
pub mod stream;
pub mod write;

pub use format::{Ckka, FORMATS, KifuJson, NoterApp};
pub use game_record::GameRecord;
pub use record::{CkkaRecord, Element, ElementKind, Notation};
pub use replay::replay;
pub use seasons::{match_of, season_records};

use kifu_record::{Diagnostic, DiagnosticKind, Span};

/// Parses CKKA text. Every problem found is reported; what was valid is kept.
/// A cerke_noter app file (a JSON object with a `note` array) is read as notation ③, kifu's
/// JSON form (an object with `seasons`) as [`json::parse_json`] reads it.
pub fn parse(text: &str) -> (CkkaRecord, Vec<Diagnostic>) {
    // A CKKA header may open with `{"` too: only JSON that is not a noter file is read as
    // kifu's JSON, and so is text that opens like JSON and names `seasons` but does not
    // parse (a damaged kifu JSON file, whose errors the JSON reader reports best).
    if !noter::looks_like_noter(text) {
        return parse_text(text);
    }
    match noter::json_kind(text) {
        Some(noter::JsonKind::Noter) => parse_text(text),
        Some(noter::JsonKind::Kifu | noter::JsonKind::Other) => json::parse_json(text),
        None if text.contains("\"seasons\"") => json::parse_json(text),
        None => parse_text(text),
    }
}

/// A text with no header, no names and no move holds no record (a lone `終季` or `星一周` is
/// not a game): an error, unless the text already had one.
pub(crate) fn with_record_check(
    text: &str,
    (record, mut diags): (CkkaRecord, Vec<Diagnostic>),
) -> (CkkaRecord, Vec<Diagnostic>) {
    let has_move = record
        .body
        .iter()
        .any(|e| matches!(e.kind, ElementKind::Move { .. }));
    if record.items.is_empty()
        && record.names.is_none()
        && !has_move
        && !diags.iter().any(Diagnostic::is_error)
    {
        diags.push(Diagnostic::error(
            DiagnosticKind::NoRecord,
            Span::new(0, text.len()),
            if text.trim().is_empty() {
                "no cetkaik record: the text is empty"
            } else {
                "no cetkaik record: no header, names or moves"
            },
        ));
    }
    (record, diags)
}

/// Parses a CKKA file (or a cerke_noter app file), never kifu's JSON form.
pub fn parse_text(text: &str) -> (CkkaRecord, Vec<Diagnostic>) {
    with_record_check(text, read_text(text))
}

fn read_text(text: &str) -> (CkkaRecord, Vec<Diagnostic>) {
    if noter::looks_like_noter(text)
        && let Some(parsed) = noter::parse_noter(text)
    {
        return parsed;
    }
    let mut diags = Vec::new();
    let (items, names, body_start) = header::parse_header(text, &mut diags);
    let (body, notation) = body::parse_body(text, body_start, &mut diags);
    (
        CkkaRecord {
            items,
            names,
            body,
            notation,
            rules: None,
        },
        diags,
    )
}

/// Reads and validates a record in one go: the parse diagnostics, then the replay's.
/// `default_rules` applies when the record has no `{律:…}` header.
pub fn check(
    text: &str,
    default_rules: kifu_cetkaik::rules::Rules,
) -> (GameRecord, Vec<Diagnostic>) {
    let (record, mut diags) = parse(text);
    let (game, more) = replay(&record, default_rules);
    diags.extend(more);
    (game, diags)
}

/// Like [`check`], but when the record names no rule (`{律:…}`) and does not validate under
/// `default_rules`, the other presets are tried: the first under which it validates is used,
/// with a warning that says so. Records of the 2018 硬皇力 era carry no header. The whole
/// match decides here; `records()`, which hands out a season before reading the next,
/// decides by the first season ([`stream`]).
pub fn check_detecting_rules(
    text: &str,
    default_rules: kifu_cetkaik::rules::Rules,
) -> (GameRecord, Vec<Diagnostic>) {
    let (record, parse_diags) = parse(text);
    replay_detecting_rules(&record, parse_diags, default_rules)
}

/// The replay half of [`check_detecting_rules`], for a record parsed by the caller;
/// `parse_diags` come first in the result.
pub fn replay_detecting_rules(
    record: &CkkaRecord,
    parse_diags: Vec<Diagnostic>,
    default_rules: kifu_cetkaik::rules::Rules,
) -> (GameRecord, Vec<Diagnostic>) {
    use kifu_cetkaik::rules::Rules;
    let (game, diags) = replay(record, default_rules);
    let failed = diags.iter().any(Diagnostic::is_error);
    if failed && record.info("律").is_none() && record.rules.is_none() {
        for rules in [Rules::standard(), Rules::cerke_online(), Rules::hard_tam()] {
            if rules == default_rules {
                continue;
            }
            let (other, other_diags) = replay(record, rules);
            if !other_diags.iter().any(Diagnostic::is_error) {
                let mut all = parse_diags;
                all.push(Diagnostic::warning(DiagnosticKind::IllegalMove,
                    Span::new(0, 0),
                    format!(
                        "not valid under {} but valid under {}; checked with {} (add {{律:{}}} to say so)",
                        default_rules.name, rules.name, rules.name, rules.name
                    ),
                ));
                all.extend(other_diags);
                return (other, all);
            }
        }
    }
    let mut all = parse_diags;
    all.extend(diags);
    (game, all)
}

/// Whether text looks like a CKKA record (for format detection): it has moves, and fewer
/// errors than moves.
///
/// A text is judged by its first [`SNIFFED_LINES`](crate::sniffing::SNIFFED_LINES)
/// non-blank lines, as every sniffer judges, except a JSON document (the noter app's), which
/// is judged whole:
/// a text that is no record at all (every CSA or KIF file read from a pipe asks this) costs
/// a few lines of parsing, not the whole file.
pub fn sniff(text: &str) -> bool {
    let judged = if noter::looks_like_noter(text) {
        text
    } else {
        crate::sniffing::sniffed_prefix(text)
    };
    let (record, diags) = parse(judged);
    let moves = record
        .body
        .iter()
        .filter(|e| matches!(e.kind, ElementKind::Move { .. }))
        .count();
    moves > 0 && diags.iter().filter(|d| d.is_error()).count() < moves
}

impl Notation {
    /// The names `kifu convert --to` uses: `ckka` (⓪), `ckka1`, `ckka2`, `ckka3`.
    pub fn from_format_name(name: &str) -> Option<Notation> {
        match name {
            "ckka" | "ckka0" => Some(Notation::Full),
            "ckka1" => Some(Notation::Abbreviated),
            "ckka2" => Some(Notation::Phonetic),
            "ckka3" => Some(Notation::Mrf),
            _ => None,
        }
    }
}

/// A name that is no CKKA notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a CKKA notation (one of: ckka, ckka1, ckka2, ckka3)")]
pub struct UnknownNotation(pub String);

impl std::str::FromStr for Notation {
    type Err = UnknownNotation;

    fn from_str(s: &str) -> Result<Notation, UnknownNotation> {
        Notation::from_format_name(s).ok_or_else(|| UnknownNotation(s.to_owned()))
    }
}

impl std::fmt::Display for Notation {
    /// The format name: `ckka` (⓪), `ckka1`, `ckka2`, `ckka3`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Notation::Full => "ckka",
            Notation::Abbreviated => "ckka1",
            Notation::Phonetic => "ckka2",
            Notation::Mrf => "ckka3",
        })
    }
}

/// Parses raw bytes: CKKA is UTF-8 without a byte-order mark.
pub fn parse_bytes(bytes: &[u8]) -> Result<(CkkaRecord, Vec<Diagnostic>), Diagnostic> {
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(Diagnostic::error(
            DiagnosticKind::Syntax,
            Span::new(0, 3),
            "CKKA files must not start with a byte-order mark",
        ));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(parse(text)),
        Err(e) => {
            let at = e.valid_up_to();
            Err(Diagnostic::error(
                DiagnosticKind::Encoding,
                Span::new(at, at + 1),
                format!("CKKA files must be UTF-8: invalid byte at offset {at}"),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sniffing::SNIFFED_LINES;

    #[test]
    fn sniffing_reads_the_first_lines_of_a_long_text() {
        let moves = "MAU弓MAIMY橋一\tME弓MIMU橋五\n".repeat(SNIFFED_LINES);
        // What follows the lines sniffed does not change the verdict either way.
        assert!(sniff(&format!("{moves}{}", "not a move\n".repeat(500))));
        let csa = format!("V2.2\nPI\n+\n{}", "+7776FU\nT1\n-3334FU\nT2\n".repeat(100));
        assert!(!sniff(&csa));
        assert!(!sniff(&format!("{csa}{moves}")));
    }
}
