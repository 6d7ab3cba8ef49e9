//! Comparing records by content, ignoring where things were written (spans) — what a round
//! trip through another format must preserve.

use kifu_record::{EndingKind, Node, NodeId, NodeItem, Side};
use kifu_shogi::ShogiEnding;

use kifu_records::shogi::{ShogiRecord, side_of};
use kifu_shogi::Move;

/// What the comparison looks at in a header: key, value and meaning.
pub fn header_of(r: &ShogiRecord) -> Vec<(String, String)> {
    r.header
        .entries()
        .iter()
        .map(|e| (e.key.clone(), e.value.clone()))
        .collect()
}

fn node_summary(n: &Node<Move, ShogiEnding>, comments: bool, first_mover: Side) -> String {
    // `%±ILLEGAL_ACTION` and 反則勝ち/反則負け say the same thing in different words.
    let mover = if n.ply() % 2 == 1 {
        first_mover
    } else {
        first_mover.opponent()
    };
    let item = match &n.item {
        NodeItem::End(EndingKind::IllegalAction(s)) if *s == mover => {
            NodeItem::End(EndingKind::IllegalMoveLoss)
        }
        NodeItem::End(EndingKind::IllegalAction(_)) => NodeItem::End(EndingKind::IllegalMoveWin),
        other => other.clone(),
    };
    let mut s = format!("{:?} t={:?} illegal={}", item, n.time_ms(), n.illegal);
    if comments {
        for c in n.comments() {
            // Only CSA tells hidden (`'`) from shown (`'*`) comments; engine lines are kept apart.
            let engine = c.kind == kifu_record::CommentKind::Engine;
            s.push_str(&format!(
                " [{} {}]",
                if engine { "engine" } else { "text" },
                c.text
            ));
        }
        for b in n.bookmarks() {
            s.push_str(&format!(" &{}", b.name));
        }
    }
    s
}

/// Every node of the tree in depth-first order with its depth, as text.
pub fn tree_of(r: &ShogiRecord, comments: bool) -> Vec<String> {
    let first_mover = side_of(r.start.position.turn());
    let mut out = Vec::new();
    let mut stack: Vec<NodeId> = vec![r.moves.root()];
    while let Some(id) = stack.pop() {
        out.push(format!(
            "{} {}",
            r.moves[id].ply(),
            node_summary(&r.moves[id], comments, first_mover)
        ));
        let children: Vec<_> = r.moves.children(id).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

/// Panics with a readable difference unless the two records hold the same game.
pub fn assert_same_game(a: &ShogiRecord, b: &ShogiRecord, comments: bool, what: &str) {
    assert_eq!(a.start, b.start, "{what}: start position");
    let (ta, tb) = (tree_of(a, comments), tree_of(b, comments));
    if ta != tb {
        let first = ta
            .iter()
            .zip(&tb)
            .position(|(x, y)| x != y)
            .unwrap_or(ta.len().min(tb.len()));
        panic!(
            "{what}: trees differ at node {first}: {:?} vs {:?} (lengths {} and {})",
            ta.get(first),
            tb.get(first),
            ta.len(),
            tb.len()
        );
    }
}
