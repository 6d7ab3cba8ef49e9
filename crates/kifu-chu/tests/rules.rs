//! Named rule checks: promotion, lion powers and restrictions, counter-strike, rule-set switches.

use kifu_chu::{Position, RuleSet, parse_usi};

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn legal(p: &Position, usi: &str) -> bool {
    p.is_legal(parse_usi(usi).unwrap_or_else(|| panic!("bad usi {usi}")))
}

// Kings far apart so the positions are otherwise ordinary.
const KINGS: &str = "k11/12/12/12/12/12/12/12/12/12/12/11K";

fn with(pieces: &[(&str, char)], extra: &str) -> Position {
    let mut p = pos(&format!("{KINGS} b {extra}"));
    for &(sq, letter) in pieces {
        let sub = pos(&format!("12/12/12/12/12/12/12/12/12/12/12/{letter}11 b -"));
        let piece = sub.piece_at("12l".parse().unwrap());
        p.set_piece(sq.parse().unwrap(), piece);
    }
    p
}

#[test]
fn promotion_on_entering_the_zone_only_optional() {
    let p = with(&[("5e", 'S')], "-");
    assert!(legal(&p, "5e5d+"));
    assert!(legal(&p, "5e5d"));
}

#[test]
fn no_promotion_for_a_plain_move_inside_the_zone() {
    let p = with(&[("7c", 'S')], "-");
    assert!(!legal(&p, "7c6b+"));
    assert!(legal(&p, "7c6b"));
}

#[test]
fn capture_inside_or_leaving_the_zone_may_promote() {
    let p = with(&[("7c", 'G'), ("7b", 'p'), ("6d", 'p')], "-");
    assert!(legal(&p, "7c7b+"), "capture inside");
    let p = with(&[("7d", 'S'), ("6e", 'p')], "-");
    assert!(legal(&p, "7d6e+"), "capture leaving the zone");
    assert!(!legal(&p, "7d7e+"), "plain move out of the zone");
}

#[test]
fn pawn_on_the_last_rank_may_promote_and_otherwise_is_dead() {
    let p = with(&[("5b", 'P')], "-");
    assert!(legal(&p, "5b5a+"));
    assert!(legal(&p, "5b5a"));
    let dead = with(&[("5a", 'P')], "-");
    assert!(
        !dead
            .legal_moves()
            .iter()
            .any(|m| m.from().to_string() == "5a")
    );
}

#[test]
fn lance_on_the_last_rank_differs_between_rule_sets() {
    let p = with(&[("5c", 'L')], "-");
    assert!(legal(&p, "5c5a+"));
    let jcsa = p.clone().with_rules(RuleSet::JCSA);
    assert!(!legal(&jcsa, "5c5a+"));
    assert!(legal(&jcsa, "5c5a"));
}

#[test]
fn promoted_pieces_never_promote_again() {
    // A dragon king from a rook cannot become an eagle; an original dragon can.
    let p = with(&[("5e", 'D')], "-");
    assert!(legal(&p, "5e5d+"));
    let promoted = pos(&format!("{KINGS} b -"));
    let mut promoted = promoted;
    let dragon_from_rook =
        pos("12/12/12/12/12/12/12/12/12/12/12/+R11 b -").piece_at("12l".parse().unwrap());
    promoted.set_piece("5e".parse().unwrap(), dragon_from_rook);
    assert!(!legal(&promoted, "5e5d+"));
    assert!(legal(&promoted, "5e5d"));
}

#[test]
fn lion_igui_jitto_and_double_capture() {
    let p = with(&[("6f", 'N'), ("6e", 'p'), ("5e", 'g')], "-");
    assert!(legal(&p, "6f6e6f"), "igui");
    assert!(legal(&p, "6f6g6f"), "jitto through an empty square");
    assert!(legal(&p, "6f6e5e"), "two captures");
    assert!(legal(&p, "6f6e5d"), "capture then step");
    let blocked = with(&[("6f", 'N'), ("6e", 'P')], "-");
    assert!(!legal(&blocked, "6f6e6f"), "never through a friendly piece");
}

