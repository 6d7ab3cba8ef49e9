//! Validation by replay: every move against the rules and the recorded sticks, every capture
//! comment, hand line, declaration and score against what the game really did.

use super::game_record::{DeclarationRecord, Event, GameRecord, PlayedMove, SeasonRecord};
use super::progress::SEASON_ENDS;
use super::record::{CkkaRecord, Element, ElementKind, HandLine, MoveNote, Notation, TamNote, Who};
use kifu_cetkaik::match_state::{Declaration, MatchState};
use kifu_cetkaik::notation::resolve::resolve;
use kifu_cetkaik::piece::{Piece, Side};
use kifu_cetkaik::position::Position;
use kifu_cetkaik::rules::Rules;
use kifu_cetkaik::yaku::{Hand, HandSet};
use kifu_record::{Diagnostic, DiagnosticKind, Span};

/// The rules a record asks for (`{律:…}`), else `default`.
pub fn rules_of(record: &CkkaRecord, default: Rules, diags: &mut Vec<Diagnostic>) -> Rules {
    match record.items.iter().find(|i| i.key.as_deref() == Some("律")) {
        Some(item) => Rules::by_name(&item.value).unwrap_or_else(|| {
            diags.push(Diagnostic::warning(
                DiagnosticKind::Unknown,
                item.span,
                format!(
                    "unknown rule `{}`; checking with {}",
                    item.value, default.name
                ),
            ));
            default
        }),
        None => record.rules.unwrap_or(default),
    }
}

/// Who moves first in each season according to `{一位色:黒黒赤}`.
fn first_colors(record: &CkkaRecord) -> Vec<Side> {
    record
        .info("一位色")
        .map(|v| {
            v.chars()
                .filter_map(kifu_cetkaik::profession::Color::from_kanji)
                .map(Side::of_king_color)
                .collect()
        })
        .unwrap_or_default()
}

/// The first mover of a season, from its first moves: the owner of the first moved piece,
/// counting back over 皇 moves.
fn infer_first(elements: &[Element]) -> Option<Side> {
    let mut search = FirstMoverSearch::default();
    elements.iter().find_map(|e| search.step(e)).flatten()
}

/// [`infer_first`] one element at a time, for a reader that has not read the season yet.
#[derive(Default)]
pub(crate) struct FirstMoverSearch {
    tam_moves: usize,
}

impl FirstMoverSearch {
    /// `Some(answer)` once `e` decides (`Some(None)`: nothing tells), `None` while the
    /// elements read so far do not.
    pub(crate) fn step(&mut self, e: &Element) -> Option<Option<Side>> {
        match &e.kind {
            ElementKind::Move {
                note: MoveNote::Tam { .. },
                ..
            } => {
                self.tam_moves += 1;
                None
            }
            ElementKind::Move {
                note: MoveNote::Piece { src, .. },
                ..
            } => {
                let initial = Position::startpos(Side::IASide);
                let side = initial.get(*src).and_then(Piece::side);
                Some(side.map(|side| {
                    if self.tam_moves.is_multiple_of(2) {
                        side
                    } else {
                        side.opponent()
                    }
                }))
            }
            ElementKind::Move { .. } | ElementKind::Declaration(Declaration::TaXot) => Some(None),
            _ => None,
        }
    }
}

/// A season the replay has finished: ended by 終季, and followed by the first move of the
/// next.
pub(crate) struct FinishedSeason {
    /// The season as played.
    pub season: SeasonRecord,
    /// The end of the element whose 終季 ended it: what follows belongs to the next season.
    pub ended_at: u32,
}

