//! Seasons, rate, 再行 / 終季, scores and the end of the game: the state of a match as the
//! rules judge its next event.

use crate::moves::PureMove;
use crate::piece::Side;
use crate::play::{Effect, IllegalMove};
use crate::position::Position;
use crate::rules::{FutileMove, Rules, StepOnTam};
use crate::sticks::Throws;
use crate::yaku::Hand;
use crate::yaku::{HandSet, hands_of};

/// What the player who created a hand says.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Declaration {
    /// 再行 ty mok1: the season goes on at double rate.
    TyMok,
    /// 終季 ta xot1: the season ends and the mover scores.
    TaXot,
}

impl Declaration {
    /// The word a record writes: `再行` or `終季`.
    pub fn kanji(self) -> &'static str {
        match self {
            Declaration::TyMok => "再行",
            Declaration::TaXot => "終季",
        }
    }
}

impl std::fmt::Display for Declaration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kanji())
    }
}

/// A word that is neither 再行 nor 終季.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a declaration (expected 再行 or 終季)")]
pub struct UnknownDeclaration(pub String);

impl std::str::FromStr for Declaration {
    type Err = UnknownDeclaration;

    fn from_str(s: &str) -> Result<Declaration, UnknownDeclaration> {
        match s {
            "再行" => Ok(Declaration::TyMok),
            "終季" => Ok(Declaration::TaXot),
            _ => Err(UnknownDeclaration(s.to_owned())),
        }
    }
}

/// The four seasons (a game may use fewer).
pub const SEASON_NAMES: [char; 4] = ['春', '夏', '秋', '冬'];

/// How a season starts: who moves first, what the season carries in from the match, and the
/// rule set it is played under (the start of a `Record<Cetkaik>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeasonStart {
    /// The rule set the season is played under.
    pub rules: Rules,
    /// Who moves first: the record's [`kifu_record::Side::First`].
    pub first_mover: Side,
    /// Scores carried in, indexed by [`Side::index`].
    pub scores: [i32; 2],
    /// The rate carried in (1 at the start of a season under every known rule set).
    pub rate: i32,
    /// Which season of the match this is, from 0 (it decides when the match ends).
    pub season: u8,
}

impl Default for SeasonStart {
    /// The first season of a match under the standard rules (官定), 20 points each, the IA
    /// side (black King) first.
    fn default() -> Self {
        SeasonStart {
            rules: Rules::standard(),
            first_mover: Side::IASide,
            scores: [20, 20],
            rate: 1,
            season: 0,
        }
    }
}

/// What a move did, with its consequences for hands and scores.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveReport {
    /// The side that moved.
    pub mover: Side,
    /// What the move did on the board.
    pub effect: Effect,
    /// Hands held by the mover after the move.
    pub held: HandSet,
    /// Hand names held now and not before.
    pub created: HandSet,
    /// Penalty points that count as a hand (撃皇, 皇再来, 皇無行 under the strict rule).
    pub penalty_hand: i32,
    /// Points lost at once (撃皇 under cerke_online), already applied.
    pub immediate_penalty: i32,
    /// The mover must now say 再行 or 終季.
    pub must_declare: bool,
}

/// Why an event (a move or a declaration) cannot happen now.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IllegalEvent {
    /// The move cannot be played with its throws.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    /// A move was played while a declaration was due.
    #[error("{0} made a hand and must declare 再行 or 終季 before the next move")]
    DeclarationPending(Side),
    /// A declaration without a hand made by the last move.
    #[error("no hand was made by the last move, so there is nothing to declare")]
    NothingToDeclare,
    /// The match is over.
    #[error("the game is already over")]
    GameOver,
}

/// A match as the rules see it: the position of the current season, the scores, the rate,
/// which season it is, and whether a declaration is owed. A replay keeps one across seasons;
/// a season record starts one from its [`SeasonStart`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchState {
    /// The rule set of the match.
    pub rules: Rules,
    position: Position,
    /// Who moved first in the season being played (or just ended): the record's first side.
    season_first: Side,
    scores: [i32; 2],
    rate: i32,
    season: u8,
    penalties: [i32; 2],
    /// Points of the hands declared this season (for `gain_from_declared_hands`).
    declared: [i32; 2],
    pending: Option<Side>,
    over: bool,
}

impl MatchState {
    /// A game whose first season starts with `first`; `scores` indexed by [`Side::index`].
    pub fn new(rules: Rules, first: Side, scores: [i32; 2]) -> MatchState {
        MatchState::at(&SeasonStart {
            rules,
            first_mover: first,
            scores,
            ..SeasonStart::default()
        })
    }

