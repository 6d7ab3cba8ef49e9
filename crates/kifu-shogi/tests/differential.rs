//! Our legal moves against `shogi_legality_lite`'s on positions reached by seeded random playouts.
//!
//! Investigated disagreements: none so far. Both generators agree on every
//! position below, 打ち歩詰め and drops that would leave a piece without a
//! move included. If one ever appears, the failing SFEN and the moves only one
//! side produces are printed, and the finding belongs in this comment.

use std::collections::BTreeSet;

use kifu_shogi::{Bitboard, Color, Handicap, Move, MoveList, PieceKind, Position, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shogi_core::{PartialPosition, ToUsi};
use shogi_usi_parser::FromUsi;

fn oracle_moves(pos: &Position) -> BTreeSet<String> {
    let theirs = PartialPosition::from_usi(&format!("sfen {}", pos.to_sfen()))
        .expect("oracle parses our SFEN");
    shogi_legality_lite::all_legal_moves_partial(&theirs)
        .iter()
        .map(|m| m.to_usi_owned())
        .collect()
}

/// Every move that could be written down: all origin/target/promotion triples and all drops.
fn every_conceivable_move() -> Vec<Move> {
    let mut all = Vec::new();
    for from in Square::all() {
        for to in Square::all() {
            if from != to {
                all.push(Move::normal(from, to, false));
                all.push(Move::normal(from, to, true));
            }
        }
    }
    for kind in kifu_shogi::PieceKind::HAND {
        for to in Square::all() {
            all.push(Move::drop(kind, to));
        }
    }
    all
}

#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    in_check: usize,
    with_drops: usize,
    with_promotions: usize,
    pawn_drop_mates_excluded: usize,
    checkmates: usize,
}

#[test]
fn legal_moves_agree_with_shogi_legality_lite() {
    let mut rng = StdRng::seed_from_u64(0x6b69_6675);
    let conceivable = every_conceivable_move();
    let mut cov = Coverage::default();
    let mut list = MoveList::new();
    let mut game = 0;
    while cov.positions < 10_000 {
        let mut pos = match game % 4 {
            0 | 1 => Position::startpos(),
            2 => Handicap::ALL[rng.random_range(0..Handicap::ALL.len())].position(),
            _ => Position::from_sfen(
                "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            )
            .unwrap(),
        };
        game += 1;
        for _ in 0..250 {
            pos.generate_legal_moves(&mut list);
            let ours: BTreeSet<String> = list.iter().map(|m| m.to_string()).collect();
            assert_eq!(
                ours.len(),
                list.len(),
                "duplicate moves in {}",
                pos.to_sfen()
            );
            let theirs = oracle_moves(&pos);
            if ours != theirs {
                panic!(
                    "disagreement at {}\n only ours: {:?}\n only theirs: {:?}",
                    pos.to_sfen(),
                    ours.difference(&theirs).collect::<Vec<_>>(),
                    theirs.difference(&ours).collect::<Vec<_>>()
                );
            }
            // The checkers kept move by move are those a full scan finds.
            let scanned = pos.king_square(pos.turn()).map_or(Bitboard::EMPTY, |k| {
                pos.attackers_to(k, pos.turn().flip(), pos.occupied())
            });
            assert_eq!(pos.checkers(), scanned, "checkers of {}", pos.to_sfen());
            for color in [Color::Black, Color::White] {
                let king = pos.pieces(color, PieceKind::King).first();
                assert_eq!(pos.king_square(color), king, "king of {}", pos.to_sfen());
            }
            cov.positions += 1;
            cov.in_check += usize::from(pos.is_check());
            cov.with_drops += usize::from(list.iter().any(|m| m.is_drop()));
            cov.with_promotions += usize::from(list.iter().any(|m| m.is_promotion()));
            // Every tenth position: the single-move checker must agree with generation.
            if cov.positions % 10 == 0 {
                for &mv in &conceivable {
                    let listed = list.contains(&mv);
                    let checked = pos.check_move(mv);
                    assert_eq!(
                        listed,
                        checked.is_ok(),
                        "{mv} in {}: {checked:?}",
                        pos.to_sfen()
                    );
                    if matches!(checked, Err(kifu_shogi::IllegalMove::PawnDropMate { .. })) {
                        cov.pawn_drop_mates_excluded += 1;
                    }
                }
            }
            if list.is_empty() {
                cov.checkmates += usize::from(pos.is_check());
                break;
            }
            // Prefer captures, drops and checks a little, so play gets sharp quickly.
            let mv = if rng.random_bool(0.3) {
                let sharp: Vec<Move> = list
                    .iter()
                    .copied()
                    .filter(|&m| m.is_drop() || m.is_promotion() || pos.piece_at(m.to()).is_some())
                    .collect();
                if sharp.is_empty() {
                    list[rng.random_range(0..list.len())]
                } else {
                    sharp[rng.random_range(0..sharp.len())]
                }
            } else {
                list[rng.random_range(0..list.len())]
            };
            let hash = pos.hash();
            pos.play_unchecked(mv);
            pos.undo();
            assert_eq!(pos.hash(), hash, "undo restores the hash");
            pos.play_unchecked(mv);
        }
    }
    eprintln!("{cov:?}");
    assert!(cov.in_check > 300, "{cov:?}");
    assert!(cov.with_drops > 3_000, "{cov:?}");
    assert!(cov.with_promotions > 3_000, "{cov:?}");
    assert!(cov.checkmates > 0, "{cov:?}");
}

#[test]
fn incremental_hash_equals_hash_from_scratch() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut pos = Position::startpos();
    for _ in 0..400 {
        let list = pos.legal_moves();
        if list.is_empty() {
            break;
        }
        pos.play_unchecked(list[rng.random_range(0..list.len())]);
        let fresh = Position::from_sfen(&pos.to_sfen()).unwrap();
        assert_eq!(fresh.hash(), pos.hash(), "{}", pos.to_sfen());
    }
}
