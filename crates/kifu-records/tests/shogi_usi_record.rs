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
