//! A whole game record: header, start position and move tree.

use crate::{Header, MoveTree, Span};

/// One game as read from a file or built by a program.
///
/// `M` is the game's move type and `P` its start-position type; both come from the game's
/// crate (`kifu-shogi`, `kifu-chu`, `kifu-cetkaik`), which also owns the formats.
#[derive(Clone, Debug, PartialEq)]
pub struct Record<M, P> {
    pub header: Header,
    pub start: P,
    /// Where the start position was written (`PI`, a board diagram …); empty if implied.
    pub start_span: Span,
    pub moves: MoveTree<M>,
}

impl<M, P> Record<M, P> {
    pub fn new(start: P) -> Record<M, P> {
        Record {
            header: Header::new(),
            start,
            start_span: Span::default(),
            moves: MoveTree::new(),
        }
    }
}
