//! Each rule switch, shown by a position where it changes the outcome.

use kifu_cetkaik::moves::PureMove;
use kifu_cetkaik::play::needed_throws;
use kifu_cetkaik::rules::{FutileMove, StepOnTam};
use kifu_cetkaik::{
    Color, Declaration, MatchState, Piece, Position, Profession, Rules, Side, Square, StickRng,
    Throw, Throws, candidates,
};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn owned(color: Color, prof: Profession, side: Side) -> Option<Piece> {
    Some(Piece::Owned { color, prof, side })
}

/// An IA-side pawn on LO below 皇 on LU.
fn pawn_below_tam() -> Position {
    let mut p = Position::empty(Side::IASide);
    p.put(
        sq("LO"),
        owned(Color::Black, Profession::Pawn, Side::IASide),
    );
    p.put(sq("LU"), Some(Piece::Tam));
    p
}

#[test]
fn tam_itself_is_tam_hue_changes_the_second_leg_after_stepping_on_tam() {
    let p = pawn_below_tam();
    let sideways = PureMove::StepFinite {
        src: sq("LO"),
        step: sq("LU"),
        dst: sq("KU"),
    };
    let ahead = PureMove::StepFinite {
        src: sq("LO"),
        step: sq("LU"),
        dst: sq("LI"),
    };
    let std = candidates(&p, Side::IASide, &Rules::standard());
    let online = candidates(&p, Side::IASide, &Rules::cerke_online());
    assert!(std.contains(&ahead) && !std.contains(&sideways));
    assert!(online.contains(&ahead) && online.contains(&sideways));
}

fn game_from(rules: Rules, pos: Position) -> MatchState {
    let mut g = MatchState::new(rules, pos.turn(), [20, 20]);
    // Replace the starting position by the test position.
    *game_position(&mut g) = pos;
    g
}

fn game_position(g: &mut MatchState) -> &mut Position {
    g.position_mut_for_tests()
}

#[test]
fn step_on_tam_is_a_hand_in_the_standard_rule_and_an_immediate_loss_online() {
    let mv = PureMove::StepFinite {
        src: sq("LO"),
        step: sq("LU"),
        dst: sq("LI"),
    };
    let mut g = game_from(Rules::standard(), pawn_below_tam());
    let r = g.play(mv, Throws::default()).unwrap();
    assert!(r.effect.stepped_on_tam && r.must_declare);
    assert_eq!((r.penalty_hand, r.immediate_penalty), (-5, 0));
    assert_eq!(g.declare(Declaration::TaXot), Ok(-5));
    assert_eq!((g.score(Side::IASide), g.score(Side::ASide)), (15, 25));

    let mut g = game_from(Rules::cerke_online(), pawn_below_tam());
    let r = g.play(mv, Throws::default()).unwrap();
    assert!(!r.must_declare);
    assert_eq!((r.penalty_hand, r.immediate_penalty), (0, -5));
    assert_eq!((g.score(Side::IASide), g.score(Side::ASide)), (15, 25));
}

#[test]
fn a_failed_move_may_or_may_not_exempt_from_step_on_tam() {
    // An IA pawn on ZAU steps on 皇 standing in water on ZAI and tries to enter water on ZY.
    let mut p = Position::empty(Side::IASide);
    p.put(
        sq("ZAU"),
        owned(Color::Black, Profession::Pawn, Side::IASide),
    );
    p.put(sq("ZAI"), Some(Piece::Tam));
    let mv = PureMove::StepFinite {
        src: sq("ZAU"),
        step: sq("ZAI"),
        dst: sq("ZY"),
    };
    assert_eq!(needed_throws(&p, mv), (false, true));
    let fail = Throws {
        water: Some(Throw::Count(1)),
        ..Throws::default()
    };
    let mut g = game_from(Rules::standard(), p.clone());
    let r = g.play(mv, fail).unwrap();
    assert!(!r.effect.completed && r.effect.stepped_on_tam && r.penalty_hand == -5);
    let exempt = Rules {
        failed_move_exempts_step_on_tam: true,
        ..Rules::standard()
    };
    let mut g = game_from(exempt, p);
    let r = g.play(mv, fail).unwrap();
    assert!(!r.effect.completed && r.penalty_hand == 0 && !r.must_declare);
}

