//! The cetkaik formats through the record model: a match read as season records replays
//! with `Cetkaik`'s `Game` rules exactly as the CKKA replay did, and season records written
//! in every format read back into the same match.

use kifu_cetkaik::{Cetkaik, Rules};
use kifu_record::{Game, Outcome};
use kifu_records::cetkaik::{self as ckka, FORMATS};

mod support;

use support::cetkaik::{FILES, read};

#[test]
fn seasons_replay_with_the_game_rules_as_the_ckka_replay_does() {
    for name in FILES {
        let text = read(name);
        let (game, diags) = ckka::check_detecting_rules(&text, Rules::standard());
        let seasons: Vec<_> = FORMATS[0].records(&text).collect();
        assert_eq!(seasons.len(), game.seasons.len().max(1), "{name}");
        let diagnostics: usize = seasons.iter().map(|s| s.diagnostics.len()).sum();
        assert_eq!(diagnostics, diags.len(), "{name}");
        for (read, season) in seasons.iter().zip(&game.seasons) {
            let record = &read.record;
            // Every event of the season is legal by `Cetkaik::play`, from the season's start.
            let positions = record.positions().count();
            assert_eq!(positions, season.events.len() + 1, "{name}");
            let (_, last) = record.positions().last().unwrap();
            assert!(!Cetkaik::position_text(&last).is_empty());
        }
        let last = &seasons.last().unwrap().record;
        let (_, end) = last.positions().last().unwrap();
        assert_eq!(
            [
                end.score(kifu_cetkaik::Side::IASide),
                end.score(kifu_cetkaik::Side::ASide)
            ],
            game.final_scores,
            "{name}"
        );
        if game.game_end_marker {
            assert_ne!(last.outcome(), Outcome::None, "{name}");
        }
    }
}

#[test]
fn season_records_written_in_every_format_read_back_as_the_same_match() {
    for name in FILES {
        let text = read(name);
        let (game, _) = ckka::check_detecting_rules(&text, Rules::standard());
        let seasons: Vec<_> = FORMATS[0].records(&text).map(|r| r.record).collect();
        for format in FORMATS {
            let written = format.write(&seasons);
            assert!(format.sniff(&written.text), "{name} as {}", format.name());
            if !written.warnings.is_empty() {
                // A lossy target says what it dropped (③ cannot say a throw failed with an
                // unknown count, which the 2018 records do); what is left need not replay.
                continue;
            }
            let again: Vec<_> = format.records(&written.text).collect();
            for read in &again {
                assert!(
                    !read.has_errors(),
                    "{name} as {}: {:?}",
                    format.name(),
                    read.diagnostics
                );
            }
            let back = ckka::match_of(&again.into_iter().map(|r| r.record).collect::<Vec<_>>());
            assert_eq!(
                back.final_scores,
                game.final_scores,
                "{name} as {}",
                format.name()
            );
            let events =
                |g: &ckka::GameRecord| g.seasons.iter().map(|s| s.events.len()).sum::<usize>();
            assert_eq!(events(&back), events(&game), "{name} as {}", format.name());
        }
    }
}

#[test]
fn formats_are_found_by_name() {
    let names: Vec<&str> = FORMATS.iter().map(|f| f.name()).collect();
    assert_eq!(names, ["ckka", "ckka1", "ckka2", "ckka3", "noter", "json"]);
    assert_eq!(ckka::format::by_name("ckka0").unwrap().name(), "ckka");
    assert!(ckka::format::by_name("kif").is_none());
}

#[test]
fn a_text_without_a_record_is_one_empty_season_with_an_error() {
    let seasons: Vec<_> = FORMATS[0].records("").collect();
    assert_eq!(seasons.len(), 1);
    assert!(seasons[0].has_errors());
}

/// Season records keep everything the writers write: grouped back into a match, every
/// notation, the noter app file and kifu's JSON are written byte for byte as from the
/// replayed match, with the same warnings — 皇's unknown intermediate square (`[或]`)
/// included.
#[test]
fn season_records_write_exactly_what_the_replayed_match_writes() {
    use kifu_records::cetkaik::write;
    let mut texts: Vec<(String, String)> = FILES
        .iter()
        .map(|name| (name.to_string(), read(name)))
        .collect();
    for tam in [
        "LAU弓LAILY無 ZO皇[或]TU\n",
        "LAU弓LAILY無 ZO皇TU\n",
        "LAU弓LAILY無 ZO皇[ZU]TU\n",
    ] {
        texts.push((tam.to_string(), tam.to_string()));
    }
    for (name, text) in &texts {
        let (game, _) = ckka::check_detecting_rules(text, Rules::standard());
        let again = ckka::match_of(&ckka::season_records(&game));
        for notation in [
            ckka::Notation::Full,
            ckka::Notation::Abbreviated,
            ckka::Notation::Phonetic,
            ckka::Notation::Mrf,
        ] {
            assert_eq!(
                write::write(&again, notation),
                write::write(&game, notation),
                "{name} in {notation}"
            );
            assert_eq!(
                write::losses(&again, notation),
                write::losses(&game, notation),
                "{name} in {notation}"
            );
        }
        assert_eq!(
            write::write_json(&again),
            write::write_json(&game),
            "{name}"
        );
        assert_eq!(
            ckka::noter::write_noter(&again),
            ckka::noter::write_noter(&game),
            "{name}"
        );
    }
}