    /// The state at the start of a season, with the scores and rate it carries in.
    pub fn at(start: &SeasonStart) -> MatchState {
        MatchState {
            rules: start.rules,
            position: Position::startpos(start.first_mover),
            season_first: start.first_mover,
            scores: start.scores,
            rate: start.rate,
            season: start.season,
            penalties: [0; 2],
            declared: [0; 2],
            pending: None,
            over: false,
        }
    }

    /// The board, the pieces in hand and the side to move of the current season.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Direct access for tests and tools that set up positions by hand.
    #[doc(hidden)]
    pub fn position_mut_for_tests(&mut self) -> &mut Position {
        &mut self.position
    }

    /// The score of `side`.
    pub fn score(&self, side: Side) -> i32 {
        self.scores[side.index()]
    }

    /// The rate scores are multiplied by (doubled by 再行 under rules that say so).
    pub fn rate(&self) -> i32 {
        self.rate
    }

    /// 0-based season number.
    pub fn season(&self) -> u8 {
        self.season
    }

    /// The side that made a hand with its last move and owes 再行 or 終季.
    pub fn pending_declaration(&self) -> Option<Side> {
        self.pending
    }

    /// Whether the match is over: its last season ended, a side holds every point, or the
    /// side to move cannot move.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Sets who moves first in the current season (before its first move).
    pub fn set_first_mover(&mut self, side: Side) {
        self.position.set_turn(side);
        self.season_first = side;
    }

    /// Who moved first in the season being played.
    pub fn season_first(&self) -> Side {
        self.season_first
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.position.turn()
    }

    /// The moves the side to move may make, by the rule set of the match (without their
    /// throws: see [`crate::play::needed_throws`]). Empty while a declaration is owed under
    /// rules that require one, and once the match is over.
    pub fn legal_moves(&self) -> Vec<PureMove> {
        if self.over || (self.pending.is_some() && !self.rules.declaration_optional) {
            return Vec::new();
        }
        crate::moves::candidates(&self.position, self.position.turn(), &self.rules)
    }

    /// Who won, once the match is over: the side with more points, `None` on equal scores.
    /// `None` as well while the match goes on.
    pub fn outcome(&self) -> Option<Option<Side>> {
        if !self.over {
            return None;
        }
        let [ia, a] = self.scores;
        Some(match ia.cmp(&a) {
            std::cmp::Ordering::Greater => Some(Side::IASide),
            std::cmp::Ordering::Less => Some(Side::ASide),
            std::cmp::Ordering::Equal => None,
        })
    }

    /// The points of `named` hands, or of every undeclared hand held when the record names
    /// none: what a declaration counts.
    pub fn named_points(&self, named: Option<&[Hand]>) -> i32 {
        match named {
            Some(hands) => hands
                .iter()
                .map(|h| h.points(self.rules.king_hand_points))
                .sum(),
            None => self.pending.map_or(0, |s| self.undeclared_points(s)),
        }
    }

    /// What 終季 would score for `side` now: (hands held + penalty hands) × rate.
    pub fn season_gain(&self, side: Side) -> i32 {
        let hands = if self.rules.gain_from_declared_hands {
            self.declared[side.index()]
        } else {
            hands_of(self.position.hop1zuo1(side)).points(self.rules.king_hand_points)
        };
        (hands + self.penalties[side.index()]) * self.rate
    }

    /// Plays a move with its throws, or says why it cannot be played.
    pub fn play(&mut self, mv: PureMove, throws: Throws) -> Result<MoveReport, IllegalEvent> {
        if self.over {
            return Err(IllegalEvent::GameOver);
        }
        if let Some(s) = self.pending {
            if !self.rules.declaration_optional {
                return Err(IllegalEvent::DeclarationPending(s));
            }
            self.pending = None;
        }
        let mover = self.position.turn();
        let before = hands_of(self.position.hop1zuo1(mover));
        let effect = self
            .position
            .play(mv, throws, &self.rules)
            .map_err(IllegalEvent::Illegal)?;
        let held = hands_of(self.position.hop1zuo1(mover));
        let created = held.minus(before);
        let mut report = MoveReport {
            mover,
            effect,
            held,
            created,
            penalty_hand: 0,
            immediate_penalty: 0,
            must_declare: false,
        };
        let kut2tam2 = effect.stepped_on_tam
            && (effect.completed || !self.rules.failed_move_exempts_step_on_tam);
        if kut2tam2 {
            match self.rules.step_on_tam {
                StepOnTam::ImmediatePenalty(p) => report.immediate_penalty += p * self.rate,
                StepOnTam::PenaltyHand(p) => report.penalty_hand += p,
            }
        }
        for (happened, rule) in [
            (effect.tam_moved_again, self.rules.tam_moved_again),
            (effect.tam_returned, self.rules.tam_returns),
        ] {
            if let (true, FutileMove::PenaltyHand(p)) = (happened, rule) {
                report.penalty_hand += p;
            }
        }
        if report.immediate_penalty != 0 {
            self.transfer(mover, report.immediate_penalty);
        }
        self.penalties[mover.index()] += report.penalty_hand;
        report.must_declare = !created.is_empty() || report.penalty_hand != 0;
        if report.must_declare && !self.over {
            self.pending = Some(mover);
        }
        // A side that cannot move loses the game as it stands (the leader wins).
        if !self.over && !report.must_declare && !self.side_to_move_can_move() {
            self.over = true;
        }
        Ok(report)
    }

