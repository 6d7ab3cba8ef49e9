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

/// The test game (117 moves), its main line's moves, and the game with a made-up finding on
/// every position written in `dialect`.
struct Annotated {
    original: ShogiRecord,
    line: Vec<Move>,
}

impl Annotated {
    fn new() -> Annotated {
        let bytes = kifu_testkit::corpus::bytes("shogi/bulk/kif/game_0009.kif");
        let (_, parsed) = read_bytes(&bytes, format_by_name("kif").unwrap());
        let original = parsed.records.into_iter().next().expect("a record");
        let mut line = Vec::new();
        original.walk_main_line(|_, _, mv| line.push(*mv));
        Annotated { original, line }
    }

    fn in_dialect(&self, dialect: CommentDialect) -> ShogiRecord {
        let mut record = self.original.clone();
        for (ply, (id, position)) in positions(&self.original).iter().enumerate() {
            let (score, pv) = finding_for(ply, &self.line);
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
                    .comments_mut()
                    .push(Comment::new(kind, text, Span::default()));
            }
        }
        record
    }
}

#[test]
fn every_dialect_reads_back_from_every_format() {
    let game = Annotated::new();
    let nodes = positions(&game.original);
    assert!(nodes.len() > 100, "a long game");
    let line = &game.line;
    for dialect in CommentDialect::ALL {
        let record = game.in_dialect(dialect);
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
                let (score, pv) = finding_for(ply, line);
                let read = evaluation::evaluation(back.moves[*id].comments())
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

/// Reads a record with tsshogi (ShogiHome's record library) and reads each position's
/// comment as ShogiHome does (`src/renderer/store/record.ts`: its score regexes for its own,
/// ShogiGUI's and floodgate's lines, and its PV readers — `parsePV` from the side to move's
/// first mark, floodgate's CSA moves one by one), printing the score and PV it finds per
/// position (the start first).
const SHOGIHOME_READER: &str = r#"
import { readFileSync } from "node:fs";
import { importKIF, importCSA, parsePV, parseCSAMove, Color } from "tsshogi";
const [format, path] = process.argv.slice(1);
const text = readFileSync(path, "utf-8");
const record = format === "csa" ? importCSA(text) : importKIF(text);
if (record instanceof Error) {
  console.log(JSON.stringify({ error: record.message }));
  process.exit(0);
}
const scoreRes = [/^[#*]評価値=([+-]?[.0-9]+)/, /^\*(?:解析|対局) .* 評価値 ([+-]?[0-9]+)/, /^\* *([+-]?[.0-9]+)/];
function read(position, comment) {
  let score = null, pv = [];
  for (const line of comment.split("\n")) {
    for (const re of scoreRes) {
      const m = re.exec(line);
      if (m && score === null) score = Number(m[1]);
    }
    const mate = /^[#*]詰み=(先手勝ち|後手勝ち)/.exec(line);
    if (mate && score === null) score = mate[1] === "先手勝ち" ? 30000 : -30000;
    let moves = null;
    if (/^[#*]読み筋=/.test(line)) {
      moves = parsePV(position, line.substring(5));
    } else if (/^\*.* 読み筋 /.test(line)) {
      const s = line.substring(line.indexOf(" 読み筋 ") + 5);
      const sign = position.color === Color.BLACK ? "▲" : "△";
      moves = parsePV(position, s.substring(s.indexOf(sign)));
    } else if (/^\* -?[0-9]+ /.test(line)) {
      moves = [];
      const p = position.clone();
      const begin = line.indexOf(" ", line.indexOf(" ") + 1) + 1;
      for (let i = begin; i < line.length; i += 8) {
        const mv = parseCSAMove(p, line.substring(i, i + 7));
        if (mv instanceof Error || !p.doMove(mv, { ignoreValidation: false })) break;
        moves.push(mv);
      }
    }
    if (moves && moves.length && !pv.length) pv = moves.map((m) => m.usi);
  }
  return { score, pv };
}
const position = record.initialPosition.clone();
const out = [];
for (const node of record.moves) {
  if (node.ply > 0) {
    if (!(node.move && typeof node.move.usi === "string")) continue;
    position.doMove(node.move);
  }
  out.push(read(position, node.comment));
}
console.log(JSON.stringify({ positions: out }));
"#;

#[test]
#[ignore = "needs node with tsshogi: run scripts/setup-test-deps"]
fn shogihome_reads_every_dialect_kifu_writes_with_the_scores_and_pvs_in_place() {
    let node = kifu_testkit::interop_node();
    let game = Annotated::new();
    let nodes = positions(&game.original);
    let line = &game.line;
    let dir = tempfile::tempdir().unwrap();
    for dialect in CommentDialect::ALL {
        let record = game.in_dialect(dialect);
        for format in ["kifu", "csa"] {
            let written = format_by_name(format)
                .unwrap()
                .write(std::slice::from_ref(&record));
            let path = dir.path().join(format!("{dialect}.{format}"));
            std::fs::write(&path, written.text.as_bytes()).unwrap();
            let out = std::process::Command::new(&node)
                .current_dir(kifu_testkit::interop_dir())
                .args(["--input-type=module", "-e", SHOGIHOME_READER])
                .arg(if format == "csa" { "csa" } else { "kif" })
                .arg(&path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let seen: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert!(seen.get("error").is_none(), "{dialect} in {format}: {seen}");
            let seen = seen["positions"].as_array().unwrap();
            assert_eq!(seen.len(), nodes.len(), "{dialect} in {format}");
            for (ply, read) in seen.iter().enumerate() {
                let (score, pv) = finding_for(ply, line);
                let cp = match score.unwrap() {
                    Score::Value(v) => v,
                    Score::Mate { winner_first, .. } => {
                        if winner_first {
                            MATE_SCORE
                        } else {
                            -MATE_SCORE
                        }
                    }
                };
                assert_eq!(
                    read["score"].as_i64(),
                    Some(i64::from(cp)),
                    "{dialect} in {format}, ply {ply}: {read}"
                );
                let usi: Vec<String> = pv.iter().map(|m| m.usi()).collect();
                let theirs: Vec<&str> = read["pv"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap())
                    .collect();
                assert_eq!(theirs, usi, "{dialect} in {format}, ply {ply}");
            }
        }
    }
}
