//! One way to build a game's record as the game goes: the header, each move with its time
//! and comment, the ending. The link, the server's record keeper and the server client all
//! write their records through it, so the three agree on what a CSA record of a game holds.

use kifu_record::{
    Comment, CommentKind, EndingKind, HeaderEntry, HeaderField, NodeId, Span, TimeControl,
};
use kifu_records::shogi::{ShogiRecord, StartPosition};
use kifu_shogi::{Color, Move, Position, ShogiEnding};

use crate::plain_text::escape_controls;
use crate::server_protocol::{GameSummary, SummaryTime, TimeRule, TimeUnit};

/// Builds a [`ShogiRecord`] one step at a time, in the order a game happens.
///
/// Every text it is given (names, comments, notes) is written with its control characters
/// escaped: a record is read line by line, and a name or comment must not end a line early
/// (see [`crate::plain_text`]).
///
/// ```
/// use kifu_csa::record::RecordBuilder;
/// use kifu_record::{CommentKind, EndingKind, TimeControl};
/// use kifu_records::shogi::csa;
/// use kifu_shogi::Position;
///
/// let mut game = RecordBuilder::new(Position::startpos());
/// game.players("sente", "gote").time_control(TimeControl {
///     initial_ms: 600_000,
///     byoyomi_ms: 10_000,
///     increment_ms: 0,
/// });
/// let mv = game.position().parse_usi_move("7g7f").unwrap();
/// game.play(mv, Some(1_000)).comment(CommentKind::Engine, "-3334FU");
/// game.end(EndingKind::Resign, "");
/// let text = csa::write(&game.finish(), csa::CsaVersion::V30).text;
/// assert!(text.contains("N+sente\nN-gote\n"));
/// assert!(text.contains("+7776FU\nT1\n'** -3334FU\n%TORYO\n"));
/// ```
#[derive(Clone, Debug)]
pub struct RecordBuilder {
    record: ShogiRecord,
    /// The node the next move or ending follows.
    last: NodeId,
    /// The position after the moves so far: whose move it is decides which side's time
    /// unit a charge is in.
    position: Position,
    /// Milliseconds per unit of a charge, Black's then White's (1 until a summary's clocks
    /// say otherwise).
    unit_ms: [u64; 2],
}

impl RecordBuilder {
    /// A record of a game from `start`, with an empty header and no moves.
    pub fn new(start: Position) -> RecordBuilder {
        let record = ShogiRecord::new(StartPosition::custom(start.clone()));
        let last = record.moves.root();
        RecordBuilder {
            record,
            last,
            position: start,
            unit_ms: [1, 1],
        }
    }

    /// A record of the game a server's summary announces: its players, its id as the
    /// event, the start and end times given, its clocks and move limit, and the moves the
    /// summary lists as already played.
    pub fn from_summary(
        summary: &GameSummary,
        start_time: Option<&str>,
        end_time: Option<&str>,
    ) -> RecordBuilder {
        let mut builder = RecordBuilder::new(summary.position.start.clone());
        builder
            .players(&summary.black, &summary.white)
            .event(&summary.game_id);
        if let Some(t) = start_time {
            builder.start_time(t);
        }
        if let Some(t) = end_time {
            builder.end_time(t);
        }
        builder.summary_time(&summary.time);
        if summary.max_moves > 0 {
            builder.set(
                HeaderField::MaxMoves,
                "MAX_MOVES",
                summary.max_moves.to_string(),
            );
        }
        for (mv, charge) in &summary.position.moves {
            builder.play_charged(*mv, *charge);
        }
        builder
    }

    fn set(&mut self, field: HeaderField, key: &str, value: String) -> &mut Self {
        self.record.header.set(field, key, value);
        self
    }

    /// `N+` and `N-`.
    pub fn players(&mut self, black: &str, white: &str) -> &mut Self {
        self.set(HeaderField::FirstPlayer, "N+", plain(black)).set(
            HeaderField::SecondPlayer,
            "N-",
            plain(white),
        )
    }

    /// `$EVENT`.
    pub fn event(&mut self, event: &str) -> &mut Self {
        self.set(HeaderField::Event, "EVENT", plain(event))
    }

    /// `$START_TIME`, `YYYY/MM/DD HH:MM:SS` as [`super::timestamp`] writes it.
    pub fn start_time(&mut self, at: &str) -> &mut Self {
        self.set(HeaderField::StartTime, "START_TIME", plain(at))
    }

    /// `$END_TIME`, written like [`RecordBuilder::start_time`].
    pub fn end_time(&mut self, at: &str) -> &mut Self {
        self.set(HeaderField::EndTime, "END_TIME", plain(at))
    }

    /// `$TIME`: one time control for both sides, in milliseconds.
    pub fn time_control(&mut self, time: TimeControl) -> &mut Self {
        self.set(HeaderField::TimeControl, "TIME", time.to_csa_time())
    }

