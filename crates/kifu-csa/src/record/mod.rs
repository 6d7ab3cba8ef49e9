//! The game as a CSA record file: written after every ply and at the end (interrupted games
//! included, with `%CHUDAN`), and read back to resume.
//!
//! Writing and reading go through kifu's own CSA format module, so a record written here
//! is checked by the same reader every other kifu command uses. [`RecordBuilder`] builds
//! the record as a game goes, for this crate's sessions and for server games alike.

mod builder;

use kifu_record::{Diagnostic, EndingKind, HeaderField, NodeItem};
use kifu_records::shogi::{ShogiRecord, csa};
use kifu_shogi::ShogiEnding;
use kifu_shogi::{Color, Move, Position};

use crate::session::{Config, ResumeError, Session, State};

pub use builder::RecordBuilder;

/// Names and times for the header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// Black's name (`N+`).
    pub black: String,
    /// White's name (`N-`).
    pub white: String,
    /// `YYYY/MM/DD HH:MM:SS`, as CSA writes it.
    pub start_time: Option<String>,
}

/// The session's game as a record: start position, every ply with its time, and the ending
/// (`%CHUDAN` when interrupted, none while play goes on).
pub fn to_record(session: &Session, header: &Header) -> ShogiRecord {
    let mut game = RecordBuilder::new(session.start().clone());
    game.players(&header.black, &header.white);
    if let Some(t) = &header.start_time {
        game.start_time(t);
    }
    if let Some(tc) = session.config().time {
        game.time_control(tc);
    }
    for (mv, ms) in session.moves() {
        game.play(mv, Some(ms));
    }
    let mover = session.position().turn();
    match session.state() {
        State::Ended(end) => {
            let mut note = end.reason.clone();
            if end.by != mover {
                note = format!("{note} (sent by {} out of turn)", end.by);
            }
            game.end(end.kind.clone(), &note);
        }
        State::Interrupted(why) => {
            game.end(EndingKind::Abort, why);
        }
        _ => {}
    }
    game.finish()
}

/// The CSA V3.0 text of the session's game (millisecond times, so a resume is exact).
pub fn write(session: &Session, header: &Header) -> String {
    csa::write(&to_record(session, header), csa::CsaVersion::V30).text
}

/// `YYYY/MM/DD HH:MM:SS` (UTC) for a moment, as CSA's `$START_TIME` writes it.
pub fn timestamp(at: std::time::SystemTime) -> String {
    // Only a moment past the years a civil date shows fails; it reads as the epoch.
    let at = jiff::Timestamp::try_from(at).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    jiff::tz::TimeZone::UTC
        .to_datetime(at)
        .strftime("%Y/%m/%d %H:%M:%S")
        .to_string()
}

/// What a saved record holds for a restart.
#[derive(Clone, Debug)]
pub struct Saved {
    /// The set-up position.
    pub start: Position,
    /// Every ply, with its time in milliseconds (0 where the record has none).
    pub moves: Vec<(Move, u64)>,
    /// The names and start time.
    pub header: Header,
    /// How the record ended (`Abort` for an interrupted game).
    pub ending: Option<EndingKind<ShogiEnding>>,
    /// The time control the game was played under (`$TIME`), if the record says.
    pub time: Option<kifu_record::TimeControl>,
}

impl Saved {
    /// Takes back the last `plies` plies: the side that played more moves than its opponent
    /// received retracts to the common position, and its clock with it (CSA 1998 communication protocol, (6)).
    pub fn retract(&mut self, plies: usize) {
        let keep = self.moves.len().saturating_sub(plies);
        self.moves.truncate(keep);
    }

    /// The session that continues this game. After an interruption play goes on from the
    /// last position with the whole history; after a repetition (CSA 1998 communication protocol, (5)(b)) the game
    /// restarts from that position as a new game, without the history that repeated.
    pub fn into_session(self, config: Config) -> Result<Session, ResumeError> {
        let resumed = Session::resume(config, self.start, &self.moves)?;
        if self.ending == Some(EndingKind::Repetition) {
            return Ok(Session::new(config, resumed.position().without_history()));
        }
        Ok(resumed)
    }

    /// The side to move once the saved moves are replayed.
    pub fn side_to_move(&self) -> Color {
        if self.moves.len().is_multiple_of(2) {
            self.start.turn()
        } else {
            self.start.turn().flip()
        }
    }
}

/// Why a saved record cannot be read for resuming.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The record has an error (the first one, with its place in the text).
    #[error("the record has errors: {}", diagnostic.message)]
    Invalid {
        /// The first error.
        diagnostic: Diagnostic,
    },
    /// The text holds no game.
    #[error("the record holds no game")]
    Empty,
}

