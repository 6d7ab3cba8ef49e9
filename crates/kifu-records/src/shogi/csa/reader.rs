//! Building records from CSA statements and replaying their moves with the rules.

use kifu_record::{
    Comment, CommentKind, Diagnostic, DiagnosticKind, EndingKind, Header, HeaderEntry, HeaderField,
    MoveTree, RecordCheck, Side, Span, holds_no_game,
};
use kifu_shogi::ShogiEnding;

use super::setup::{Setup, even_position};
use super::syntax::{Statement, Statements, header_line, move_line, time_line};
use crate::shogi::line::{Line, Tally};
use crate::shogi::main_line::{MainLine, MainLineMoves, checked_diagnostics};
use crate::shogi::replay::Replay;
use crate::shogi::{Parsed, RecordRead, ShogiRecord, StartPosition, side_of};
use kifu_shogi::notation::csa::{CsaMove, CsaMoveError};
use kifu_shogi::{HistoryRoom, Move, Position};

/// Reads every record of a CSA text (records are separated by `/` lines).
pub fn read(text: &str) -> Parsed {
    Parsed::collect(Records::new(text))
}

/// The records of a CSA text one at a time (what [`crate::shogi::csa::CSA`] hands out):
/// each is built, replayed and handed out with its own diagnostics before the next is read.
pub struct Records<'t>(Reading<'t, MoveTree<Move, ShogiEnding>>);

impl<'t> Records<'t> {
    /// The records of `text`, none read yet.
    pub fn new(text: &'t str) -> Records<'t> {
        Records(Reading::new(text))
    }
}

impl Iterator for Records<'_> {
    type Item = RecordRead;

    fn next(&mut self) -> Option<RecordRead> {
        let read = self.0.next_record()?;
        let record = ShogiRecord {
            header: read.header,
            start: read.start.map_or_else(even_start, |start| *start),
            start_span: read.start_span,
            moves: read.moves,
        };
        Some(RecordRead::checked(record, read.diagnostics, read.at))
    }
}

/// What [`Records`] finds in each record of a CSA text, without building the records: the
/// moves are replayed under the full rules but kept nowhere (`kifu check`).
pub struct Checks<'t>(Reading<'t, Tally>);

impl<'t> Checks<'t> {
    /// The records of `text`, none checked yet.
    pub fn new(text: &'t str) -> Checks<'t> {
        Checks(Reading::new(text))
    }
}

impl Iterator for Checks<'_> {
    type Item = RecordCheck;

    fn next(&mut self) -> Option<RecordCheck> {
        let read = self.0.next_record()?;
        Some(RecordCheck::checked(
            read.moves.moves(),
            read.moves.len(),
            read.start_span,
            read.known_header_field,
            read.diagnostics,
            read.at,
        ))
    }
}

/// The main line of each record of a CSA text, replayed once as it is read, with no move
/// tree built ([`crate::shogi::main_lines`]).
pub struct MainLines<'t>(Reading<'t, MainLineMoves>);

impl<'t> MainLines<'t> {
    /// The records of `text`, none read yet.
    pub fn new(text: &'t str) -> MainLines<'t> {
        MainLines(Reading::new(text))
    }
}

impl Iterator for MainLines<'_> {
    type Item = MainLine;

    fn next(&mut self) -> Option<MainLine> {
        let read = self.0.next_record()?;
        let diagnostics = checked_diagnostics(
            read.moves.len(),
            read.start_span,
            read.known_header_field,
            read.diagnostics,
            read.at,
        );
        let start = read.start.map_or_else(even_start, |start| *start);
        Some(MainLine::new(read.header, start, read.moves, diagnostics))
    }
}

/// One record's parts as read, its moves kept in `L`.
struct Read<L> {
    /// The header, kept only when `L` keeps the record ([`Line::KEEPS_RECORD`]).
    header: Header,
    /// Whether the header has a field kifu knows (kept or not).
    known_header_field: bool,
    /// The start position, `None` for the even-game start: a check of a large archive of
    /// even games copies no start position at all, and a record copies it once. Boxed, as
    /// in the builder: a record's parts are moved on their way out, and a position held in
    /// place would be most of the bytes moved.
    start: Option<Box<StartPosition>>,
    start_span: Span,
    moves: L,
    diagnostics: Vec<Diagnostic>,
    /// Where the record starts in the text.
    at: usize,
}

