//! Random games (property tests): on every position reached, SFEN round trips, and every legal
//! move's Western and Japanese renderings read back to the same position.

use kifu_chu::notation::{Dialect, japanese, parse_move, western};
use kifu_chu::{Counting, Move, Position, perft};
use proptest::prelude::*;

fn same_position(pos: &Position, a: Move, b: Move) -> bool {
    let mut x = pos.clone();
    x.play_unchecked(a);
    let mut y = pos.clone();
    y.play_unchecked(b);
    x.repetition_key() == y.repetition_key()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn renderings_read_back_in_random_games(choices in proptest::collection::vec(any::<u32>(), 40..160)) {
        let mut pos = Position::startpos();
        let mut previous = None;
        for (ply, c) in choices.iter().enumerate() {
            if pos.outcome().is_some() {
                break;
            }
            prop_assert_eq!(Position::from_sfen(&pos.to_sfen()).unwrap(), pos.clone());
            let moves = pos.legal_moves();
            // Check a handful of moves per position (all of them would be slow).
            for (i, &m) in moves.iter().enumerate() {
                if i % 3 != (*c as usize) % 3 {
                    continue;
                }
                for text in [western(&pos, m), japanese(&pos, m)] {
                    let read = parse_move(&pos, &text, Dialect::Csl, previous);
                    prop_assert!(
                        matches!(&read, Ok(p) if same_position(&pos, p.mv, m)),
                        "ply {}: {} written `{}` read {:?} in {}", ply, m, text, read, pos.to_sfen()
                    );
                }
            }
            let m = moves.as_slice()[*c as usize % moves.len()];
            previous = Some(m.to());
            pos.play(m).unwrap();
        }
        // Canonical never counts more than path-based.
        prop_assert!(perft(&pos, 2, Counting::Canonical) <= perft(&pos, 2, Counting::PathBased));
    }
}
