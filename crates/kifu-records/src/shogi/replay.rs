//! Replaying one line of a record while it is read: every reader feeds moves, endings, times
//! and comments here, and this decides what is legal, what is kept and what is reported.
//!
//! An illegal move is held back until the next item: if that is an ending which says the
//! move was illegal (反則勝ち, `%ILLEGAL_MOVE`, `%±ILLEGAL_ACTION` …) the move is kept, marked
//! illegal, with no error; otherwise it is reported with its ply, its text and the rule it
//! breaks, and the rest of the line (which can no longer be replayed) is left out with one
//! warning saying how much.
//!
//! An ending word nobody knows (`%FOO`, `xyz`, `Resign`) is held back too: kept as an unknown
//! ending (with a warning) only if nothing follows it in its line of play; if a move follows,
//! the word was a mistyped move and is an error. Moves after an ending, or after the fourth
//! occurrence of a position (千日手 ends the game), are one error for the lot.

use kifu_record::{Comment, Diagnostic, DiagnosticKind, EndingKind, MoveTree, Span};
use kifu_shogi::ShogiEnding;

use kifu_shogi::{DeclarationRule, Move, Position, Repetition};

use crate::shogi::line::Line;

/// An ending with a word nobody knows, waiting to see whether moves follow it.
struct HeldEnding {
    kind: EndingKind<ShogiEnding>,
    span: Span,
    time_ms: Option<u64>,
    total_ms: Option<u64>,
    comments: Vec<Comment>,
}

/// Moves after the end of the game: why the game had ended, where they are, how many.
struct AfterEnd {
    why: String,
    span: Span,
    count: u32,
}

/// Plies without a capture, drop, promotion or pawn move before a position can occur a fourth time
/// (a cycle is at least four plies); below this the repetition scan is skipped.
const PLIES_BEFORE_FOURFOLD: u32 = 12;

struct Pending {
    mv: Option<Move>,
    span: Span,
    time_ms: Option<u64>,
    total_ms: Option<u64>,
    comments: Vec<Comment>,
    error: Diagnostic,
}

/// A move as a reader understood it: a move to check, or why it is not one (with the move
/// it would be, when that is still clear, so that an excused illegal move can be kept).
pub(crate) type Resolved = Result<Move, (Option<Move>, String)>;

/// The replay of one line of play, writing what it accepts into `L` (the record's move tree
/// unless a caller wants only the diagnostics: see [`Line`]).
pub(crate) struct Replay<L: Line = MoveTree<Move, ShogiEnding>> {
    pub(crate) position: Position,
    pub(crate) cursor: L::Node,
    pending: Option<Pending>,
    /// Moves left out after an unexcused illegal one: their joint span and count.
    skipped: Option<(Span, u32)>,
    ended: bool,
    held: Option<HeldEnding>,
    /// Set when the last move made a position occur for the fourth time.
    repetition_ply: Option<u32>,
    /// Plies since the last capture, drop or promotion.
    reversible_plies: u32,
    after_end: Option<AfterEnd>,
}

/// Room made in the replay's history up front: most games end within 256 moves.
pub(crate) const MOVES_RESERVED: usize = 256;

impl<L: Line> Replay<L> {
    pub(crate) fn new(mut position: Position, cursor: L::Node) -> Replay<L> {
        position.reserve(MOVES_RESERVED);
        Replay {
            position,
            cursor,
            pending: None,
            skipped: None,
            ended: false,
            held: None,
            repetition_ply: None,
            reversible_plies: 0,
            after_end: None,
        }
    }

    /// The ply the next move would have.
    pub(crate) fn next_ply(&self, tree: &L) -> u32 {
        tree.ply(self.cursor) + 1
    }

    /// True when the line can take no more moves (it ended or broke).
    pub(crate) fn is_closed(&self) -> bool {
        self.ended
            || self.pending.is_some()
            || self.skipped.is_some()
            || self.held.is_some()
            || self.repetition_ply.is_some()
    }