#[test]
fn protected_lion_at_distance_two_cannot_be_taken_unless_tsukegui() {
    // White lion on 6d protected by a white gold on 6c.
    let p = with(&[("6f", 'N'), ("6d", 'n'), ("6c", 'g')], "-");
    assert!(!legal(&p, "6f6d"), "jump onto a protected lion");
    assert!(!legal(&p, "6f6e6d"), "through an empty square");
    let unprotected = with(&[("6f", 'N'), ("6d", 'n')], "-");
    assert!(legal(&unprotected, "6f6d"));
    // Taking a silver first (tsukegui) makes it legal; a pawn does not.
    let silver = with(&[("6f", 'N'), ("6e", 's'), ("6d", 'n'), ("6c", 'g')], "-");
    assert!(legal(&silver, "6f6e6d"));
    let pawn = with(&[("6f", 'N'), ("6e", 'p'), ("6d", 'n'), ("6c", 'g')], "-");
    assert!(!legal(&pawn, "6f6e6d"));
    // A pawn that was the only protector still protects after being taken on the first step.
    // (A white pawn on 5e guards 5f; the black lion comes from 5d.)
    let only_pawn = with(&[("5d", 'N'), ("5e", 'p'), ("5f", 'n')], "-");
    assert!(!legal(&only_pawn, "5d5e5f"));
    let no_guard = with(&[("5d", 'N'), ("5e", 'p'), ("5f", 'n'), ("6e", 's')], "-");
    assert!(
        legal(&no_guard, "5d6e5f"),
        "tsukegui: taking a silver first allows it though the pawn guards 5f"
    );
    // Adjacent lions may always be taken.
    let adjacent = with(&[("6f", 'N'), ("6e", 'n'), ("6d", 'g')], "-");
    assert!(legal(&adjacent, "6f6e"));
}

#[test]
fn counter_strike_set_by_non_lion_only() {
    let p = with(&[("6f", 'G'), ("6e", 'n'), ("8f", 'N')], "-");
    let mut after = p.clone();
    after.play(parse_usi("6f6e").unwrap()).unwrap();
    assert_eq!(
        after.counter_strike().map(|s| s.to_string()).as_deref(),
        Some("6e")
    );
    let mut by_lion = with(&[("6f", 'N'), ("6e", 'n')], "-");
    by_lion.play(parse_usi("6f6e").unwrap()).unwrap();
    assert_eq!(by_lion.counter_strike(), None);
}

#[test]
fn counter_strike_differs_between_rule_sets() {
    // White to move after Black took a lion on 8j; a white rook may take the unprotected black
    // lion on 3d under JCSA but not under lishogi.
    let sfen = "k11/12/12/9N2/12/12/12/12/12/12/12/11K w 8j";
    let mut p = pos(sfen);
    p.set_piece(
        "9d".parse().unwrap(),
        pos("12/12/12/12/12/12/12/12/12/12/12/r11 b -").piece_at("12l".parse().unwrap()),
    );
    assert!(!legal(&p, "9d3d"));
    let jcsa = p.clone().with_rules(RuleSet::JCSA);
    assert!(legal(&jcsa, "9d3d"));
    // Protected: illegal in both.
    let mut prot = jcsa.clone();
    prot.set_piece(
        "3e".parse().unwrap(),
        pos("12/12/12/12/12/12/12/12/12/12/12/G11 b -").piece_at("12l".parse().unwrap()),
    );
    assert!(!legal(&prot, "9d3d"));
    // The lion itself may always take a lion.
    let mut lion = p.clone();
    lion.set_piece(
        "3b".parse().unwrap(),
        pos("12/12/12/12/12/12/12/12/12/12/12/n11 b -").piece_at("12l".parse().unwrap()),
    );
    assert!(legal(&lion, "3b3d"));
}

#[test]
fn counter_strike_from_a_falcon_first_step_differs_between_rule_sets() {
    // A black horned falcon on 5g takes a white lion on 5f and goes on to 5e.
    let p = with(&[("5g", 'S'), ("5f", 'n'), ("9b", 'n')], "-");
    let mut p = p;
    let falcon = pos("12/12/12/12/12/12/12/12/12/12/12/+H11 b -").piece_at("12l".parse().unwrap());
    p.set_piece("5g".parse().unwrap(), falcon);
    let m = parse_usi("5g5f5e").unwrap();
    let mut lishogi = p.clone();
    lishogi.play(m).unwrap();
    assert_eq!(lishogi.counter_strike(), None);
    let mut jcsa = p.with_rules(RuleSet::JCSA);
    jcsa.play(m).unwrap();
    assert_eq!(
        jcsa.counter_strike().map(|s| s.to_string()).as_deref(),
        Some("5f")
    );
}