/// Reading the records of a CSA text in order, replaying each into a line of play `L`.
struct Reading<'t, L: Line> {
    text: &'t str,
    statements: Statements<'t>,
    /// The first statement of the next record, when it was read as the end of the previous
    /// one (a record that starts without a `/` before it).
    carried: Option<(Statement<'t>, Span)>,
    /// Diagnostics that belong to the next record.
    carried_diagnostics: Vec<Diagnostic>,
    /// Where the next record starts.
    from: usize,
    /// The nodes of the last record read (0 before the first).
    last_nodes: usize,
    yielded: bool,
    done: bool,
    line: std::marker::PhantomData<L>,
}

impl<'t, L: Line> Reading<'t, L> {
    fn new(text: &'t str) -> Reading<'t, L> {
        Reading {
            text,
            statements: Statements::new(text),
            carried: None,
            carried_diagnostics: Vec::new(),
            from: 0,
            last_nodes: 0,
            yielded: false,
            done: false,
            line: std::marker::PhantomData,
        }
    }

    fn next_record(&mut self) -> Option<Read<L>> {
        while !self.done {
            let start = self.from;
            // After the first record of an archive, the last one's size is the better guess:
            // the rest of the text holds every game left, and a record kept in memory keeps
            // the room it was given (a 20,000-game archive read whole took 2.3 GB with room
            // for 8 KB of text each).
            let nodes = match self.last_nodes {
                0 => estimate_nodes(self.text.len().saturating_sub(start)),
                last => last + last / 4,
            };
            let mut builder = Builder::<L>::new(self.text, nodes);
            builder.diags.append(&mut self.carried_diagnostics);
            if let Some((statement, span)) = self.carried.take() {
                builder.statement(statement, span);
            }
            let mut separated = false;
            loop {
                // Moves and times alone on their lines, most of a record, straight from
                // their bytes; anything else through the general statement parser.
                builder.common_lines(&mut self.statements);
                let Some((statement, span)) = self.statements.next() else {
                    break;
                };
                if matches!(statement, Statement::Separator) {
                    self.from = span.end as usize;
                    separated = true;
                    break;
                }
                if builder.starts_another_record(&statement) {
                    self.carried_diagnostics.push(Diagnostic::error(
                        DiagnosticKind::Syntax,
                        span,
                        "a new record starts here without a `/` line ending the one before",
                    ));
                    self.from = span.start as usize;
                    self.carried = Some((statement, span));
                    separated = true;
                    break;
                }
                builder.statement(statement, span);
            }
            self.done = !separated;
            let has_content = builder.has_content();
            // `finish` by its parts: the builder is not moved whole (1.6 KB) into a call.
            builder.close();
            SPARE_HISTORY.set(Some(builder.line.position.take_history_room()));
            let mut read = Read {
                header: builder.header,
                known_header_field: builder.known_header_field,
                start: builder.start,
                start_span: builder.start_span,
                moves: builder.moves,
                diagnostics: builder.diags,
                at: start,
            };
            if has_content {
                self.last_nodes = read.moves.len();
                if read.is_empty() && self.yielded {
                    // Only comments between two separators: not a game.
                    read.diagnostics.push(Diagnostic::warning(
                        DiagnosticKind::NoRecord,
                        Span::point(start),
                        "text between `/` separators holds no game; its comments are ignored",
                    ));
                    self.carried_diagnostics.append(&mut read.diagnostics);
                    continue;
                }
                self.yielded = true;
                return Some(read);
            }
            self.carried_diagnostics.append(&mut read.diagnostics);
        }
        if !self.yielded {
            self.yielded = true;
            let mut read = Builder::<L>::new(self.text, 1).finish(0);
            read.diagnostics = std::mem::take(&mut self.carried_diagnostics);
            return Some(read);
        }
        None
    }
}

impl<L: Line> Read<L> {
    /// [`kifu_record::Record::is_empty`] of the record these parts make.
    fn is_empty(&self) -> bool {
        holds_no_game(self.moves.len(), self.start_span, self.known_header_field)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    Header,
    Position,
    Moves,
}

struct Builder<'t, L: Line> {
    text: &'t str,
    diags: Vec<Diagnostic>,
    header: Header,
    known_header_field: bool,
    /// A start position other than the even game's, once the position lines give one.
    start: Option<Box<StartPosition>>,
    start_span: Span,
    moves: L,
    /// The position lines read so far, `None` before the first: most records start with
    /// `PI`, whose setup is made from the even game's board at once
    /// ([`Setup::starting_even`]), with no empty board made first.
    setup: Option<Setup>,
    phase: Phase,
    line: Replay<L>,
    v3: bool,
    content: bool,
}

/// Header lines most CSA games have (`N+`, `N-`, `$EVENT`, `$SITE`, `$START_TIME`,
/// `$END_TIME`, `$TIME_LIMIT`, `$OPENING`).
const HEADER_LINES: usize = 8;

/// Room for the nodes of a record of which `rest` bytes are left in the text: roughly one move
/// per 13 bytes in files with times, capped so that junk does not reserve much.
fn estimate_nodes(rest: usize) -> usize {
    (rest.min(8192) / 10).clamp(16, 1024)
}

impl<'t, L: Line> Builder<'t, L> {
    /// A builder for a record of `text`, with room for about `nodes` nodes.
    // Inlined, like `finish` and `start_of_replay`: the builder (about 1.6 KB, most of it
    // the replay's position) is then made where it stays, not made and copied.
    #[inline(always)]
    fn new(text: &'t str, nodes: usize) -> Builder<'t, L> {
        let mut header = Header::new();
        if L::KEEPS_RECORD {
            // A CSA game names its players, event and times: room for the usual lines at once.
            header.entries_mut().reserve(HEADER_LINES);
        }
        let moves = L::with_capacity(nodes);
        let line = Replay::new(start_of_replay(), moves.root());
        Builder {
            text,
            diags: Vec::new(),
            header,
            known_header_field: false,
            start: None,
            start_span: Span::default(),
            moves,
            setup: None,
            phase: Phase::Header,
            line,
            v3: false,
            content: false,
        }
    }

    fn has_content(&self) -> bool {
        self.content
    }

    /// True for a statement that can only begin a record (a version, a name, a position)
    /// when this record already has moves: the `/` between two records is missing. Reading
    /// it as a new record reports the cause once instead of every line of the second game.
    fn starts_another_record(&self, statement: &Statement<'_>) -> bool {
        matches!(
            statement,
            Statement::Version(_)
                | Statement::Name(..)
                | Statement::Even { .. }
                | Statement::Rank { .. }
        ) && self.phase == Phase::Moves
            && self.moves.len() > 1
    }

    // Inlined into the record loop: it runs for every statement of every file.
    #[inline(always)]
    fn statement(&mut self, statement: Statement<'_>, span: Span) {
        if !matches!(statement, Statement::Encoding(_)) {
            self.content = true;
        }
        match statement {
            Statement::Encoding(_) => {}
            Statement::Version(v) => {
                match v {
                    "2" | "2.1" | "2.2" => {}
                    "3.0" | "3" => self.v3 = true,
                    _ => self.diags.push(Diagnostic::warning(
                        DiagnosticKind::Unknown,
                        span,
                        format!("unknown CSA version `V{v}`; read as V3.0"),
                    )),
                }
                if v.starts_with('3') {
                    self.v3 = true;
                }
                if self.phase > Phase::Header {
                    self.diags.push(Diagnostic::warning(
                        DiagnosticKind::Syntax,
                        span,
                        "the version line should come first",
                    ));
                }
            }
            Statement::Name(side, name) => {
                let (key, field) = match side {
                    Side::First => ("N+", HeaderField::FirstPlayer),
                    Side::Second => ("N-", HeaderField::SecondPlayer),
                };
                self.header(key, name, Some(field), span);
            }
            Statement::Info { key: "NOTE", value } => {
                let note = unescape_note(value);
                self.header("NOTE", &note, Some(HeaderField::Note), span);
            }
            Statement::Info { key, value } => {
                self.header(key, value, info_field(key), span);
            }
            Statement::Even { removed } => {
                if self.position_line(span) {
                    match &mut self.setup {
                        Some(setup) => setup.even(removed, span, &mut self.diags),
                        None => {
                            self.setup = Some(Setup::starting_even(removed, span, &mut self.diags));
                        }
                    }
                }
            }
            Statement::Rank { rank, cells } => {
                if self.position_line(span) {
                    self.setup.get_or_insert_with(Setup::default).rank(
                        rank,
                        cells,
                        span,
                        &mut self.diags,
                    );
                }
            }
            Statement::Pieces(side, body) => {
                if self.position_line(span) {
                    self.setup.get_or_insert_with(Setup::default).pieces(
                        side,
                        body,
                        span,
                        &mut self.diags,
                    );
                }
            }
            Statement::Turn(side) => {
                if self.phase == Phase::Moves {
                    self.diags.push(Diagnostic::error(
                        DiagnosticKind::Syntax,
                        span,
                        "a second side-to-move line; the position was already set",
                    ));
                    return;
                }
                self.start_moves(side, span);
            }
            Statement::Move(mv) => self.play(mv, span),
            Statement::Special(token) => self.ending(token, span),
            Statement::Time(t) => self.time(t, span),
            Statement::Comment(kind, text) => self.comment(kind, text, span),
            Statement::Separator => {}
            Statement::Invalid(reason) => {
                self.diags
                    .push(Diagnostic::error(DiagnosticKind::Syntax, span, reason));
            }
        }
    }

    /// Reads the move and time lines that come next, each alone on its line, as
    /// [`Builder::statement`] would read their statements.
    ///
    /// While the line of play is open, the moves the rules allow and the time after each go
    /// straight into the line ([`Builder::accept_moves`]); a line that stops that run (a
    /// move that does not fit the position, a time that follows no move just accepted) goes
    /// through [`Builder::play`] or [`Builder::time_ms`], which report it, and the run
    /// resumes after it if the line is still open. Both ways leave the line and the
    /// diagnostics the same: the fast way is only taken where the general one would find
    /// nothing to say.
    #[inline(always)]
    fn common_lines(&mut self, statements: &mut Statements<'_>) {
        // Before the moves, a move or time line is rare and the general path reads it as
        // it would here ([`Statements::next`] knows their shapes too): the header's lines
        // are read by their own fast way, and the moves' only once the side to move is given.
        if self.phase != Phase::Moves {
            self.header_lines(statements);
            if self.phase != Phase::Moves {
                return;
            }
        }
        let Some((at, ahead_text)) = statements.ahead_text() else {
            return;
        };
        let ahead = ahead_text.as_bytes();
        // The lines not read yet; `at + read(rest)` is where they start in the text.
        let mut rest = ahead;
        let read = |rest: &[u8]| ahead.len() - rest.len();
        loop {
            if self.phase == Phase::Moves && !self.line.is_closed() {
                rest = self.accept_moves(rest, at + read(rest));
            }
            if let Some((text, next)) = move_line(rest) {
                // A move the run did not take, or one after the line closed: the general
                // path reads and reports it (or the line is not a move).
                let Some(m) = CsaMove::parse_well_formed(text) else {
                    break;
                };
                let start = at + read(rest);
                self.play(Ok(m), Span::new(start, start + 7));
                rest = &rest[next..];
            } else if let Some((seconds, len, next)) = time_line(rest) {
                // A time that does not follow a move accepted here (a second time, a time
                // after a comment or an illegal move): the general path says what it is.
                let start = at + read(rest);
                self.time_ms(seconds * 1000, Span::new(start, start + len));
                rest = &rest[next..];
            } else if rest.first() == Some(&b'%')
                && let Some((Statement::Special(word), len, next)) =
                    ahead_text.get(read(rest)..).and_then(header_line)
            {
                // The record's ending (`%TORYO`), read as the general path reads it.
                let start = at + read(rest);
                self.ending(word, Span::new(start, start + len));
                rest = &rest[next..];
            } else {
                break;
            }
        }
        let read = read(rest);
        if read > 0 {
            self.content = true;
            statements.pass(read);
        }
    }

    /// Reads the header lines that come next ([`header_line`]: the version, names, game
    /// information, position lines, the side to move, comments) as [`Builder::statement`]
    /// reads their statements from the general path, until a line is not one of them or the
    /// side to move is given. Before the moves none of these can start another record, so
    /// the general path's check for a missing `/` has nothing to find here.
    #[inline(always)]
    fn header_lines(&mut self, statements: &mut Statements<'_>) {
        let Some((at, ahead)) = statements.ahead_text() else {
            return;
        };
        let mut read = 0;
        while self.phase != Phase::Moves {
            let Some((statement, len, next)) = ahead.get(read..).and_then(header_line) else {
                break;
            };
            let start = at + read;
            self.statement(statement, Span::new(start, start + len));
            read += next;
        }
        statements.pass(read);
    }

    /// Accepts the moves at the start of `rest` (which starts at `at` in the text), each a
    /// well-formed move alone on its line that names a move of the side to move the rules
    /// allow, with the time on the line after it, until a line is not such a move or the
    /// line of play closes (the fourth occurrence of a position). The line must be open.
    /// Returns the lines after the last move (or time) accepted.
    ///
    /// Nearly every line of a record passes here: the move is named, resolved against the
    /// board and checked by the rules in one pass over its seven bytes, with no statement,
    /// no per-line state and no span built for a line that keeps none.
    #[inline(always)]
    fn accept_moves<'r>(&mut self, mut rest: &'r [u8], at: usize) -> &'r [u8] {
        let len = rest.len();
        while let Some((text, after)) = rest.split_first_chunk::<7>() {
            let Some((mv, irreversible)) =
                CsaMove::resolve_well_formed_ply(text, &self.line.position)
            else {
                break;
            };
            let next = match after {
                [b'\n', next @ ..] | [b'\r', b'\n', next @ ..] => next,
                _ => break,
            };
            if self.line.position.check_move(mv).is_err() {
                break;
            }
            // The span is made here only: a line that keeps no spans (a tally) pays nothing.
            let start = at + (len - rest.len());
            let open = self.line.accept_ply(
                &mut self.moves,
                mv,
                Span::new(start, start + 7),
                irreversible,
            );
            rest = next;
            // Its time, on the next line in nearly every game that has times: set on the
            // move just accepted, which has none yet.
            if let Some((seconds, _, next)) = time_line(rest) {
                self.moves
                    .set_time(self.line.cursor, Some(seconds * 1000), None);
                rest = &rest[next..];
            }
            if !open {
                break;
            }
        }
        rest
    }

