//! The moves of a record: a main line with variations, stored as an arena.
//!
//! Nodes live in one `Vec` and point at each other by index (parent, first child, next
//! sibling), so building a game of any length costs amortised pushes and no allocation per
//! move. The first child of a node is the main continuation; later children are
//! alternatives to it. An ending (`投了`, `%TORYO` …) is a node of its own, like a move, so it
//! can carry a time and comments and can itself be an alternative.

use std::ops::{Index, IndexMut};

use crate::{Bookmark, Comment, Ending, EndingKind, Span};

/// Index of a node in its [`MoveTree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The node's place in its tree's arena (the root is 0).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

const NONE: u32 = u32::MAX;

/// What a node stands for. `M` is the game's move, `E` its own ending words (see
/// [`EndingKind::Game`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeItem<M, E> {
    /// The start position (only the root).
    Start,
    /// A move of the game.
    Move(M),
    /// An ending (resignation, a result …).
    End(EndingKind<E>),
}

/// One position in the tree, reached by `item` from its parent.
///
/// A node is kept small, because a record has one per move and most moves have neither a
/// comment nor a bookmark: the two times are plain numbers with a flag each, and comments and
/// bookmarks sit behind one pointer that stays empty until the first is added (80 bytes for
/// shogi, where two lists and two options made 136). Reading, changing and dropping a record
/// of plain moves therefore touches no list per move.
#[derive(Clone, Debug)]
pub struct Node<M, E> {
    /// The start, the move or the ending this node stands for.
    pub item: NodeItem<M, E>,
    /// The move or ending as written in the source (empty for the root and for built trees).
    pub span: Span,
    /// Set on a move kept although the rules forbid it (a record ending in 反則勝ち etc.).
    pub illegal: bool,
    /// Which of `time_ms` and `total_ms` are given ([`TIME`], [`TOTAL`]); a time not given
    /// is held as 0, so equal nodes compare equal.
    times_given: u8,
    time_ms: u64,
    total_ms: u64,
    /// Comments and bookmarks, allocated with the first of either.
    notes: Option<Box<Notes>>,
    ply: u32,
    parent: u32,
    first_child: u32,
    /// Kept so that appending an alternative does not walk the siblings (a file with
    /// thousands of alternatives to one move must not be quadratic).
    last_child: u32,
    next_sibling: u32,
}

/// Equal when everything a reader can see is equal: a node whose comments were made room for
/// and then emptied is equal to one that never had any.
impl<M: PartialEq, E: PartialEq> PartialEq for Node<M, E> {
    fn eq(&self, other: &Self) -> bool {
        self.item == other.item
            && self.span == other.span
            && self.illegal == other.illegal
            && self.times_given == other.times_given
            && self.time_ms == other.time_ms
            && self.total_ms == other.total_ms
            && Notes::of(&self.notes) == Notes::of(&other.notes)
            && self.ply == other.ply
            && self.parent == other.parent
            && self.first_child == other.first_child
            && self.last_child == other.last_child
            && self.next_sibling == other.next_sibling
    }
}

/// The bit of [`Node::times_given`] for the move's own time.
const TIME: u8 = 1;
/// The bit of [`Node::times_given`] for the mover's total.
const TOTAL: u8 = 2;

/// What a node carries only when the source wrote it.
#[derive(Clone, Debug, PartialEq, Default)]
struct Notes {
    comments: Vec<Comment>,
    bookmarks: Vec<Bookmark>,
}

impl Notes {
    /// A node's comments and bookmarks, empty when it has none.
    fn of(notes: &Option<Box<Notes>>) -> (&[Comment], &[Bookmark]) {
        notes
            .as_deref()
            .map_or((&[], &[]), |n| (&n.comments, &n.bookmarks))
    }
}

impl<M, E> Node<M, E> {
    fn new(item: NodeItem<M, E>, span: Span, ply: u32, parent: u32) -> Node<M, E> {
        Node {
            item,
            span,
            illegal: false,
            times_given: 0,
            time_ms: 0,
            total_ms: 0,
            notes: None,
            ply,
            parent,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
        }
    }

