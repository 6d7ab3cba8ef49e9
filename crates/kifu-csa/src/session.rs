//! The game as one side of the 1998 protocol sees it: a state machine without I/O.
//!
//! Feed it [`Event`]s with the current time in milliseconds (any monotonic origin) and it
//! pushes [`Action`]s: lines to send, requests to the local player, text to show, the end
//! of the game, and when to save the record. The driver owns the line, the player and the
//! clock source; this module owns every rule of the protocol.

use kifu_record::{EndingKind, TimeControl};
use kifu_shogi::ShogiEnding;
use kifu_shogi::{
    Color, DeclarationFailure, DeclarationRule, DeclarationVerdict, IllegalMove, Move, Position,
    Repetition,
};

use crate::clock::{self, Clocks};
use crate::lines::Line;
use crate::message::{Command, CsaMove, Message};

/// How this side plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The colour of the local player.
    pub me: Color,
    /// The local player is a person relaying a program without communication ability, so
    /// this side may send `%MATTA` and `%CHUDAN` (CSA 1998 communication protocol, (1)(b) and (8)).
    pub relay: bool,
    /// The opponent is such a relay, so its `%MATTA` is accepted. Between two programs
    /// playing directly a received `%MATTA` is refused: shown, then interruption.
    pub peer_relay: bool,
    /// The time control both sides play under (`None`: no clock).
    pub time: Option<TimeControl>,
    /// On its turn, this side claims `%SENNICHITE` by itself when the position repeats,
    /// and resigns by itself when it has no legal move (mated).
    pub automatic_endings: bool,
}

impl Config {
    /// Plays `me`, automatic endings on, no relay, no clock.
    pub fn new(me: Color) -> Config {
        Config {
            me,
            relay: false,
            peer_relay: false,
            time: None,
            automatic_endings: true,
        }
    }
}

/// What the local player (or its operator) decided on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play this move.
    Move(Move),
    /// `%TORYO`.
    Resign,
    /// `%SENNICHITE`: claim a repetition.
    ClaimRepetition,
    /// `%JISHOGI`: claim an impasse.
    Impasse,
    /// `%KACHI`: declare a win.
    DeclareWin,
    /// `%HIKIWAKE`: declare a draw.
    DeclareDraw,
    /// `%MATTA`: take back (a relay operator only).
    TakeBack,
    /// `%CHUDAN`: interrupt.
    Interrupt,
}

/// A saved game that cannot be resumed: a move the rules refuse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}: {source}")]
pub struct ResumeError {
    /// The ply (from 1) of the refused move.
    pub ply: usize,
    /// The rule it breaks.
    pub source: IllegalMove,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The opponent is confirmed ready to receive (CSA 1998 communication protocol, (4)): play starts.
    OpponentReady,
    /// A line arrived from the opponent.
    Received(Line),
    /// The local player decided (only meaningful after [`Action::Think`]).
    Local(Decision),
    /// The local operator interrupts (a key, a signal), whoever's turn it is.
    OperatorInterrupt,
    /// The line is gone (EOF, a pulled cable) or the local player failed.
    Failure(String),
    /// Time passes; lets the session notice a clock running out.
    Tick,
}

/// What the driver must do, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Send this message as one LF-terminated line.
    Send(Message),
    /// Ask the local player for a decision on the current position.
    Think,
    /// A ply was played (by either side): for display and logging.
    Played {
        /// Who played it.
        color: Color,
        /// The line as sent or received.
        line: String,
    },
    /// Show this to the operator.
    Show(String),
    /// The game is over; the session stays in [`State::Ended`].
    GameOver(GameEnd),
    /// Play stopped with the game unfinished; it can be resumed from the record.
    Interrupted(String),
    /// Write the record now.
    Save,
}

/// A result of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// This side won.
    Win(Color),
    /// A draw.
    Draw,
}

/// How the game ended: which command, sent by whom, and the result after judging it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The ending (resignation, repetition, declaration …).
    pub kind: EndingKind<ShogiEnding>,
    /// The side that sent the ending's command (or whose move caused it).
    pub by: Color,
    /// The result once judged.
    pub result: GameResult,
    /// Why, in words (e.g. the declaration's point count).
    pub reason: String,
}

/// Where the session stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// Waiting for the opponent to be ready.
    Setup,
    /// The local player is to move.
    Thinking,
    /// The opponent is to move.
    Receiving,
    /// The game is over.
    Ended(GameEnd),
    /// Play stopped unfinished, and why.
    Interrupted(String),
}

/// One side of a game under the 1998 protocol.
#[derive(Clone, Debug)]
pub struct Session {
    config: Config,
    start: Position,
    pos: Position,
    times_ms: Vec<u64>,
    state: State,
    turn_started_ms: u64,
    time_warned: bool,
}

