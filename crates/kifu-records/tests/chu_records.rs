//! Record formats: the corpus games read from lishogi's NDJSON, written in every format and read
//! back to the same moves; bad input gives diagnostics with line and column.

use kifu_chu::Move;
use kifu_record::{Diagnostic, EndingKind, NodeItem, RecordFormat, SourceText, Span};
use kifu_records::chu::{ChuRecord, csl, json, kif, main_line_moves, usi};

fn moves(r: &ChuRecord) -> Vec<Move> {
    main_line_moves(r)
}

fn comments(r: &ChuRecord, ply: usize) -> Vec<String> {
    let id = if ply == 0 {
        r.moves.root()
    } else {
        r.moves.main_line().nth(ply - 1).unwrap()
    };
    r.moves[id]
        .comments()
        .iter()
        .map(|c| c.text.clone())
        .collect()
}

type Reader = fn(&str) -> (ChuRecord, Vec<Diagnostic>);

/// Read when the test runs rather than compiled in: the corpus lies outside the crate, and the
/// published package's tests must still build without it.
fn lishogi_games() -> String {
    kifu_testkit::corpus::text("chu/lishogi-games.ndjson")
}

fn errors(d: &[Diagnostic]) -> Vec<&Diagnostic> {
    d.iter().filter(|d| d.is_error()).collect()
}

fn corpus() -> Vec<ChuRecord> {
    let (records, diags) = json::parse_many(&lishogi_games());
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(records.len(), 10);
    records
}

#[test]
fn lishogi_ndjson_reads_with_replay_and_status_check() {
    let records = corpus();
    assert_eq!(records.iter().map(|r| moves(r).len()).sum::<usize>(), 2462);
    assert!(
        records
            .iter()
            .any(|r| r.outcome() != kifu_record::Outcome::None)
    );
}

#[test]
fn every_format_round_trips_the_corpus() {
    for rec in corpus() {
        let id = rec.header.get_key("Id").unwrap_or("?").to_string();
        let formats: [(&str, String, Reader); 5] = [
            ("csl", csl::write(&rec), csl::parse),
            ("csl-ja", csl::write_japanese(&rec), csl::parse),
            ("kif", kif::write(&rec), kif::parse),
            ("usi", usi::write(&rec), usi::parse),
            ("json", json::write(&rec), json::parse),
        ];
        for (name, text, read) in formats {
            let (back, diags) = read(&text);
            let errs = errors(&diags);
            assert!(
                errs.is_empty(),
                "{id} {name}: {errs:?}\n{}",
                &text[..text.len().min(600)]
            );
            assert_eq!(moves(&back).len(), moves(&rec).len(), "{id} {name}");
            // CSL names the position a lion route reaches, not the route: compare positions.
            let (mut a, mut b) = (rec.start.clone(), back.start.clone());
            for (x, y) in moves(&rec).into_iter().zip(moves(&back)) {
                a.play_unchecked(x);
                b.play_unchecked(y);
                assert_eq!(
                    a.repetition_key(),
                    b.repetition_key(),
                    "{id} {name}: {} vs {}",
                    x,
                    y
                );
                if !name.starts_with("csl") {
                    assert_eq!(x, y, "{id} {name}");
                }
            }
            assert_eq!(back.start, rec.start, "{id} {name}");
        }
    }
}

#[test]
fn csl_headers_comments_numbers_and_custom_start() {
    let text = "[Event \"CSL 2025\"]\n[Black \"A\"]\n[SFEN \"kg10/12/12/12/12/5N6/12/12/12/12/12/11K b - 1\"]\n\n{opening remark}\n1. Ln-7d {a jump} 2. K-11b\n3. Ln-7c ; to the zone\n4... K-12a\nresign\n";
    let (rec, diags) = csl::parse(text);
    assert!(errors(&diags).is_empty(), "{diags:?}");
    assert_eq!(
        rec.header.get(kifu_record::HeaderField::FirstPlayer),
        Some("A")
    );
    assert_eq!(moves(&rec).len(), 4);
    assert_eq!(comments(&rec, 0), ["opening remark"]);
    assert_eq!(comments(&rec, 1), ["a jump"]);
    assert_eq!(rec.ending().unwrap().kind, EndingKind::Resign);
    let again = csl::parse(&csl::write(&rec)).0;
    assert_eq!(csl::write(&again), csl::write(&rec));
    assert_eq!(moves(&again), moves(&rec));
}

