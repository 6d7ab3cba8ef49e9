//! Issue 11 for chu records: a text with no record is an error, a mistyped move is an error at
//! its place and later problems are still reported, nothing follows an ending, a multi-game file
//! gives its games one by one, and every writer either keeps a record or lists what it drops.

use kifu_chu::{Chu, Move, RuleSet};
use kifu_record::{
    Comment, CommentKind, Diagnostic, EndingKind, HeaderEntry, Parsed, RecordFormat, SourceText,
    Span,
};
use kifu_records::chu::{ChuRecord, FORMATS, csl, json, kif, main_line_moves, usi};

type Format = &'static dyn RecordFormat<Chu>;

/// Read when the test runs: the corpus lies outside the crate.
fn games() -> String {
    kifu_testkit::corpus::text("chu/lishogi-games.ndjson")
}

fn parse(f: Format, text: &str) -> (Vec<ChuRecord>, Vec<Diagnostic>) {
    let parsed = Parsed::collect(f.records(text));
    (parsed.records, parsed.diagnostics)
}

fn moves(r: &ChuRecord) -> Vec<Move> {
    main_line_moves(r)
}

/// The record's first `n` moves, ended by `ending`.
fn truncated(r: &ChuRecord, n: usize, ending: EndingKind<kifu_chu::Outcome>) -> ChuRecord {
    let mut out = ChuRecord::new(r.start.clone());
    out.header = r.header.clone();
    let mut at = out.moves.root();
    for m in moves(r).into_iter().take(n) {
        at = out.moves.add_move(at, m, Span::default());
    }
    out.moves.add_ending(at, ending, Span::default());
    out
}

fn errors(text: &str, d: &[Diagnostic]) -> Vec<String> {
    let src = SourceText::new("t", text);
    d.iter()
        .filter(|d| d.is_error())
        .map(|d| src.render(d))
        .collect()
}

#[test]
fn no_record_is_an_error_in_every_format() {
    for &f in FORMATS {
        for text in ["", "\n  \n"] {
            let (_, d) = parse(f, text);
            let e = errors(text, &d);
            assert!(
                e.iter().any(|e| e.contains("no chu record")),
                "{} {text:?}: {d:?}",
                f.name()
            );
        }
    }
    let (_, d) = csl::parse("this is not a record\n");
    assert!(!errors("", &d).is_empty());
    let (_, d) = kif::parse("this is not a record\n");
    assert!(!errors("", &d).is_empty(), "{d:?}");
}

/// The corpus game as a KIF, with move `n` replaced by `typo`.
fn kif_with(n: usize, typo: &str) -> String {
    let (records, _) = json::parse_many(&games());
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
    assert_eq!(moves(&rec).len(), 4);
}

#[test]
fn a_move_after_a_kif_ending_is_an_error() {
    let (records, _) = json::parse_many(&games());
    let rec = truncated(&records[0], 10, EndingKind::Resign);
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
    assert_eq!(moves(&rec).len(), 1);
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
    let games = games();
    let (all, _) = json::parse_many(&games);
    let mut count = 0;
    for (i, read) in json::JSON.records(&games).enumerate() {
        assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
        assert_eq!(read.record, all[i]);
        count += 1;
    }
    assert_eq!(count, 10);
    let third = json::JSON.records(&games).nth(2).unwrap();
    assert_eq!(third.record, all[2]);
    // A USI list written from them gives them back one by one too.
    let list = usi::USI.write(&all).text;
    let back: Vec<ChuRecord> = usi::USI.records(&list).map(|r| r.record).collect();
    assert_eq!(back.len(), 10);
    assert_eq!(moves(&back[9]), moves(&all[9]));
}

/// Issue 12 case 11 for chu: several games written as JSON read back (as NDJSON).
#[test]
fn several_games_written_as_json_read_back() {
    let (all, _) = json::parse_many(&games());
    let text = json::JSON.write(&all[..3]).text;
    let (back, d) = parse(&json::JSON, &text);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(back.len(), 3);
    for (b, a) in back.iter().zip(&all) {
        assert_eq!(moves(b), moves(a));
        assert_eq!(b.ending().map(|e| e.kind), a.ending().map(|e| e.kind));
        assert_eq!(b.header.entries().len(), a.header.entries().len());
    }
    assert_eq!(kifu_records::chu::detect(&text).name(), "json");
}

/// Every format: the corpus games, with a comment, an extra header and JCSA rules, read back the
/// same or the writer names what it dropped.
#[test]
fn every_writer_keeps_the_record_or_lists_what_it_drops() {
    let (all, _) = json::parse_many(&games());
    let mut jcsa_games = 0;
    for mut rec in all {
        let root = rec.moves.root();
        rec.moves[root].comments_mut().push(Comment::new(
            CommentKind::Text,
            "opening {book}",
            Span::default(),
        ));
        let fourth = rec.moves.main_line().nth(3).unwrap();
        rec.moves[fourth].comments_mut().push(Comment::new(
            CommentKind::Text,
            "a note",
            Span::default(),
        ));
        rec.header.push(HeaderEntry {
            key: "Event".into(),
            value: "test".into(),
            field: kifu_records::chu::header_field("Event"),
            span: Span::default(),
        });
        let jcsa = rec.start.clone().with_rules(RuleSet::JCSA);
        let mut game = kifu_chu::GameState::new(jcsa.clone());
        let legal_under_jcsa = moves(&rec).into_iter().all(|m| game.play(m).is_ok());
        jcsa_games += usize::from(legal_under_jcsa);
        let starts = if legal_under_jcsa {
            vec![rec.start.clone(), jcsa]
        } else {
            vec![rec.start.clone()]
        };
        for start_rules in starts {
            let mut rec = rec.clone();
            rec.start = start_rules;
            for &f in FORMATS {
                let written = f.write(std::slice::from_ref(&rec));
                let text = written.text;
                let (back, d) = parse(f, &text);
                let back = &back[0];
                let losses = written.warnings;
                assert!(errors(&text, &d).is_empty(), "{}: {d:?}", f.name());
                assert_eq!(moves(back).len(), moves(&rec).len(), "{}", f.name());
                let texts = |r: &ChuRecord| -> Vec<Vec<String>> {
                    r.moves
                        .ids()
                        .map(|id| {
                            r.moves[id]
                                .comments()
                                .iter()
                                .map(|c| c.text.clone())
                                .collect()
                        })
                        .collect()
                };
                let pairs = |r: &ChuRecord| -> Vec<(String, String)> {
                    r.header
                        .entries()
                        .iter()
                        .map(|e| (e.key.clone(), e.value.clone()))
                        .collect()
                };
                let same = back.start == rec.start
                    && texts(back) == texts(&rec)
                    && back.ending().map(|e| e.kind) == rec.ending().map(|e| e.kind)
                    && moves(back) == moves(&rec)
                    && pairs(&rec).iter().all(|h| pairs(back).contains(h));
                assert!(
                    same || !losses.is_empty(),
                    "{} changes the record without a warning\n{text}",
                    f.name()
                );
                if f.name() == "json" {
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