/// The replay of one match, fed its elements in order ([`Replay::element`]): it keeps the
/// match's state and the season being played, and hands over each season once the next one
/// starts ([`Replay::take_finished`]), so that a reader needs to hold one season at a time.
pub(crate) struct Replay {
    /// The header (items, names, rule set); its body is empty, and its notation the one of
    /// the elements read so far.
    record: CkkaRecord,
    game: MatchState,
    rules: Rules,
    initial_scores: [i32; 2],
    pub(crate) diags: Vec<Diagnostic>,
    firsts: Vec<Side>,
    season_started: bool,
    ply: usize,
    /// The hand line waiting for its declaration: named hands, score, span.
    pending_line: Option<(HandLine, Span)>,
    last_gain: Option<(i32, i32)>,
    last_move_captured: Option<
        Option<(
            kifu_cetkaik::profession::Color,
            kifu_cetkaik::profession::Profession,
        )>,
    >,
    saw_hand_line: bool,
    capture_unknown: bool,
    /// Who moved first in the first season.
    first_season_first: Option<Side>,
    /// Seasons started, and ended by 終季.
    seasons_started: usize,
    seasons_ended: usize,
    /// The season being played (or just ended), and where its 終季 ended it.
    current: Option<(SeasonRecord, u32)>,
    /// Seasons over and followed by another, not yet taken.
    finished: Vec<FinishedSeason>,
    game_end_marker: bool,
}

/// Replays a parsed record. `default_rules` applies when the record has no `{律:…}`.
pub fn replay(record: &CkkaRecord, default_rules: Rules) -> (GameRecord, Vec<Diagnostic>) {
    let head = CkkaRecord {
        items: record.items.clone(),
        names: record.names.clone(),
        body: Vec::new(),
        notation: record.notation,
        rules: record.rules,
    };
    let mut r = Replay::new(head, default_rules, || infer_first(&record.body));
    for (i, e) in record.body.iter().enumerate() {
        r.element(e, &mut || infer_first(&record.body[i..]));
    }
    r.finish(record.body.last().map(|e| e.span));
    r.into_game()
}

impl Replay {
    /// The replay of a match with this header (`record`'s body is not read) under its
    /// `{律:…}`, else `default_rules`. `infer_first` reads who moves first in the first
    /// season from its moves, when `{一位色}` does not say.
    pub(crate) fn new(
        record: CkkaRecord,
        default_rules: Rules,
        infer_first: impl FnOnce() -> Option<Side>,
    ) -> Replay {
        let mut diags = Vec::new();
        let rules = rules_of(&record, default_rules, &mut diags);
        let firsts = first_colors(&record);
        let first = firsts
            .first()
            .copied()
            .or_else(infer_first)
            .unwrap_or(Side::IASide);
        let (s_first, s_second) = record.names.as_ref().map_or((20, 20), |n| n.scores());
        let mut scores = [0; 2];
        scores[first.index()] = s_first;
        scores[first.opponent().index()] = s_second;
        Replay {
            record,
            game: MatchState::new(rules, first, scores),
            rules,
            initial_scores: scores,
            diags,
            firsts,
            season_started: false,
            ply: 0,
            pending_line: None,
            last_gain: None,
            last_move_captured: None,
            saw_hand_line: false,
            capture_unknown: false,
            first_season_first: None,
            seasons_started: 0,
            seasons_ended: 0,
            current: None,
            finished: Vec::new(),
            game_end_marker: false,
        }
    }

    /// The rule set the match is replayed under.
    pub(crate) fn rules(&self) -> Rules {
        self.rules
    }

    /// The scores the match started with, indexed by [`Side::index`].
    pub(crate) fn initial_scores(&self) -> [i32; 2] {
        self.initial_scores
    }

    /// The header items and names line.
    pub(crate) fn head(&self) -> &CkkaRecord {
        &self.record
    }

    /// The notation of the elements read so far (what a ⓪ record is held to).
    pub(crate) fn set_notation(&mut self, notation: Option<Notation>) {
        self.record.notation = notation;
    }

    /// Whether `星一周` was read.
    pub(crate) fn game_end_marker(&self) -> bool {
        self.game_end_marker
    }

    /// The scores now, indexed by [`Side::index`].
    pub(crate) fn scores(&self) -> [i32; 2] {
        [self.game.score(Side::IASide), self.game.score(Side::ASide)]
    }

    /// Whether a season is over and followed by another, not taken yet.
    pub(crate) fn has_finished(&self) -> bool {
        !self.finished.is_empty()
    }

