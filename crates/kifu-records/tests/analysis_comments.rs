//! Findings written as comments in each dialect survive every shogi format kifu writes: the
//! record is written, read back, and each position's evaluation is the one written.

use kifu_record::evaluation::{self, CommentDialect, Searcher};
use kifu_record::{Comment, NodeId, Score, Span};
use kifu_records::read_bytes;
use kifu_records::shogi::analysis_comments::{Finding, MATE_SCORE, comments, pv_moves};
use kifu_records::shogi::{ShogiRecord, format_by_name};
use kifu_shogi::{Move, Position};

/// The main line's nodes with the position each leads to (the start first).
fn positions(record: &ShogiRecord) -> Vec<(NodeId, Position)> {
    let mut out = vec![(record.moves.root(), record.position_at(record.moves.root()))];
    record.walk_main_line(|id, before, mv| {
        let mut after = before.clone();
        after.play_unchecked(*mv);
        out.push((id, after));
    });
    out
}

/// A made-up finding for the position after `ply` moves: a score that changes sign and
/// size, a mate now and then, and the game's next three moves as the PV.
fn finding_for(ply: usize, line: &[Move]) -> (Option<Score>, Vec<Move>) {
    let score = if ply % 17 == 16 {
        Score::Mate {
            winner_first: ply.is_multiple_of(2),
            plies: Some(ply as u32 % 9 + 1),
        }
    } else {
        Score::Value((ply as i32 * 37) % 900 - 450)
    };
    (
        Some(score),
        line.iter().skip(ply).take(3).copied().collect(),
    )
}

#[test]
fn every_dialect_reads_back_from_every_format() {
    let bytes = kifu_testkit::corpus::bytes("shogi/bulk/kif/game_0009.kif");
    let (_, parsed) = read_bytes(&bytes, format_by_name("kif").unwrap());
    let original = parsed.records.into_iter().next().expect("a record");
    let nodes = positions(&original);
    assert!(nodes.len() > 100, "a long game");
    let mut line = Vec::new();
    original.walk_main_line(|_, _, mv| line.push(*mv));
    for dialect in CommentDialect::ALL {
        let mut record = original.clone();
        for (ply, (id, position)) in nodes.iter().enumerate() {
            let (score, pv) = finding_for(ply, &line);
            let finding = Finding {
                score,
                pv: &pv,
                depth: Some(10),
                nodes: Some(20_000),
                engine: Some("test engine"),
                judgement: (ply % 11 == 3).then_some("疑問手"),
            };
            for (kind, text) in comments(dialect, Searcher::Analysis, position, &finding) {
                record.moves[*id]
                    .comments
                    .push(Comment::new(kind, text, Span::default()));
            }
        }
        for format in ["csa", "kif", "kifu", "ki2", "jkf"] {
            let written = format_by_name(format)
                .unwrap()
                .write(std::slice::from_ref(&record));
            let (_, back) = read_bytes(written.text.as_bytes(), format_by_name(format).unwrap());
            assert!(!back.has_errors(), "{dialect} in {format}");
            let back = &back.records[0];
            let back_nodes = positions(back);
            assert_eq!(back_nodes.len(), nodes.len(), "{dialect} in {format}");
            for (ply, (id, position)) in back_nodes.iter().enumerate() {
                let (score, pv) = finding_for(ply, &line);
                let read = evaluation::evaluation(&back.moves[*id].comments)
                    .unwrap_or_else(|| panic!("{dialect} in {format}: no evaluation at ply {ply}"));
                assert_eq!(read.dialect, dialect, "{format} ply {ply}");
                let expected = match dialect {
                    CommentDialect::ShogiHome => score,
                    _ => score.map(|s| match s {
                        Score::Value(v) => Score::Value(v),
                        Score::Mate { winner_first, .. } => Score::Value(if winner_first {
                            MATE_SCORE
                        } else {
                            -MATE_SCORE
                        }),
                    }),
                };
                assert_eq!(read.score, expected, "{dialect} in {format}, ply {ply}");
                assert_eq!(
                    pv_moves(position, &read.pv),
                    pv,
                    "{dialect} in {format}, ply {ply}: {}",
                    read.pv
                );
            }
        }
    }
}
