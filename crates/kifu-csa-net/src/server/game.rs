//! One game as the server judges it, sans-IO: lines from the players in, lines to each
//! player out, with shogi-server's wire forms (CSA server protocol 1.2.1: moves and time stamps, keep-alive, endings).

use kifu_shogi::ShogiEnding;
use std::collections::VecDeque;

use kifu_csa::server_protocol::{ClientMessage, GameSummary, MoveComment, Reason};
use kifu_record::{EndingKind, Side};
use kifu_shogi::{Color, DeclarationRule, Move, Position, Repetition};

use crate::clock::Clock;
use crate::plain_text::escape_controls;

/// Out-of-turn lines kept per player (shogi-server queues them); more are dropped.
const QUEUE_LIMIT: usize = 8;

/// A move as played, with its charge in time units and the player's comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The time it was charged, in the clock's units (`,T<t>` on the wire).
    pub t: u64,
    /// The mover's `,'` comment, as the record keeps it.
    pub comment: Option<MoveComment>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Why the game ended (`#RESIGN`, `#TIME_UP` …).
    pub reason: Reason,
    /// `None` for a draw (`#DRAW`) or the move limit (`#CENSORED`).
    pub winner: Option<Color>,
    /// The ending as the record writes it.
    pub record: EndingKind<ShogiEnding>,
    /// A plain note for the record (`ILLEGAL_MOVE(+7775FU): …`).
    pub note: String,
}

/// Lines to each player, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outbox {
    /// Black's lines, then White's.
    pub lines: [Vec<String>; 2],
}

impl Outbox {
    /// A line for `color` only.
    pub fn to(&mut self, color: Color, line: impl Into<String>) {
        self.lines[color.index()].push(line.into());
    }

    /// A line for both players.
    pub fn both(&mut self, line: impl Into<String>) {
        let line = line.into();
        self.lines[0].push(line.clone());
        self.lines[1].push(line);
    }

    /// `color`'s lines so far, leaving none.
    pub fn take(&mut self, color: Color) -> Vec<String> {
        std::mem::take(&mut self.lines[color.index()])
    }
}

/// The game between `START` and the result line, judged without any I/O: lines in, lines
/// for each player out.
///
/// ```
/// use kifu_csa::server_protocol::{ClientMessage, GameSummary};
/// use kifu_csa_net::game_name::GameName;
/// use kifu_csa_net::server::game::{Game, Outbox};
/// use kifu_shogi::Color;
///
/// let name = GameName::parse("test-600-10").unwrap();
/// let summary = GameSummary::new("test+1", "alice", "bob", name.time_rule());
/// let mut game = Game::new(summary, name.stopwatch, 0);
/// let mut out = Outbox::default();
/// // Black moves after 1.5 s; both hear the move with the time charged.
/// game.handle(Color::Black, ClientMessage::parse("+7776FU"), 1_500, &mut out);
/// assert_eq!(out.take(Color::White), ["+7776FU,T1"]);
/// assert_eq!(out.take(Color::Black), ["+7776FU,T1"]);
/// game.handle(Color::White, ClientMessage::parse("%TORYO"), 3_000, &mut out);
/// assert_eq!(out.take(Color::Black), ["%TORYO", "#RESIGN", "#WIN"]);
/// assert_eq!(game.ending().unwrap().winner, Some(Color::Black));
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    summary: GameSummary,
    position: Position,
    clock: Clock,
    moves: Vec<PlayedMove>,
    turn_start_ms: u64,
    ending: Option<Ending>,
    last_move: [Option<String>; 2],
    queue: [VecDeque<ClientMessage>; 2],
    gone: [bool; 2],
}

impl Game {
    /// A game with the summary's position, clocks and move limit; `stopwatch` selects the
    /// stop-watch arithmetic. The first mover's clock runs from `now_ms`.
    pub fn new(summary: GameSummary, stopwatch: bool, now_ms: u64) -> Game {
        let clock = Clock::new(
            summary.time.of(Color::Black).clone(),
            summary.time.of(Color::White).clone(),
            stopwatch,
        );
        Game::with_clock(summary, clock, now_ms)
    }