    /// Thinking time for this move, in milliseconds.
    #[inline]
    pub fn time_ms(&self) -> Option<u64> {
        (self.times_given & TIME != 0).then_some(self.time_ms)
    }

    /// The mover's total thinking time including this move, in milliseconds.
    #[inline]
    pub fn total_ms(&self) -> Option<u64> {
        (self.times_given & TOTAL != 0).then_some(self.total_ms)
    }

    /// Sets (or, with `None`, removes) the thinking time for this move.
    #[inline]
    pub fn set_time_ms(&mut self, time_ms: Option<u64>) {
        self.time_ms = time_ms.unwrap_or(0);
        self.times_given = (self.times_given & !TIME) | if time_ms.is_some() { TIME } else { 0 };
    }

    /// Sets (or, with `None`, removes) the mover's total thinking time.
    #[inline]
    pub fn set_total_ms(&mut self, total_ms: Option<u64>) {
        self.total_ms = total_ms.unwrap_or(0);
        self.times_given = (self.times_given & !TOTAL) | if total_ms.is_some() { TOTAL } else { 0 };
    }

    /// Comments on this move (or, on the root, on the game before the first move).
    #[inline]
    pub fn comments(&self) -> &[Comment] {
        Notes::of(&self.notes).0
    }

    /// The comments to change; room for them is made with the first.
    pub fn comments_mut(&mut self) -> &mut Vec<Comment> {
        &mut self.notes.get_or_insert_with(Box::default).comments
    }

    /// Takes the comments away, leaving none (and making no room where there were none).
    pub fn take_comments(&mut self) -> Vec<Comment> {
        self.notes
            .as_mut()
            .map(|n| std::mem::take(&mut n.comments))
            .unwrap_or_default()
    }

    /// Named marks on this node (KIF's `&` bookmarks).
    #[inline]
    pub fn bookmarks(&self) -> &[Bookmark] {
        Notes::of(&self.notes).1
    }

    /// The bookmarks to change; room for them is made with the first.
    pub fn bookmarks_mut(&mut self) -> &mut Vec<Bookmark> {
        &mut self.notes.get_or_insert_with(Box::default).bookmarks
    }

    /// Number of moves from the start to this node (the root is 0; an ending has the ply
    /// number its line gives it, one more than the last move).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The move, if the node is a move.
    pub fn mv(&self) -> Option<&M> {
        match &self.item {
            NodeItem::Move(m) => Some(m),
            _ => None,
        }
    }

    /// Whether the node is an ending.
    pub fn is_ending(&self) -> bool {
        matches!(self.item, NodeItem::End(_))
    }

    /// The text the node was read from, given the decoded source.
    pub fn text<'s>(&self, source: &'s str) -> &'s str {
        source.get(self.span.range()).unwrap_or("")
    }
}

impl<M, E: Clone> Node<M, E> {
    /// The ending with its span, if the node is an ending.
    pub fn ending(&self) -> Option<Ending<E>> {
        match &self.item {
            NodeItem::End(kind) => Some(Ending::new(kind.clone(), self.span)),
            _ => None,
        }
    }
}

/// A move tree generic over the game's move type `M` and its own ending words `E`.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveTree<M, E> {
    nodes: Vec<Node<M, E>>,
}

impl<M, E: Clone> Default for MoveTree<M, E> {
    fn default() -> Self {
        MoveTree::new()
    }
}

impl<M, E: Clone> MoveTree<M, E> {
    /// A tree holding only the start position.
    pub fn new() -> MoveTree<M, E> {
        MoveTree::with_capacity(1)
    }

    /// Reserves room for `n` nodes (a reader can pass a line-count estimate).
    pub fn with_capacity(n: usize) -> MoveTree<M, E> {
        let mut nodes = Vec::with_capacity(n.max(1));
        nodes.push(Node::new(NodeItem::Start, Span::default(), 0, NONE));
        MoveTree { nodes }
    }

    /// The start position's node.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// Number of nodes including the root.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when there is nothing but the start position.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// The node `id`, or `None` when it is not of this tree.
    pub fn get(&self, id: NodeId) -> Option<&Node<M, E>> {
        self.nodes.get(id.index())
    }

