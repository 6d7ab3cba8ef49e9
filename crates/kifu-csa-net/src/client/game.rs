//! One game as the bridge plays it: the server's moves booked on the client's copy of the
//! clock, the engine asked to think (`go`) or to ponder on the reply it expects
//! (`go ponder`, then `ponderhit` when the opponent plays it, `stop` and the answer thrown
//! away when not), and its answers sent with eval/PV comments.

use kifu_csa::CsaMove;
use kifu_csa::server_protocol::{
    ClientMessage, Clock, GameSummary, Reason, ServerMessage, SummaryTime, TimeRule, TimeUnit,
    UnitBase, Verdict,
};
use kifu_csa::usi::{
    BestMove, EngineEvent, GameOver, GoTimes, PerMove, PositionCommand, TimePolicy, server_go_times,
};
use kifu_shogi::{Color, Move, Position};

use crate::client::record::Played;
use crate::client::{ClientConfig, ClientError, Link};
use crate::game_name::GameName;
use kifu_engines::process::{Engine, EngineError, Thought};

/// The game as the client follows it.
pub(crate) struct Table {
    pub summary: GameSummary,
    position: Position,
    clock: Clock,
    pub played: Vec<Played>,
    usi_moves: Vec<String>,
    pub reason: Option<Reason>,
}

/// Whether the game is in shogi-server's stop-watch mode, which only the game name inside
/// the Game_ID tells (`wdoor+test-1500-060+alice+bob+…`: a leading zero in the last
/// number). shogi-server then announces `Time_Unit:1min` while every number (and every
/// `,T`) is in seconds (CSA server protocol 1.2.1, Time_Unit); the units are put right here.
/// The rounding unit is the name's last number, in seconds: shogi-server announces it as
/// `Byoyomi`, kifu's server as `Byoyomi:0` (it is no byoyomi); the clock takes it from the
/// name either way.
fn stopwatch(summary: &mut GameSummary) -> bool {
    let Some(name) = summary
        .game_id
        .split('+')
        .nth(1)
        .and_then(GameName::parse)
        .filter(|g| g.stopwatch && !g.fischer)
    else {
        return false;
    };
    let minute = TimeUnit {
        count: 1,
        base: UnitBase::Min,
    };
    let seconds = |r: &mut TimeRule| {
        if r.unit == minute {
            r.unit = TimeUnit::SECOND;
        }
        if r.unit == TimeUnit::SECOND {
            r.byoyomi = name.last;
        }
    };
    match &mut summary.time {
        SummaryTime::Both(r) => seconds(r),
        SummaryTime::PerSide { black, white } => {
            seconds(black);
            seconds(white);
        }
    }
    true
}

/// The most any time field may stand for: about 139 years. A summary may say anything;
/// clamping here keeps every product of a number and its unit far from overflowing in the
/// clock's arithmetic.
const LONGEST_MS: u64 = 1 << 42;

fn bounded(rule: &mut TimeRule) {
    let most = LONGEST_MS / rule.unit.millis().max(1);
    for n in [
        &mut rule.byoyomi,
        &mut rule.increment,
        &mut rule.delay,
        &mut rule.least,
    ] {
        *n = (*n).min(most);
    }
    if let Some(total) = &mut rule.total {
        *total = (*total).min(most);
    }
}

impl Table {
    pub fn new(mut summary: GameSummary) -> Table {
        let stopwatch = stopwatch(&mut summary);
        match &mut summary.time {
            SummaryTime::Both(r) => bounded(r),
            SummaryTime::PerSide { black, white } => {
                bounded(black);
                bounded(white);
            }
        }
        let mut clock = Clock::new(
            summary.time.of(Color::Black).clone(),
            summary.time.of(Color::White).clone(),
            stopwatch,
        );
        let mut position = summary.position.start.clone();
        let mut usi_moves = Vec::new();
        // The listed moves' charges count (the server charges them too: skipping them overestimates).
        for (mv, t) in &summary.position.moves {
            clock.commit(position.turn(), t.unwrap_or(0));
            usi_moves.push(mv.usi());
            position.play_unchecked(*mv);
        }
        Table {
            summary,
            position,
            clock,
            played: Vec::new(),
            usi_moves,
            reason: None,
        }
    }

    /// `position sfen … moves …` (always an SFEN: the summary may set up any position).
    fn position_command(&self) -> PositionCommand {
        PositionCommand::sfen(&self.summary.position.start, self.usi_moves.iter().cloned())
    }

