//! Perft: counting the leaves of the legal move tree, the standard test of a move generator.

use crate::{Move, MoveList, Position};

/// Number of leaf nodes `depth` plies below `pos`.
///
/// Leaves are counted in bulk: at depth 1 the legal moves are generated and
/// counted, not played. No allocation happens after the first call's stack of
/// move lists is set up.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    perft_with(pos, depth, &mut lists)
}

fn perft_with(pos: &mut Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    pos.generate_legal_moves(list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &mv in list.iter() {
        pos.play_unchecked(mv);
        nodes += perft_with(pos, depth - 1, rest);
        pos.undo();
    }
    nodes
}

/// Perft split by first move, in generation order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            pos.play_unchecked(mv);
            let n = perft(pos, depth - 1);
            pos.undo();
            (mv, n)
        })
        .collect()
}
