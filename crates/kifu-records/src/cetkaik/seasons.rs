//! A replayed match as the record model's records, one [`Record<Cetkaik>`] per season, and
//! back: what [`super::format`]'s `RecordFormat` implementations hand out and take in.
//!
//! The match's header travels with every season: the CKKA header items as written (`{律:官定}`
//! is also [`HeaderField::Rules`]), and the names line `[name]score [name]score` as the
//! entries `一位` / `二位` (the first and second player, [`HeaderField::FirstPlayer`] and
//! [`HeaderField::SecondPlayer`]) with `一位点` / `二位点` for scores written on it.

use kifu_cetkaik::yaku::hands_of;
use kifu_cetkaik::{
    Cetkaik, CetkaikEnding, Declaration, Event as RulesEvent, MatchState, Piece, Rules,
    SeasonStart, Side,
};
use kifu_record::{
    Comment, CommentKind, EndingKind, Header, HeaderEntry, HeaderField, NodeItem, Record,
    Side as RecordSide, Span,
};

use super::game_record::{DeclarationRecord, Event, GameRecord, PlayedMove, SeasonRecord};
use super::record::{InfoItem, NameEntry, NamesLine};

const FIRST_NAME: &str = "一位";
const SECOND_NAME: &str = "二位";
const FIRST_SCORE: &str = "一位点";
const SECOND_SCORE: &str = "二位点";

/// The match header as record header entries (see the module documentation).
pub(crate) fn header_of(items: &[InfoItem], names: Option<&NamesLine>) -> Header {
    let mut header = Header::new();
    for item in items {
        let key = item.key.clone().unwrap_or_default();
        header.push(HeaderEntry {
            field: (key == "律").then_some(HeaderField::Rules),
            key,
            value: item.value.clone(),
            span: item.span,
        });
    }
    if let Some(names) = names {
        for (entry, name_key, score_key, field) in [
            (
                &names.first,
                FIRST_NAME,
                FIRST_SCORE,
                HeaderField::FirstPlayer,
            ),
            (
                &names.second,
                SECOND_NAME,
                SECOND_SCORE,
                HeaderField::SecondPlayer,
            ),
        ] {
            header.push(HeaderEntry {
                key: name_key.to_string(),
                value: entry.name.clone(),
                field: Some(field),
                span: names.span,
            });
            if let Some(score) = entry.score {
                header.push(HeaderEntry {
                    key: score_key.to_string(),
                    value: score.to_string(),
                    field: None,
                    span: names.span,
                });
            }
        }
    }
    header
}

/// The CKKA header items and names line a record header stands for.
fn items_and_names(header: &Header) -> (Vec<InfoItem>, Option<NamesLine>) {
    let mut items = Vec::new();
    let mut names = [None, None];
    let mut scores = [None, None];
    let mut names_span = Span::default();
    for entry in header.entries() {
        match (entry.field, entry.key.as_str()) {
            (Some(HeaderField::FirstPlayer), _) => {
                names[0] = Some(entry.value.clone());
                names_span = entry.span;
            }
            (Some(HeaderField::SecondPlayer), _) => names[1] = Some(entry.value.clone()),
            (None, FIRST_SCORE) => scores[0] = entry.value.parse().ok(),
            (None, SECOND_SCORE) => scores[1] = entry.value.parse().ok(),
            _ => items.push(InfoItem {
                key: (!entry.key.is_empty()).then(|| entry.key.clone()),
                value: entry.value.clone(),
                span: entry.span,
            }),
        }
    }
    let names = match names {
        [Some(first), Some(second)] => Some(NamesLine {
            first: NameEntry {
                name: first,
                score: scores[0],
            },
            second: NameEntry {
                name: second,
                score: scores[1],
            },
            span: names_span,
        }),
        _ => None,
    };
    (items, names)
}

/// The seasons of a replayed match as records, each carrying the match header and starting
/// with the scores the season carried in. A match without a move is one empty season.
pub fn season_records(game: &GameRecord) -> Vec<Record<Cetkaik>> {
    let mut records = SeasonRecords::new(
        header_of(&game.items, game.names.as_ref()),
        game.rules,
        game.initial_scores,
    );
    let last = game.seasons.len().saturating_sub(1);
    let mut out: Vec<Record<Cetkaik>> = game
        .seasons
        .iter()
        .enumerate()
        .map(|(index, season)| {
            let end = (game.game_end_marker && index == last).then_some(game.final_scores);
            records.record(season, end)
        })
        .collect();
    if out.is_empty() {
        out.push(records.empty());
    }
    out
}

/// Seasons turned into records one at a time, in order: what each season starts with follows
/// from the seasons before it.
pub(crate) struct SeasonRecords {
    header: Header,
    initial_scores: [i32; 2],
    /// The match at the start of the next season.
    state: MatchState,
}

impl SeasonRecords {
    /// For a match with this header, rule set and initial scores (indexed by
    /// [`Side::index`]).
    pub(crate) fn new(header: Header, rules: Rules, initial_scores: [i32; 2]) -> SeasonRecords {
        SeasonRecords {
            header,
            initial_scores,
            state: MatchState::new(rules, Side::IASide, initial_scores),
        }
    }