    /// The side to move after every move read, a held illegal one included (it was made,
    /// even if it cannot be replayed): the side a `まで…` line speaks of as "to move".
    pub(crate) fn side_to_move_after_all(&self) -> kifu_shogi::Color {
        let side = self.position.turn();
        if self.pending.is_some() {
            side.flip()
        } else {
            side
        }
    }

    /// True when some move of this line could not be replayed: the moves after it are not
    /// in the tree.
    pub(crate) fn is_broken(&self) -> bool {
        self.pending.is_some() || self.skipped.is_some()
    }

    /// True when the line has its ending (or an unknown word that may be one).
    pub(crate) fn has_ended(&self) -> bool {
        self.ended || self.held.is_some()
    }

    /// Adds a move read as `resolved`, written at `span` (`text` is the whole source).
    pub(crate) fn play(
        &mut self,
        tree: &mut L,
        resolved: Resolved,
        span: Span,
        text: &str,
        diags: &mut Vec<Diagnostic>,
    ) {
        // A move text the reader could not parse is reported wherever it stands, also
        // where the line no longer replays (closed lines resolve nothing: empty reason).
        let syntax_error = |diags: &mut Vec<Diagnostic>, resolved: &Resolved| {
            if let Err((None, reason)) = resolved
                && !reason.is_empty()
            {
                let written = quote(text, span);
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    span,
                    format!("`{written}`: {reason}"),
                ));
            }
        };
        if let Some(held) = self.held.take() {
            let word = quote(text, held.span);
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                held.span,
                format!(
                    "`{word}` is neither a move nor a termination word (moves follow it, so \
                     it cannot end the game)"
                ),
            ));
            syntax_error(diags, &resolved);
            self.skipped = Some((span, 1));
            return;
        }
        if self.ended || self.repetition_ply.is_some() {
            syntax_error(diags, &resolved);
            match &mut self.after_end {
                Some(after) => {
                    after.span = after.span.join(span);
                    after.count += 1;
                }
                None => {
                    let why = match self.repetition_ply {
                        Some(ply) if !self.ended => format!(
                            "the game ended at ply {ply}, the fourth occurrence of the position \
                             (千日手)"
                        ),
                        _ => "the game had ended".to_owned(),
                    };
                    self.after_end = Some(AfterEnd {
                        why,
                        span,
                        count: 1,
                    });
                }
            }
            return;
        }
        if self.pending.is_some() || self.skipped.is_some() {
            syntax_error(diags, &resolved);
            self.flush_pending(tree, diags);
            self.skip(span);
            return;
        }
        let checked = resolved.and_then(|mv| {
            self.position
                .check_move(mv)
                .map(|()| mv)
                .map_err(|rule| (Some(mv), rule.to_string()))
        });
        match checked {
            Ok(mv) => {
                self.accept(tree, mv, span);
            }
            Err((mv, reason)) => {
                let ply = self.next_ply(tree);
                let written = quote(text, span);
                self.pending = Some(Pending {
                    mv,
                    span,
                    time_ms: None,
                    total_ms: None,
                    comments: Vec::new(),
                    error: Diagnostic::error(
                        DiagnosticKind::IllegalMove,
                        span,
                        format!("ply {ply} `{written}`: {reason}"),
                    ),
                });
            }
        }
    }

    /// Plays `mv`, which the rules allow here, and adds it to the line; the line must be
    /// open (not [`Replay::is_closed`]). Returns false when the move closed the line (the
    /// fourth occurrence of a position).
    ///
    /// [`Replay::play`] ends here for every legal move.
    #[inline(always)]
    pub(crate) fn accept(&mut self, tree: &mut L, mv: Move, span: Span) -> bool {
        // Asked of the board before the move, whose squares the reader has just read the
        // move off: after it, the answer is in the history's last entry, further away.
        let irreversible = self.position.is_irreversible(mv);
        self.accept_ply(tree, mv, span, irreversible)
    }

    /// [`Replay::accept`] for a reader that knows whether `mv` is irreversible
    /// ([`kifu_shogi::Position::is_irreversible`]), as the CSA reader's fast path learns it
    /// while resolving the move.
    #[inline(always)]
    pub(crate) fn accept_ply(
        &mut self,
        tree: &mut L,
        mv: Move,
        span: Span,
        irreversible: bool,
    ) -> bool {
        debug_assert_eq!(irreversible, self.position.is_irreversible(mv));
        self.position.play_unchecked(mv);
        self.cursor = tree.add_move(self.cursor, mv, span);
        self.reversible_plies = if irreversible {
            0
        } else {
            self.reversible_plies + 1
        };
        if self.reversible_plies >= PLIES_BEFORE_FOURFOLD && self.fourth_occurrence() {
            self.repetition_ply = Some(tree.ply(self.cursor));
            return false;
        }
        true
    }

    fn skip(&mut self, span: Span) {
        let s = self.skipped.get_or_insert((span, 0));
        // The span starts at the first move left out (not at the illegal one).
        s.0 = if s.1 == 0 { span } else { s.0.join(span) };
        s.1 += 1;
    }

    /// Reports a held illegal move as an error: nothing excused it.
    fn flush_pending(&mut self, tree: &mut L, diags: &mut Vec<Diagnostic>) {
        if let Some(p) = self.pending.take() {
            diags.push(p.error);
            tree.add_comments(self.cursor, p.comments);
            self.skipped
                .get_or_insert((Span::point(p.span.end as usize), 0));
        }
    }

    /// Ends the line. Returns false (after a warning) if it had already ended.
    pub(crate) fn end(
        &mut self,
        tree: &mut L,
        kind: EndingKind<ShogiEnding>,
        span: Span,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        self.commit_held(tree, diags);
        if self.ended {
            diags.push(Diagnostic::warning(
                DiagnosticKind::AfterEnd,
                span,
                "a second ending; the game already ended",
            ));
            return false;
        }
        if let EndingKind::Unknown(_) = kind
            && self.pending.is_none()
            && self.skipped.is_none()
        {
            self.held = Some(HeldEnding {
                kind,
                span,
                time_ms: None,
                total_ms: None,
                comments: Vec::new(),
            });
            return true;
        }
        if let Some(p) = self.pending.take() {
            match p.mv {
                Some(mv) if kind.excuses_illegal_last_move() => {
                    let node = tree.add_move(self.cursor, mv, p.span);
                    tree.set_illegal(node);
                    tree.set_time(node, p.time_ms, p.total_ms);
                    tree.add_comments(node, p.comments);
                    self.cursor = node;
                }
                _ => {
                    self.pending = Some(p);
                    self.flush_pending(tree, diags);
                }
            }
        }
        self.ended = true;
        if self.skipped.is_some() {
            // The line broke earlier; the ending does not follow a replayed position.
            return true;
        }
        if let Some(why) = self.contradiction(&kind) {
            diags.push(Diagnostic::warning(
                DiagnosticKind::Inconsistent,
                span,
                format!("the record says {kind}, but {why}"),
            ));
        }
        self.cursor = tree.add_ending(self.cursor, kind, span);
        true
    }

    /// True if the position now stands for the fourth time (千日手). Only positions since
    /// the last capture, drop or promotion can equal it.
    fn fourth_occurrence(&self) -> bool {
        self.position
            .is_fourth_occurrence_within(self.reversible_plies as usize)
    }

    /// Keeps a held unknown ending: nothing followed it, so it ends the line as written.
    fn commit_held(&mut self, tree: &mut L, diags: &mut Vec<Diagnostic>) {
        let Some(held) = self.held.take() else {
            return;
        };
        let EndingKind::Unknown(word) = &held.kind else {
            unreachable!("only unknown endings are held")
        };
        diags.push(Diagnostic::warning(
            DiagnosticKind::Unknown,
            held.span,
            format!("unknown termination `{word}`; kept as written"),
        ));
        let node = tree.add_ending(self.cursor, held.kind, held.span);
        tree.set_time(node, held.time_ms, held.total_ms);
        tree.add_comments(node, held.comments);
        self.cursor = node;
        self.ended = true;
    }

    /// Why the position contradicts an ending that the rules can check (checkmate,
    /// repetition, a declaration under the 27-point rule), if it does.
    fn contradiction(&self, kind: &EndingKind<ShogiEnding>) -> Option<String> {
        let pos = &self.position;
        match kind {
            EndingKind::Checkmate if !pos.is_checkmate() => {
                Some(format!("{} is not checkmated", pos.turn()))
            }
            EndingKind::Repetition if pos.repetition() == Repetition::None => {
                Some("the position has not occurred four times".to_owned())
            }
            EndingKind::Game(ShogiEnding::DeclareWin) => {
                match pos.declaration(DeclarationRule::Points27) {
                    Err(e) => Some(format!("the declaration fails the 27-point rule: {e}")),
                    Ok(_) => None,
                }
            }
            _ => None,
        }
    }

    /// Sets the time of the last move or ending. `Err` if there is none or it already has one.
    pub(crate) fn time(
        &mut self,
        tree: &mut L,
        time_ms: Option<u64>,
        total_ms: Option<u64>,
    ) -> Result<(), ()> {
        if let Some(p) = &mut self.pending {
            p.time_ms = time_ms;
            p.total_ms = total_ms;
            return Ok(());
        }
        if let Some(held) = &mut self.held {
            held.time_ms = time_ms;
            held.total_ms = total_ms;
            return Ok(());
        }
        if self.after_end.is_some() {
            return Ok(());
        }
        if self.skipped.is_some() {
            return Ok(());
        }
        if self.cursor == tree.root() || tree.has_time(self.cursor) {
            return Err(());
        }
        tree.set_time(self.cursor, time_ms, total_ms);
        Ok(())
    }

    /// Attaches a comment to the last move (or the start position before any).
    pub(crate) fn comment(&mut self, tree: &mut L, comment: Comment) {
        if let Some(held) = &mut self.held {
            held.comments.push(comment);
            return;
        }
        match &mut self.pending {
            Some(p) => p.comments.push(comment),
            None if self.skipped.is_some() || self.after_end.is_some() => {}
            None => tree.add_comment(self.cursor, comment),
        }
    }

    /// The node comments and bookmarks go to, if the line can still take them.
    pub(crate) fn annotated_node(&self) -> Option<L::Node> {
        (self.pending.is_none()
            && self.skipped.is_none()
            && self.held.is_none()
            && self.after_end.is_none())
        .then_some(self.cursor)
    }

    /// Closes the line: reports a held illegal move and what was left out.
    pub(crate) fn finish(&mut self, tree: &mut L, diags: &mut Vec<Diagnostic>) {
        self.commit_held(tree, diags);
        self.flush_pending(tree, diags);
        if let Some(after) = self.after_end.take() {
            diags.push(Diagnostic::error(
                DiagnosticKind::AfterEnd,
                after.span,
                format!(
                    "{} move(s) after the end of the game: {}; left out",
                    after.count, after.why
                ),
            ));
        }
        if let Some((span, n)) = self.skipped.take()
            && n > 0
        {
            diags.push(Diagnostic::warning(
                DiagnosticKind::IllegalMove,
                span,
                format!("{n} move(s) after the illegal move were not replayed and are left out"),
            ));
        }
    }
}

/// The source text of a span, for a message: its first line, briefly (JKF spans cover a
/// whole JSON object).
fn quote(text: &str, span: Span) -> String {
    let written = text.get(span.range()).unwrap_or("").trim();
    let written = written.lines().next().unwrap_or("");
    written.chars().take(60).collect()
}
