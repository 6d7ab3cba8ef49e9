//! Perft in the two counting conventions.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// How moves that lead to the same position are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Counting {
    /// Every single move (with its promotion choice) and every lion-type route counts, as lishogi
    /// and shogiops enumerate them.
    PathBased,
    /// Sibling moves that reach the identical position (board, side to move, counter-strike
    /// square) count once.
    Canonical,
}

impl Counting {
    /// `path` / `path-based` / `lishogi`, or `canonical` (see the [`std::str::FromStr`] impl).
    pub fn from_name(name: &str) -> Option<Counting> {
        name.parse().ok()
    }

    /// `path-based` or `canonical`.
    pub fn name(self) -> &'static str {
        match self {
            Counting::PathBased => "path-based",
            Counting::Canonical => "canonical",
        }
    }
}

impl std::fmt::Display for Counting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no counting convention.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown counting `{0}` (expected `path-based` or `canonical`)")]
pub struct UnknownCounting(pub String);

impl std::str::FromStr for Counting {
    type Err = UnknownCounting;

    fn from_str(name: &str) -> Result<Counting, UnknownCounting> {
        match name.to_ascii_lowercase().as_str() {
            "path" | "path-based" | "pathbased" | "lishogi" | "routes" => Ok(Counting::PathBased),
            "canonical" | "positions" => Ok(Counting::Canonical),
            _ => Err(UnknownCounting(name.to_owned())),
        }
    }
}

/// Counts the leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &Position, depth: u32, convention: Counting) -> u64 {
    let mut plies: Vec<Ply> = (0..depth.max(1)).map(|_| Ply::default()).collect();
    perft_inner(pos, depth, convention, &mut plies)
}

/// Buffers of one ply, allocated once per perft call.
#[derive(Default)]
struct Ply {
    moves: MoveList,
    seen: Vec<u64>,
}

fn perft_inner(pos: &Position, depth: u32, convention: Counting, plies: &mut [Ply]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (ply, rest) = plies.split_first_mut().expect("one buffer per ply");
    pos.legal_moves_into(&mut ply.moves);
    ply.seen.clear();
    let canonical = convention == Counting::Canonical;
    if depth == 1 {
        if !canonical {
            return ply.moves.len() as u64;
        }
        let seen = &mut ply.seen;
        return ply
            .moves
            .iter()
            .filter(|&&m| is_representative(pos, m, seen))
            .count() as u64;
    }
    let mut nodes = 0;
    for &m in ply.moves.iter() {
        if canonical && !is_representative(pos, m, &mut ply.seen) {
            continue;
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += perft_inner(&child, depth - 1, convention, rest);
    }
    nodes
}

/// Whether `m` is the first move of the generated list to reach its resulting position. Only
/// two-step moves can repeat a position: through an empty first square they equal the step or
/// jump to the same destination (always generated too), every jitto equals every other, and two
/// pieces' igui of the same victim leave the same board. `seen` collects igui/jitto keys of the
/// current list (cleared by the caller per position).
pub(crate) fn is_representative(pos: &Position, m: Move, seen: &mut Vec<u64>) -> bool {
    let Some(mid) = m.mid() else {
        return true;
    };
    let mid_empty = pos.piece_at(mid).is_none();
    if !m.returns_to_start() {
        return !mid_empty;
    }
    // igui or jitto: the position depends only on the victim's square and the counter-strike
    // square it sets (a non-lion taking a lion).
    let key = if mid_empty {
        0
    } else {
        let mut after = pos.clone();
        after.play_unchecked(m);
        1 + mid.index() as u64 * 512 + u64::from(after.counter_strike)
    };
    if seen.contains(&key) {
        false
    } else {
        seen.push(key);
        true
    }
}

/// Per-move counts at the root (a "divide"), in generation order.
pub fn perft_divide(pos: &Position, depth: u32, convention: Counting) -> Vec<(Move, u64)> {
    let mut seen = Vec::new();
    let moves = pos.legal_moves();
    moves
        .iter()
        .filter(|&&m| convention == Counting::PathBased || is_representative(pos, m, &mut seen))
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (
                m,
                if depth <= 1 {
                    1
                } else {
                    perft(&child, depth - 1, convention)
                },
            )
        })
        .collect()
}