    /// The times of `go` or `go ponder` for our side. Our clock only changes when we move,
    /// so the times computed while the opponent thinks are already those of our next turn:
    /// the engine, told `ponderhit`, starts counting its time from then. An unlimited clock
    /// still gives the engine a limit: ten seconds a move.
    fn go_times(&self, config: &ClientConfig) -> GoTimes {
        let policy = TimePolicy {
            margin_ms: config.margin_ms,
            cap_ms: config.time_cap_ms,
        };
        server_go_times(&self.clock, self.summary.your_turn, policy).unwrap_or(GoTimes {
            btime: 0,
            wtime: 0,
            per_move: PerMove::Byoyomi(10_000),
        })
    }

    pub async fn play(
        &mut self,
        config: &ClientConfig,
        engine: &mut Engine,
        link: &mut Link,
    ) -> Result<(Option<Reason>, Option<Verdict>), ClientError> {
        let me = self.summary.your_turn;
        let mut sent = false;
        let mut my_comment: Option<String> = None;
        let mut expected_reply: Option<String> = None;
        loop {
            if self.position.turn() == me && !engine.protocol().is_searching() && !sent {
                let times = self.go_times(config);
                engine
                    .protocol()
                    .go(&self.position_command(), &times)
                    .map_err(EngineError::from)?;
                engine.flush().await?;
            }
            let ping_at = link.last_sent + config.keepalive;
            tokio::select! {
                line = link.lines.next_line() => {
                    let line = line?.ok_or(ClientError::Closed)?;
                    match ServerMessage::parse(&line) {
                        ServerMessage::Move { mv, time } => {
                            let m = mv.to_move(&self.position).map_err(|e| {
                                ClientError::Protocol(format!("the server relayed {mv}: {e}"))
                            })?;
                            let mover = self.position.turn();
                            let t = time.unwrap_or(0);
                            self.clock.commit(mover, t);
                            let comment = if mover == me { my_comment.take() } else { None };
                            self.played.push(Played { mv: m, t, comment });
                            self.usi_moves.push(m.usi());
                            self.position.play_unchecked(m);
                            if mover == me {
                                sent = false;
                                let reply = expected_reply.take().filter(|r| {
                                    config.ponder && self.position.parse_usi_move(r).is_ok()
                                });
                                if let Some(reply) = reply {
                                    let times = self.go_times(config);
                                    let position = self.position_command().then(&reply);
                                    engine
                                        .protocol()
                                        .go_ponder(&position, &reply, &times)
                                        .map_err(EngineError::from)?;
                                    engine.flush().await?;
                                }
                            } else {
                                // `ponderhit` on the expected reply, `stop` on another.
                                engine.protocol().opponent_moved(&m.usi());
                                engine.flush().await?;
                            }
                        }
                        ServerMessage::Reason(r) => {
                            let chudan = r == Reason::Chudan;
                            self.reason = Some(r);
                            if chudan {
                                engine.stop().await;
                                return Ok((self.reason.clone(), None));
                            }
                        }
                        ServerMessage::Result(v) => {
                            engine.stop().await;
                            engine.protocol().game_over(match v {
                                Verdict::Win => GameOver::Win,
                                Verdict::Lose => GameOver::Lose,
                                Verdict::Draw | Verdict::Censored => GameOver::Draw,
                            });
                            engine.flush().await?;
                            return Ok((self.reason.clone(), Some(v)));
                        }
                        _ => {}
                    }
                }
                event = engine.next_event(), if engine.protocol().is_searching() => {
                    // A `bestmove` after `stop`, or one that answered a ponder search before
                    // `ponderhit`, is thrown away by the protocol.
                    if let Some(EngineEvent::BestMove(mut thought)) = event? {
                        let (msg, comment) = self.answer(&thought, config.comments);
                        expected_reply = thought.ponder.take();
                        my_comment = comment;
                        link.send(&msg.to_string()).await?;
                        sent = true;
                    }
                }
                _ = tokio::time::sleep_until(ping_at) => link.send("").await?,
            }
        }
    }

    /// The line for the engine's `bestmove`, and the comment kept for the record.
    /// An illegal `bestmove` resigns: the server would take it as a loss anyway, and
    /// `%TORYO` says so plainly.
    fn answer(&self, thought: &Thought, comments: bool) -> (ClientMessage, Option<String>) {
        match thought.best(&self.position) {
            Ok(BestMove::Win) => (ClientMessage::Declare, None),
            Ok(BestMove::Resign) | Err(_) => (ClientMessage::Resign, None),
            Ok(BestMove::Move(mv)) => {
                let comment = comment(&self.position, mv, thought);
                let csa = CsaMove::from_move(&self.position, mv);
                let sent = if comments { comment.clone() } else { None };
                (ClientMessage::mv(csa, sent), comment)
            }
        }
    }
}

