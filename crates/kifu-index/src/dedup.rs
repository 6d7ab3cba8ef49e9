//! Finding the same game among records of any format: the same start and the same moves
//! (the canonical game key, checked move by move), and a record that is a truncated copy of a
//! longer one.

use std::collections::HashMap;

use crate::key::{fold, game_key};
use crate::read::IndexedGame;

/// How copies are told apart from games that merely share an opening.
#[derive(Clone, Copy, Debug)]
pub struct DedupOptions {
    /// A shorter record counts as a truncated copy of a longer one only when it has at least
    /// this many moves: below it, two games sharing an opening and one left unfinished look
    /// alike.
    pub min_truncated_plies: usize,
}

impl Default for DedupOptions {
    fn default() -> Self {
        DedupOptions {
            min_truncated_plies: 10,
        }
    }
}

/// One record of a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    /// Its index in the slice given to [`groups`].
    pub index: usize,
    /// Whether its moves are a proper prefix of the group's longest record.
    pub truncated: bool,
}

/// Records of one game.
#[derive(Clone, Debug)]
pub struct Group {
    /// In the order given.
    pub members: Vec<Member>,
    /// The record to keep: the most complete (not truncated, most moves, then most header
    /// entries, comments and times, then the first given).
    pub keep: usize,
}

/// Groups the records that hold the same game. Every record is in exactly one group; a group
/// of one is a game with no copy.
pub fn groups(games: &[IndexedGame], options: DedupOptions) -> Vec<Group> {
    // Same start, same moves: one class per distinct move list (a key collision is caught by
    // comparing the moves).
    let mut classes: Vec<Vec<usize>> = Vec::new();
    let mut by_key: HashMap<(u64, usize), Vec<usize>> = HashMap::new();
    for (i, g) in games.iter().enumerate() {
        let key = (game_key(&g.keys), g.moves.len());
        let candidates = by_key.entry(key).or_default();
        let same = candidates.iter().copied().find(|&c| {
            let first = &games[classes[c][0]];
            first.start_key == g.start_key && first.moves == g.moves
        });
        match same {
            Some(c) => classes[c].push(i),
            None => {
                candidates.push(classes.len());
                classes.push(vec![i]);
            }
        }
    }
    // A class whose game stops without an ending and whose moves begin exactly one longer
    // game (or a chain of copies of it) is a truncated copy of that game.
    let unfinished = |g: &IndexedGame| matches!(g.meta.ending.as_str(), "none" | "abort");
    let mut prefix_of: Vec<Vec<usize>> = vec![Vec::new(); classes.len()];
    for (c, members) in classes.iter().enumerate() {
        let g = &games[members[0]];
        let mut key = g.start_key;
        for (n, &next) in g.keys[1..].iter().enumerate() {
            if n >= options.min_truncated_plies
                && let Some(shorter) = by_key.get(&(key, n))
            {
                for &s in shorter {
                    let t = &games[classes[s][0]];
                    if t.start_key == g.start_key && t.moves[..] == g.moves[..n] {
                        prefix_of[s].push(c);
                    }
                }
            }
            key = fold(key, next);
        }
    }
    // Each class's representative class (union by following truncation to the longest).
    let mut parent: Vec<usize> = (0..classes.len()).collect();
    for s in 0..classes.len() {
        let longer = &prefix_of[s];
        if longer.is_empty() || !classes[s].iter().all(|&i| unfinished(&games[i])) {
            continue;
        }
        let longest = *longer
            .iter()
            .max_by_key(|&&c| games[classes[c][0]].moves.len())
            .expect("not empty");
        let long_moves = &games[classes[longest][0]].moves;
        let one_line = longer.iter().all(|&c| {
            let m = &games[classes[c][0]].moves;
            long_moves[..m.len()] == m[..]
        });
        if one_line {
            parent[s] = longest;
        }
    }
    let root = |mut c: usize| {
        while parent[c] != c {
            c = parent[c];
        }
        c
    };
    let mut by_root: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut order = Vec::new();
    for c in 0..classes.len() {
        let r = root(c);
        let list = by_root.entry(r).or_default();
        if list.is_empty() {
            order.push(r);
        }
        list.push(c);
    }
    order
        .into_iter()
        .map(|r| {
            let full = games[classes[r][0]].moves.len();
            let mut members: Vec<Member> = by_root[&r]
                .iter()
                .flat_map(|&c| classes[c].iter().copied())
                .map(|index| Member {
                    index,
                    truncated: games[index].moves.len() < full,
                })
                .collect();
            members.sort_by_key(|m| m.index);
            let keep = members
                .iter()
                .max_by(|a, b| {
                    let (ga, gb) = (&games[a.index], &games[b.index]);
                    (!a.truncated, ga.moves.len(), ga.detail)
                        .cmp(&(!b.truncated, gb.moves.len(), gb.detail))
                        .then(b.index.cmp(&a.index))
                })
                .map_or(0, |m| m.index);
            Group { members, keep }
        })
        .collect()
}
