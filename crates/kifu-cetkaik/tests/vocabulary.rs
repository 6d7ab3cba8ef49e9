//! The vocabulary types read back what they write, and say what is wrong with anything else.

use kifu_cetkaik::{Color, Declaration, Profession, Rules, Side, Square};

#[test]
fn vocabulary_round_trips_through_display_and_from_str() {
    for sq in Square::all() {
        assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
    }
    for color in Color::ALL {
        assert_eq!(color.to_string().parse::<Color>(), Ok(color));
    }
    for prof in Profession::ALL {
        assert_eq!(prof.to_string().parse::<Profession>(), Ok(prof));
    }
    for d in [Declaration::TyMok, Declaration::TaXot] {
        assert_eq!(d.to_string().parse::<Declaration>(), Ok(d));
    }
    for rules in [Rules::standard(), Rules::cerke_online(), Rules::hard_tam()] {
        assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
    }
    assert_eq!("ia".parse::<Side>(), Ok(Side::IASide));
    assert_eq!("赤".parse::<Side>(), Ok(Side::ASide));
    assert_eq!("kauk2".parse::<Profession>(), Ok(Profession::Pawn));
}

#[test]
fn unknown_words_are_typed_errors_that_name_the_text() {
    let err = "QQ".parse::<Square>().unwrap_err();
    assert!(err.to_string().contains("`QQ` is not a square"), "{err}");
    assert!("黒黒".parse::<Color>().is_err());
    assert!("犬".parse::<Profession>().is_err());
    assert!("終".parse::<Declaration>().is_err());
    let err = "chess".parse::<Rules>().unwrap_err();
    assert!(err.to_string().contains("`chess`"), "{err}");
}