/// The longest move line the bridge sends, comment included. shogi-server reads lines of
/// any length, but other servers cut them short (kifu's own server took 256 bytes before it
/// took 8 KiB, and a cut line loses the game): 256 bytes hold the move, the score and a PV of
/// about 28 plies, which is as far as a PV says anything.
pub const MAX_MOVE_LINE: usize = 256;

/// `<score> <pv in CSA>`, the score from Black's side (floodgate's convention); the PV is cut
/// at a whole move so that `<move>,'* <comment>` stays within [`MAX_MOVE_LINE`].
fn comment(pos: &Position, best: Move, thought: &Thought) -> Option<String> {
    let score = thought.score?;
    let score = if pos.turn() == Color::White {
        // An engine may print any i64; negating i64::MIN would overflow.
        score.saturating_neg()
    } else {
        score
    };
    let mut text = score.to_string();
    let mut p = pos.clone();
    let pv = match thought.pv.split_first() {
        Some((first, rest)) if *first == best.usi() => rest,
        _ => &thought.pv[..],
    };
    p.play_unchecked(best);
    // `+7776FU,'* ` before the comment.
    let room = MAX_MOVE_LINE - ",'* ".len() - CsaMove::from_move(pos, best).to_string().len();
    for m in pv {
        let Ok(mv) = p.parse_usi_move(m) else { break };
        let csa = CsaMove::from_move(&p, mv).to_string();
        if text.len() + 1 + csa.len() > room {
            break;
        }
        text.push(' ');
        text.push_str(&csa);
        p.play_unchecked(mv);
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        let time = TimeRule {
            total: Some(60),
            byoyomi: 10,
            ..TimeRule::default()
        };
        Table::new(GameSummary::new("g", "a", "b", time))
    }

    #[test]
    fn position_commands_with_and_without_a_reply() {
        let mut t = table();
        let start = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        assert_eq!(t.position_command().to_string(), start);
        assert_eq!(
            t.position_command().then("7g7f").to_string(),
            format!("{start} moves 7g7f")
        );
        t.usi_moves.push("7g7f".to_owned());
        assert_eq!(
            t.position_command().then("3c3d").to_string(),
            format!("{start} moves 7g7f 3c3d")
        );
    }

    #[test]
    fn comments_give_the_score_from_blacks_side_and_the_pv_in_csa() {
        let mut pos = Position::startpos();
        let mv = pos.parse_usi_move("7g7f").unwrap();
        pos.play_unchecked(mv);
        let reply = pos.parse_usi_move("3c3d").unwrap();
        let thought = Thought {
            bestmove: "3c3d".to_owned(),
            score: Some(42),
            pv: vec!["3c3d".into(), "2g2f".into()],
            ponder: Some("2g2f".into()),
        };
        assert_eq!(
            comment(&pos, reply, &thought).as_deref(),
            Some("-42 +2726FU")
        );
    }

    #[test]
    fn bestmove_win_declares_resign_resigns_and_a_move_is_sent_with_its_comment() {
        let t = table();
        let thought = |best: &str| Thought {
            bestmove: best.to_owned(),
            score: Some(-15),
            pv: vec![best.to_owned(), "3c3d".to_owned()],
            ponder: None,
        };
        assert_eq!(t.answer(&thought("win"), true).0, ClientMessage::Declare);
        assert_eq!(t.answer(&thought("resign"), true).0, ClientMessage::Resign);
        let (msg, kept) = t.answer(&thought("7g7f"), true);
        assert_eq!(msg.to_string(), "+7776FU,'* -15 -3334FU");
        assert_eq!(kept.as_deref(), Some("-15 -3334FU"));
        let (msg, kept) = t.answer(&thought("7g7f"), false);
        assert_eq!(msg.to_string(), "+7776FU");
        assert_eq!(kept.as_deref(), Some("-15 -3334FU"));
    }

    #[test]
    fn an_absurd_score_from_white_saturates_instead_of_overflowing() {
        let mut pos = Position::startpos();
        let first = pos.parse_usi_move("7g7f").unwrap();
        pos.play_unchecked(first);
        let best = pos.parse_usi_move("3c3d").unwrap();
        let thought = Thought {
            bestmove: "3c3d".to_owned(),
            score: Some(i64::MIN),
            pv: vec!["3c3d".to_owned(), "8h2b+".to_owned()],
            ponder: None,
        };
        assert_eq!(
            comment(&pos, best, &thought).as_deref(),
            Some("9223372036854775807 +8822UM")
        );
    }

    #[test]
    fn a_long_pv_is_cut_at_a_whole_move_to_keep_the_line_within_the_bound() {
        let pos = Position::startpos();
        let best = pos.parse_usi_move("2h1h").unwrap();
        // Rooks shuffling: a legal PV of any length.
        let mut pv = vec!["2h1h".to_owned()];
        for i in 0..100 {
            pv.push(["8b9b", "1h2h", "9b8b", "2h1h"][i % 4].to_owned());
        }
        let thought = Thought {
            bestmove: "2h1h".to_owned(),
            score: Some(-123_456),
            pv,
            ponder: None,
        };
        let text = comment(&pos, best, &thought).unwrap();
        let line = ClientMessage::mv(CsaMove::from_move(&pos, best), Some(text.clone()));
        let line = line.to_string();
        assert!(line.len() <= MAX_MOVE_LINE, "{} bytes", line.len());
        assert!(
            line.len() > MAX_MOVE_LINE - 8,
            "{} bytes: room left",
            line.len()
        );
        assert!(text.starts_with("-123456 -8292HI +1828HI"), "{text}");
        assert!(text.ends_with("HI"), "a whole move at the end: {text}");
    }

    /// shogi-server's summary for `test-1500-060`: `Time_Unit:1min` over numbers in seconds.
    #[test]
    fn shogi_server_stopwatch_games_are_read_in_seconds() {
        let time = TimeRule {
            unit: TimeUnit::parse("1min").unwrap(),
            total: Some(1500),
            byoyomi: 60,
            ..TimeRule::default()
        };
        let summary = GameSummary::new("wdoor+test-1500-060+a+b+20240101000000", "a", "b", time);
        let mut t = Table::new(summary);
        assert_eq!(t.summary.time.of(Color::Black).unit, TimeUnit::SECOND);
        let config = ClientConfig::new("h", 1, "a", "", "e");
        // 1500 s; a move is charged whole minutes, and loses once the charge reaches what
        // is left, so btime + byoyomi never goes past 1500 s less the margin.
        assert_eq!(
            t.go_times(&config).to_string(),
            "btime 1440000 wtime 1500000 byoyomi 57500"
        );
        for _ in 0..12 {
            t.clock.commit(Color::Black, 120);
        }
        t.clock.commit(Color::Black, 0);
        assert_eq!(t.clock.remaining(Color::Black), 60);
        assert_eq!(
            t.go_times(&config).to_string(),
            "btime 0 wtime 1500000 byoyomi 57500"
        );
        // A Fischer game or a normal byoyomi game keeps its announced unit.
        let time = TimeRule {
            unit: TimeUnit::parse("1min").unwrap(),
            total: Some(10),
            byoyomi: 1,
            ..TimeRule::default()
        };
        let t = Table::new(GameSummary::new("wdoor+test-10-1+a+b+1", "a", "b", time));
        assert_eq!(t.summary.time.of(Color::White).unit.millis(), 60_000);
        // kifu's server announces the same game in seconds without a byoyomi; the clock
        // is the same.
        let time = TimeRule {
            total: Some(1500),
            byoyomi: 0,
            ..TimeRule::default()
        };
        let summary = GameSummary::new("kifu+test-1500-060+a+b+1", "a", "b", time);
        let t = Table::new(summary);
        assert_eq!(
            t.go_times(&config).to_string(),
            "btime 1440000 wtime 1500000 byoyomi 57500"
        );
    }

    #[test]
    fn absurd_time_fields_are_clamped_instead_of_overflowing() {
        let huge = TimeRule {
            unit: TimeUnit::parse("4294967295min").unwrap(),
            total: Some(u64::MAX),
            byoyomi: u64::MAX,
            increment: 0,
            delay: u64::MAX,
            least: u64::MAX,
            roundup: true,
        };
        let mut summary = GameSummary::new("g", "a", "b", huge.clone());
        summary.time = SummaryTime::PerSide {
            black: huge.clone(),
            white: TimeRule {
                increment: u64::MAX,
                ..huge
            },
        };
        let mut t = Table::new(summary);
        let config = ClientConfig::new("h", 1, "a", "", "e");
        for color in [Color::Black, Color::White] {
            let go = t.go_times(&config).to_string();
            assert!(go.starts_with("btime "), "{go}");
            t.summary.your_turn = Color::White;
            t.clock.commit(color, u64::MAX);
        }
        assert!(t.go_times(&config).to_string().starts_with("btime "));
    }
}
