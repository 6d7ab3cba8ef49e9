//! Replaying one line of a record while it is read: every reader feeds moves, endings, times
//! and comments here, and this decides what is legal, what is kept and what is reported.
//!
//! An illegal move is held back until the next item: if that is an ending which says the
//! move was illegal (反則勝ち, `%ILLEGAL_MOVE`, `%±ILLEGAL_ACTION` …) the move is kept, marked
//! illegal, with no error; otherwise it is reported with its ply, its text and the rule it
//! breaks, and the rest of the line (which can no longer be replayed) is left out with one
//! warning saying how much.

use kifu_record::{Comment, Diagnostic, EndingKind, MoveTree, NodeId, Span};

use crate::{DeclarationRule, Move, Position, Repetition};

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

pub(crate) struct Replay {
    pub(crate) position: Position,
    pub(crate) cursor: NodeId,
    pending: Option<Pending>,
    /// Moves left out after an unexcused illegal one: their joint span and count.
    skipped: Option<(Span, u32)>,
    ended: bool,
    warned_after_end: bool,
}

impl Replay {
    pub(crate) fn new(position: Position, cursor: NodeId) -> Replay {
        Replay {
            position,
            cursor,
            pending: None,
            skipped: None,
            ended: false,
            warned_after_end: false,
        }
    }

    /// The ply the next move would have.
    pub(crate) fn next_ply(&self, tree: &MoveTree<Move>) -> u32 {
        tree[self.cursor].ply() + 1
    }

    /// True when the line can take no more moves (it ended or broke).
    pub(crate) fn is_closed(&self) -> bool {
        self.ended || self.pending.is_some() || self.skipped.is_some()
    }

    /// Adds a move read as `resolved`, written at `span` (`text` is the whole source).
    pub(crate) fn play(
        &mut self,
        tree: &mut MoveTree<Move>,
        resolved: Resolved,
        span: Span,
        text: &str,
        diags: &mut Vec<Diagnostic>,
    ) {
        if self.ended {
            if !std::mem::replace(&mut self.warned_after_end, true) {
                diags.push(Diagnostic::warning(
                    span,
                    "moves after the end of the game are ignored",
                ));
            }
            return;
        }
        if self.pending.is_some() || self.skipped.is_some() {
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
                self.position.play(mv);
                self.cursor = tree.add_move(self.cursor, mv, span);
            }
            Err((mv, reason)) => {
                let ply = self.next_ply(tree);
                let written = text.get(span.range()).unwrap_or("").trim();
                // JKF spans cover a whole JSON object: quote its first line, briefly.
                let written = written.lines().next().unwrap_or("");
                let written: String = written.chars().take(60).collect();
                self.pending = Some(Pending {
                    mv,
                    span,
                    time_ms: None,
                    total_ms: None,
                    comments: Vec::new(),
                    error: Diagnostic::error(span, format!("ply {ply} `{written}`: {reason}")),
                });
            }
        }
    }

    fn skip(&mut self, span: Span) {
        let s = self.skipped.get_or_insert((span, 0));
        // The span starts at the first move left out (not at the illegal one).
        s.0 = if s.1 == 0 { span } else { s.0.join(span) };
        s.1 += 1;
    }

    /// Reports a held illegal move as an error: nothing excused it.
    fn flush_pending(&mut self, tree: &mut MoveTree<Move>, diags: &mut Vec<Diagnostic>) {
        if let Some(p) = self.pending.take() {
            diags.push(p.error);
            tree[self.cursor].comments.extend(p.comments);
            self.skipped
                .get_or_insert((Span::point(p.span.end as usize), 0));
        }
    }

    /// Ends the line. Returns false (after a warning) if it had already ended.
    pub(crate) fn end(
        &mut self,
        tree: &mut MoveTree<Move>,
        kind: EndingKind,
        span: Span,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        if self.ended {
            diags.push(Diagnostic::warning(
                span,
                "a second ending; the game already ended",
            ));
            return false;
        }
        if let Some(p) = self.pending.take() {
            match p.mv {
                Some(mv) if kind.excuses_illegal_last_move() => {
                    let node = tree.add_move(self.cursor, mv, p.span);
                    let n = &mut tree[node];
                    n.illegal = true;
                    n.time_ms = p.time_ms;
                    n.total_ms = p.total_ms;
                    n.comments = p.comments;
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
                span,
                format!("the record says {kind}, but {why}"),
            ));
        }
        self.cursor = tree.add_ending(self.cursor, kind, span);
        true
    }

    /// Why the position contradicts an ending that the rules can check (checkmate,
    /// repetition, a declaration under the 27-point rule), if it does.
    fn contradiction(&self, kind: &EndingKind) -> Option<String> {
        let pos = &self.position;
        match kind {
            EndingKind::Checkmate if !pos.is_checkmate() => {
                Some(format!("{} is not checkmated", pos.side_to_move()))
            }
            EndingKind::Repetition if pos.repetition() == Repetition::None => {
                Some("the position has not occurred four times".to_owned())
            }
            EndingKind::DeclareWin => match pos.declaration(DeclarationRule::Points27) {
                Err(e) => Some(format!("the declaration fails the 27-point rule: {e}")),
                Ok(_) => None,
            },
            _ => None,
        }
    }

    /// Sets the time of the last move or ending. `Err` if there is none or it already has one.
    pub(crate) fn time(
        &mut self,
        tree: &mut MoveTree<Move>,
        time_ms: Option<u64>,
        total_ms: Option<u64>,
    ) -> Result<(), ()> {
        if let Some(p) = &mut self.pending {
            p.time_ms = time_ms;
            p.total_ms = total_ms;
            return Ok(());
        }
        if self.skipped.is_some() {
            return Ok(());
        }
        if self.cursor == tree.root() || tree[self.cursor].time_ms.is_some() {
            return Err(());
        }
        let node = &mut tree[self.cursor];
        node.time_ms = time_ms;
        node.total_ms = total_ms;
        Ok(())
    }

    /// Attaches a comment to the last move (or the start position before any).
    pub(crate) fn comment(&mut self, tree: &mut MoveTree<Move>, comment: Comment) {
        match &mut self.pending {
            Some(p) => p.comments.push(comment),
            None if self.skipped.is_some() => {}
            None => tree[self.cursor].comments.push(comment),
        }
    }

    /// The node comments and bookmarks go to, if the line can still take them.
    pub(crate) fn annotated_node(&self) -> Option<NodeId> {
        (self.pending.is_none() && self.skipped.is_none()).then_some(self.cursor)
    }

    /// Closes the line: reports a held illegal move and what was left out.
    pub(crate) fn finish(&mut self, tree: &mut MoveTree<Move>, diags: &mut Vec<Diagnostic>) {
        self.flush_pending(tree, diags);
        if let Some((span, n)) = self.skipped.take()
            && n > 0
        {
            diags.push(Diagnostic::warning(
                span,
                format!("{n} move(s) after the illegal move were not replayed and are left out"),
            ));
        }
    }
}