#[test]
fn moving_tam_again_is_forbidden_online_and_a_penalty_hand_in_the_standard_rule() {
    let mut p = Position::empty(Side::ASide);
    p.put(sq("ZO"), Some(Piece::Tam));
    p.put(sq("KA"), owned(Color::Black, Profession::King, Side::ASide));
    p.put(sq("KIA"), owned(Color::Red, Profession::King, Side::IASide));
    let first = PureMove::TamNoStep {
        src: sq("ZO"),
        first: sq("ZU"),
        second: sq("ZI"),
    };
    let again = PureMove::TamNoStep {
        src: sq("ZI"),
        first: sq("ZE"),
        second: sq("ZA"),
    };

    let mut g = game_from(Rules::cerke_online(), p.clone());
    g.play(first, Throws::default()).unwrap();
    assert!(
        !candidates(g.position(), Side::IASide, &g.rules)
            .iter()
            .any(|m| m.is_tam())
    );
    assert!(g.play(again, Throws::default()).is_err());

    let mut g = game_from(Rules::standard(), p);
    g.play(first, Throws::default()).unwrap();
    let r = g.play(again, Throws::default()).unwrap();
    assert_eq!(r.penalty_hand, -3);
    assert!(r.must_declare);
}

#[test]
fn tam_returning_home_is_free_online_and_a_penalty_hand_in_the_standard_rule() {
    let mut p = Position::empty(Side::IASide);
    p.put(sq("ZO"), Some(Piece::Tam));
    let back = PureMove::TamNoStep {
        src: sq("ZO"),
        first: sq("ZU"),
        second: sq("ZO"),
    };
    let mut g = game_from(Rules::cerke_online(), p.clone());
    let r = g.play(back, Throws::default()).unwrap();
    assert!(r.effect.tam_returned && !r.must_declare);
    let mut g = game_from(Rules::standard(), p.clone());
    let r = g.play(back, Throws::default()).unwrap();
    assert_eq!(r.penalty_hand, -3);
    let forbidding = Rules {
        tam_returns: FutileMove::Forbidden,
        ..Rules::standard()
    };
    assert!(!candidates(&p, Side::IASide, &forbidding).contains(&back));
}

/// IA side captures 赤虎 then 赤馬 (獣), then 赤兵 赤弓 … with two 再行 in between.
fn animals_position() -> Position {
    let mut p = Position::empty(Side::IASide);
    p.put(
        sq("KAI"),
        owned(Color::Black, Profession::King, Side::IASide),
    );
    p.put(sq("PA"), owned(Color::Red, Profession::King, Side::ASide));
    p.put(
        sq("LAI"),
        owned(Color::Black, Profession::Pawn, Side::IASide),
    );
    p.put(sq("LY"), owned(Color::Red, Profession::Tiger, Side::ASide));
    p.put(sq("LO"), owned(Color::Red, Profession::Horse, Side::ASide));
    p.put(sq("LU"), owned(Color::Red, Profession::Pawn, Side::ASide));
    p
}

fn run_animals(rules: Rules) -> MatchState {
    let mut g = game_from(rules, animals_position());
    let up = |a: &str, b: &str| PureMove::Plain {
        src: sq(a),
        dst: sq(b),
    };
    let wait = PureMove::Plain {
        src: sq("PA"),
        dst: sq("PE"),
    };
    let wait2 = PureMove::Plain {
        src: sq("PE"),
        dst: sq("PA"),
    };
    g.play(up("LAI", "LY"), Throws::default()).unwrap(); // 手赤虎
    g.play(wait, Throws::default()).unwrap();
    let r = g.play(up("LY", "LO"), Throws::default()).unwrap(); // 手赤馬: 同色獣
    assert!(r.must_declare);
    g.declare(Declaration::TyMok).unwrap();
    g.play(wait2, Throws::default()).unwrap();
    g
}