#[test]
fn csl_one_move_per_line_and_japanese() {
    let (rec, diags) = csl::parse("Ln-7h\n6五獅\nLn-6f\n△同　獅\n");
    assert!(errors(&diags).is_empty(), "{diags:?}");
    assert_eq!(moves(&rec).len(), 4);
    assert_eq!(moves(&rec)[3].to_string(), "6e6f");
}

#[test]
fn csl_errors_have_line_and_column_and_candidates() {
    let text = "1. Ln-7h 2. Ln-7e\n3. R-5d\n4. Ln-6f\n";
    let (rec, diags) = csl::parse(text);
    assert_eq!(moves(&rec).len(), 2);
    let src = SourceText::new("game.csl", text);
    let first = diags.iter().find(|d| d.is_error()).unwrap();
    let rendered = src.render(first);
    assert!(
        rendered.starts_with("game.csl:2:4: error: ply 3"),
        "{rendered}"
    );
    assert!(
        diags
            .iter()
            .any(|d| !d.is_error() && d.message.contains("not checked"))
    );
    // Ambiguity lists the candidates.
    let (_, diags) = csl::parse("P-5h\nP-5e\nP-5g\nP-5f\nR-5i");
    let amb = diags
        .iter()
        .find(|d| d.is_error())
        .map(|d| d.message.clone())
        .unwrap_or_default();
    assert!(
        amb.contains("ambiguous") && amb.contains("R3j-5i") && amb.contains("R10j-5i")
            || amb.contains("no legal"),
        "{amb}"
    );
}

#[test]
fn moves_after_the_end_and_garbage() {
    let (_, diags) =
        usi::parse("position sfen 12/12/12/12/12/12/12/12/12/12/12/11K w - 1 moves 1l1k");
    assert!(
        diags
            .iter()
            .any(|d| d.is_error() && d.message.contains("end of the game")),
        "{diags:?}"
    );
    for garbage in [
        "",
        "\u{0}\u{1}",
        "[[[[",
        "{",
        "1. 2. 3.",
        "Ln-13a",
        "position sfen zz moves",
        "{\"moves\": 5}",
        "手数\n   1   ７八獅子 （←",
    ] {
        let _ = csl::parse(garbage);
        let _ = kif::parse(garbage);
        let _ = usi::parse(garbage);
        let _ = json::parse(garbage);
    }
}

#[test]
fn kif_reads_lishogi_lines() {
    let text = "先手：A\n後手：B\n手合割：平手\n手数----指手---------消費時間--\n   1   7八獅子 （←7十）   (00:01/00:00:01)\n   2   6五獅子 （←6三）   (00:01/00:00:01)\n   3一歩目 7七獅子 （←7八）\n   3二歩目 7八獅子 （←7七）\n* jitto\n   4   投了\nまで3手で先手の勝ち\n\n変化：3手\n   3   6七獅子 （←7八）\n";
    let (rec, diags) = kif::parse(text);
    assert!(errors(&diags).is_empty(), "{diags:?}");
    assert_eq!(moves(&rec).len(), 3);
    assert_eq!(moves(&rec)[2].to_string(), "7h7g7h");
    assert_eq!(comments(&rec, 3), ["jitto"]);
    assert_eq!(rec.ending().unwrap().kind, EndingKind::Resign);
    // The variation is an alternative to move 3, the times are on their moves.
    let second = rec.moves.main_line().nth(1).unwrap();
    assert_eq!(rec.moves.variations(second).count(), 1);
    let first = rec.moves.main_line().next().unwrap();
    assert_eq!(rec.moves[first].time_ms(), Some(1000));
}