    /// The next season as a record. `match_over` (the final scores) when it is the last
    /// season and `星一周` ends the match.
    pub(crate) fn record(
        &mut self,
        season: &SeasonRecord,
        match_over: Option<[i32; 2]>,
    ) -> Record<Cetkaik> {
        let state = &mut self.state;
        state.set_first_mover(season.first);
        let start = SeasonStart {
            rules: state.rules,
            first_mover: season.first,
            scores: [state.score(Side::IASide), state.score(Side::ASide)],
            rate: state.rate(),
            season: state.season(),
        };
        let mut record = Record::new(start);
        record.header = self.header.clone();
        let mut node = record.moves.root();
        for event in &season.events {
            let rules_event = match event {
                Event::Move(m) => {
                    if state.turn() != m.mover {
                        state.set_first_mover(m.mover);
                    }
                    if state.play(m.mv, m.throws).is_err() {
                        state.force(m.mv);
                    }
                    RulesEvent::Move {
                        mv: m.mv,
                        throws: m.throws,
                        tam_first_unknown: !m.tam_first_known,
                    }
                }
                Event::Declaration(d) => {
                    let named = d.hands.clone();
                    let points = state.named_points(Some(&named));
                    let _ = state.declare_hands(d.declaration, points);
                    RulesEvent::Declare {
                        declaration: d.declaration,
                        named: Some(named),
                    }
                }
            };
            node = record.moves.add_move(node, rules_event, Span::default());
            if let Event::Move(m) = event
                && !m.comments.is_empty()
            {
                *record.moves[node].comments_mut() = m
                    .comments
                    .iter()
                    .map(|c| Comment::new(CommentKind::Text, c.clone(), Span::default()))
                    .collect();
            }
        }
        if let Some([ia, a]) = match_over {
            let winner = match ia.cmp(&a) {
                std::cmp::Ordering::Equal => None,
                std::cmp::Ordering::Greater => Some(Side::IASide),
                std::cmp::Ordering::Less => Some(Side::ASide),
            }
            .map(|side| {
                if side == season.first {
                    RecordSide::First
                } else {
                    RecordSide::Second
                }
            });
            record.moves.add_ending(
                node,
                EndingKind::Game(CetkaikEnding::MatchOver { winner }),
                Span::default(),
            );
        }
        record
    }

    /// The one record of a match without a season: its header and start.
    pub(crate) fn empty(&self) -> Record<Cetkaik> {
        let mut record = Record::new(SeasonStart {
            rules: self.state.rules,
            first_mover: Side::IASide,
            scores: self.initial_scores,
            ..SeasonStart::default()
        });
        record.header = self.header.clone();
        record
    }
}

/// Groups season records back into one match, replaying each season from its start to
/// recover what the writers show (captures, failed moves, gains). The header is the first
/// season's. 皇's intermediate square is known unless the event says it is not
/// (`tam_first_unknown`, the CKKA draft's `[或]`).
pub fn match_of(seasons: &[Record<Cetkaik>]) -> GameRecord {
    let first = seasons.first();
    let (items, names) = first.map_or((Vec::new(), None), |r| items_and_names(&r.header));
    let start = first.map_or_else(SeasonStart::default, |r| r.start);
    let mut game = GameRecord {
        items,
        names,
        rules: start.rules,
        initial_scores: start.scores,
        final_scores: start.scores,
        seasons: Vec::new(),
        over: false,
        game_end_marker: false,
    };
    for record in seasons {
        let mut state = MatchState::at(&record.start);
        let mut season = SeasonRecord {
            first: record.start.first_mover,
            events: Vec::new(),
            ended: false,
        };
        for id in record.moves.main_line() {
            let node = &record.moves[id];
            match &node.item {
                NodeItem::Move(RulesEvent::Move {
                    mv,
                    throws,
                    tam_first_unknown,
                }) => {
                    let mover = state.turn();
                    let prof = match mv.src() {
                        Some(src) => state.position().get(src).and_then(Piece::prof),
                        None => match mv {
                            kifu_cetkaik::PureMove::Drop { prof, .. } => Some(*prof),
                            _ => None,
                        },
                    };
                    let Ok(report) = state.play(*mv, *throws) else {
                        continue;
                    };
                    season.events.push(Event::Move(PlayedMove {
                        mover,
                        mv: *mv,
                        prof,
                        throws: *throws,
                        completed: report.effect.completed,
                        captured: report.effect.captured,
                        tam_first_known: !tam_first_unknown,
                        comments: node.comments().iter().map(|c| c.text.clone()).collect(),
                    }));
                }
                NodeItem::Move(RulesEvent::Declare { declaration, named }) => {
                    let Some(mover) = state.pending_declaration() else {
                        continue;
                    };
                    let hands = named.clone().unwrap_or_else(|| {
                        hands_of(state.position().hop1zuo1(mover)).iter().collect()
                    });
                    let points = state.named_points(named.as_deref());
                    let Ok(gain) = state.declare_hands(*declaration, points) else {
                        continue;
                    };
                    season.ended |= *declaration == Declaration::TaXot;
                    season.events.push(Event::Declaration(DeclarationRecord {
                        mover,
                        hands,
                        declaration: *declaration,
                        gain,
                    }));
                }
                NodeItem::End(EndingKind::Game(CetkaikEnding::MatchOver { .. })) => {
                    game.game_end_marker = true;
                }
                NodeItem::Start | NodeItem::End(_) => {}
            }
        }
        game.final_scores = [state.score(Side::IASide), state.score(Side::ASide)];
        game.over = state.is_over();
        if !season.events.is_empty() {
            game.seasons.push(season);
        }
    }
    game
}
