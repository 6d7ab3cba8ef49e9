//! Differential tests against crates nobody here wrote: `cetkaik_yhuap_move_candidates`
//! (move candidates) and `cetkaik_calculate_hand` (hands and scores), on seeded random
//! playouts of our own engine.
//!
//! Known divergences, on purpose:
//! - The oracle never filters 皇再来 or 皇無行; we compare with both set to `Allowed`
//!   (under the cerke_online preset our generator drops 皇再来, tested in `rules_variants`).
//! - The oracle always scores 王 as 5; our 硬皇力 preset scores it 3, so hands are compared
//!   with the standard value only.
//! - On a capture the oracle decides whether a water throw is needed from the captured
//!   piece's profession (capturing a 船 in water needs no throw there); the rule names the
//!   moving piece. The test checks the oracle's flag is exactly that and uses the rule's.
//! - Scoring of 撃皇 (−5 at once under cerke_online) is outside both oracles.

use cetkaik_fundamental::{AbsoluteSide, ColorAndProf, PureMove_};
use cetkaik_naive_representation::CetkaikNaive;
use cetkaik_naive_representation::absolute::{self, Coord, Field};
use kifu_cetkaik::moves::PureMove;
use kifu_cetkaik::play::needed_throws;
use kifu_cetkaik::rules::FutileMove;
use kifu_cetkaik::{
    Color, Piece, Position, Profession, Rules, Side, Square, StickRng, Throw, Throws, candidates,
    hands_of,
};
use std::collections::BTreeSet;

fn coord(sq: Square) -> Coord {
    absolute::parse_coord(&sq.to_string()).expect("coordinate")
}

fn square(c: Coord) -> Square {
    absolute::serialize_coord(c).parse().expect("square")
}

fn their_color(c: Color) -> cetkaik_fundamental::Color {
    match c {
        Color::Black => cetkaik_fundamental::Color::Huok2,
        Color::Red => cetkaik_fundamental::Color::Kok1,
    }
}

fn our_color(c: cetkaik_fundamental::Color) -> Color {
    match c {
        cetkaik_fundamental::Color::Huok2 => Color::Black,
        cetkaik_fundamental::Color::Kok1 => Color::Red,
    }
}

fn their_prof(p: Profession) -> cetkaik_fundamental::Profession {
    use cetkaik_fundamental::Profession as T;
    match p {
        Profession::Vessel => T::Nuak1,
        Profession::Pawn => T::Kauk2,
        Profession::Archer => T::Gua2,
        Profession::Chariot => T::Kaun1,
        Profession::Tiger => T::Dau2,
        Profession::Horse => T::Maun1,
        Profession::Officer => T::Kua2,
        Profession::Shaman => T::Tuk2,
        Profession::General => T::Uai1,
        Profession::King => T::Io,
    }
}

fn our_prof(p: cetkaik_fundamental::Profession) -> Profession {
    *Profession::ALL
        .iter()
        .find(|&&q| their_prof(q) == p)
        .expect("profession")
}

fn their_side(s: Side) -> AbsoluteSide {
    match s {
        Side::IASide => AbsoluteSide::IASide,
        Side::ASide => AbsoluteSide::ASide,
    }
}

fn field(pos: &Position) -> Field {
    let mut board = std::collections::HashMap::new();
    for sq in Square::all() {
        match pos.get(sq) {
            None => {}
            Some(Piece::Tam) => {
                board.insert(coord(sq), absolute::Piece::Tam2);
            }
            Some(Piece::Owned { color, prof, side }) => {
                board.insert(
                    coord(sq),
                    absolute::Piece::NonTam2Piece {
                        color: their_color(color),
                        prof: their_prof(prof),
                        side: their_side(side),
                    },
                );
            }
        }
    }
    let hop = |side| {
        pos.hop1zuo1(side)
            .pieces()
            .map(|(c, p)| ColorAndProf {
                color: their_color(c),
                prof: their_prof(p),
            })
            .collect()
    };
    Field {
        board: absolute::Board(board),
        a_side_hop1zuo1: hop(Side::ASide),
        ia_side_hop1zuo1: hop(Side::IASide),
    }
}

/// A move with its water flag, comparable across both crates.
type Key = (PureMove, bool);

