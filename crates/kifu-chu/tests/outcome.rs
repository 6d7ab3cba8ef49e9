//! Game-end rules on hand-made positions, under both rule sets.

use kifu_chu::{Color, EndReason, Position, RuleSet};

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap()
}

#[test]
fn royals_captured() {
    let o = pos("12/12/12/12/12/12/12/12/12/12/12/11K w -")
        .outcome()
        .unwrap();
    assert_eq!(
        (o.reason, o.winner),
        (EndReason::RoyalsCaptured, Some(Color::Black))
    );
    // A crown prince keeps a side alive after its king is gone.
    assert_eq!(
        pos("r11/12/12/12/12/12/12/12/12/12/+e11/G10K w -").outcome(),
        None
    );
}

#[test]
fn only_two_royals_is_a_draw_under_lishogi_only() {
    let p = pos("k11/12/12/12/12/12/12/12/12/12/12/11K b -");
    let o = p.outcome().unwrap();
    assert_eq!((o.reason, o.winner), (EndReason::OnlyRoyals, None));
    assert_eq!(p.with_rules(RuleSet::JCSA).outcome(), None);
}

#[test]
fn bare_king_lishogi() {
    // White has only its king; Black has the king and two gold-movers away from it.
    let p = pos("k11/12/12/12/12/12/12/12/12/5G6/5G6/11K w -");
    let o = p.outcome().unwrap();
    assert_eq!(
        (o.reason, o.winner),
        (EndReason::BareKing, Some(Color::Black))
    );
    // One piece next to the lone king (two counting pieces incl. the king) does not win.
    let adjacent = pos("kG10/12/12/12/12/12/12/12/12/12/12/11K w -");
    assert_eq!(adjacent.outcome(), None);
    // Pawns do not count.
    let pawns = pos("k11/12/12/12/12/12/12/12/12/5P6/5P6/11K w -");
    assert_eq!(pawns.outcome(), None);
}

#[test]
fn bare_king_jcsa_two_kings_and_one_piece() {
    let p = pos("k11/12/12/12/12/12/12/12/12/5G6/12/11K w -").with_rules(RuleSet::JCSA);
    let o = p.outcome().unwrap();
    assert_eq!(
        (o.reason, o.winner),
        (EndReason::BareKing, Some(Color::Black))
    );
    // The lone king to move can take the piece at once: no verdict.
    let takeable = pos("kG10/12/12/12/12/12/12/12/12/12/12/11K w -").with_rules(RuleSet::JCSA);
    assert_eq!(takeable.outcome(), None);
    // lishogi reaches the same verdict here through its own bare-king rule.
    let lishogi = pos("k11/12/12/12/12/12/12/12/12/5G6/12/11K w -");
    assert_eq!(
        lishogi.outcome().map(|o| o.reason),
        Some(EndReason::BareKing)
    );
}

#[test]
fn no_legal_moves_loses_under_lishogi() {
    // A white king on 12l hemmed in by its own pawns (dead on rank l, or blocked).
    let p = pos("12/12/12/12/12/12/12/12/12/12/1p10/kp9K w -");
    assert!(!p.legal_moves().is_empty(), "12k is free");
    let boxed = pos("12/12/12/12/12/12/12/12/12/12/pp10/kp9K w -");
    assert!(boxed.legal_moves().is_empty());
    let o = boxed.outcome().unwrap();
    assert_eq!(
        (o.reason, o.winner),
        (EndReason::NoLegalMoves, Some(Color::Black))
    );
}

#[test]
fn no_legal_moves_is_not_regulated_under_jcsa() {
    let boxed = pos("12/12/12/12/12/12/12/12/12/12/pp10/kp9K w -").with_rules(RuleSet::JCSA);
    assert!(boxed.legal_moves().is_empty());
    assert_eq!(boxed.outcome(), None);
}

#[test]
fn checkmate_wins_under_jcsa_only() {
    // White's king on 1a: the rook on 3a checks along rank a, the gold on 2c covers 1b and 2b.
    let mate = pos("9R1k/12/10G1/12/12/12/12/12/12/12/12/K11 w - 1");
    let jcsa = mate.clone().with_rules(RuleSet::JCSA);
    assert!(jcsa.is_checkmate());
    let o = jcsa.outcome().unwrap();
    assert_eq!(
        (o.reason, o.winner),
        (EndReason::Checkmate, Some(Color::Black))
    );
    // lishogi does not know checkmate (here White's lone king is bare instead).
    assert_eq!(mate.outcome().map(|o| o.reason), Some(EndReason::BareKing));
    // Without the gold the king escapes.
    let escape = pos("9R1k/12/12/12/12/12/12/12/12/12/12/K11 w - 1").with_rules(RuleSet::JCSA);
    assert!(!escape.is_checkmate());
}