    /// The node `id` to change, or `None` when it is not of this tree.
    pub fn get_mut(&mut self, id: NodeId) -> Option<&mut Node<M, E>> {
        self.nodes.get_mut(id.index())
    }

    /// Appends a move as the last child of `parent` (the main continuation if it is the first).
    pub fn add_move(&mut self, parent: NodeId, mv: M, span: Span) -> NodeId {
        self.add(parent, NodeItem::Move(mv), span)
    }

    /// Appends an ending as the last child of `parent`.
    pub fn add_ending(&mut self, parent: NodeId, kind: EndingKind<E>, span: Span) -> NodeId {
        self.add(parent, NodeItem::End(kind), span)
    }

    /// Appends a child. Panics only if `parent` is not a node of this tree.
    ///
    /// Always inlined: it runs once a move read, and as a call (rustc declines to inline
    /// it into the readers' large loops) its entry and exit cost a quarter of its work.
    #[inline(always)]
    pub fn add(&mut self, parent: NodeId, item: NodeItem<M, E>, span: Span) -> NodeId {
        let id = u32::try_from(self.nodes.len()).expect("move tree over 4 G nodes");
        let p = &mut self.nodes[parent.index()];
        let ply = p.ply + 1;
        let last = std::mem::replace(&mut p.last_child, id);
        if last == NONE {
            p.first_child = id;
        } else {
            self.nodes[last as usize].next_sibling = id;
        }
        let node = move || Node::new(item, span, ply, parent.0);
        if self.nodes.len() < self.nodes.capacity() {
            // Known to fit, `push` cannot reallocate here, so the node (80 bytes for shogi) is
            // written straight into place; otherwise it is built on the stack and copied with
            // a call to `memcpy`, for every move read.
            self.nodes.push(node());
        } else {
            self.nodes.reserve(1);
            self.nodes.push(node());
        }
        NodeId(id)
    }

    /// The node `id` was reached from (`None` for the root).
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        let p = self[id].parent;
        (p != NONE).then_some(NodeId(p))
    }

    /// The main continuation of `id`.
    pub fn main_child(&self, id: NodeId) -> Option<NodeId> {
        let c = self[id].first_child;
        (c != NONE).then_some(NodeId(c))
    }

    /// The next alternative to `id` (`None` after the last).
    pub fn next_sibling(&self, id: NodeId) -> Option<NodeId> {
        let s = self[id].next_sibling;
        (s != NONE).then_some(NodeId(s))
    }

    /// All children of `id`, main continuation first.
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.main_child(id), move |&c| self.next_sibling(c))
    }

    /// The alternatives to the main continuation of `id`.
    pub fn variations(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.children(id).skip(1)
    }

    /// The line that follows first children from `from` (exclusive) to its end.
    pub fn line_from(&self, from: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.main_child(from), move |&c| self.main_child(c))
    }

    /// The main line: every first child from the root, not including the root.
    pub fn main_line(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.line_from(self.root())
    }

    /// The last node of the main line (the root if there are no moves).
    pub fn main_line_end(&self) -> NodeId {
        self.main_line().last().unwrap_or(self.root())
    }

    /// The ending of the main line, if it has one.
    pub fn ending(&self) -> Option<Ending<E>> {
        self[self.main_line_end()].ending()
    }

    /// The nodes from the root (exclusive) down to `id` (inclusive).
    pub fn path_to(&self, id: NodeId) -> Vec<NodeId> {
        let mut path: Vec<NodeId> = std::iter::successors(Some(id), |&n| self.parent(n)).collect();
        path.pop(); // the root
        path.reverse();
        path
    }

    /// True when `id` is on the main line (or is the root).
    pub fn is_main_line(&self, id: NodeId) -> bool {
        let mut n = id;
        while let Some(p) = self.parent(n) {
            if self.main_child(p) != Some(n) {
                return false;
            }
            n = p;
        }
        true
    }

    /// Makes `id` the first child of its parent, keeping the order of the others.
    pub fn promote(&mut self, id: NodeId) {
        let Some(parent) = self.parent(id) else {
            return;
        };
        if self.main_child(parent) == Some(id) {
            return;
        }
        let prev = self
            .children(parent)
            .find(|&c| self.next_sibling(c) == Some(id))
            .expect("a child is its parent's first child or someone's next sibling");
        let after = self.nodes[id.index()].next_sibling;
        self.nodes[prev.index()].next_sibling = after;
        if after == NONE {
            self.nodes[parent.index()].last_child = prev.0;
        }
        self.nodes[id.index()].next_sibling = self.nodes[parent.index()].first_child;
        self.nodes[parent.index()].first_child = id.0;
    }

    /// Every node id in creation order (the root first).
    pub fn ids(&self) -> impl Iterator<Item = NodeId> + use<M, E> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// Maps every move, keeping the shape, spans, times and comments.
    pub fn map_moves<N>(self, mut f: impl FnMut(M) -> N) -> MoveTree<N, E> {
        let nodes = self
            .nodes
            .into_iter()
            .map(|n| Node {
                item: match n.item {
                    NodeItem::Start => NodeItem::Start,
                    NodeItem::Move(m) => NodeItem::Move(f(m)),
                    NodeItem::End(e) => NodeItem::End(e),
                },
                span: n.span,
                illegal: n.illegal,
                times_given: n.times_given,
                time_ms: n.time_ms,
                total_ms: n.total_ms,
                notes: n.notes,
                ply: n.ply,
                parent: n.parent,
                first_child: n.first_child,
                last_child: n.last_child,
                next_sibling: n.next_sibling,
            })
            .collect();
        MoveTree { nodes }
    }
}