fn theirs(pos: &Position, tam_itself_is_tam_hue: bool) -> BTreeSet<Key> {
    let f = field(pos);
    let side = their_side(pos.turn());
    let mut v = cetkaik_yhuap_move_candidates::not_from_hop1zuo1_candidates_vec::<CetkaikNaive>(
        &cetkaik_yhuap_move_candidates::AllowKut2Tam2 {
            allow_kut2tam2: true,
        },
        tam_itself_is_tam_hue,
        side,
        &f,
    );
    v.extend(cetkaik_yhuap_move_candidates::from_hop1zuo1_candidates_vec::<CetkaikNaive>(side, &f));
    v.into_iter()
        .map(|m| match m {
            PureMove_::NonTamMoveSrcDst {
                src,
                dest,
                is_water_entry_ciurl,
            } => {
                let (src, dst) = (square(src), square(dest));
                let mover = pos.get(src).and_then(Piece::prof).expect("piece");
                let flag =
                    |p: Profession| dst.is_water() && !src.is_water() && p != Profession::Vessel;
                // Known divergence: on a capture the oracle judges the water throw by the
                // captured piece's profession (a shadowed variable), not the mover's.
                if let Some(captured) = pos.get(dst).and_then(Piece::prof) {
                    assert_eq!(
                        is_water_entry_ciurl,
                        flag(captured),
                        "oracle flag at {src}-{dst}"
                    );
                    (PureMove::Plain { src, dst }, flag(mover))
                } else {
                    (PureMove::Plain { src, dst }, is_water_entry_ciurl)
                }
            }
            PureMove_::NonTamMoveSrcStepDstFinite {
                src,
                step,
                dest,
                is_water_entry_ciurl,
            } => (
                PureMove::StepFinite {
                    src: square(src),
                    step: square(step),
                    dst: square(dest),
                },
                is_water_entry_ciurl,
            ),
            PureMove_::InfAfterStep {
                src,
                step,
                planned_direction,
            } => {
                let (src, dst) = (square(src), square(planned_direction));
                let prof = pos.get(src).and_then(Piece::prof).expect("piece");
                let water = dst.is_water() && !src.is_water() && prof != Profession::Vessel;
                (
                    PureMove::StepRanged {
                        src,
                        step: square(step),
                        dst,
                    },
                    water,
                )
            }
            PureMove_::NonTamMoveFromHopZuo { color, prof, dest } => (
                PureMove::Drop {
                    color: our_color(color),
                    prof: our_prof(prof),
                    dst: square(dest),
                },
                false,
            ),
            PureMove_::TamMoveNoStep {
                src,
                first_dest,
                second_dest,
            } => (
                PureMove::TamNoStep {
                    src: square(src),
                    first: square(first_dest),
                    second: square(second_dest),
                },
                false,
            ),
            PureMove_::TamMoveStepsDuringFormer {
                src,
                step,
                first_dest,
                second_dest,
            } => (
                PureMove::TamStepFormer {
                    src: square(src),
                    step: square(step),
                    first: square(first_dest),
                    second: square(second_dest),
                },
                false,
            ),
            PureMove_::TamMoveStepsDuringLatter {
                src,
                first_dest,
                step,
                second_dest,
            } => (
                PureMove::TamStepLatter {
                    src: square(src),
                    first: square(first_dest),
                    step: square(step),
                    second: square(second_dest),
                },
                false,
            ),
        })
        .collect()
}

fn ours(pos: &Position, rules: &Rules) -> BTreeSet<Key> {
    candidates(pos, pos.turn(), rules)
        .into_iter()
        .map(|m| (m, needed_throws(pos, m).1))
        .collect()
}

fn random_throws(pos: &Position, mv: PureMove, rng: &mut StickRng) -> Throws {
    let (bridge, water) = needed_throws(pos, mv);
    let mut t = Throws::default();
    if bridge {
        let n = rng.throw();
        t.bridge = Some(Throw::Count(n));
        let dist = mv.step().expect("step").distance(mv.dst());
        if n < dist {
            t.bridge_void = true;
            return t;
        }
    }
    if water {
        t.water = Some(Throw::Count(rng.throw()));
    }
    t
}

fn compare_hands(pos: &Position, side: Side) {
    let pieces: Vec<ColorAndProf> = pos
        .hop1zuo1(side)
        .pieces()
        .map(|(c, p)| ColorAndProf {
            color: their_color(c),
            prof: their_prof(p),
        })
        .collect();
    let expected = cetkaik_calculate_hand::calculate_hands_and_score_from_pieces(&pieces)
        .expect("never more pieces than exist");
    let got = hands_of(pos.hop1zuo1(side));
    let names: BTreeSet<String> = got.iter().map(|h| h.to_string()).collect();
    let theirs: BTreeSet<String> = expected.hands.iter().cloned().collect();
    assert_eq!(names, theirs, "hands of {pieces:?}");
    assert_eq!(got.points(5), expected.score, "score of {pieces:?}");
}