    /// A server summary's clocks as `$TIME` (or `$TIME+`/`$TIME-` when the sides differ;
    /// V2.2 writes `$TIME_LIMIT` where it can), with what CSA has no field for — a unit
    /// other than the second, `Least_Time_Per_Move`, `Delay`, `Time_Roundup` — as
    /// `'Key:value` comments, as shogi-server writes `'Least_Time_Per_Move:` and
    /// `'Increment:`. Charges of later moves ([`RecordBuilder::play_charged`]) are in these
    /// clocks' units.
    pub fn summary_time(&mut self, time: &SummaryTime) -> &mut Self {
        let rules: Vec<&TimeRule> = match time {
            SummaryTime::Both(r) => {
                self.set(HeaderField::TimeControl, "TIME", csa_time(r));
                vec![r]
            }
            SummaryTime::PerSide { black, white } => {
                self.set(HeaderField::FirstTimeControl, "TIME+", csa_time(black));
                self.set(HeaderField::SecondTimeControl, "TIME-", csa_time(white));
                vec![black, white]
            }
        };
        self.unit_ms = [Color::Black, Color::White].map(|c| time.of(c).unit.millis());
        for r in rules {
            if r.total.is_none() {
                self.extra("Total_Time", "unlimited".to_owned());
            }
            if r.unit != TimeUnit::SECOND {
                self.extra("Time_Unit", r.unit.to_string());
            }
            if r.least > 0 {
                self.extra("Least_Time_Per_Move", r.least.to_string());
            }
            if r.delay > 0 {
                self.extra("Delay", r.delay.to_string());
            }
            if r.roundup {
                self.extra("Time_Roundup", "YES".to_owned());
            }
        }
        self
    }

    /// A header entry CSA has no field for, written once however many sides' rules have it.
    fn extra(&mut self, key: &str, value: String) {
        let header = &mut self.record.header;
        if !header.entries().iter().any(|e| e.key == key) {
            header.push(HeaderEntry {
                key: key.to_owned(),
                value,
                field: None,
                span: Span::default(),
            });
        }
    }

    /// The next move and the time it took in milliseconds (`None` when unknown: no `T`
    /// line). The move is taken as legal: the game that produced it has judged it.
    pub fn play(&mut self, mv: Move, time_ms: Option<u64>) -> &mut Self {
        let tree = &mut self.record.moves;
        self.last = tree.add_move(self.last, mv, Span::default());
        tree[self.last].set_time_ms(time_ms);
        self.position.play_unchecked(mv);
        self
    }

    /// The next move and what the server charged for it, in the mover's unit of the
    /// summary's clocks ([`RecordBuilder::summary_time`]).
    pub fn play_charged(&mut self, mv: Move, charge: Option<u64>) -> &mut Self {
        let unit = self.unit_ms[self.position.turn() as usize];
        self.play(mv, charge.map(|t| t.saturating_mul(unit)))
    }

    /// A comment on the last move (or the ending, or the start before any move).
    pub fn comment(&mut self, kind: CommentKind, text: &str) -> &mut Self {
        self.record.moves[self.last]
            .comments_mut()
            .push(Comment::new(kind, plain(text), Span::default()));
        self
    }

    /// The ending, with a note for readers (a hidden `'` comment) unless `note` is empty.
    pub fn end(&mut self, kind: EndingKind<ShogiEnding>, note: &str) -> &mut Self {
        self.last = self
            .record
            .moves
            .add_ending(self.last, kind, Span::default());
        if !note.is_empty() {
            self.comment(CommentKind::Hidden, note);
        }
        self
    }

    /// The position after the moves so far.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The record so far.
    pub fn record(&self) -> &ShogiRecord {
        &self.record
    }

    /// The record, done.
    pub fn finish(self) -> ShogiRecord {
        self.record
    }
}

fn plain(text: &str) -> String {
    escape_controls(text).into_owned()
}

/// One side's rule as `$TIME`'s `total+byoyomi+increment` in seconds.
fn csa_time(rule: &TimeRule) -> String {
    let unit = rule.unit.millis();
    TimeControl {
        initial_ms: rule.total.unwrap_or(0).saturating_mul(unit),
        byoyomi_ms: rule.byoyomi.saturating_mul(unit),
        increment_ms: rule.increment.saturating_mul(unit),
    }
    .to_csa_time()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server_protocol::UnitBase;
    use kifu_records::shogi::csa;

    fn text(builder: RecordBuilder) -> String {
        csa::write(&builder.finish(), csa::CsaVersion::V30).text
    }

    #[test]
    fn charges_are_in_each_sides_unit_and_listed_moves_keep_unknown_times() {
        let minute = TimeRule {
            unit: TimeUnit {
                count: 1,
                base: UnitBase::Min,
            },
            total: Some(10),
            ..TimeRule::default()
        };
        let mut summary = GameSummary::new("g", "b", "w", TimeRule::default());
        summary.time = SummaryTime::PerSide {
            black: TimeRule::default(),
            white: minute,
        };
        let mut pos = summary.position.start.clone();
        for usi in ["7g7f", "3c3d"] {
            let mv = pos.parse_usi_move(usi).unwrap();
            pos.play_unchecked(mv);
            summary.position.moves.push((mv, None));
        }
        let mut game = RecordBuilder::from_summary(&summary, None, None);
        let mv = game.position().parse_usi_move("2g2f").unwrap();
        game.play_charged(mv, Some(2));
        let mv = game.position().parse_usi_move("8c8d").unwrap();
        game.play_charged(mv, Some(2));
        let text = text(game);
        assert!(
            text.contains("-3334FU\n+2726FU\nT2\n-8384FU\nT120\n"),
            "{text}"
        );
        assert!(text.contains("'Time_Unit:1min\n"), "{text}");
    }

    #[test]
    fn names_comments_and_notes_cannot_end_a_line() {
        let mut game = RecordBuilder::new(Position::startpos());
        game.players("a\nb", "c");
        let mv = game.position().parse_usi_move("7g7f").unwrap();
        game.play(mv, None)
            .comment(CommentKind::Engine, "1\r%TORYO");
        game.end(EndingKind::Abort, "lost\nline");
        let text = text(game);
        assert!(text.contains("N+a\\x0Ab\n"), "{text}");
        assert!(text.contains("'** 1\\x0D%TORYO\n"), "{text}");
        assert!(text.contains("%CHUDAN\n'lost\\x0Aline\n"), "{text}");
    }
}