    /// The oldest season over and followed by another, not taken yet.
    pub(crate) fn take_finished(&mut self) -> Option<FinishedSeason> {
        (!self.finished.is_empty()).then(|| self.finished.remove(0))
    }

    /// The season being played or last ended, taken at the end of the match.
    pub(crate) fn take_current(&mut self) -> Option<SeasonRecord> {
        self.current.take().map(|(season, _)| season)
    }

    /// After the last element (`last`, the span of the last element of the body): says what
    /// is still owed.
    pub(crate) fn finish(&mut self, last: Option<Span>) {
        if let Some(side) = self.game.pending_declaration() {
            let span = last.unwrap_or_default();
            self.diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                span,
                format!(
                    "the record ends while {} owes a declaration (再行 or 終季)",
                    self.name_of(side)
                ),
            ));
        }
    }

    /// The whole match as replayed, with every diagnostic.
    fn into_game(mut self) -> (GameRecord, Vec<Diagnostic>) {
        let mut seasons: Vec<SeasonRecord> = self.finished.drain(..).map(|f| f.season).collect();
        seasons.extend(self.current.take().map(|(season, _)| season));
        let game = GameRecord {
            items: self.record.items,
            names: self.record.names,
            rules: self.rules,
            initial_scores: self.initial_scores,
            final_scores: [self.game.score(Side::IASide), self.game.score(Side::ASide)],
            seasons,
            over: self.game.is_over(),
            game_end_marker: self.game_end_marker,
        };
        (game, self.diags)
    }
}

impl Replay {
    fn name_of(&self, side: Side) -> String {
        match &self.record.names {
            Some(n) => {
                let first = self
                    .first_season_first
                    .unwrap_or_else(|| self.game.position().turn());
                let e = if side == first { &n.first } else { &n.second };
                format!("[{}]", e.name)
            }
            None => {
                // `{黒名:…}` / `{赤名:…}` name the players by their King's colour.
                let key = if side == Side::IASide {
                    "黒名"
                } else {
                    "赤名"
                };
                match self.record.info(key) {
                    Some(name) => format!("[{name}]"),
                    None => side.to_string(),
                }
            }
        }
    }

    fn has_names(&self) -> bool {
        self.record.names.is_some()
            || self.record.info("黒名").is_some()
            || self.record.info("赤名").is_some()
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags
            .push(Diagnostic::error(DiagnosticKind::Syntax, span, msg));
    }

    /// Starts a season at the move at `span`, unless one is being played; `infer_first`
    /// reads who moves first from that move on.
    fn start_season_if_needed(
        &mut self,
        span: Span,
        infer_first: &mut dyn FnMut() -> Option<Side>,
    ) {
        if self.season_started {
            return;
        }
        let n = self.seasons_started;
        let inferred = infer_first();
        let first = match (self.firsts.get(n).copied(), inferred) {
            (Some(f), Some(i)) if f != i => {
                self.diags.push(Diagnostic::warning(
                    DiagnosticKind::Inconsistent,
                    span,
                    format!(
                        "{{一位色}} says {f} moves first in season {}, but the first move is {i}'s",
                        n + 1
                    ),
                ));
                f
            }
            (Some(f), _) => f,
            (None, Some(i)) => i,
            (None, None) => self.game.position().turn(),
        };
        self.game.set_first_mover(first);
        if let Some((season, ended_at)) = self.current.take() {
            self.finished.push(FinishedSeason { season, ended_at });
        }
        self.current = Some((
            SeasonRecord {
                first,
                events: Vec::new(),
                ended: false,
            },
            0,
        ));
        self.first_season_first.get_or_insert(first);
        self.seasons_started += 1;
        self.season_started = true;
    }

