//! A match read season by season: each season is handed out as a [`RecordRead`] as soon as it
//! is read and replayed, so that memory follows one season, not the file.
//!
//! The body of a CKKA text is parsed as the replay needs it: a move is replayed once the
//! element after it is read (a comment `{…}` after a move is the move's), and the first move
//! of a season reads on to the first piece that moves (a season opened by 皇 moves is the
//! first mover's by that piece). A season is handed out when the first move of the next one
//! is read, or at the end of the text, with the diagnostics whose place falls in it: from the
//! end of the season before (the element whose 終季 ended it) to the end of its own, the
//! last season taking everything after. A JSON document (kifu's JSON form, a cerke_noter app
//! file) is parsed whole, as a JSON parser needs it, and replayed season by season the same
//! way.
//!
//! A match that names no rule set (`{律:…}`) is replayed under the default one; when its first
//! season has errors under it, the first season is replayed under the other presets in turn,
//! and the first under which it has none is the match's, with a warning that says so. The
//! seasons after the first are held to that rule set, as they are read after the first
//! season is handed out (the whole-file [`super::check_detecting_rules`] lets the whole match
//! decide). When a later season then breaks that rule set, the whole match is read again
//! under the other presets (one season held at a time, as ever), and if one of them takes it
//! all, a warning on that season names it and how to ask for it. Who moves first in the first
//! season is read from its first moves when `{一位色}` does not say, as for every season after.

use std::collections::VecDeque;
use std::sync::Arc;

use kifu_cetkaik::{Cetkaik, Rules, Side};
use kifu_record::{Diagnostic, DiagnosticKind, RecordRead, Records, Span};

use super::body::BodyParser;
use super::game_record::SeasonRecord;
use super::record::{CkkaRecord, Element, ElementKind, Notation};
use super::replay::{FirstMoverSearch, Replay};
use super::seasons::{SeasonRecords, header_of};
use super::{header, json, noter, with_record_check};

/// The seasons of `text` as records, read one at a time: kifu's JSON form when `json`, else
/// CKKA text in any notation or a cerke_noter app file. `default_rules` is the rule set of a
/// match that names none, unless its first season is valid only under another preset (see
/// the module documentation).
///
/// ```
/// use kifu_cetkaik::Rules;
/// use kifu_records::cetkaik::stream::seasons;
///
/// let text = "MAU弓MAIMY橋一    ME弓MIMU橋五\n終季\n";
/// let mut reads = seasons(text, false, Rules::standard());
/// // The first season comes out with what is wrong in it (no hand was made, so 終季 is
/// // an error), before anything after it is read.
/// let first = reads.next().unwrap();
/// assert_eq!(first.record.moves.main_line().count(), 2);
/// assert!(first.has_errors());
/// assert!(reads.next().is_none());
/// ```
pub fn seasons<'t>(text: &'t str, json: bool, default_rules: Rules) -> Records<'t, Cetkaik> {
    let opening = Opening::new(text, json);
    if opening.head.info("律").is_some() || opening.head.rules.is_some() {
        return Box::new(SeasonReader::new(opening, default_rules));
    }
    let mut reader = SeasonReader::new(opening.clone(), default_rules);
    if !reader.first_season_fails() {
        reader.unnamed_rules = Some(opening);
        return Box::new(reader);
    }
    // Another preset is tried from the start; one reader at a time holds a season.
    drop(reader);
    for rules in PRESETS {
        if rules == default_rules {
            continue;
        }
        let mut trial = SeasonReader::new(opening.clone(), rules);
        if !trial.first_season_fails() {
            trial.unnamed_rules = Some(opening);
            trial.rule_note = Some(Diagnostic::warning(
                DiagnosticKind::IllegalMove,
                Span::new(0, 0),
                format!(
                    "not valid under {} but valid under {}; checked with {} (add {{律:{}}} to say so)",
                    default_rules.name, rules.name, rules.name, rules.name
                ),
            ));
            return Box::new(trial);
        }
    }
    Box::new(SeasonReader::new(opening, default_rules))
}

/// The rule sets a match that names none is tried under.
const PRESETS: [Rules; 3] = [Rules::standard(), Rules::cerke_online(), Rules::hard_tam()];

/// A rule set other than `current` under which every season of the match is valid, if any:
/// the match read again from `opening`, season by season, under each preset in turn.
fn preset_for_whole_match(opening: &Opening<'_>, current: Rules) -> Option<Rules> {
    PRESETS
        .into_iter()
        .filter(|&rules| rules != current)
        .find(|&rules| {
            let mut trial = SeasonReader::new(opening.clone(), rules);
            trial.all(|season| !season.has_errors())
        })
}

/// Where a match is read from: its header and its body, not read yet.
#[derive(Clone)]
struct Opening<'t> {
    text: &'t str,
    /// The header items, names line and rule set; no body.
    head: CkkaRecord,
    /// What reading the header found (a parsed document: everything reading it found).
    diags: Vec<Diagnostic>,
    body: Source<'t>,
    /// A text with no header, names or move holds no record (checked at its end; a parsed
    /// document was checked whole as it was parsed).
    check_record: bool,
}