fn playouts(rules: Rules, games: u64, plies: usize) -> (usize, usize) {
    let (mut positions, mut moves) = (0, 0);
    for seed in 0..games {
        let mut rng = StickRng::new(seed * 7919 + 1);
        let first = if seed % 2 == 0 {
            Side::IASide
        } else {
            Side::ASide
        };
        let mut pos = Position::startpos(first);
        for _ in 0..plies {
            let mine = ours(&pos, &rules);
            let other = theirs(&pos, rules.tam_itself_is_tam_hue);
            if mine != other {
                let only_ours: Vec<_> = mine.difference(&other).take(10).collect();
                let only_theirs: Vec<_> = other.difference(&mine).take(10).collect();
                panic!(
                    "seed {seed}: candidates differ\n{pos}\nonly ours: {only_ours:?}\nonly theirs: {only_theirs:?}"
                );
            }
            positions += 1;
            moves += mine.len();
            // The allocation-free membership test agrees with the candidate list, on every
            // candidate and on near misses (each candidate's destination moved by one square).
            for (m, _) in &mine {
                assert!(
                    kifu_cetkaik::moves::is_candidate(&pos, pos.turn(), *m, &rules),
                    "{m}"
                );
                let shifted = match *m {
                    PureMove::Plain { src, dst } => {
                        dst.offset(1, 0).map(|d| PureMove::Plain { src, dst: d })
                    }
                    PureMove::StepFinite { src, step, dst } => dst
                        .offset(0, 1)
                        .map(|d| PureMove::StepFinite { src, step, dst: d }),
                    PureMove::StepRanged { src, step, dst } => dst
                        .offset(-1, 0)
                        .map(|d| PureMove::StepRanged { src, step, dst: d }),
                    PureMove::TamNoStep { src, first, second } => {
                        second.offset(0, -1).map(|d| PureMove::TamNoStep {
                            src,
                            first,
                            second: d,
                        })
                    }
                    PureMove::TamStepFormer {
                        src,
                        step,
                        first,
                        second,
                    } => second.offset(1, 1).map(|d| PureMove::TamStepFormer {
                        src,
                        step,
                        first,
                        second: d,
                    }),
                    PureMove::TamStepLatter {
                        src,
                        first,
                        step,
                        second,
                    } => second.offset(-1, -1).map(|d| PureMove::TamStepLatter {
                        src,
                        first,
                        step,
                        second: d,
                    }),
                    PureMove::Drop { .. } => None,
                };
                if let Some(s) = shifted {
                    let listed = mine.contains(&(s, needed_throws(&pos, s).1));
                    assert_eq!(
                        kifu_cetkaik::moves::is_candidate(&pos, pos.turn(), s, &rules),
                        listed,
                        "{s}"
                    );
                }
            }
            let list: Vec<PureMove> = mine.into_iter().map(|k| k.0).collect();
            // Prefer captures now and then so that hands grow.
            let mv = list[rng.below(list.len())];
            let throws = random_throws(&pos, mv, &mut rng);
            let mover = pos.turn();
            pos.play(mv, throws, &rules)
                .expect("a candidate with valid throws plays");
            compare_hands(&pos, mover);
        }
    }
    (positions, moves)
}

fn oracle_rules(tam_itself_is_tam_hue: bool) -> Rules {
    Rules {
        tam_itself_is_tam_hue,
        tam_moved_again: FutileMove::Allowed,
        tam_returns: FutileMove::Allowed,
        ..Rules::standard()
    }
}

#[test]
fn initial_position_equals_naive_representation() {
    let ours = field(&Position::startpos(Side::IASide)).board;
    assert_eq!(ours, absolute::yhuap_initial_board());
}

#[test]
fn candidates_equal_yhuap_move_candidates_tam_not_tam_hue() {
    let (positions, moves) = playouts(oracle_rules(false), 24, 160);
    assert!(positions > 3000 && moves > 100_000, "{positions} {moves}");
}

#[test]
fn candidates_equal_yhuap_move_candidates_tam_is_tam_hue() {
    let (positions, _) = playouts(oracle_rules(true), 24, 160);
    assert!(positions > 3000);
}

#[test]
fn hands_equal_calculate_hand_on_every_subset_shape() {
    // Beyond playouts: every hop1zuo1 drawn at random from the full 48-piece set.
    let all: Vec<(Color, Profession)> = Color::ALL
        .into_iter()
        .flat_map(|c| {
            Profession::ALL
                .into_iter()
                .flat_map(move |p| std::iter::repeat_n((c, p), p.count_per_color() as usize))
        })
        .collect();
    let mut rng = StickRng::new(99);
    for _ in 0..3000 {
        let mut pos = Position::empty(Side::IASide);
        let k = rng.below(16);
        let mut pool = all.clone();
        for _ in 0..k {
            let (c, p) = pool.swap_remove(rng.below(pool.len()));
            pos.hop1zuo1_mut(Side::IASide).add(c, p);
        }
        compare_hands(&pos, Side::IASide);
    }
}