#[test]
fn rate_doubles_on_ty_mok_except_under_hard_tam() {
    let g = run_animals(Rules::standard());
    assert_eq!(g.rate(), 2);
    assert_eq!(g.season_gain(Side::IASide), 10);
    let g = run_animals(Rules::hard_tam());
    assert_eq!(g.rate(), 1);
    assert_eq!(g.season_gain(Side::IASide), 5);
}

#[test]
fn king_hand_is_worth_five_except_under_hard_tam() {
    for (rules, points) in [
        (Rules::standard(), 5),
        (Rules::hard_tam(), 3),
        (Rules::cerke_online(), 5),
    ] {
        let mut p = Position::empty(Side::IASide);
        p.put(
            sq("KAI"),
            owned(Color::Black, Profession::Pawn, Side::IASide),
        );
        p.put(sq("KY"), owned(Color::Red, Profession::King, Side::ASide));
        let mut g = game_from(rules, p);
        let r = g
            .play(
                PureMove::Plain {
                    src: sq("KAI"),
                    dst: sq("KY"),
                },
                Throws::default(),
            )
            .unwrap();
        assert!(r.must_declare);
        assert_eq!(g.declare(Declaration::TaXot), Ok(points), "{}", rules.name);
    }
}

#[test]
fn step_on_tam_switch_has_both_settings() {
    assert_eq!(Rules::standard().step_on_tam, StepOnTam::PenaltyHand(-5));
    assert_eq!(
        Rules::cerke_online().step_on_tam,
        StepOnTam::ImmediatePenalty(-5)
    );
    assert_eq!(Rules::by_name("硬皇力"), Some(Rules::hard_tam()));
}

/// Seeded random games to the end: scores always total 40, every season ends by 終季.
#[test]
fn seeded_simulations_end_with_consistent_scores() {
    for seed in 0..20u64 {
        let mut rng = StickRng::new(seed);
        let rules = if seed % 2 == 0 {
            Rules::standard()
        } else {
            Rules::cerke_online()
        };
        let mut g = MatchState::new(rules, Side::IASide, [20, 20]);
        let mut plies = 0;
        while !g.is_over() && plies < 20_000 {
            let pos = g.position().clone();
            let list = candidates(&pos, pos.turn(), &g.rules);
            assert!(!list.is_empty());
            let mv = list[rng.below(list.len())];
            let t = kifu_cetkaik::play::draw_throws(&pos, mv, &mut rng);
            let r = g.play(mv, t).unwrap();
            if g.pending_declaration().is_some() {
                let d = if rng.below(3) == 0 {
                    Declaration::TyMok
                } else {
                    Declaration::TaXot
                };
                g.declare(d).unwrap();
            }
            assert!(r.mover == pos.turn());
            assert_eq!(g.score(Side::IASide) + g.score(Side::ASide), 40);
            assert!(g.rate() <= 64);
            plies += 1;
        }
        assert!(g.is_over(), "seed {seed} did not end");
    }
}

#[test]
fn hard_tam_chariot_moves_any_distance_diagonally() {
    let mut p = Position::empty(Side::IASide);
    p.put(
        sq("NA"),
        owned(Color::Black, Profession::Chariot, Side::IASide),
    );
    let diag = PureMove::Plain {
        src: sq("NA"),
        dst: sq("XU"),
    };
    let jump = PureMove::Plain {
        src: sq("NA"),
        dst: sq("NI"),
    };
    assert!(candidates(&p, Side::IASide, &Rules::hard_tam()).contains(&diag));
    assert!(!candidates(&p, Side::IASide, &Rules::hard_tam()).contains(&jump));
    assert!(!candidates(&p, Side::IASide, &Rules::standard()).contains(&diag));
    assert!(candidates(&p, Side::IASide, &Rules::standard()).contains(&jump));
}