impl<'t> Opening<'t> {
    fn new(text: &'t str, json: bool) -> Opening<'t> {
        let parsed = if json {
            Some(json::parse_json(text))
        } else if noter::looks_like_noter(text) {
            noter::parse_noter(text).map(|parsed| with_record_check(text, parsed))
        } else {
            None
        };
        if let Some((record, diags)) = parsed {
            return Opening {
                text,
                head: CkkaRecord {
                    items: record.items.clone(),
                    names: record.names.clone(),
                    body: Vec::new(),
                    notation: record.notation,
                    rules: record.rules,
                },
                diags,
                body: Source::Parsed {
                    record: Arc::new(record),
                    next: 0,
                },
                check_record: false,
            };
        }
        let mut diags = Vec::new();
        let (items, names, body_start) = header::parse_header(text, &mut diags);
        Opening {
            text,
            head: CkkaRecord {
                items,
                names,
                ..CkkaRecord::default()
            },
            diags,
            body: Source::Text(BodyParser::new(text, body_start)),
            check_record: true,
        }
    }
}

/// The elements of a body, one at a time.
#[derive(Clone)]
enum Source<'t> {
    /// CKKA text, parsed as it is needed.
    Text(BodyParser<'t>),
    /// A document parsed whole.
    Parsed {
        record: Arc<CkkaRecord>,
        /// The next element to hand out.
        next: usize,
    },
}

/// The elements read and not replayed yet, with what reading them found.
struct Ahead<'t> {
    source: Source<'t>,
    elements: VecDeque<Element>,
    /// The notation of the text up to each element of `elements`.
    notations: VecDeque<Option<Notation>>,
    /// What reading found, not handed out yet.
    diags: Vec<Diagnostic>,
}

impl Ahead<'_> {
    /// Reads on: false at the end of the body.
    fn read(&mut self) -> bool {
        match &mut self.source {
            Source::Text(parser) => {
                if !parser.step(&mut self.elements, &mut self.diags) {
                    return false;
                }
                while self.notations.len() < self.elements.len() {
                    self.notations.push_back(parser.notation);
                }
                true
            }
            Source::Parsed { record, next } => match record.body.get(*next) {
                Some(e) => {
                    self.elements.push_back(e.clone());
                    self.notations.push_back(record.notation);
                    *next += 1;
                    true
                }
                None => false,
            },
        }
    }

    /// The next element to replay with the notation of the text up to it, `None` at the end
    /// of the body. A move is handed out only once no comment can follow it any more: an
    /// element other than a capture comment is read after it.
    fn next(&mut self) -> Option<(Element, Option<Notation>)> {
        while self.elements.is_empty() {
            if !self.read() {
                return None;
            }
        }
        if matches!(self.elements[0].kind, ElementKind::Move { .. }) {
            while !self
                .elements
                .iter()
                .skip(1)
                .any(|e| !matches!(e.kind, ElementKind::Capture { .. }))
                && self.read()
            {}
        }
        Some((self.elements.pop_front()?, self.notations.pop_front()?))
    }

    /// Who moves first in a season that starts with `first`, from it and the elements after
    /// it (read as far as it takes).
    fn first_mover(&mut self, first: &Element) -> Option<Side> {
        let mut search = FirstMoverSearch::default();
        match search.step(first) {
            Some(found) => found,
            None => self.first_mover_from(search, 0),
        }
    }

    /// Goes on with `search` from the `i`-th element not replayed yet.
    fn first_mover_from(&mut self, mut search: FirstMoverSearch, mut i: usize) -> Option<Side> {
        loop {
            while self.elements.len() <= i {
                if !self.read() {
                    return None;
                }
            }
            if let Some(found) = search.step(&self.elements[i]) {
                return found;
            }
            i += 1;
        }
    }
}

/// A match's seasons, read, replayed and handed out one at a time.
struct SeasonReader<'t> {
    text: &'t str,
    ahead: Ahead<'t>,
    replay: Replay,
    seasons: SeasonRecords,
    /// Why the match is checked under another rule set than the default (first season only).
    rule_note: Option<Diagnostic>,
    /// The start of a match that names no rule set, kept to try the whole match under the
    /// other presets when a season after the first breaks the rule set the first chose (at
    /// most once).
    unnamed_rules: Option<Opening<'t>>,
    check_record: bool,
    /// The span of the last element replayed.
    last_span: Option<Span>,
    saw_move: bool,
    handed_out: bool,
    done: bool,
}

