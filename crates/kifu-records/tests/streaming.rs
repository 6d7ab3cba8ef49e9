//! The streaming readers: the records of a multi-record file one at a time, each with its own
//! diagnostics, the same as the whole-file readers give, and the Nth record on its own.

use kifu_record::RecordFormat;
use kifu_record::{NodeItem, decode};
use kifu_records::read_bytes;
use kifu_records::shogi::{ShogiRecord, csa, kif, usi_record};

/// A file of the corpus folder `shogi/bulk`.
fn bulk(rel: &str) -> std::path::PathBuf {
    kifu_testkit::corpus::path(&format!("shogi/bulk/{rel}"))
}

fn moves(r: &ShogiRecord) -> Vec<kifu_shogi::Move> {
    r.moves
        .main_line()
        .filter_map(|id| match r.moves[id].item {
            NodeItem::Move(mv) => Some(mv),
            _ => None,
        })
        .collect()
}

#[test]
fn a_csa_archive_streams_record_by_record_like_the_whole_file_reader() {
    let bytes = std::fs::read(bulk("all_games.csa")).unwrap();
    let (text, whole) = read_bytes(&bytes, &csa::CSA);
    assert!(!whole.has_errors());
    assert_eq!(whole.records.len(), 500);
    let mut count = 0;
    for (i, read) in csa::CSA.records(&text).enumerate() {
        assert!(
            read.diagnostics.is_empty(),
            "record {i}: {:?}",
            read.diagnostics
        );
        assert_eq!(read.record, whole.records[i], "record {i}");
        count += 1;
    }
    assert_eq!(count, 500);
    assert_eq!(csa::CSA.records(&text).count(), 500);
    // Record 42 (0-based) is game_0043.csa.
    let single = std::fs::read(bulk("csa/game_0043.csa")).unwrap();
    let (_, alone) = read_bytes(&single, &csa::CSA);
    let picked = csa::CSA.records(&text).nth(42).unwrap();
    assert_eq!(moves(&picked.record), moves(&alone.records[0]));
    assert!(csa::CSA.records(&text).nth(500).is_none());
}

#[test]
fn each_streamed_record_carries_only_its_own_problems() {
    let bytes = std::fs::read(bulk("all_games.csa")).unwrap();
    let text = std::str::from_utf8(&bytes).unwrap();
    // Break the second game's fifth move: a pawn from an empty square.
    let second = text.find("\n/\n").unwrap() + 3;
    let fifth = text[second..]
        .match_indices("\n+")
        .nth(3)
        .map(|(i, _)| second + i + 1)
        .unwrap();
    let mut broken = text.to_owned();
    broken.replace_range(fifth..fifth + 7, "+5554FU");
    let reads: Vec<_> = csa::CSA.records(&broken).collect();
    assert_eq!(reads.len(), 500);
    assert!(!reads[0].has_errors());
    assert!(reads[1].has_errors(), "{:?}", reads[1].diagnostics);
    assert!(reads[2..].iter().all(|r| r.diagnostics.is_empty()));
    let error = reads[1].diagnostics.iter().find(|d| d.is_error()).unwrap();
    assert_eq!(&broken[error.span.range()], "+5554FU");
}

#[test]
fn usi_lines_stream_one_game_each() {
    let text = kifu_testkit::corpus::text("shogi/lishogi-usi/games.txt");
    let reads: Vec<_> = usi_record::USI.records(&text).collect();
    assert_eq!(reads.len(), 500);
    assert!(reads.iter().all(|r| r.diagnostics.is_empty()));
    let line_7 = text.lines().nth(6).unwrap();
    assert_eq!(
        moves(&usi_record::USI.records(&text).nth(6).unwrap().record).len(),
        line_7.split_whitespace().count()
    );
}

#[test]
fn one_game_formats_give_one_record() {
    let bytes = std::fs::read(bulk("kif/game_0007.kif")).unwrap();
    let decoded = decode(&bytes, kif::KIF.encoding());
    let reads: Vec<_> = kif::KIF.records(&decoded.text).collect();
    assert_eq!(reads.len(), 1);
    assert!(kif::KIF.records(&decoded.text).nth(1).is_none());
}

/// Two games pasted one after the other without the `/` line: the cause is reported once, at
/// the line where the second game starts, and both games are read.
#[test]
fn csa_games_concatenated_without_a_separator_are_one_error_and_two_games() {
    let a = std::fs::read_to_string(bulk("csa/game_0001.csa")).unwrap();
    let b = std::fs::read_to_string(bulk("csa/game_0002.csa")).unwrap();
    let joined = format!("{a}{b}");
    let (_, parsed) = read_bytes(joined.as_bytes(), &csa::CSA);
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    let d = &parsed.diagnostics[0];
    assert!(d.is_error());
    assert_eq!(d.span.start as usize, a.len());
    assert!(d.message.contains('/'), "{}", d.message);
    assert_eq!(parsed.records.len(), 2);
    let (_, first) = read_bytes(a.as_bytes(), &csa::CSA);
    let (_, second) = read_bytes(b.as_bytes(), &csa::CSA);
    assert_eq!(moves(&parsed.records[0]), moves(&first.records[0]));
    assert_eq!(moves(&parsed.records[1]), moves(&second.records[0]));
}