    /// [`Game::new`] with a clock of its own, for a game whose announced clock is not the
    /// one it is judged by: a stop-watch game announces no byoyomi while its clock rounds
    /// to one ([`GameName::clock_rule`](crate::game_name::GameName::clock_rule)).
    pub fn with_clock(summary: GameSummary, mut clock: Clock, now_ms: u64) -> Game {
        let mut position = summary.position.start.clone();
        for (mv, t) in &summary.position.moves {
            clock.commit(position.turn(), t.unwrap_or(0));
            position.play_unchecked(*mv);
        }
        Game {
            summary,
            position,
            clock,
            moves: Vec::new(),
            turn_start_ms: now_ms,
            ending: None,
            last_move: [None, None],
            queue: [VecDeque::new(), VecDeque::new()],
            gone: [false, false],
        }
    }

    /// The `Game_Summary` both players were sent.
    pub fn summary(&self) -> &GameSummary {
        &self.summary
    }

    /// The position as it stands.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far, with their times and comments.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// How the game ended, once it has.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// The game's clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    fn mover(&self) -> Color {
        self.position.turn()
    }

    /// The instant (ms, same origin as `now_ms`) at which the mover loses on time.
    pub fn deadline_ms(&self) -> Option<u64> {
        if self.ending.is_some() {
            return None;
        }
        let mover = self.mover();
        self.clock
            .deadline_ms(mover)
            .map(|d| self.turn_start_ms.saturating_add(d))
    }

    /// The timer fired (or any moment): ends the game if the mover's time is up.
    pub fn tick(&mut self, now_ms: u64, out: &mut Outbox) {
        if self.ending.is_none() && self.time_is_up(now_ms) {
            self.time_up(out);
        }
    }

    fn time_is_up(&self, now_ms: u64) -> bool {
        let mover = self.mover();
        let t = self
            .clock
            .charge(mover, now_ms.saturating_sub(self.turn_start_ms));
        self.clock.is_time_up(mover, t)
    }

    /// A line from `from`.
    pub fn handle(&mut self, from: Color, msg: ClientMessage, now_ms: u64, out: &mut Outbox) {
        if self.ending.is_some() {
            return;
        }
        match msg {
            ClientMessage::KeepAlive => {
                out.to(from, "");
                if from == self.mover() {
                    self.tick(now_ms, out);
                }
            }
            ClientMessage::Blank | ClientMessage::Agree(_) => {}
            ClientMessage::Login { .. } => out.to(from, "##[ERROR] you are already logged in"),
            ClientMessage::Unknown(text)
            | ClientMessage::Extended(text)
            | ClientMessage::Reject(Some(text)) => out.to(
                from,
                format!("##[ERROR] unknown command: {}", escape_controls(&text)),
            ),
            ClientMessage::Reject(None) | ClientMessage::Logout => {
                out.to(from, format!("##[ERROR] unknown command: {msg}"))
            }
            turn @ (ClientMessage::Move { .. }
            | ClientMessage::Resign
            | ClientMessage::Declare
            | ClientMessage::OtherCommand(_)
            | ClientMessage::BadMove { .. }) => {
                if from != self.mover() {
                    let repeated = matches!(&turn, ClientMessage::Move { mv, .. }
                        if self.last_move[from.index()].as_deref() == Some(mv.to_string().as_str()));
                    let queue = &mut self.queue[from.index()];
                    if !repeated && queue.len() < QUEUE_LIMIT {
                        queue.push_back(turn);
                    }
                    return;
                }
                self.turn(turn, now_ms, out);
                while self.ending.is_none() {
                    let Some(next) = self.queue[self.mover().index()].pop_front() else {
                        break;
                    };
                    self.turn(next, now_ms, out);
                }
            }
        }
    }

    /// A player's connection is gone. If it was to move it loses now; otherwise the game
    /// goes on until the opponent's next move, after which it loses.
    pub fn disconnect(&mut self, who: Color, now_ms: u64, out: &mut Outbox) {
        if self.ending.is_some() || self.gone[who.index()] {
            return;
        }
        self.gone[who.index()] = true;
        if who == self.mover() {
            self.tick(now_ms, out);
            if self.ending.is_none() {
                self.abandon(out);
            }
        }
    }

    /// Ends the game as interrupted (`#CHUDAN` to both, no winner), as the protocol's
    /// examples have a server do when it stops a game; `note` says why, for the record.
    pub fn interrupt(&mut self, note: &str, out: &mut Outbox) {
        if self.ending.is_some() {
            return;
        }
        out.both(format!("#{}", Reason::Chudan.token()));
        self.ending = Some(Ending {
            reason: Reason::Chudan,
            winner: None,
            record: EndingKind::Abort,
            note: note.to_owned(),
        });
    }

    fn abandon(&mut self, out: &mut Outbox) {
        let loser = self.mover();
        out.both("%TORYO");
        self.end(
            Reason::Resign,
            Some(loser.flip()),
            EndingKind::Resign,
            format!("{loser} disconnected"),
            out,
        );
    }

    fn turn(&mut self, msg: ClientMessage, now_ms: u64, out: &mut Outbox) {
        let mover = self.mover();
        let t = self
            .clock
            .charge(mover, now_ms.saturating_sub(self.turn_start_ms));
        if self.clock.is_time_up(mover, t) {
            self.time_up(out);
            return;
        }
        match msg {
            ClientMessage::Resign => {
                out.both("%TORYO");
                self.end(
                    Reason::Resign,
                    Some(mover.flip()),
                    EndingKind::Resign,
                    String::new(),
                    out,
                );
            }
            ClientMessage::Declare => {
                out.both(format!("%KACHI,T{t}"));
                out.both("%KACHI");
                match self.position.declaration(DeclarationRule::Points27) {
                    Ok(_) => self.end(
                        Reason::Jishogi,
                        Some(mover),
                        EndingKind::Game(ShogiEnding::DeclareWin),
                        String::new(),
                        out,
                    ),
                    Err(why) => self.end(
                        Reason::IllegalMove,
                        Some(mover.flip()),
                        EndingKind::IllegalMoveLoss,
                        format!("ILLEGAL_MOVE(%KACHI): {why}"),
                        out,
                    ),
                }
            }
            ClientMessage::Move { mv, comment } => match mv.to_move(&self.position) {
                Err(why) => self.illegal(&mv.to_string(), &why.to_string(), out),
                Ok(m) => self.play(m, mv.to_string(), t, comment, now_ms, out),
            },
            ClientMessage::BadMove { text, reason } => self.illegal(&text, &reason, out),
            ClientMessage::OtherCommand(text) => {
                self.illegal(&text, "not a command a player may send in a game", out)
            }
            _ => {}
        }
    }

    fn play(
        &mut self,
        m: Move,
        text: String,
        t: u64,
        comment: Option<MoveComment>,
        now_ms: u64,
        out: &mut Outbox,
    ) {
        let mover = self.mover();
        self.clock.commit(mover, t);
        self.position.play_unchecked(m);
        self.moves.push(PlayedMove { mv: m, t, comment });
        out.both(format!("{text},T{t}"));
        self.last_move[mover.index()] = Some(text);
        self.turn_start_ms = now_ms;
        let plies = self.summary.position.moves.len() + self.moves.len();
        match self.position.repetition() {
            Repetition::Draw => {
                return self.end(
                    Reason::Sennichite,
                    None,
                    EndingKind::Repetition,
                    String::new(),
                    out,
                );
            }
            Repetition::PerpetualCheck { loser } => {
                let side = if loser == Color::Black {
                    Side::First
                } else {
                    Side::Second
                };
                return self.end(
                    Reason::OuteSennichite,
                    Some(loser.flip()),
                    EndingKind::IllegalAction(side),
                    format!("OUTE_SENNICHITE: {loser} gave check with every move"),
                    out,
                );
            }
            Repetition::None => {}
        }
        let max = self.summary.max_moves as usize;
        if max > 0 && plies >= max {
            return self.end(
                Reason::MaxMoves,
                None,
                EndingKind::MaxMoves,
                String::new(),
                out,
            );
        }
        if self.gone[self.mover().index()] {
            self.abandon(out);
        }
    }

    fn illegal(&mut self, text: &str, why: &str, out: &mut Outbox) {
        let mover = self.mover();
        self.end(
            Reason::IllegalMove,
            Some(mover.flip()),
            EndingKind::IllegalMoveLoss,
            format!("ILLEGAL_MOVE({text}): {why}"),
            out,
        );
    }

    fn time_up(&mut self, out: &mut Outbox) {
        let mover = self.mover();
        self.end(
            Reason::TimeUp,
            Some(mover.flip()),
            EndingKind::TimeLoss,
            String::new(),
            out,
        );
    }

    fn end(
        &mut self,
        reason: Reason,
        winner: Option<Color>,
        record: EndingKind<ShogiEnding>,
        note: String,
        out: &mut Outbox,
    ) {
        out.both(format!("#{}", reason.token()));
        match winner {
            Some(w) => {
                out.to(w, "#WIN");
                out.to(w.flip(), "#LOSE");
            }
            None if reason == Reason::MaxMoves => out.both("#CENSORED"),
            None => out.both("#DRAW"),
        }
        self.ending = Some(Ending {
            reason,
            winner,
            record,
            note,
        });
    }
}