    /// Replays the next element of the body. `infer_first` reads who moves first in a season
    /// that starts with this element, from it on.
    pub(crate) fn element(&mut self, e: &Element, infer_first: &mut dyn FnMut() -> Option<Side>) {
        match &e.kind {
            ElementKind::Move { note, comments } => {
                self.play(e.span, note, comments, infer_first);
            }
            ElementKind::Capture { color, prof } => {
                let said = format!(
                    "手{}{}",
                    color.map(|c| c.kanji().to_string()).unwrap_or_default(),
                    prof
                );
                match self.last_move_captured.take() {
                    _ if std::mem::take(&mut self.capture_unknown) => {}
                    None => self.error(
                        e.span,
                        format!("capture comment `{said}` does not follow a move"),
                    ),
                    Some(None) => self.error(
                        e.span,
                        format!("`{said}`: the previous move captured nothing"),
                    ),
                    Some(Some((c, p))) => {
                        if p != *prof || color.is_some_and(|x| x != c) {
                            self.error(
                                e.span,
                                format!("`{said}`: the previous move captured {c}{p}"),
                            );
                        }
                    }
                }
            }
            ElementKind::HandLine(line) => self.hand_line(e.span, line),
            ElementKind::Declaration(d) => self.declare(e.span, *d),
            ElementKind::SeasonScore(n) => match self.last_gain.take() {
                Some((gain, named)) => {
                    if *n != gain && !(self.game.rules.declared_score_is_named_hands && *n == named)
                    {
                        self.error(e.span, format!("the season scored {gain}, not {n}"));
                    }
                }
                None => self.error(e.span, "a score `手N` must follow 終季"),
            },
            ElementKind::SeasonEnd(name) => {
                // `{季:夏}`: the record starts in that season.
                let offset = season_offset(&self.record);
                let ended = offset + self.seasons_ended;
                let expected = match name.as_str() {
                    "上季終" => 1,
                    "下季終" => 2,
                    other => SEASON_ENDS.iter().position(|s| *s == other).unwrap_or(0) + 1,
                };
                if !self.current.as_ref().is_some_and(|(s, _)| s.ended) || self.season_started {
                    self.diags.push(Diagnostic::warning(
                        DiagnosticKind::Syntax,
                        e.span,
                        format!("`{name}` but no season has just ended"),
                    ));
                } else if ended != expected {
                    self.diags.push(Diagnostic::warning(
                        DiagnosticKind::Syntax,
                        e.span,
                        format!("`{name}` but season {ended} has just ended"),
                    ));
                }
            }
            ElementKind::GameEnd => {
                self.game_end_marker = true;
                if !self.game.is_over() {
                    self.diags.push(Diagnostic::warning(DiagnosticKind::Inconsistent,
                        e.span,
                        format!(
                            "星一周, but the game is not over by the rules (season {} of {}, scores {}:{})",
                            self.seasons_started,
                            self.game.rules.seasons,
                            self.game.score(Side::IASide),
                            self.game.score(Side::ASide)
                        ),
                    ));
                }
            }
            ElementKind::FinalTally(line) => {
                let first = self.first_season_first.unwrap_or(Side::IASide);
                let (a, b) = line.scores();
                let (x, y) = (self.game.score(first), self.game.score(first.opponent()));
                if (a, b) != (x, y) {
                    self.error(
                        line.span,
                        format!("the tally says {a}:{b}, but the game ends {x}:{y}"),
                    );
                }
            }
        }
    }

    fn play(
        &mut self,
        span: Span,
        note: &MoveNote,
        comments: &[String],
        infer_first: &mut dyn FnMut() -> Option<Side>,
    ) {
        if self.game.is_over() {
            self.error(span, "a move after the end of the game");
            return;
        }
        if self.game_end_marker {
            self.error(span, "a move after 星一周, which ends the game");
            return;
        }
        if let Some(side) = self.game.pending_declaration()
            && !self.game.rules.declaration_optional
        {
            let who = self.name_of(side);
            self.error(span, format!("{who} made a hand with the previous move, but neither 再行 nor 終季 follows; assuming 再行"));
            let _ = self.game.declare(Declaration::TyMok);
        }
        self.start_season_if_needed(span, infer_first);
        self.ply += 1;
        self.pending_line = None;
        self.capture_unknown = false;
        let mover = self.game.position().turn();
        let ply = self.ply;
        let resolved = match resolve(self.game.position(), note, &self.game.rules) {
            Ok(r) => r,
            Err(msg) => {
                self.error(span, format!("ply {ply}: {msg}"));
                self.recover(span, note);
                return;
            }
        };
        match self.game.play(resolved.mv, resolved.throws) {
            Ok(report) => {
                self.last_move_captured = Some(report.effect.captured);
                self.push(Event::Move(PlayedMove {
                    mover,
                    mv: resolved.mv,
                    prof: resolved.prof,
                    throws: resolved.throws,
                    completed: report.effect.completed,
                    captured: report.effect.captured,
                    tam_first_known: resolved.tam_first_known,
                    comments: comments.to_vec(),
                }));
            }
            Err(err) => {
                self.error(span, format!("ply {ply}: {err}"));
                self.recover(span, note);
            }
        }
    }