impl<M, E> Index<NodeId> for MoveTree<M, E> {
    type Output = Node<M, E>;
    fn index(&self, id: NodeId) -> &Node<M, E> {
        &self.nodes[id.index()]
    }
}

impl<M, E> IndexMut<NodeId> for MoveTree<M, E> {
    fn index_mut(&mut self, id: NodeId) -> &mut Node<M, E> {
        &mut self.nodes[id.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CommentKind, Side};

    fn moves(
        tree: &MoveTree<&'static str, crate::NoEnding>,
        ids: impl Iterator<Item = NodeId>,
    ) -> Vec<String> {
        ids.map(|id| match &tree[id].item {
            NodeItem::Move(m) => m.to_string(),
            NodeItem::End(k) => format!("end:{k:?}"),
            NodeItem::Start => "start".into(),
        })
        .collect()
    }

    fn sample() -> (MoveTree<&'static str, crate::NoEnding>, [NodeId; 6]) {
        let mut t = MoveTree::new();
        let a = t.add_move(t.root(), "76fu", Span::new(0, 4));
        let b = t.add_move(a, "34fu", Span::new(5, 9));
        let c = t.add_ending(b, EndingKind::Resign, Span::new(10, 12));
        let b2 = t.add_move(a, "84fu", Span::new(13, 17));
        let b3 = t.add_ending(a, EndingKind::Resign, Span::new(18, 20));
        let c2 = t.add_move(b2, "26fu", Span::new(21, 25));
        (t, [a, b, c, b2, b3, c2])
    }

    #[test]
    fn main_line_and_variations() {
        let (t, [a, b, c, b2, b3, c2]) = sample();
        assert_eq!(moves(&t, t.main_line()), ["76fu", "34fu", "end:Resign"]);
        assert_eq!(t.children(a).collect::<Vec<_>>(), [b, b2, b3]);
        assert_eq!(t.variations(a).collect::<Vec<_>>(), [b2, b3]);
        assert_eq!(t.path_to(c2), [a, b2, c2]);
        assert_eq!(t[c2].ply(), 3);
        assert_eq!(t[b3].ply(), 2);
        assert_eq!(t.ending().unwrap().kind, EndingKind::Resign);
        assert_eq!(t.ending().unwrap().span, Span::new(10, 12));
        assert!(t.is_main_line(c));
        assert!(!t.is_main_line(c2));
        assert_eq!(t.parent(t.root()), None);
        assert_eq!(t.len(), 7);
    }

    #[test]
    fn promote_reorders_children() {
        let (mut t, [a, b, _, b2, b3, _]) = sample();
        t.promote(b3);
        assert_eq!(t.children(a).collect::<Vec<_>>(), [b3, b, b2]);
        t.promote(b2);
        assert_eq!(t.children(a).collect::<Vec<_>>(), [b2, b3, b]);
        assert_eq!(moves(&t, t.main_line()), ["76fu", "84fu", "26fu"]);
        t.promote(b2); // already first: no change
        assert_eq!(t.children(a).collect::<Vec<_>>(), [b2, b3, b]);
        // promoting the last child keeps appending right
        t.promote(b);
        let c = t.add_move(a, "99fu", Span::default());
        assert_eq!(t.children(a).collect::<Vec<_>>(), [b, b2, b3, c]);
    }

    #[test]
    fn times_are_given_or_not_and_a_zero_is_a_time() {
        let (mut t, [a, b, ..]) = sample();
        assert_eq!((t[a].time_ms(), t[a].total_ms()), (None, None));
        t[a].set_time_ms(Some(0));
        assert_eq!((t[a].time_ms(), t[a].total_ms()), (Some(0), None));
        t[a].set_total_ms(Some(u64::MAX));
        assert_eq!((t[a].time_ms(), t[a].total_ms()), (Some(0), Some(u64::MAX)));
        t[a].set_time_ms(None);
        t[a].set_total_ms(None);
        // Taken away again, the node is equal to one that never had times.
        let mut fresh = t[a].clone();
        fresh.set_time_ms(None);
        assert_eq!(t[a], fresh);
        assert_eq!(t[b].time_ms(), None);
    }

    #[test]
    fn a_node_without_notes_holds_no_list() {
        // The move of a plain record: a 4-byte move, an ending enum with a string among its
        // variants; 80 bytes, where two lists and two options made 136.
        assert!(std::mem::size_of::<Node<u32, crate::NoEnding>>() <= 80);
        let (mut t, [a, b, ..]) = sample();
        assert!(t[a].notes.is_none() && t[a].comments().is_empty() && t[a].bookmarks().is_empty());
        t[a].bookmarks_mut().push(Bookmark {
            name: "mark".into(),
            span: Span::new(1, 5),
        });
        assert_eq!(t[a].bookmarks().len(), 1);
        assert!(t[a].comments().is_empty());
        assert!(t[b].notes.is_none());
    }

    #[test]
    fn node_data_and_map() {
        let (mut t, [a, ..]) = sample();
        t[a].set_time_ms(Some(16_000));
        t[a].set_total_ms(Some(16_000));
        t[a].comments_mut()
            .push(Comment::new(CommentKind::Text, "good", Span::new(30, 35)));
        let source = "76fu 34fu";
        assert_eq!(t[a].text(source), "76fu");
        let mapped = t.map_moves(|m| m.len());
        assert_eq!(mapped[a].mv(), Some(&4));
        assert_eq!(mapped[a].comments()[0].text, "good");
        assert_eq!(mapped[a].time_ms(), Some(16_000));
        assert_eq!(mapped[a].total_ms(), Some(16_000));
        assert!(mapped[a].bookmarks().is_empty());
        assert_eq!(mapped.main_line().count(), 3);
    }

    #[test]
    fn many_alternatives_append_in_constant_time() {
        let mut t: MoveTree<u32, crate::NoEnding> = MoveTree::new();
        let root = t.root();
        for i in 0..200_000 {
            t.add_move(root, i, Span::default());
        }
        assert_eq!(t.children(root).count(), 200_000);
        assert_eq!(
            t.children(root).last().map(|id| t[id].mv().copied()),
            Some(Some(199_999))
        );
    }

    #[test]
    fn empty_tree() {
        let t: MoveTree<u16, crate::NoEnding> = MoveTree::new();
        assert!(t.is_empty());
        assert_eq!(t.main_line_end(), t.root());
        assert_eq!(t.ending(), None);
        assert!(t.path_to(t.root()).is_empty());
        let _ = Side::First;
    }
}
