//! USI move lists against the corpus: lishogi's 500 games read clean and round-trip.

mod support;

use kifu_records::shogi::usi_record::{read, write};
use support::compare::assert_same_game;
use support::corpus;

#[test]
fn corpus_lishogi_games_check_clean_and_round_trip() {
    let parsed = corpus::read_clean("shogi/lishogi-usi/games.txt", read);
    assert_eq!(parsed.records.len(), 500);
    let plies: usize = parsed
        .records
        .iter()
        .map(|r| r.moves.main_line().count())
        .sum();
    assert_eq!(plies, 38_654);
    let written = write(&parsed.records);
    assert!(written.warnings.is_empty(), "{:?}", written.warnings);
    let again = read(&written.text);
    for (a, b) in parsed.records.iter().zip(&again.records) {
        assert_same_game(a, b, true, "usi");
    }
}

/// A composition's start with 二歩 (as in json-kifu-format's `9fu.csa`) reads from CSA with a
/// warning; the USI kifu writes for it must read back the same way, not as an error.
#[test]
fn a_start_with_two_pawns_on_a_file_round_trips_through_usi_with_a_warning() {
    let csa = "V2.2\n\
               P1 *  *  *  *  *  *  * -FU-OU\n\
               P2 *  *  *  *  *  *  * -FU * \n\
               P3 *  *  *  *  *  *  *  *  * \n\
               P4 *  *  *  *  *  *  *  *  * \n\
               P5 *  *  *  *  *  *  *  *  * \n\
               P6 *  *  *  *  *  *  *  *  * \n\
               P7 *  *  *  *  *  *  *  *  * \n\
               P8 *  *  *  *  *  *  *  *  * \n\
               P9 *  *  *  *  *  *  *  *  * \n\
               P+00HI00HI\n\
               +\n\
               +0013HI\n";
    let from_csa = kifu_records::shogi::csa::read(csa);
    assert!(!from_csa.has_errors(), "{:?}", from_csa.diagnostics);
    assert!(
        from_csa
            .diagnostics
            .iter()
            .any(|d| d.message.contains("二歩"))
    );

    let usi = write(&from_csa.records);
    let from_usi = read(&usi.text);
    assert!(!from_usi.has_errors(), "{:?}", from_usi.diagnostics);
    let warnings: Vec<&str> = from_usi
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        warnings
            .iter()
            .any(|m| m.starts_with("unusual start position") && m.contains("二歩")),
        "{warnings:?}"
    );
    assert_same_game(&from_csa.records[0], &from_usi.records[0], true, "usi");
}