impl Session {
    /// A game from `start` (an even game: `Position::startpos()`).
    pub fn new(config: Config, start: Position) -> Session {
        Session {
            config,
            pos: start.clone(),
            start,
            times_ms: Vec::new(),
            state: State::Setup,
            turn_started_ms: 0,
            time_warned: false,
        }
    }

    /// A game resumed after `moves` were played from `start`, each with the time it took.
    /// Fails on the first illegal move (by index).
    pub fn resume(
        config: Config,
        start: Position,
        moves: &[(Move, u64)],
    ) -> Result<Session, ResumeError> {
        let mut s = Session::new(config, start);
        for (i, &(mv, t)) in moves.iter().enumerate() {
            s.pos
                .play(mv)
                .map_err(|source| ResumeError { ply: i + 1, source })?;
            s.times_ms.push(t);
        }
        Ok(s)
    }

    /// The configuration the session was made with.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// Where the session stands.
    pub fn state(&self) -> &State {
        &self.state
    }
    /// The set-up position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }
    /// The current position, with the game's history.
    pub fn position(&self) -> &Position {
        &self.pos
    }
    /// The moves played since the start, each with the time it took.
    pub fn moves(&self) -> impl Iterator<Item = (Move, u64)> + '_ {
        self.pos.moves_played().zip(self.times_ms.iter().copied())
    }
    /// Where both clocks stand after the plies played.
    pub fn clocks(&self) -> Clocks {
        clock::clocks(self.config.time, self.start.turn(), &self.times_ms)
    }
    /// Milliseconds the side to move has been thinking on this ply at `now_ms`.
    pub fn elapsed_ms(&self, now_ms: u64) -> u64 {
        now_ms.saturating_sub(self.turn_started_ms)
    }

    /// Handles one event at time `now_ms`, pushing what to do onto `out`.
    pub fn handle(&mut self, event: Event, now_ms: u64, out: &mut Vec<Action>) {
        if matches!(self.state, State::Ended(_) | State::Interrupted(_)) {
            if let Event::Received(line) = event {
                out.push(Action::Show(format!(
                    "ignored after the game: {}",
                    describe(&line)
                )));
            }
            return;
        }
        match event {
            Event::OpponentReady => {
                if self.state == State::Setup {
                    self.begin(now_ms, out);
                }
            }
            Event::Received(line) => {
                if self.state == State::Setup {
                    self.begin(now_ms, out);
                }
                self.received(line, now_ms, out);
            }
            Event::Local(decision) => {
                if self.state == State::Thinking {
                    self.local(decision, now_ms, out);
                }
            }
            Event::OperatorInterrupt => {
                self.interrupt("interrupted by the operator".into(), out);
            }
            Event::Failure(why) => self.interrupt(why, out),
            Event::Tick => self.tick(now_ms, out),
        }
    }

    fn begin(&mut self, now_ms: u64, out: &mut Vec<Action>) {
        self.turn_started_ms = now_ms;
        if self.pos.turn() == self.config.me {
            self.enter_thinking(out);
        } else {
            self.state = State::Receiving;
        }
    }

    fn enter_thinking(&mut self, out: &mut Vec<Action>) {
        self.state = State::Thinking;
        self.time_warned = false;
        if self.config.automatic_endings {
            if !self.pos.has_legal_moves() {
                self.finish_local(Command::Resign, self.judge_resign(self.config.me), out);
                return;
            }
            if self.pos.repetition() != Repetition::None {
                let end = self.judge_repetition(self.config.me);
                if let Some(end) = end {
                    self.finish_local(Command::Repetition, end, out);
                    return;
                }
            }
        }
        out.push(Action::Think);
    }

    fn play(&mut self, mv: Move, now_ms: u64, out: &mut Vec<Action>) -> CsaMove {
        let line = CsaMove::from_move(&self.pos, mv);
        let color = self.pos.turn();
        self.pos.play_unchecked(mv);
        self.times_ms.push(self.elapsed_ms(now_ms));
        self.turn_started_ms = now_ms;
        out.push(Action::Played {
            color,
            line: line.to_string(),
        });
        line
    }

    fn retract_two(&mut self, now_ms: u64) {
        for _ in 0..2 {
            self.pos.undo();
            self.times_ms.pop();
        }
        self.turn_started_ms = now_ms;
    }

    fn local(&mut self, decision: Decision, now_ms: u64, out: &mut Vec<Action>) {
        let me = self.config.me;
        match decision {
            Decision::Move(mv) => {
                if let Err(e) = self.pos.check_move(mv) {
                    let text = format!("the local player chose an illegal move {mv}: {e}");
                    self.interrupt(text, out);
                    return;
                }
                let line = self.play(mv, now_ms, out);
                out.push(Action::Send(Message::Move(line)));
                out.push(Action::Save);
                if self.pos.repetition() != Repetition::None {
                    out.push(Action::Show(
                        "this move repeats the position: waiting for the opponent's %SENNICHITE"
                            .into(),
                    ));
                }
                self.state = State::Receiving;
            }
            Decision::Resign => self.finish_local(Command::Resign, self.judge_resign(me), out),
            Decision::Impasse => {
                let end = self.judge_impasse(me);
                self.finish_local(Command::Impasse, end, out)
            }
            Decision::ClaimRepetition => match self.judge_repetition(me) {
                Some(end) => self.finish_local(Command::Repetition, end, out),
                None => self.refuse(
                    "%SENNICHITE refused: the position has not occurred four times",
                    out,
                ),
            },
            Decision::DeclareWin => match self.judge_declaration(me, Command::DeclareWin) {
                Ok(end) => self.finish_local(Command::DeclareWin, end, out),
                Err(why) => self.refuse(&format!("%KACHI refused: {why}"), out),
            },
            Decision::DeclareDraw => match self.judge_declaration(me, Command::DeclareDraw) {
                Ok(end) => self.finish_local(Command::DeclareDraw, end, out),
                Err(why) => self.refuse(&format!("%HIKIWAKE refused: {why}"), out),
            },
            Decision::TakeBack => {
                if !self.config.relay {
                    self.refuse(
                        "%MATTA refused: only the relay of a program without communication may take back",
                        out,
                    );
                } else if self.pos.moves_played().len() < 2 {
                    self.refuse("%MATTA refused: fewer than two plies to take back", out);
                } else {
                    self.retract_two(now_ms);
                    out.push(Action::Send(Message::Command(Command::TakeBack)));
                    out.push(Action::Show("took back two plies".into()));
                    out.push(Action::Save);
                    self.enter_thinking(out);
                }
            }
            Decision::Interrupt => self.interrupt("interrupted by the local player".into(), out),
        }
    }

    fn refuse(&mut self, why: &str, out: &mut Vec<Action>) {
        out.push(Action::Show(why.to_owned()));
        out.push(Action::Think);
    }

    fn finish_local(&mut self, command: Command, end: GameEnd, out: &mut Vec<Action>) {
        out.push(Action::Send(Message::Command(command)));
        self.finish(end, out);
    }

    fn finish(&mut self, end: GameEnd, out: &mut Vec<Action>) {
        self.state = State::Ended(end.clone());
        out.push(Action::GameOver(end));
        out.push(Action::Save);
    }

    /// The interruption procedure: stop, keep the position and clocks, save.
    fn interrupt(&mut self, why: String, out: &mut Vec<Action>) {
        if self.config.relay {
            out.push(Action::Send(Message::Command(Command::Interrupt)));
        }
        self.state = State::Interrupted(why.clone());
        out.push(Action::Interrupted(why));
        out.push(Action::Save);
    }

    /// On a line it cannot accept, a program shows the operator what it received and then
    /// interrupts the game, as the CSA 1998 communication protocol asks of a program in trouble.
    fn trouble(&mut self, line: &Line, why: &str, out: &mut Vec<Action>) {
        let text = format!("received {}: {why}", describe(line));
        out.push(Action::Show(text.clone()));
        self.interrupt(text, out);
    }

    fn received(&mut self, line: Line, now_ms: u64, out: &mut Vec<Action>) {
        let message = match &line {
            Line::Text(bytes) => Message::parse_bytes(bytes),
            Line::TooLong { .. } => {
                self.trouble(&line, "the line is too long for the protocol", out);
                return;
            }
        };
        let message = match message {
            Ok(m) => m,
            Err(e) => {
                self.trouble(&line, &e.to_string(), out);
                return;
            }
        };
        let them = self.config.me.flip();
        let their_turn = self.state == State::Receiving;
        match message {
            Message::Command(Command::Interrupt) => {
                let note = if self.config.peer_relay {
                    "the opponent interrupted the game (%CHUDAN)"
                } else {
                    "the opponent interrupted the game (%CHUDAN, which programs playing directly should not send)"
                };
                self.interrupt(note.into(), out);
            }
            // A resignation is accepted whenever it comes.
            Message::Command(Command::Resign) => self.finish(self.judge_resign(them), out),
            _ if !their_turn => self.trouble(&line, "it is not the opponent's turn", out),
            Message::Move(m) => match m.to_move(&self.pos) {
                Ok(mv) => {
                    self.play(mv, now_ms, out);
                    out.push(Action::Save);
                    self.enter_thinking(out);
                }
                Err(e) => self.trouble(&line, &format!("illegal move: {e}"), out),
            },
            Message::Command(Command::TakeBack) => {
                if !self.config.peer_relay {
                    self.trouble(
                        &line,
                        "take-back is not accepted between programs playing directly",
                        out,
                    );
                } else if self.pos.moves_played().len() < 2 {
                    self.trouble(&line, "fewer than two plies to take back", out);
                } else {
                    self.retract_two(now_ms);
                    out.push(Action::Show("the opponent took back two plies".into()));
                    out.push(Action::Save);
                }
            }
            Message::Command(Command::Repetition) => match self.judge_repetition(them) {
                Some(end) => self.finish(end, out),
                None => self.trouble(&line, "the position has not occurred four times", out),
            },
            Message::Command(Command::Impasse) => self.finish(self.judge_impasse(them), out),
            Message::Command(c @ (Command::DeclareWin | Command::DeclareDraw)) => {
                match self.judge_declaration(them, c) {
                    Ok(end) => self.finish(end, out),
                    // A failed %KACHI is a foul that loses (the CSA rule); the record says so.
                    Err(why) if c == Command::DeclareWin => self.finish(
                        GameEnd {
                            kind: EndingKind::IllegalMoveLoss,
                            by: them,
                            result: GameResult::Win(self.config.me),
                            reason: format!("the declaration fails, so its maker loses: {why}"),
                        },
                        out,
                    ),
                    Err(why) => self.trouble(&line, &format!("the declaration fails: {why}"), out),
                }
            }
        }
    }

    fn tick(&mut self, now_ms: u64, out: &mut Vec<Action>) {
        if self.time_warned || !matches!(self.state, State::Thinking | State::Receiving) {
            return;
        }
        let mover = self.pos.turn();
        let clocks = self.clocks();
        if clock::is_out_of_time(self.config.time, &clocks, mover, self.elapsed_ms(now_ms)) {
            self.time_warned = true;
            out.push(Action::Show(format!(
                "{mover} has used up its time (the tournament rules judge this; the protocol has no message for it)"
            )));
        }
    }

    fn judge_resign(&self, by: Color) -> GameEnd {
        GameEnd {
            kind: EndingKind::Resign,
            by,
            result: GameResult::Win(by.flip()),
            reason: format!("{by} resigned"),
        }
    }

    fn judge_impasse(&self, by: Color) -> GameEnd {
        GameEnd {
            kind: EndingKind::Game(ShogiEnding::Impasse),
            by,
            result: GameResult::Draw,
            reason: format!("{by} judged the position drawn (%JISHOGI)"),
        }
    }

    /// `None` when the current position is not a fourfold repetition.
    fn judge_repetition(&self, by: Color) -> Option<GameEnd> {
        let (result, reason) = match self.pos.repetition() {
            Repetition::None => return None,
            Repetition::Draw => (GameResult::Draw, "fourfold repetition".to_owned()),
            Repetition::PerpetualCheck { loser } => (
                GameResult::Win(loser.flip()),
                format!("fourfold repetition by perpetual check: {loser} loses"),
            ),
        };
        Some(GameEnd {
            kind: EndingKind::Repetition,
            by,
            result,
            reason,
        })
    }

    /// `%KACHI` is judged by the 27-point rule; `%HIKIWAKE` stands when the declarer meets
    /// the 24-point rule's draw (or win) conditions.
    fn judge_declaration(
        &self,
        by: Color,
        command: Command,
    ) -> Result<GameEnd, DeclarationFailure> {
        let (rule, kind) = match command {
            Command::DeclareWin => (
                DeclarationRule::Points27,
                EndingKind::Game(ShogiEnding::DeclareWin),
            ),
            _ => (
                DeclarationRule::Points24,
                EndingKind::Game(ShogiEnding::DeclareDraw),
            ),
        };
        let (verdict, count) = self.pos.declaration(rule)?;
        let result = match (kind.clone(), verdict) {
            (EndingKind::Game(ShogiEnding::DeclareWin), DeclarationVerdict::Win) => {
                GameResult::Win(by)
            }
            _ => GameResult::Draw,
        };
        Ok(GameEnd {
            kind,
            by,
            result,
            reason: format!(
                "{by} declared with {} points and {} pieces in the enemy camp",
                count.points, count.pieces_in_camp
            ),
        })
    }
}

fn describe(line: &Line) -> String {
    match line {
        Line::Text(bytes) => format!("`{}`", String::from_utf8_lossy(bytes).escape_debug()),
        Line::TooLong { start, length } => format!(
            "a line of {length} bytes starting `{}`",
            String::from_utf8_lossy(start).escape_debug()
        ),
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
