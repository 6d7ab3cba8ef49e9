//! Where the KIF reader keeps what it reads: the record's move tree, or, for `kifu check`, a
//! tally that builds no tree. KIF (unlike CSA) writes variations (`変化：N手`), which branch
//! from a move of the tree read so far: a tally cannot hold them, so a text with one is read
//! again into a tree, and its check is that record's.

use kifu_record::{Bookmark, Comment, EndingKind, MoveTree, NodeId, Span};
use kifu_shogi::{Move, ShogiEnding};

use crate::shogi::line::{Line, Tally};

/// A [`Line`] the KIF reader can replay into: what it asks beyond a CSA reader's (what it
/// does with a variation is the reader's `Branch`).
pub(super) trait KifLine: Line {
    /// The move of `node`, which `同` refers to: `node` is the cursor of an open line, so it
    /// is the last move played, or a start (no move).
    fn move_at(&self, node: Self::Node) -> Option<Move>;

    /// Adds a bookmark (`&name`) to `node`.
    fn add_bookmark(&mut self, node: Self::Node, bookmark: Bookmark);
}

impl KifLine for MoveTree<Move, ShogiEnding> {
    fn move_at(&self, node: NodeId) -> Option<Move> {
        self[node].mv().copied()
    }

    fn add_bookmark(&mut self, node: NodeId, bookmark: Bookmark) {
        self[node].bookmarks_mut().push(bookmark);
    }
}

/// A [`Tally`] that also knows its last move, for `同`: a line without variations whose
/// places are plies, as CSA's check path replays into.
#[derive(Debug, Default)]
pub(super) struct KifTally {
    pub(super) tally: Tally,
    /// The move of the last node added, `None` when it is an ending or there is none.
    last: Option<Move>,
}

impl Line for KifTally {
    type Node = u32;
    const KEEPS_RECORD: bool = false;

    fn with_capacity(nodes: usize) -> Self {
        KifTally {
            tally: Tally::with_capacity(nodes),
            last: None,
        }
    }
    fn root(&self) -> u32 {
        self.tally.root()
    }
    fn len(&self) -> usize {
        self.tally.len()
    }
    fn ply(&self, node: u32) -> u32 {
        self.tally.ply(node)
    }
    #[inline]
    fn add_move(&mut self, parent: u32, mv: Move, span: Span) -> u32 {
        self.last = Some(mv);
        self.tally.add_move(parent, mv, span)
    }
    fn add_ending(&mut self, parent: u32, kind: EndingKind<ShogiEnding>, span: Span) -> u32 {
        self.last = None;
        self.tally.add_ending(parent, kind, span)
    }
    fn has_time(&self, node: u32) -> bool {
        self.tally.has_time(node)
    }
    fn set_time(&mut self, node: u32, time_ms: Option<u64>, total_ms: Option<u64>) {
        self.tally.set_time(node, time_ms, total_ms);
    }
    fn set_illegal(&mut self, node: u32) {
        self.tally.set_illegal(node);
    }
    fn add_comments(&mut self, node: u32, comments: Vec<Comment>) {
        self.tally.add_comments(node, comments);
    }
    fn add_comment(&mut self, node: u32, comment: Comment) {
        self.tally.add_comment(node, comment);
    }
}

impl KifLine for KifTally {
    fn move_at(&self, node: u32) -> Option<Move> {
        // Without variations the cursor of an open line is the last node added.
        debug_assert_eq!(node as usize + 1, self.len(), "not the last node");
        self.last
    }

    fn add_bookmark(&mut self, _: u32, _: Bookmark) {}
}
