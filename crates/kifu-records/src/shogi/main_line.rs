//! A record's main line read and replayed without building its move tree: the header, the
//! start, the moves, the hash of every position, the ending, the result and the comments. What an index of positions needs,
//! at about the cost of `kifu check`: a CSA reader replays straight into a [`MainLineMoves`],
//! every other format reads its records and hands over their main lines
//! ([`MainLine::from_record`]), so each record is replayed once either way.

use kifu_record::{
    Comment, Diagnostic, EndingKind, Game as _, Header, NodeItem, Outcome, RecordCheck, Span,
};
use kifu_shogi::{Move, Position, Shogi, ShogiEnding};

use crate::shogi::line::Line;
use crate::shogi::record::RecordRead;
use crate::shogi::{StartPosition, side_of};

/// One record's main line, replayed under the rules as it was read.
#[derive(Clone, Debug, PartialEq)]
pub struct MainLine {
    /// The header as written.
    pub header: Header,
    /// The start position (a handicap's name when it is one).
    pub start: StartPosition,
    /// The main line's moves that the rules allow, in order. A move kept only because the
    /// ending excuses it (反則勝ち, `%ILLEGAL_MOVE`) is not among them, nor is anything
    /// after a move that failed.
    pub moves: Vec<Move>,
    /// The [`Position::hash`] of the start and of the position after each of
    /// [`MainLine::moves`]: one more than the moves.
    pub hashes: Vec<u64>,
    /// The ending written after the main line, if any.
    pub ending: Option<EndingKind<ShogiEnding>>,
    /// The result: the ending's, for the side to move after the last move played, or else
    /// what the rules say of that position (checkmate, a fourth repetition).
    pub outcome: Outcome,
    /// The comments of the start, the main line's moves and its ending, in that order.
    pub comments: Vec<Comment>,
    /// How many comments the whole record holds (variations included).
    pub comment_count: usize,
    /// How many moves and endings of the whole record have a thinking time.
    pub timed_nodes: usize,
    /// Every problem found in the record, as its record's reader reports them.
    pub diagnostics: Vec<Diagnostic>,
}

impl MainLine {
    /// The main line a reader kept in `moves`.
    pub(crate) fn new(
        header: Header,
        start: StartPosition,
        moves: MainLineMoves,
        diagnostics: Vec<Diagnostic>,
    ) -> MainLine {
        let mut comments = moves.comments;
        // Stable: a node's comments keep their order. Nearly always sorted already.
        if !comments.is_sorted_by_key(|(node, _)| *node) {
            comments.sort_by_key(|(node, _)| *node);
        }
        MainLine {
            header,
            start,
            moves: moves.played,
            hashes: moves.hashes,
            ending: moves.ending,
            outcome: moves.outcome.unwrap_or(Outcome::None),
            comment_count: comments.len(),
            comments: comments.into_iter().map(|(_, c)| c).collect(),
            timed_nodes: moves.timed_nodes,
            diagnostics,
        }
    }

    /// True when a problem makes the record invalid.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The main line of a record some reader built (its moves checked by that reader, as
    /// every reader of this crate does): its comments are moved out, its moves replayed once
    /// more without the rules' check.
    pub fn from_record(read: RecordRead) -> MainLine {
        let RecordRead {
            record,
            diagnostics,
        } = read;
        let mut tree = record.moves;
        let mut comment_count = 0;
        let mut timed_nodes = 0;
        for id in tree.ids() {
            comment_count += tree[id].comments().len();
            timed_nodes += usize::from(tree[id].time_ms().is_some());
        }
        let mut end = record.start.position.clone();
        // A move per node at most.
        end.reserve(tree.len());
        let root = tree.root();
        let mut comments = tree[root].take_comments();
        let mut illegal = false;
        let mut next = tree.main_child(root);
        let mut ending = None;
        while let Some(id) = next {
            comments.append(&mut tree[id].take_comments());
            match &tree[id].item {
                NodeItem::Move(mv) if !illegal && !tree[id].illegal => end.play_unchecked(*mv),
                NodeItem::Move(_) => illegal = true,
                NodeItem::End(kind) => ending = Some(kind.clone()),
                _ => {}
            }
            next = tree.main_child(id);
        }
        let (played, hashes) = line_of(&end);
        MainLine {
            header: record.header,
            start: record.start,
            moves: played,
            hashes,
            outcome: outcome_of(ending.as_ref(), &end),
            ending,
            comments,
            comment_count,
            timed_nodes,
            diagnostics,
        }
    }
}