#[test]
fn kif_board_diagram_for_custom_starts() {
    for sfen in [
        "lfcsg2gso1l/a1bdtet2fc1/2r2q1k1r1a/mv1x+P1+Pp1bvm/3p3d2pp/1Q4h1p2h/P1piD5PP/5B2iPV1/2HP1ONPP3/MCVTED1GBT1M/A1S4XH1RA/LF1RGK2SCFL w - 142",
        "11k/12/12/12/12/4r7/12/12/9n2/4+o7/12/6B4K b 8j 1",
    ] {
        let start = kifu_chu::Position::from_sfen(sfen).unwrap();
        let mut rec = ChuRecord::new(start.clone());
        let m = start.legal_moves().as_slice()[0];
        let root = rec.moves.root();
        rec.moves.add_move(root, m, Span::default());
        let text = kif::write(&rec);
        assert!(text.contains("|"), "{text}");
        let (back, diags) = kif::parse(&text);
        assert!(errors(&diags).is_empty(), "{diags:?}\n{text}");
        // The move number is not part of a KIF diagram.
        assert_eq!(
            back.start.to_sfen().rsplit_once(' ').unwrap().0,
            sfen.rsplit_once(' ').unwrap().0,
            "{text}"
        );
        assert_eq!(moves(&back), moves(&rec));
    }
}

#[test]
fn kif_json_usi_errors_point_at_the_move() {
    let kif_text =
        "手数----指手---------消費時間--\n   1   7八獅子 （←7十）\n   2   5七獅子 （←6三）\n";
    let (rec, diags) = kif::parse(kif_text);
    assert_eq!(moves(&rec).len(), 1);
    let e = errors(&diags)[0];
    let at = SourceText::new("g.kif", kif_text).line_col(e.span.start);
    assert_eq!((at.line, at.column), (3, 8), "{e:?}");

    let json_text = "{\"moves\": \"7j7h 6c6e 7h7h\"}";
    let (rec, diags) = json::parse(json_text);
    assert_eq!(moves(&rec).len(), 2);
    let e = errors(&diags)[0];
    assert_eq!(
        &json_text[e.span.start as usize..e.span.end as usize],
        "7h7h"
    );

    let usi_text = "position startpos moves 7j7h\nposition startpos moves 7j7h 6c6e 1a1b\n";
    let (games, diags) = usi::parse_many(usi_text);
    assert_eq!(games.len(), 2);
    let e = errors(&diags)[0];
    let at = SourceText::new("g.usi", usi_text).line_col(e.span.start);
    assert_eq!((at.line, at.column), (2, 35), "{e:?}");
}

#[test]
fn csl_numbered_pairs() {
    let (rec, diags) = csl::parse("1. Ln-7h Ln-6e 2. Ln-6f △同獅\n");
    assert!(errors(&diags).is_empty(), "{diags:?}");
    assert_eq!(moves(&rec).len(), 4);
}

/// The shape of a move tree: every node's item, ply, parent, times and comments.
fn shape(r: &ChuRecord) -> Vec<String> {
    let mut order = vec![r.moves.root()];
    let mut i = 0;
    while i < order.len() {
        order.extend(r.moves.children(order[i]));
        i += 1;
    }
    order
        .into_iter()
        .map(|id| {
            let n = &r.moves[id];
            let item = match &n.item {
                NodeItem::Move(m) => m.to_string(),
                NodeItem::End(k) => k.to_string(),
                NodeItem::Start => "start".into(),
            };
            let comments: Vec<&str> = n.comments().iter().map(|c| c.text.as_str()).collect();
            format!(
                "{item} ply {} after {:?} time {:?}/{:?} {comments:?}",
                n.ply(),
                r.moves
                    .parent(id)
                    .map(|p| r.moves[p].mv().map(|m| m.to_string())),
                n.time_ms(),
                n.total_ms()
            )
        })
        .collect()
}

