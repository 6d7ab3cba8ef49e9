//! Every game of the corpus's `chu/lishogi-games.ndjson` replays legally and ends as recorded.

use kifu_chu::{Color, EndReason, GameState, Position, parse_usi};

/// Read when the test runs rather than compiled in: the corpus lies outside the crate, and the
/// published package's tests must still build without it.
fn lishogi_games() -> String {
    kifu_testkit::corpus::text("chu/lishogi-games.ndjson")
}

#[test]
fn lishogi_games_replay_and_end_as_recorded() {
    let mut games = 0;
    let mut plies = 0;
    let ndjson = lishogi_games();
    for line in ndjson.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let id = v["id"].as_str().unwrap();
        let start = Position::from_sfen(v["initial_sfen"].as_str().unwrap()).unwrap();
        let mut game = GameState::new(start);
        let moves: Vec<&str> = v["moves"].as_str().unwrap().split_whitespace().collect();
        for (i, usi) in moves.iter().enumerate() {
            assert!(
                game.outcome().is_none(),
                "{id}: game over before ply {}",
                i + 1
            );
            let m = parse_usi(usi).unwrap_or_else(|| panic!("{id}: bad USI {usi}"));
            game.play(m).unwrap_or_else(|e| {
                panic!(
                    "{id} ply {} {usi}: {e} in {}",
                    i + 1,
                    game.position().to_sfen()
                )
            });
            plies += 1;
        }
        let status = v["status"].as_str().unwrap();
        let winner = match v["winner"].as_str() {
            Some("sente") => Some(Color::Black),
            Some("gote") => Some(Color::White),
            _ => None,
        };
        let outcome = game.outcome();
        match status {
            "royalsLost" | "bareKing" | "repetition" | "stalemate" | "perpetualCheck" => {
                let o = outcome.unwrap_or_else(|| panic!("{id}: {status} but no end on the board"));
                assert_eq!(o.reason.lishogi_status(), status, "{id}");
                assert_eq!(o.winner, winner, "{id}");
            }
            // Resignations and agreed draws leave a position where play could go on.
            _ => assert_eq!(outcome, None, "{id}: {status}"),
        }
        games += 1;
    }
    assert_eq!((games, plies), (10, 2462));
}

#[test]
fn repetition_is_a_draw_on_the_fourth_occurrence() {
    let mut game = GameState::new(Position::startpos());
    let cycle = ["7j7h", "6c6e", "7h7j", "6e6c"];
    for round in 0..3 {
        for usi in cycle {
            assert!(game.outcome().is_none(), "round {round}");
            game.play(parse_usi(usi).unwrap()).unwrap();
        }
    }
    let o = game.outcome().unwrap();
    assert_eq!((o.reason, o.winner), (EndReason::Repetition, None));
    assert!(game.play(parse_usi("7j7h").unwrap()).is_err());
}

#[test]
fn perpetual_check_loses_on_the_fourth_occurrence() {
    // The black rook checks the white king back and forth between 1a and 2a.
    let start = Position::from_sfen("3gg6k/12/11R/12/12/12/12/12/12/12/G11/K11 w - 1").unwrap();
    let mut game = GameState::new(start);
    let cycle = ["1a2a", "1c2c", "2a1a", "2c1c"];
    for round in 0..3 {
        for usi in cycle {
            assert!(game.outcome().is_none(), "round {round} {usi}");
            game.play(parse_usi(usi).unwrap()).unwrap();
        }
    }
    let o = game.outcome().unwrap();
    assert_eq!(
        (o.reason, o.winner),
        (EndReason::PerpetualCheck, Some(Color::White))
    );
}

#[test]
fn jcsa_forbids_the_initiator_a_fourth_occurrence() {
    let mut game = GameState::new(Position::startpos().with_rules(kifu_chu::RuleSet::JCSA));
    let cycle = ["7j7h", "6c6e", "7h7j", "6e6c"];
    for usi in cycle.iter().cycle().take(11) {
        game.play(parse_usi(usi).unwrap()).unwrap();
    }
    // White's 6e6c would bring the start position back a fourth time.
    assert!(matches!(
        game.play(parse_usi("6e6c").unwrap()),
        Err(kifu_chu::PlayError::Repetition(_))
    ));
    assert_eq!(game.outcome(), None);
    game.play(parse_usi("6e5f").unwrap()).unwrap();
}