#[test]
fn hard_tam_has_no_tam2_hue_around_tam() {
    // An Archer next to 皇 moves diagonally by the standard rule, orthogonally under 硬皇力.
    let mut p = Position::empty(Side::ASide);
    p.put(
        sq("ME"),
        owned(Color::Black, Profession::Archer, Side::ASide),
    );
    p.put(sq("CE"), Some(Piece::Tam));
    let down = PureMove::Plain {
        src: sq("ME"),
        dst: sq("MU"),
    };
    let diagonal = PureMove::Plain {
        src: sq("ME"),
        dst: sq("PI"),
    };
    let std = candidates(&p, Side::ASide, &Rules::standard());
    let hard = candidates(&p, Side::ASide, &Rules::hard_tam());
    assert!(std.contains(&diagonal) && !std.contains(&down));
    assert!(hard.contains(&down) && !hard.contains(&diagonal));
}

#[test]
fn hard_tam_declarations_are_optional_and_score_the_declared_hands() {
    // After 獣 and 再行, a capture that makes no new hand leaves nothing to declare.
    let mut g = run_animals(Rules::hard_tam());
    let r = g
        .play(
            PureMove::Plain {
                src: sq("LO"),
                dst: sq("LU"),
            },
            Throws::default(),
        )
        .unwrap();
    assert!(!r.must_declare);
    assert_eq!(
        g.declare_hands(Declaration::TaXot, 0),
        Err(kifu_cetkaik::IllegalEvent::NothingToDeclare)
    );
    // Standard rule: a made hand must be declared before the next move.
    let mut p = animals_position();
    p.put(sq("LE"), owned(Color::Red, Profession::Archer, Side::ASide));
    let mut std = game_from(Rules::standard(), p.clone());
    std.play(
        PureMove::Plain {
            src: sq("LAI"),
            dst: sq("LY"),
        },
        Throws::default(),
    )
    .unwrap();
    std.play(
        PureMove::Plain {
            src: sq("PA"),
            dst: sq("PE"),
        },
        Throws::default(),
    )
    .unwrap();
    std.play(
        PureMove::Plain {
            src: sq("LY"),
            dst: sq("LO"),
        },
        Throws::default(),
    )
    .unwrap();
    assert!(
        std.play(
            PureMove::Plain {
                src: sq("PE"),
                dst: sq("PA")
            },
            Throws::default()
        )
        .is_err()
    );
    let mut hard = game_from(Rules::hard_tam(), p);
    hard.play(
        PureMove::Plain {
            src: sq("LAI"),
            dst: sq("LY"),
        },
        Throws::default(),
    )
    .unwrap();
    hard.play(
        PureMove::Plain {
            src: sq("PA"),
            dst: sq("PE"),
        },
        Throws::default(),
    )
    .unwrap();
    hard.play(
        PureMove::Plain {
            src: sq("LY"),
            dst: sq("LO"),
        },
        Throws::default(),
    )
    .unwrap();
    // The 獣 goes undeclared; play continues.
    hard.play(
        PureMove::Plain {
            src: sq("PE"),
            dst: sq("PA"),
        },
        Throws::default(),
    )
    .unwrap();
    // Capturing the Pawn makes no new hand for IA (no Archer), so nothing is scored either.
    assert_eq!(hard.season_gain(Side::IASide), 0);
}

#[test]
fn a_side_without_a_legal_move_ends_the_game() {
    // Online, 皇 just moved (so the A side may not move it) and the A side has no piece.
    let mut p = Position::empty(Side::IASide);
    p.put(sq("ZO"), Some(Piece::Tam));
    p.put(
        sq("KIA"),
        owned(Color::Black, Profession::Pawn, Side::IASide),
    );
    let mut g = game_from(Rules::cerke_online(), p.clone());
    g.play(
        PureMove::TamNoStep {
            src: sq("ZO"),
            first: sq("ZU"),
            second: sq("ZI"),
        },
        Throws::default(),
    )
    .unwrap();
    assert!(g.is_over());
    let mut g = game_from(Rules::standard(), p);
    g.play(
        PureMove::TamNoStep {
            src: sq("ZO"),
            first: sq("ZU"),
            second: sq("ZI"),
        },
        Throws::default(),
    )
    .unwrap();
    assert!(!g.is_over());
}