    fn header(&mut self, key: &str, value: &str, field: Option<HeaderField>, span: Span) {
        self.known_header_field |= field.is_some();
        if !L::KEEPS_RECORD {
            return;
        }
        self.header.push(HeaderEntry {
            key: key.to_owned(),
            value: value.to_owned(),
            field,
            span,
        });
    }

    /// True if a position line is allowed here.
    fn position_line(&mut self, span: Span) -> bool {
        if self.phase == Phase::Moves {
            self.diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                span,
                "a position line after the side to move was given",
            ));
            return false;
        }
        if self.phase == Phase::Header {
            self.start_span = span;
        } else {
            self.start_span = self.start_span.join(span);
        }
        self.phase = Phase::Position;
        true
    }

    fn start_moves(&mut self, side: Side, span: Span) {
        let started = self.setup.as_ref().filter(|setup| setup.started);
        if started.is_some_and(|setup| setup.is_plain_even(side)) {
            // The record and the line already start from the even-game start (`Builder::new`),
            // with the line's history room reserved: nothing to copy.
            self.start_span = self.start_span.join(span);
        } else if let Some(setup) = started {
            self.start_span = self.start_span.join(span);
            let start = setup.finish(side, self.start_span, &mut self.diags);
            self.line.position.clone_from(&start.position);
            self.start = Some(Box::new(start));
            self.line
                .position
                .reserve(crate::shogi::replay::MOVES_RESERVED);
        } else {
            self.diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                span,
                "no start position before the side to move; assumed the even-game start",
            ));
            if side == Side::Second {
                self.diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    span,
                    "the even-game start has 先手 to move",
                ));
            }
            self.start_span = span;
        }
        self.phase = Phase::Moves;
    }

    /// True once a position line was read.
    fn setup_started(&self) -> bool {
        self.setup.as_ref().is_some_and(|setup| setup.started)
    }

    // Every move and ending asks; only a record whose moves come first answers no.
    #[inline(always)]
    fn ensure_moves_phase(&mut self, span: Span) {
        if self.phase != Phase::Moves {
            self.start_moves_unannounced(span);
        }
    }

    #[cold]
    fn start_moves_unannounced(&mut self, span: Span) {
        if self.setup_started() {
            self.diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                Span::point(span.start as usize),
                "the side to move (`+` or `-` alone) is missing before the moves",
            ));
            let side = side_of(self.line.position.turn());
            self.start_moves(side, Span::point(span.start as usize));
        } else {
            self.diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                Span::point(span.start as usize),
                "no start position; assumed the even-game start",
            ));
            self.phase = Phase::Moves;
        }
    }

    // Like `statement`: one call site, every move of every file (cachegrind: -1.5%).
    #[inline(always)]
    fn play(&mut self, m: Result<CsaMove, CsaMoveError>, span: Span) {
        self.ensure_moves_phase(span);
        let resolved = if self.line.is_closed() {
            Err((None, String::new()))
        } else {
            m.map_err(|unreadable| (None, unreadable.to_string()))
                .and_then(|m| to_move(&self.line.position, &m))
        };
        self.line
            .play(&mut self.moves, resolved, span, self.text, &mut self.diags);
    }

    fn ending(&mut self, token: &str, span: Span) {
        self.ensure_moves_phase(span);
        // An unknown `%` word is kept (with a warning) only if nothing follows it: see Replay.
        let kind = ending_kind(token);
        self.line.end(&mut self.moves, kind, span, &mut self.diags);
    }

    #[inline(always)]
    fn time(&mut self, t: &str, span: Span) {
        let Some(ms) = parse_time(t, self.v3) else {
            self.diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                span,
                "a time line is `T` and whole seconds (V3.0: up to three decimals)",
            ));
            return;
        };
        self.time_ms(ms, span);
    }

    #[inline(always)]
    fn time_ms(&mut self, ms: u64, span: Span) {
        if self.line.time(&mut self.moves, Some(ms), None).is_err() {
            self.diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                span,
                "a time line that follows no move; ignored",
            ));
        }
    }

    fn comment(&mut self, kind: CommentKind, text: &str, span: Span) {
        self.line
            .comment(&mut self.moves, Comment::new(kind, text, span));
    }

    /// The record's parts, its line closed ([`Builder::close`]) and its history's room kept for
    /// the next record read on this thread.
    fn finish(mut self, at: usize) -> Read<L> {
        self.close();
        SPARE_HISTORY.set(Some(self.line.position.take_history_room()));
        Read {
            header: self.header,
            known_header_field: self.known_header_field,
            start: self.start,
            start_span: self.start_span,
            moves: self.moves,
            diagnostics: self.diags,
            at,
        }
    }

    /// Ends the record: a position with no side to move gets one, and the line reports
    /// what it still holds back.
    #[inline(always)]
    fn close(&mut self) {
        if self.phase != Phase::Moves && self.setup_started() {
            let at = self.start_span.end as usize;
            self.diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                Span::point(at),
                "the side to move (`+` or `-` alone) is missing after the position",
            ));
            self.start_moves(side_of(kifu_shogi::Color::Black), Span::point(at));
        }
        self.line.finish(&mut self.moves, &mut self.diags);
        self.moves.finish_at(&self.line.position);
    }
}