/// A record with variations (one nested), times, comments and endings in variations.
fn record_with_variations() -> ChuRecord {
    let text = "手合割：中将棋\n手数----指手---------消費時間--\n   1   7八獅子 （←7十）   (00:03/00:00:03)\n   2   6五獅子 （←6三）   (00:02/00:00:02)+\n*main\n   3   7七獅子 （←7八）   (00:04/00:00:07)+\n   4   投了   (00:01/00:00:03)\n\n変化：3手\n   3   6七獅子 （←7八）   (00:05/00:00:08)\n*side line\n   4   中断\n\n変化：2手\n   2   5五獅子 （←6三）   (00:09/00:00:09)\n";
    let (rec, diags) = kif::parse(text);
    assert!(errors(&diags).is_empty(), "{diags:?}");
    rec
}

#[test]
fn kif_and_json_keep_variations_and_times() {
    let rec = record_with_variations();
    let first = rec.moves.main_line().next().unwrap();
    assert_eq!(rec.moves.variations(first).count(), 1, "{:#?}", shape(&rec));
    let second = rec.moves.main_line().nth(1).unwrap();
    assert_eq!(
        rec.moves.variations(second).count(),
        1,
        "{:#?}",
        shape(&rec)
    );
    for format in [&kif::KIF as &dyn RecordFormat<kifu_chu::Chu>, &json::JSON] {
        let written = format.write(std::slice::from_ref(&rec));
        assert!(written.warnings.is_empty(), "{:?}", written.warnings);
        let back = format.records(&written.text).next().unwrap();
        assert!(
            errors(&back.diagnostics).is_empty(),
            "{:?}\n{}",
            back.diagnostics,
            written.text
        );
        assert_eq!(
            shape(&back.record),
            shape(&rec),
            "{}\n{}",
            format.name(),
            written.text
        );
    }
}

#[test]
fn csl_and_usi_warn_that_they_drop_variations_and_times() {
    let rec = record_with_variations();
    for format in [&csl::CSL as &dyn RecordFormat<kifu_chu::Chu>, &usi::USI] {
        let written = format.write(std::slice::from_ref(&rec));
        let all = written.warnings.join("\n");
        assert!(
            all.contains("variation(s) dropped"),
            "{}: {all}",
            format.name()
        );
        assert!(all.contains("no times"), "{}: {all}", format.name());
    }
}

/// Every corpus game, written in every chu format, is opened as chu by the front door with
/// its own extension, with a name that says nothing (`.txt`) and with none: chu's claim on a
/// text looks only at the head before the moves, which is where each format names the game.
/// A game from a custom start names it by its board diagram alone.
#[test]
fn every_corpus_game_in_every_format_is_opened_as_chu_named_or_not() {
    use kifu_records::detect::GameKind;
    use kifu_records::open::{Request, open};
    let mut texts = Vec::new();
    for rec in corpus() {
        texts.push(("csl", "csl", csl::write(&rec)));
        texts.push(("csl-ja", "csl", csl::write_japanese(&rec)));
        texts.push(("kif", "kif", kif::write(&rec)));
        texts.push(("kif", "kifu", kif::write(&rec)));
        texts.push(("usi", "usi", usi::write(&rec)));
        texts.push(("json", "json", json::write(&rec)));
    }
    let custom = "11k/12/12/12/12/4r7/12/12/9n2/4+o7/12/6B4K b 8j 1";
    let start = kifu_chu::Position::from_sfen(custom).unwrap();
    let mut rec = ChuRecord::new(start.clone());
    let root = rec.moves.root();
    rec.moves
        .add_move(root, start.legal_moves().as_slice()[0], Span::default());
    texts.push(("kif", "kif", kif::write(&rec)));
    for (format, extension, text) in &texts {
        for name in [format!("g.{extension}"), "g.txt".to_string()]
            .iter()
            .map(Some)
            .chain([None])
        {
            let request = Request {
                path: name.map(std::path::Path::new),
                ..Request::default()
            };
            let opened = open(text.as_bytes(), &request).unwrap();
            assert_eq!(
                opened.game,
                GameKind::Chu,
                "{format} named {name:?}:\n{}",
                &text[..text.len().min(300)]
            );
        }
    }
}