    /// After an illegal move, put the pieces where the record says so that later moves are
    /// judged from the position the players saw.
    fn recover(&mut self, span: Span, note: &MoveNote) {
        let pos = self.game.position();
        let side = pos.turn();
        let mv = match *note {
            MoveNote::Piece {
                src,
                prof: Some(prof),
                step,
                dst,
                ..
            } if pos.get(src).is_none() => {
                // A slip in the start square: the one piece of that profession that can make
                // the move is meant.
                let rules = self.game.rules;
                let movers: Vec<kifu_cetkaik::square::Square> = pos
                    .pieces_of(side)
                    .filter(|&(s, _, p)| {
                        let mut list = Vec::new();
                        kifu_cetkaik::moves::piece_candidates(pos, side, s, p, &rules, &mut list);
                        p == prof
                            && list
                                .iter()
                                .any(|m| m.dst() == dst && (step.is_none() || m.step() == step))
                    })
                    .map(|(s, _, _)| s)
                    .collect();
                if let [s] = movers[..] {
                    self.diags.push(Diagnostic::warning(
                        DiagnosticKind::Syntax,
                        span,
                        format!("continuing as if the {prof} on {s} moved"),
                    ));
                    Some(kifu_cetkaik::moves::PureMove::Plain { src: s, dst })
                } else {
                    None
                }
            }
            MoveNote::Piece { src, dst, .. } => {
                Some(kifu_cetkaik::moves::PureMove::Plain { src, dst })
            }
            MoveNote::Tam { src, note } => {
                let second = match note {
                    TamNote::NoStep { second, .. }
                    | TamNote::TwoSquares { second, .. }
                    | TamNote::StepFormer { second, .. }
                    | TamNote::StepLatter { second, .. } => second,
                };
                Some(kifu_cetkaik::moves::PureMove::TamNoStep {
                    src,
                    first: src,
                    second,
                })
            }
            MoveNote::Drop { color, prof, dst } => {
                let color = color.or_else(|| {
                    kifu_cetkaik::profession::Color::ALL
                        .into_iter()
                        .find(|&c| pos.hop1zuo1(side).count(c, prof) > 0)
                });
                color.map(|color| kifu_cetkaik::moves::PureMove::Drop { color, prof, dst })
            }
        };
        match mv {
            Some(mv) if mv.src().is_none_or(|s| pos.get(s).is_some()) => {
                self.last_move_captured = Some(self.game.force(mv));
            }
            _ => {
                // Where the piece went is unknown: later capture comments cannot be judged.
                self.last_move_captured = Some(None);
                self.capture_unknown = true;
                let mut p = pos.clone();
                p.set_turn(side.opponent());
                *self.game.position_mut_for_tests() = p;
            }
        }
    }

    fn push(&mut self, e: Event) {
        if let Some((s, _)) = &mut self.current {
            s.events.push(e);
        }
    }