/// The moves `end` was reached by, and the hash of the position before each and after the
/// last.
fn line_of(end: &Position) -> (Vec<Move>, Vec<u64>) {
    let mut hashes = Vec::with_capacity(end.moves_played().len() + 1);
    hashes.extend(end.hashes_played());
    hashes.push(end.hash());
    (end.moves_played().collect(), hashes)
}

/// The result: the ending's for the side to move at `end`, or the rules' verdict on `end`.
fn outcome_of(ending: Option<&EndingKind<ShogiEnding>>, end: &Position) -> Outcome {
    match ending {
        Some(kind) => kind.outcome(side_of(end.turn())),
        None => Shogi::outcome(end).unwrap_or(Outcome::None),
    }
}

/// A line of play that keeps what a [`MainLine`] holds of its moves: the ending, the comments
/// with the place they belong to, counts, and what the end position tells (the moves, the
/// hashes, the result). Like [`crate::shogi::line::Tally`], its places are plies (readers of
/// one line of play).
#[derive(Debug, Default)]
pub(crate) struct MainLineMoves {
    /// Nodes added after the start (moves and the ending).
    nodes: u32,
    ending: Option<EndingKind<ShogiEnding>>,
    /// Each comment with the node it belongs to, in the order given.
    comments: Vec<(u32, Comment)>,
    /// Nodes with a time, and the last one given one.
    timed_nodes: usize,
    timed: Option<u32>,
    /// What the end position tells ([`Line::finish_at`]).
    played: Vec<Move>,
    hashes: Vec<u64>,
    /// `None` until the end is shown.
    outcome: Option<Outcome>,
}

impl Line for MainLineMoves {
    type Node = u32;
    const KEEPS_RECORD: bool = true;

    fn with_capacity(_: usize) -> Self {
        MainLineMoves::default()
    }
    fn root(&self) -> u32 {
        0
    }
    fn len(&self) -> usize {
        self.nodes as usize + 1
    }
    fn ply(&self, node: u32) -> u32 {
        node
    }
    #[inline]
    fn add_move(&mut self, parent: u32, _: Move, _: Span) -> u32 {
        self.nodes += 1;
        parent + 1
    }
    fn add_ending(&mut self, parent: u32, kind: EndingKind<ShogiEnding>, _: Span) -> u32 {
        self.nodes += 1;
        self.ending = Some(kind);
        parent + 1
    }
    fn has_time(&self, node: u32) -> bool {
        self.timed == Some(node)
    }
    #[inline]
    fn set_time(&mut self, node: u32, time_ms: Option<u64>, _: Option<u64>) {
        // Only the newest node is ever given a time, or has it taken away.
        match (time_ms.is_some(), self.timed == Some(node)) {
            (true, false) => {
                self.timed = Some(node);
                self.timed_nodes += 1;
            }
            (false, true) => {
                self.timed = None;
                self.timed_nodes -= 1;
            }
            _ => {}
        }
    }
    fn set_illegal(&mut self, _: u32) {}
    fn add_comments(&mut self, node: u32, comments: Vec<Comment>) {
        self.comments
            .extend(comments.into_iter().map(|c| (node, c)));
    }
    fn add_comment(&mut self, node: u32, comment: Comment) {
        self.comments.push((node, comment));
    }
    fn finish_at(&mut self, end: &Position) {
        (self.played, self.hashes) = line_of(end);
        self.outcome = Some(outcome_of(self.ending.as_ref(), end));
    }
}

/// The diagnostics of a record read as a main line, with the error for a record that holds
/// no game where [`RecordRead::checked`](kifu_record::RecordRead::checked) would add it.
pub(crate) fn checked_diagnostics(
    nodes: usize,
    start_span: Span,
    known_header_field: bool,
    diagnostics: Vec<Diagnostic>,
    at: usize,
) -> Vec<Diagnostic> {
    RecordCheck::checked(0, nodes, start_span, known_header_field, diagnostics, at).diagnostics
}