impl<'t> SeasonReader<'t> {
    fn new(opening: Opening<'t>, default_rules: Rules) -> SeasonReader<'t> {
        let mut ahead = Ahead {
            source: opening.body,
            elements: VecDeque::new(),
            notations: VecDeque::new(),
            diags: opening.diags,
        };
        let replay = Replay::new(opening.head, default_rules, || {
            ahead.first_mover_from(FirstMoverSearch::default(), 0)
        });
        let seasons = SeasonRecords::new(
            header_of(&replay.head().items, replay.head().names.as_ref()),
            replay.rules(),
            replay.initial_scores(),
        );
        SeasonReader {
            text: opening.text,
            ahead,
            replay,
            seasons,
            rule_note: None,
            unnamed_rules: None,
            check_record: opening.check_record,
            last_span: None,
            saw_move: false,
            handed_out: false,
            done: false,
        }
    }

    /// Replays the next element: false at the end of the body.
    fn replay_next(&mut self) -> bool {
        let Some((e, notation)) = self.ahead.next() else {
            return false;
        };
        self.saw_move |= matches!(e.kind, ElementKind::Move { .. });
        self.last_span = Some(e.span);
        self.replay.set_notation(notation);
        let ahead = &mut self.ahead;
        self.replay.element(&e, &mut || ahead.first_mover(&e));
        true
    }

    /// Replays the first season (up to the first move of the second, or the end): whether
    /// the replay found errors in it.
    fn first_season_fails(&mut self) -> bool {
        while !self.replay.has_finished() && self.replay_next() {}
        self.replay.diags.iter().any(Diagnostic::is_error)
    }

    /// `season` as a record with the diagnostics placed before `ended_at` (all that are left
    /// for the last season): what reading found, then what the replay found.
    fn hand_out(
        &mut self,
        season: Option<&SeasonRecord>,
        match_over: Option<[i32; 2]>,
        ended_at: Option<u32>,
    ) -> RecordRead<Cetkaik> {
        let record = match season {
            Some(season) => self.seasons.record(season, match_over),
            None => self.seasons.empty(),
        };
        let mut diagnostics = take_before(&mut self.ahead.diags, ended_at);
        diagnostics.extend(self.rule_note.take());
        diagnostics.extend(take_before(&mut self.replay.diags, ended_at));
        if self.handed_out {
            diagnostics.extend(self.other_preset_note(&diagnostics));
        }
        self.handed_out = true;
        RecordRead {
            record,
            diagnostics,
        }
    }

    /// For a season after the first that breaks the rules of a match naming none: a warning
    /// naming another preset the whole match is valid under, if there is one (asked once).
    fn other_preset_note(&mut self, diagnostics: &[Diagnostic]) -> Option<Diagnostic> {
        // Any error: a preset changes what is legal and what a hand scores, and one under
        // which the whole match has no error at all is named, whatever broke here.
        let broken = diagnostics.iter().find(|d| d.is_error())?;
        let opening = self.unnamed_rules.take()?;
        let current = self.replay.rules();
        let other = preset_for_whole_match(&opening, current)?;
        Some(Diagnostic::warning(
            DiagnosticKind::IllegalMove,
            broken.span,
            format!(
                "this season is not valid under {}, which the match follows from its first \
                 season, but the whole match is valid under {} (add {{律:{}}} to read it so)",
                current.name, other.name, other.name
            ),
        ))
    }

    /// At the end of the body: a text with nothing in it is no record, and a hand may still
    /// be owed a declaration.
    fn finish(&mut self) {
        let head = self.replay.head();
        if self.check_record
            && head.items.is_empty()
            && head.names.is_none()
            && !self.saw_move
            && !self.ahead.diags.iter().any(Diagnostic::is_error)
        {
            self.ahead.diags.push(Diagnostic::error(
                DiagnosticKind::NoRecord,
                Span::new(0, self.text.len()),
                if self.text.trim().is_empty() {
                    "no cetkaik record: the text is empty"
                } else {
                    "no cetkaik record: no header, names or moves"
                },
            ));
        }
        self.replay.finish(self.last_span);
    }
}

impl Iterator for SeasonReader<'_> {
    type Item = RecordRead<Cetkaik>;

    fn next(&mut self) -> Option<RecordRead<Cetkaik>> {
        loop {
            if let Some(finished) = self.replay.take_finished() {
                return Some(self.hand_out(Some(&finished.season), None, Some(finished.ended_at)));
            }
            if self.done {
                return None;
            }
            if !self.replay_next() {
                self.done = true;
                self.finish();
                let last = self.replay.take_current();
                if last.is_none() && self.handed_out {
                    return None;
                }
                let match_over = self.replay.game_end_marker().then(|| self.replay.scores());
                return Some(self.hand_out(last.as_ref(), match_over, None));
            }
        }
    }
}

/// The diagnostics of `diags` placed before `end` (all of them without one), in their order;
/// the others stay.
fn take_before(diags: &mut Vec<Diagnostic>, end: Option<u32>) -> Vec<Diagnostic> {
    match end {
        None => std::mem::take(diags),
        Some(end) => {
            let (before, after) = std::mem::take(diags)
                .into_iter()
                .partition(|d| d.span.start < end);
            *diags = after;
            before
        }
    }
}
