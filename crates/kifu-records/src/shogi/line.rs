//! Where a replay keeps the moves it accepts: the record's move tree, or a [`Tally`] that
//! only counts them, for callers that want a record's diagnostics and not the record
//! (`kifu check` of a large archive builds no tree at all).

use kifu_record::{Comment, EndingKind, MoveTree, NodeId, Span};
use kifu_shogi::{Move, Position, ShogiEnding};

/// What a [`Replay`](crate::shogi::replay::Replay) writes into as it accepts moves, endings,
/// times and comments. Every reader replays into a [`MoveTree`]; a reader of one line of
/// play (CSA) can also replay into a [`Tally`], with the same diagnostics.
pub(crate) trait Line {
    /// A place in the line: a node of the tree, or a ply of the tally.
    type Node: Copy + Eq;

    /// True when the line keeps what it is given; a reader replaying into a line that does
    /// not (a tally) builds no record and need not keep the record's header either.
    const KEEPS_RECORD: bool;

    /// Room for about `nodes` nodes.
    fn with_capacity(nodes: usize) -> Self;
    /// The start.
    fn root(&self) -> Self::Node;
    /// How many nodes the line holds, the start included.
    fn len(&self) -> usize;
    /// The ply of `node` (the start is 0).
    fn ply(&self, node: Self::Node) -> u32;
    /// Appends a move after `parent`.
    fn add_move(&mut self, parent: Self::Node, mv: Move, span: Span) -> Self::Node;
    /// Appends an ending after `parent`.
    fn add_ending(
        &mut self,
        parent: Self::Node,
        kind: EndingKind<ShogiEnding>,
        span: Span,
    ) -> Self::Node;
    /// True when `node` has its thinking time.
    fn has_time(&self, node: Self::Node) -> bool;
    /// Sets the thinking time of `node`.
    fn set_time(&mut self, node: Self::Node, time_ms: Option<u64>, total_ms: Option<u64>);
    /// Marks `node`, a move, as kept although the rules forbid it.
    fn set_illegal(&mut self, node: Self::Node);
    /// Adds comments to `node`.
    fn add_comments(&mut self, node: Self::Node, comments: Vec<Comment>);
    /// Adds one comment to `node`.
    fn add_comment(&mut self, node: Self::Node, comment: Comment);
    /// Shown the position after the last move replayed, with the line's moves as its history,
    /// once the record is read: a line that keeps what the position knows (the main line's
    /// hashes and result) takes it here.
    fn finish_at(&mut self, _end: &Position) {}
}

impl Line for MoveTree<Move, ShogiEnding> {
    type Node = NodeId;
    const KEEPS_RECORD: bool = true;

    fn with_capacity(nodes: usize) -> Self {
        MoveTree::with_capacity(nodes)
    }
    fn root(&self) -> NodeId {
        MoveTree::root(self)
    }
    fn len(&self) -> usize {
        MoveTree::len(self)
    }
    fn ply(&self, node: NodeId) -> u32 {
        self[node].ply()
    }
    #[inline]
    fn add_move(&mut self, parent: NodeId, mv: Move, span: Span) -> NodeId {
        MoveTree::add_move(self, parent, mv, span)
    }
    fn add_ending(&mut self, parent: NodeId, kind: EndingKind<ShogiEnding>, span: Span) -> NodeId {
        MoveTree::add_ending(self, parent, kind, span)
    }
    fn has_time(&self, node: NodeId) -> bool {
        self[node].time_ms().is_some()
    }
    fn set_time(&mut self, node: NodeId, time_ms: Option<u64>, total_ms: Option<u64>) {
        let node = &mut self[node];
        node.set_time_ms(time_ms);
        node.set_total_ms(total_ms);
    }
    fn set_illegal(&mut self, node: NodeId) {
        self[node].illegal = true;
    }
    fn add_comments(&mut self, node: NodeId, comments: Vec<Comment>) {
        if comments.is_empty() {
            return;
        }
        let kept = self[node].comments_mut();
        if kept.is_empty() {
            *kept = comments;
        } else {
            kept.extend(comments);
        }
    }
    fn add_comment(&mut self, node: NodeId, comment: Comment) {
        self[node].comments_mut().push(comment);
    }
}

/// A line of play that keeps only counts: its nodes, its endings and which node has a time.
/// Its places are plies, so it serves readers whose records have no variations (each
/// node's parent is the node before it).
///
/// A move is one increment and a time one store: a check of a large archive passes here
/// for every move and time it reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Nodes added after the start.
    nodes: u32,
    /// Endings among them.
    endings: u32,
    /// The last node given a time, 0 for none (the start, node 0, is never given one).
    timed: u32,
}

impl Tally {
    /// Moves added (an excused illegal move included, as the tree would hold it).
    pub(crate) fn moves(&self) -> usize {
        (self.nodes - self.endings) as usize
    }
}

impl Line for Tally {
    type Node = u32;
    const KEEPS_RECORD: bool = false;

    fn with_capacity(_: usize) -> Self {
        Tally::default()
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
    fn add_ending(&mut self, parent: u32, _: EndingKind<ShogiEnding>, _: Span) -> u32 {
        self.nodes += 1;
        self.endings += 1;
        parent + 1
    }
    fn has_time(&self, node: u32) -> bool {
        node != 0 && self.timed == node
    }
    #[inline]
    fn set_time(&mut self, node: u32, time_ms: Option<u64>, _: Option<u64>) {
        if time_ms.is_some() {
            self.timed = node;
        } else if self.timed == node {
            self.timed = 0;
        }
    }
    fn set_illegal(&mut self, _: u32) {}
    fn add_comments(&mut self, _: u32, _: Vec<Comment>) {}
    fn add_comment(&mut self, _: u32, _: Comment) {}
}
