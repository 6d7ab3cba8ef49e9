//! A record resolved against the rules: what the writers of every notation write.

use super::record::{InfoItem, NamesLine};
use kifu_cetkaik::match_state::Declaration;
use kifu_cetkaik::moves::PureMove;
use kifu_cetkaik::piece::Side;
use kifu_cetkaik::profession::{Color, Profession};
use kifu_cetkaik::rules::Rules;
use kifu_cetkaik::sticks::Throws;
use kifu_cetkaik::yaku::Hand;
use serde::Serialize;

/// One move as played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlayedMove {
    /// The side that moved.
    pub mover: Side,
    /// The move (for 皇 with `tam_first_known` false, one intermediate square the rules allow).
    pub mv: PureMove,
    /// The moving (or dropped) piece's profession; `None` for 皇.
    pub prof: Option<Profession>,
    /// The sticks thrown for it.
    pub throws: Throws,
    /// The move reached its destination (no failed or abandoned throw).
    pub completed: bool,
    /// The piece it took.
    pub captured: Option<(Color, Profession)>,
    /// 皇's intermediate square is known (else it is written `[或]` or left out).
    pub tam_first_known: bool,
    /// The record's comments on the move (`{…}`).
    pub comments: Vec<String>,
}

/// A hand and what its maker declared.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DeclarationRecord {
    /// The side that made the hand.
    pub mover: Side,
    /// Hands held after the move, as a hand line names them.
    pub hands: Vec<Hand>,
    /// 再行 or 終季.
    pub declaration: Declaration,
    /// Points gained on 終季 (rate applied); 0 on 再行.
    pub gain: i32,
}

/// One event of a season, as played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Event {
    /// A move.
    Move(PlayedMove),
    /// 再行 or 終季 after a hand.
    Declaration(DeclarationRecord),
}

/// One season as played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SeasonRecord {
    /// The side that moved first.
    pub first: Side,
    /// Its moves and declarations, in order.
    pub events: Vec<Event>,
    /// Ended by 終季.
    pub ended: bool,
}

/// A replayed game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    /// The header items (`{key:value}`), as written.
    pub items: Vec<InfoItem>,
    /// The players and their starting scores (`[name]score [name]score`).
    pub names: Option<NamesLine>,
    /// The rule set the match was replayed under.
    pub rules: Rules,
    /// Indexed by [`Side::index`].
    pub initial_scores: [i32; 2],
    /// Scores at the end of the record, indexed by [`Side::index`].
    pub final_scores: [i32; 2],
    /// The seasons played, in order.
    pub seasons: Vec<SeasonRecord>,
    /// The match is over by the rules.
    pub over: bool,
    /// `星一周` was written.
    pub game_end_marker: bool,
}

impl GameRecord {
    /// The position after every move, replaying the record's moves with the engine
    /// (each season starts from the initial position). Moves the replay rejected are absent.
    pub fn positions(&self) -> Vec<kifu_cetkaik::position::Position> {
        let first = self.first_side();
        let mut game =
            kifu_cetkaik::match_state::MatchState::new(self.rules, first, self.initial_scores);
        let mut out = Vec::new();
        for season in &self.seasons {
            game.set_first_mover(season.first);
            for e in &season.events {
                match e {
                    Event::Move(m) => {
                        if game.position().turn() != m.mover {
                            game.set_first_mover(m.mover);
                        }
                        if game.play(m.mv, m.throws).is_err() {
                            game.force(m.mv);
                        }
                        out.push(game.position().clone());
                    }
                    Event::Declaration(d) => {
                        let _ = game.declare(d.declaration);
                    }
                }
            }
        }
        out
    }

    /// The position at the end of the record (the initial one when there is no move).
    pub fn final_position(&self) -> kifu_cetkaik::position::Position {
        self.positions()
            .pop()
            .unwrap_or_else(|| kifu_cetkaik::position::Position::startpos(self.first_side()))
    }

    /// The side that moved first in the first season.
    pub fn first_side(&self) -> Side {
        self.seasons.first().map_or(Side::IASide, |s| s.first)
    }

    /// The JSON form written by `kifu convert --to json`.
    pub fn to_json(&self) -> serde_json::Value {
        #[derive(Serialize)]
        struct J<'a> {
            rules: &'a str,
            header: Vec<serde_json::Value>,
            players: Option<[serde_json::Value; 2]>,
            initial_scores: serde_json::Value,
            final_scores: serde_json::Value,
            seasons: Vec<serde_json::Value>,
            over: bool,
            /// `星一周` was written.
            end_marker: bool,
        }
        let side_name = |s: Side| if s == Side::IASide { "ia" } else { "a" };
        let scores = |s: [i32; 2]| serde_json::json!({ "ia": s[0], "a": s[1] });
        let seasons = self
            .seasons
            .iter()
            .map(|season| {
                let events: Vec<serde_json::Value> = season
                    .events
                    .iter()
                    .map(|e| match e {
                        Event::Move(m) => serde_json::json!({
                            "type": "move",
                            "side": side_name(m.mover),
                            "move": kifu_cetkaik::notation::full::move_text(m.mv, m.prof, m.throws, m.tam_first_known),
                            "completed": m.completed,
                            "captured": m.captured.map(|(c, p)| format!("{c}{p}")),
                            "comments": m.comments,
                        }),
                        Event::Declaration(d) => serde_json::json!({
                            "type": if d.declaration == Declaration::TyMok { "再行" } else { "終季" },
                            "side": side_name(d.mover),
                            "hands": d.hands.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
                            "gain": d.gain,
                        }),
                    })
                    .collect();
                serde_json::json!({ "first": side_name(season.first), "ended": season.ended, "events": events })
            })
            .collect();
        let j = J {
            rules: self.rules.name,
            header: self
                .items
                .iter()
                .map(|i| serde_json::json!({ "key": i.key, "value": i.value }))
                .collect(),
            players: self.names.as_ref().map(|n| {
                [
                    serde_json::json!({ "name": n.first.name, "score": n.first.score }),
                    serde_json::json!({ "name": n.second.name, "score": n.second.score }),
                ]
            }),
            initial_scores: scores(self.initial_scores),
            final_scores: scores(self.final_scores),
            seasons,
            over: self.over,
            end_marker: self.game_end_marker,
        };
        serde_json::to_value(j).unwrap_or(serde_json::Value::Null)
    }
}