thread_local! {
    /// The room the history of the last record's replay had ([`crate::shogi::replay::MOVES_RESERVED`]
    /// moves), kept for the next record read on this thread: `kifu check` over a directory
    /// reads one record a file, and allocating and freeing that room for each was about 550
    /// instructions a record. (Keeping the whole position instead copied its 500 bytes into
    /// and out of here for every record.)
    static SPARE_HISTORY: std::cell::Cell<Option<HistoryRoom>> = const { std::cell::Cell::new(None) };
}

/// The even game's start for a new record's replay, with the room of the last record's
/// history when this thread has read one.
#[inline(always)]
fn start_of_replay() -> Position {
    let mut position = even_position().clone();
    if let Some(room) = SPARE_HISTORY.take() {
        position.give_history_room(room);
    }
    position
}

/// The even game's start, for a record whose position lines named no other.
fn even_start() -> StartPosition {
    StartPosition {
        position: even_position().clone(),
        handicap: Some(kifu_shogi::Handicap::Even),
    }
}

/// `$NOTE` escapes: `\n` is a newline and `\\` a backslash (V3.0).
fn unescape_note(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn info_field(key: &str) -> Option<HeaderField> {
    Some(match key {
        "EVENT" => HeaderField::Event,
        "SITE" => HeaderField::Site,
        "START_TIME" => HeaderField::StartTime,
        "END_TIME" => HeaderField::EndTime,
        "TIME_LIMIT" | "TIME" => HeaderField::TimeControl,
        "TIME+" | "TIMET+" => HeaderField::FirstTimeControl,
        "TIME-" | "TIMET-" => HeaderField::SecondTimeControl,
        "OPENING" => HeaderField::Opening,
        "MAX_MOVES" => HeaderField::MaxMoves,
        "JISHOGI" => HeaderField::Rules,
        "NOTE" => HeaderField::Note,
        _ => return None,
    })
}

/// The ending a `%` token names (without the `%`).
pub fn ending_kind(token: &str) -> EndingKind<ShogiEnding> {
    match token {
        "TORYO" => EndingKind::Resign,
        "CHUDAN" => EndingKind::Abort,
        "SENNICHITE" => EndingKind::Repetition,
        "JISHOGI" => EndingKind::Game(ShogiEnding::Impasse),
        "TSUMI" => EndingKind::Checkmate,
        "FUZUMI" => EndingKind::NoCheckmate,
        "ERROR" => EndingKind::Error,
        "MATTA" => EndingKind::TakeBack,
        "KACHI" => EndingKind::Game(ShogiEnding::DeclareWin),
        "HIKIWAKE" => EndingKind::Game(ShogiEnding::DeclareDraw),
        "TIME_UP" => EndingKind::TimeLoss,
        "ILLEGAL_MOVE" => EndingKind::IllegalMoveLoss,
        "+ILLEGAL_ACTION" => EndingKind::IllegalAction(Side::First),
        "-ILLEGAL_ACTION" => EndingKind::IllegalAction(Side::Second),
        "MAX_MOVES" => EndingKind::MaxMoves,
        other => EndingKind::Unknown(other.to_owned()),
    }
}

/// `T` seconds → milliseconds. Before V3.0 fractions are not allowed by the format; they are
/// read anyway (files in the wild have them) and truncated to whole seconds. Any count of
/// seconds the line can hold is accepted: `T8640000` is 100 days.
fn parse_time(t: &str, v3: bool) -> Option<u64> {
    // Whole seconds, as nearly every time line is: up to 15 digits cannot overflow.
    if !t.is_empty() && t.len() <= 15 && t.bytes().all(|b| b.is_ascii_digit()) {
        let seconds = t
            .bytes()
            .fold(0u64, |n, digit| n * 10 + u64::from(digit - b'0'));
        return Some(seconds * 1000);
    }
    let ms = kifu_record::parse_seconds(t)?;
    Some(if v3 { ms } else { ms - ms % 1000 })
}

/// The engine move a CSA move denotes in `position`, or why it cannot be one (with the move
/// it would be read as when that is still clear, so a record that ends "illegal move" keeps
/// it). The rules are the replay's business.
#[inline(always)]
fn to_move(position: &Position, m: &CsaMove) -> Result<Move, (Option<Move>, String)> {
    m.to_move_unchecked(position)
        .map_err(|mismatch| (mismatch.intended(m), mismatch.to_string()))
}