    fn hand_line(&mut self, span: Span, line: &HandLine) {
        self.saw_hand_line = true;
        let Some(mover) = self.game.pending_declaration() else {
            let names: Vec<String> = line.hands.iter().map(|h| h.to_string()).collect();
            self.error(
                span,
                format!(
                    "hand line for {}, but the last move made no hand",
                    names.join("加")
                ),
            );
            return;
        };
        if let Who::Named(name) = &line.who
            && self.has_names()
        {
            let mover_name = self.name_of(mover);
            let other = self.name_of(mover.opponent());
            let written = format!("[{name}]");
            if written == other && written != mover_name {
                self.error(
                    span,
                    format!("{written} is named, but {mover_name} made the hand"),
                );
            } else if written != mover_name {
                self.diags.push(Diagnostic::warning(
                    DiagnosticKind::Syntax,
                    span,
                    format!("{written} is not a player of this game"),
                ));
            }
        }
        let held = kifu_cetkaik::yaku::hands_of(self.game.position().hop1zuo1(mover));
        for h in &line.hands {
            let counterpart = Hand {
                kind: h.kind,
                same_color: !h.same_color,
            };
            if held.contains(*h) {
                continue;
            }
            if held.contains(counterpart) {
                self.diags.push(Diagnostic::warning(
                    DiagnosticKind::Inconsistent,
                    span,
                    format!("{h} is declared, but the hand held is {counterpart}"),
                ));
            } else {
                let list: Vec<String> = held.iter().map(|x| x.to_string()).collect();
                self.error(
                    span,
                    format!(
                        "{} declares {h}, which it does not hold (holds: {})",
                        self.name_of(mover),
                        if list.is_empty() {
                            "nothing".into()
                        } else {
                            list.join(", ")
                        }
                    ),
                );
            }
        }
        self.pending_line = Some((line.clone(), span));
        if let Some(d) = line.declaration {
            self.declare(span, d);
        }
    }

    fn declare(&mut self, span: Span, d: Declaration) {
        let Some(mover) = self.game.pending_declaration() else {
            let word = if d == Declaration::TyMok {
                "再行"
            } else {
                "終季"
            };
            self.error(span, format!("{word}, but the last move made no hand"));
            return;
        };
        if !self.saw_hand_line && self.record.notation() == Notation::Full {
            self.diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                span,
                "a hand line (`…為…`) should name the hand before 再行 or 終季",
            ));
        }
        self.saw_hand_line = false;
        let held = kifu_cetkaik::yaku::hands_of(self.game.position().hop1zuo1(mover));
        let line = self.pending_line.take();
        let named: i32 = line.as_ref().map_or(0, |(l, _)| {
            l.hands
                .iter()
                .map(|h| h.points(self.game.rules.king_hand_points))
                .sum()
        });
        let named_points = match &line {
            Some(_) => named,
            None => self.game.undeclared_points(mover),
        };
        let gain = match self.game.declare_hands(d, named_points) {
            Ok(g) => g,
            Err(e) => {
                self.error(span, e.to_string());
                return;
            }
        };
        if let Some((l, lspan)) = &line
            && let Some(score) = l.score
        {
            let ok = match d {
                Declaration::TaXot => {
                    score == gain
                        || (self.game.rules.declared_score_is_named_hands && score == named)
                }
                // A score on a 再行 line (2018 records) states the named hands' value.
                Declaration::TyMok => score == named,
            };
            if !ok {
                let expected = if d == Declaration::TaXot { gain } else { named };
                self.error(
                    *lspan,
                    format!("the declared score is {score}, but the rules give {expected}"),
                );
            }
        }
        self.push(Event::Declaration(DeclarationRecord {
            mover,
            // As the hand line named them; all hands held when there was none.
            hands: line
                .as_ref()
                .map_or_else(|| held_list(held), |(l, _)| l.hands.clone()),
            declaration: d,
            gain,
        }));
        if d == Declaration::TaXot {
            self.last_gain = Some((gain, named));
            if let Some((s, ended_at)) = &mut self.current {
                if !s.ended {
                    self.seasons_ended += 1;
                }
                s.ended = true;
                *ended_at = span.end;
            }
            self.season_started = false;
        }
    }
}

/// The season a record starts in, from `{季:…}` (0 = 春).
pub fn season_offset(record: &CkkaRecord) -> usize {
    record
        .info("季")
        .and_then(|v| {
            ['春', '夏', '秋', '冬']
                .iter()
                .position(|&c| v.trim().starts_with(c))
        })
        .unwrap_or(0)
}

fn held_list(h: HandSet) -> Vec<Hand> {
    h.iter().collect()
}