    /// Applies a move without checking it, to keep a replay going after an illegal move:
    /// the piece goes where the record says, a piece there is captured, the turn passes.
    /// Returns what it captured; a hand it makes is owed a declaration as after [`MatchState::play`].
    pub fn force(
        &mut self,
        mv: PureMove,
    ) -> Option<(crate::profession::Color, crate::profession::Profession)> {
        let side = self.position.turn();
        let before = hands_of(self.position.hop1zuo1(side));
        let mut captured = None;
        let pos = &mut self.position;
        match mv {
            PureMove::Drop { color, prof, dst } => {
                pos.hop1zuo1_mut(side).remove(color, prof);
                pos.put(dst, Some(crate::piece::Piece::Owned { color, prof, side }));
            }
            _ => {
                let src = mv.src().expect("board move");
                let piece = pos.get(src);
                if let Some(crate::piece::Piece::Owned {
                    color,
                    prof,
                    side: s,
                }) = pos.get(mv.dst())
                    && s != side
                    && piece != Some(crate::piece::Piece::Tam)
                {
                    pos.hop1zuo1_mut(side).add(color, prof);
                    captured = Some((color, prof));
                }
                pos.put(src, None);
                pos.put(mv.dst(), piece);
            }
        }
        pos.tam_moved_last = mv.is_tam();
        pos.set_turn(side.opponent());
        if !hands_of(self.position.hop1zuo1(side))
            .minus(before)
            .is_empty()
        {
            self.pending = Some(side);
        }
        captured
    }

    /// Whether the side to move has any legal move. 皇 nearly always can move, which answers
    /// the question without generating every candidate.
    pub fn side_to_move_can_move(&self) -> bool {
        let pos = &self.position;
        if let Some(t) = pos.tam()
            && !(pos.tam_moved_last() && self.rules.tam_moved_again == FutileMove::Forbidden)
            && self.rules.tam_returns != FutileMove::Forbidden
            && t.neighbours().any(|n| pos.get(n).is_none())
        {
            return true;
        }
        !crate::moves::candidates(pos, pos.turn(), &self.rules).is_empty()
    }

    /// 再行 or 終季 after a hand; returns the points the mover gained (0 for 再行).
    pub fn declare(&mut self, d: Declaration) -> Result<i32, IllegalEvent> {
        let named = self.pending.map_or(0, |s| self.undeclared_points(s));
        self.declare_hands(d, named)
    }

    /// Points of the hands `side` holds beyond those already declared this season.
    pub fn undeclared_points(&self, side: Side) -> i32 {
        let held = hands_of(self.position.hop1zuo1(side)).points(self.rules.king_hand_points);
        (held - self.declared[side.index()]).max(0)
    }

    /// Like [`MatchState::declare`], naming hands worth `named_points` (what the hand line lists;
    /// it matters when 終季 scores declared hands only).
    pub fn declare_hands(
        &mut self,
        d: Declaration,
        named_points: i32,
    ) -> Result<i32, IllegalEvent> {
        let Some(mover) = self.pending.take() else {
            return Err(IllegalEvent::NothingToDeclare);
        };
        self.declared[mover.index()] += named_points;
        match d {
            Declaration::TyMok => {
                if self.rules.rate_doubles {
                    self.rate = (self.rate * 2).min(64);
                }
                Ok(0)
            }
            Declaration::TaXot => {
                let gain = self.season_gain(mover);
                self.transfer(mover, gain);
                self.season += 1;
                if self.season >= self.rules.seasons {
                    self.over = true;
                }
                self.rate = 1;
                self.penalties = [0; 2];
                self.declared = [0; 2];
                self.position = Position::startpos(mover.opponent());
                Ok(gain)
            }
        }
    }

    fn transfer(&mut self, to: Side, points: i32) {
        let total = self.scores[0] + self.scores[1];
        let mine = (self.scores[to.index()] + points).clamp(0, total.max(0));
        self.scores[to.index()] = mine;
        self.scores[to.opponent().index()] = total - mine;
        if mine == 0 || mine == total {
            self.over = true;
        }
    }
}
