//! Issue 11 for chu records: a text with no record is an error, a mistyped move is an error at
//! its place and later problems are still reported, nothing follows an ending, a multi-game file
//! gives its games one by one, and every writer either keeps a record or lists what it drops.

use kifu_chu::RuleSet;
use kifu_chu::record::{ChuRecord, Format, csl, json, kif, usi};
use kifu_record::{Diagnostic, SourceText};

const GAMES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/corpus/chu/lishogi-games.ndjson"
));

const FORMATS: [Format; 5] = [
    Format::Csl,
    Format::CslJapanese,
    Format::Kif,
    Format::Usi,
    Format::Json,
];

fn errors(text: &str, d: &[Diagnostic]) -> Vec<String> {
    let src = SourceText::new("t", text);
    d.iter()
        .filter(|d| d.is_error())
        .map(|d| src.render(d))
        .collect()
}

#[test]
fn no_record_is_an_error_in_every_format() {
    for f in FORMATS {
        for text in ["", "\n  \n"] {
            let (_, d) = f.parse(text);
            let e = errors(text, &d);
            assert!(
                e.iter().any(|e| e.contains("no chu record")),
                "{f:?} {text:?}: {d:?}"
            );
        }
    }
    let (_, d) = Format::Csl.parse("this is not a record\n");
    assert!(!errors("", &d).is_empty());
    let (_, d) = Format::Kif.parse("this is not a record\n");
    assert!(!errors("", &d).is_empty(), "{d:?}");
}

/// The corpus game as a KIF, with move `n` replaced by `typo`.
fn kif_with(n: usize, typo: &str) -> String {
    let (records, _) = json::parse_many(GAMES);
    let text = kif::write(&records[0]);
    let prefix = format!("{n:>4}   ");
    text.lines()
        .map(|l| {
            if l.starts_with(&prefix) {
                format!("{prefix}{typo}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_mistyped_kif_move_is_an_error_and_later_unreadable_moves_too() {
    let mut text = kif_with(5, "xyz");
    text = text.replacen("  20   ", "  20   ?!?", 1);
    let (rec, d) = kif::parse(&text);
    let e = errors(&text, &d);
    assert!(e.len() >= 2, "{e:#?}");
    assert!(e[0].contains("xyz"), "{e:#?}");
    assert!(e[0].starts_with("t:"), "{}", e[0]);
    assert!(e.iter().any(|e| e.contains("?!?")), "{e:#?}");
    assert_eq!(rec.moves.len(), 4);
}

#[test]
fn a_move_after_a_kif_ending_is_an_error() {
    let (records, _) = json::parse_many(GAMES);
    let mut rec = records[0].clone();
    rec.moves.truncate(10);
    rec.result = Some("投了".into());
    let mut text = kif::write(&rec);
    text.push_str("  12   7八獅子 （←7十）\n");
    let (_, d) = kif::parse(&text);
    let e = errors(&text, &d);
    assert!(
        e.iter().any(|e| e.contains("after the ending `投了`")),
        "{e:#?}"
    );
}

#[test]
fn a_move_after_a_csl_result_is_an_error() {
    let text = "1. Ln-7h\nresign\n2. Ln-6e\n";
    let (rec, d) = csl::parse(text);
    let e = errors(text, &d);
    assert_eq!(e.len(), 1, "{e:#?}");
    assert!(e[0].contains("after the result `resign`"), "{}", e[0]);
    assert_eq!(rec.moves.len(), 1);
}

#[test]
fn a_usi_list_reports_every_unreadable_move() {
    let text = "position startpos moves 7j7h zz 6c6e qq\n";
    let (_, d) = usi::parse_many(text);
    let e = errors(text, &d);
    assert_eq!(e.len(), 2, "{e:#?}");
}

#[test]
fn ndjson_games_one_at_a_time_and_the_nth() {
    let (all, _) = json::parse_many(GAMES);
    let mut count = 0;
    for (i, (rec, d)) in Format::Json.records(GAMES).enumerate() {
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(rec, all[i]);
        count += 1;
    }
    assert_eq!(count, 10);
    let (third, _) = Format::Json.records(GAMES).nth(2).unwrap();
    assert_eq!(third, all[2]);
    // A USI list written from them gives them back one by one too.
    let list = Format::Usi.write_all(&all);
    let back: Vec<ChuRecord> = Format::Usi.records(&list).map(|(r, _)| r).collect();
    assert_eq!(back.len(), 10);
    assert_eq!(back[9].moves, all[9].moves);
}

/// Issue 12 case 11 for chu: several games written as JSON read back (as NDJSON).
#[test]
fn several_games_written_as_json_read_back() {
    let (all, _) = json::parse_many(GAMES);
    let text = Format::Json.write_all(&all[..3]);
    let (back, d) = Format::Json.parse(&text);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(back, all[..3].to_vec());
    assert_eq!(Format::detect(&text), Format::Json);
}

/// Every format: the corpus games, with a comment, an extra header and JCSA rules, read back the
/// same or the writer names what it dropped.
#[test]
fn every_writer_keeps_the_record_or_lists_what_it_drops() {
    let (all, _) = json::parse_many(GAMES);
    let mut jcsa_games = 0;
    for mut rec in all {
        rec.comments.push("opening {book}".into());
        rec.moves[3].comments.push("a note".into());
        rec.headers.push(("Event".into(), "test".into()));
        let jcsa = rec.start.clone().with_rules(RuleSet::JCSA);
        let mut game = kifu_chu::Game::new(jcsa.clone());
        let legal_under_jcsa = rec.moves.iter().all(|m| game.play(m.mv).is_ok());
        jcsa_games += usize::from(legal_under_jcsa);
        let starts = if legal_under_jcsa {
            vec![rec.start.clone(), jcsa]
        } else {
            vec![rec.start.clone()]
        };
        for start_rules in starts {
            let rec = ChuRecord {
                start: start_rules,
                ..rec.clone()
            };
            for f in FORMATS {
                let text = f.write(&rec);
                let (back, d) = f.parse(&text);
                let back = &back[0];
                let losses = f.losses(&rec);
                assert!(errors(&text, &d).is_empty(), "{f:?}: {d:?}");
                assert_eq!(back.moves.len(), rec.moves.len(), "{f:?}");
                let same = back.start == rec.start
                    && back.comments == rec.comments
                    && back.result == rec.result
                    && back.moves == rec.moves
                    && rec.headers.iter().all(|h| back.headers.contains(h));
                assert!(
                    same || !losses.is_empty(),
                    "{f:?} changes the record without a warning: {:?} {:?} {:?} {:?} {:?}\n{text}",
                    back.start == rec.start,
                    back.comments == rec.comments,
                    (&back.result, &rec.result),
                    back.moves == rec.moves,
                    (&back.headers, &rec.headers)
                );
                if f == Format::Json {
                    assert!(same, "JSON keeps everything: {losses:?}");
                }
            }
        }
    }
    assert!(jcsa_games > 0, "no corpus game is legal under JCSA rules");
}

#[test]
fn a_kif_move_without_its_number_is_an_error() {
    let text = kif_with(5, "仝獅子 （←7十）").replacen("   5   ", "", 1);
    let (_, d) = kif::parse(&text);
    let e = errors(&text, &d);
    assert!(e.iter().any(|e| e.contains("without its number")), "{e:#?}");
}