/// Reads a record written by [`write()`] (or any CSA record) for resuming.
pub fn read(text: &str) -> Result<Saved, ReadError> {
    let parsed = csa::read(text);
    if let Some(e) = parsed.diagnostics.iter().find(|d| d.is_error()) {
        return Err(ReadError::Invalid {
            diagnostic: e.clone(),
        });
    }
    let record = parsed.records.into_iter().next().ok_or(ReadError::Empty)?;
    let mut moves = Vec::new();
    let mut ending = None;
    for id in record.moves.main_line() {
        let node = &record.moves[id];
        match &node.item {
            NodeItem::Move(mv) => moves.push((*mv, node.time_ms().unwrap_or(0))),
            NodeItem::End(kind) => ending = Some(kind.clone()),
            NodeItem::Start => {}
        }
    }
    let name = |f| record.header.get(f).unwrap_or_default().to_owned();
    Ok(Saved {
        start: record.start.position.clone(),
        moves,
        header: Header {
            black: name(HeaderField::FirstPlayer),
            white: name(HeaderField::SecondPlayer),
            start_time: record.header.get(HeaderField::StartTime).map(str::to_owned),
        },
        ending,
        time: record.header.time_control(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::Line;
    use crate::session::{Decision, Event};
    use kifu_record::TimeControl;

    fn played(me: Color, moves: &[&str]) -> Session {
        let mut config = Config::new(me);
        config.time = Some(TimeControl {
            initial_ms: 600_000,
            byoyomi_ms: 10_000,
            increment_ms: 0,
        });
        let mut s = Session::new(config, Position::startpos());
        let mut out = Vec::new();
        let mut now = 0;
        s.handle(Event::OpponentReady, now, &mut out);
        for m in moves {
            now += 1_250;
            let mv = s.position().parse_usi_move(m).unwrap();
            let line = crate::message::CsaMove::from_move(s.position(), mv).to_string();
            let event = if s.position().turn() == me {
                Event::Local(Decision::Move(mv))
            } else {
                Event::Received(Line::Text(line.into_bytes()))
            };
            s.handle(event, now, &mut out);
        }
        s
    }

    fn header() -> Header {
        Header {
            black: "kifu".into(),
            white: "peer".into(),
            start_time: Some("2026/11/22 07:00:00".into()),
        }
    }

    #[test]
    fn a_finished_game_is_written_with_times_and_ending() {
        let mut s = played(Color::Black, &["7g7f", "3c3d"]);
        let mut out = Vec::new();
        s.handle(Event::Local(Decision::Resign), 10_000, &mut out);
        let text = write(&s, &header());
        assert!(text.contains("N+kifu\nN-peer\n"), "{text}");
        assert!(text.contains("$TIME:600+10+0"), "{text}");
        assert!(
            text.contains("+7776FU\nT1.25\n-3334FU\nT1.25\n%TORYO\n"),
            "{text}"
        );
        let saved = read(&text).unwrap();
        assert_eq!(saved.ending, Some(EndingKind::Resign));
        assert_eq!(saved.moves.len(), 2);
        assert_eq!(saved.moves[1].1, 1_250);
        assert_eq!(saved.header, header());
        assert_eq!(saved.time, s.config().time);
    }

    #[test]
    fn an_interrupted_game_resumes_with_its_clocks() {
        let mut s = played(Color::White, &["7g7f", "3c3d", "2g2f"]);
        let mut out = Vec::new();
        s.handle(Event::OperatorInterrupt, 9_000, &mut out);
        let text = write(&s, &header());
        assert!(text.contains("%CHUDAN"), "{text}");
        let saved = read(&text).unwrap();
        assert_eq!(saved.ending, Some(EndingKind::Abort));
        let resumed = Session::resume(*s.config(), saved.start.clone(), &saved.moves).unwrap();
        assert_eq!(resumed.position(), s.position());
        assert_eq!(resumed.clocks(), s.clocks());
        // Black's 2g2f never reached White's side: Black retracts it, time included.
        let mut behind = saved.clone();
        behind.retract(1);
        assert_eq!(behind.side_to_move(), Color::Black);
        let r = Session::resume(*s.config(), behind.start, &behind.moves).unwrap();
        assert_eq!(r.clocks().used_ms, [1_250, 1_250]);
    }

    #[test]
    fn after_a_repetition_the_game_restarts_from_that_position() {
        let cycle = ["5i4h", "5a4b", "4h5i", "4b5a"];
        let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
        let mut s = played(Color::Black, &moves);
        assert!(matches!(s.state(), State::Ended(_)), "{:?}", s.state());
        let saved = read(&write(&s, &header())).unwrap();
        assert_eq!(saved.ending, Some(EndingKind::Repetition));
        s = saved.into_session(*s.config()).unwrap();
        assert_eq!(s.moves().count(), 0);
        assert_eq!(s.position().repetition_count(), 1);
        let board = |p: &Position| p.to_sfen().rsplit_once(' ').unwrap().0.to_owned();
        assert_eq!(board(s.start()), board(&Position::startpos()));
    }

    #[test]
    fn timestamps_are_civil_dates() {
        let at = |s| std::time::UNIX_EPOCH + std::time::Duration::from_secs(s);
        assert_eq!(timestamp(at(0)), "1970/01/01 00:00:00");
        assert_eq!(timestamp(at(951_782_400)), "2000/02/29 00:00:00");
        assert_eq!(timestamp(at(1_795_334_400 + 3_723)), "2026/11/22 09:02:03");
    }

    #[test]
    fn a_game_in_progress_has_no_ending() {
        let s = played(Color::Black, &["7g7f"]);
        let saved = read(&write(&s, &header())).unwrap();
        assert_eq!(saved.ending, None);
        assert!(read("garbage\n").is_err() || read("garbage\n").unwrap().moves.is_empty());
    }
}
