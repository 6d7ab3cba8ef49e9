//! `--format kif`: the same games saved as KIF with ShogiHome's comment lines read back, by
//! kifu's KIF reader and the evaluation reader the Parquet export uses, as what the CSA
//! records of those games say: every move, its time, each engine's score from Black's side
//! and its PV. The test engine is deterministic (its moves follow the position's hash), so
//! two matches play the same games.

mod common;

use std::path::Path;

use common::{config, faulty};
use kifu_engines::evaluation::RecordStyle;
use kifu_engines::ledger::{GameRow, Ledger};
use kifu_engines::runner::run;
use kifu_export::meta::engine_line;
use kifu_record::{HeaderField, NodeItem};
use kifu_records::shogi::ShogiRecord;
use kifu_records::shogi::analysis_comments::pv_moves;

fn play(style: RecordStyle) -> (tempfile::TempDir, Vec<GameRow>) {
    let dir = tempfile::tempdir().unwrap();
    let engines = vec![
        faulty("strong", &["nodes=10", "option.Score=250"]),
        faulty("weak", &["nodes=10", "option.Score=-30"]),
    ];
    let mut cfg = config(dir.path(), engines, 2);
    cfg.style = style;
    let rt = tokio::runtime::Runtime::new().unwrap();
    let report = rt
        .block_on(run(&cfg, |_, _, _| {}, std::future::pending()))
        .unwrap();
    assert_eq!(report.finished, 2);
    let (_, rows) = Ledger::open(&dir.path().join("ledger.jsonl")).unwrap();
    (dir, rows)
}

fn read(path: &Path, format: &str) -> ShogiRecord {
    let bytes = std::fs::read(path).unwrap();
    let reader = kifu_records::shogi::format_by_name(format).unwrap();
    let (text, parsed) = kifu_records::read_bytes(&bytes, reader);
    assert!(
        !parsed.has_errors(),
        "{}: {:?}\n{text}",
        path.display(),
        parsed.diagnostics
    );
    assert_eq!(parsed.records.len(), 1);
    parsed.records.into_iter().next().unwrap()
}

/// A move of the main line: the move, the score and the PV (as USI moves, whatever notation
/// the record wrote them in), and the time in whole seconds.
type Ply = (String, Option<i32>, Vec<String>, Option<u64>);

fn plies(record: &ShogiRecord) -> Vec<Ply> {
    let mut out = Vec::new();
    record.walk_main_line(|id, before, mv| {
        let node = &record.moves[id];
        let mut after = before.clone();
        after.play_unchecked(*mv);
        let (score, pv) = engine_line(node).unwrap_or((None, String::new()));
        out.push((
            mv.usi(),
            score,
            pv_moves(&after, &pv).iter().map(|m| m.usi()).collect(),
            node.time_ms().map(|ms| ms / 1000),
        ));
    });
    out
}

/// A PV as written (CSA moves, or JSA moves with side marks) as USI moves.
#[test]
fn kif_records_with_shogihome_comments_read_back_as_the_csa_records_of_the_same_games() {
    let (csa_dir, csa_rows) = play(RecordStyle::Csa);
    let (kif_dir, kif_rows) = play(RecordStyle::Kif);
    assert_eq!(csa_rows.len(), kif_rows.len());
    for (c, k) in csa_rows.iter().zip(&kif_rows) {
        assert!(k.record.ends_with(".kif"), "{}", k.record);
        assert_eq!(
            (&c.result, &c.reason, c.plies),
            (&k.result, &k.reason, k.plies)
        );
        let csa = read(&csa_dir.path().join(&c.record), "csa");
        let kif = read(&kif_dir.path().join(&k.record), "kif");
        let (csa_plies, kif_plies) = (plies(&csa), plies(&kif));
        assert_eq!(csa_plies.len() as u32, k.plies);
        assert_eq!(csa_plies, kif_plies, "{}", k.record);
        // Every move has its engine's score from Black's side and a PV.
        for (i, (_, score, pv, _)) in kif_plies.iter().enumerate() {
            let black_moved = i % 2 == 0;
            let strong_is_black = k.black == "strong";
            let own = if black_moved == strong_is_black {
                250
            } else {
                -30
            };
            assert_eq!(
                *score,
                Some(if black_moved { own } else { -own }),
                "ply {i}"
            );
            assert_eq!(pv.len(), 1, "ply {i}");
        }
        for field in [
            HeaderField::FirstPlayer,
            HeaderField::SecondPlayer,
            HeaderField::Event,
            HeaderField::Opening,
        ] {
            assert_eq!(
                kif.header.get(field),
                csa.header.get(field),
                "{field:?} in {}",
                k.record
            );
        }
        assert_eq!(
            kif.header.get(HeaderField::FirstPlayer),
            Some(k.black.as_str())
        );
        // The two matches were played at different times: the times are there, not equal.
        assert!(kif.header.get(HeaderField::StartTime).is_some());
        assert!(kif.header.get(HeaderField::EndTime).is_some());
        let ending = |r: &ShogiRecord| match &r.moves[r.moves.main_line_end()].item {
            NodeItem::End(kind) => Some(kind.clone()),
            _ => None,
        };
        assert_eq!(ending(&kif), ending(&csa));
        assert!(ending(&kif).is_some());
    }
    // The lines are ShogiHome's: the situation word, then keyed engine lines.
    let text = kifu_record::decode(
        &std::fs::read(kif_dir.path().join(&kif_rows[0].record)).unwrap(),
        kifu_record::TextEncoding::ShiftJis,
    )
    .text
    .into_owned();
    assert!(
        text.contains("\n*先手有望\n**評価値=250\n**読み筋=△"),
        "{text}"
    );
    assert!(text.contains("\n**エンジン=strong\n"), "{text}");
    assert!(text.contains("先手：strong\n後手：weak\n"), "{text}");
}

/// Reads a KIF file with tsshogi (ShogiHome's record library) and prints, per move of the
/// main line, the move, ShogiHome's reading of the `*評価値=` line, the `*読み筋=` line's
/// moves as tsshogi's `parsePV` reads them from the position after the move, and that PV
/// written back by tsshogi's `formatPV` — which must give the line as kifu wrote it.
const TSSHOGI_READER: &str = r#"
import { readFileSync } from "node:fs";
import { importKIF, parsePV, formatPV, RecordMetadataKey } from "tsshogi";
const text = new TextDecoder("shift_jis").decode(readFileSync(process.argv[1]));
const record = importKIF(text);
if (record instanceof Error) {
  console.log(JSON.stringify({ error: record.message }));
  process.exit(0);
}
const position = record.initialPosition.clone();
const moves = [];
let ending = null;
for (const node of record.moves) {
  if (node.ply === 0) continue;
  if (!(node.move && typeof node.move.usi === "string")) {
    ending = node.move ? node.move.type : null;
    continue;
  }
  position.doMove(node.move);
  const lines = node.comment.split("\n");
  const pvLine = lines.find((l) => l.startsWith("*読み筋="));
  const scoreLine = lines.find((l) => l.startsWith("*評価値="));
  const pvText = pvLine ? pvLine.substring(5) : null;
  const pv = pvText ? parsePV(position, pvText) : [];
  moves.push({
    usi: node.move.usi,
    score: scoreLine ? Number(scoreLine.substring(5)) : null,
    pv: pv.map((m) => m.usi),
    pvText,
    formatted: pv.length ? formatPV(position, pv) : null,
  });
}
console.log(JSON.stringify({
  black: record.metadata.getStandardMetadata(RecordMetadataKey.BLACK_NAME) ?? null,
  white: record.metadata.getStandardMetadata(RecordMetadataKey.WHITE_NAME) ?? null,
  moves,
  ending,
}));
"#;

#[test]
#[ignore = "needs node with tsshogi: run scripts/setup-test-deps"]
fn tsshogi_reads_the_kif_records_moves_scores_and_pvs_as_kifu_does() {
    let node = kifu_testkit::interop_node();
    let (dir, rows) = play(RecordStyle::Kif);
    for row in &rows {
        let path = dir.path().join(&row.record);
        let kifu = plies(&read(&path, "kif"));
        let out = std::process::Command::new(&node)
            .current_dir(kifu_testkit::interop_dir())
            .args(["--input-type=module", "-e", TSSHOGI_READER])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let seen: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(seen.get("error").is_none(), "{seen}");
        assert_eq!(seen["black"], row.black.as_str());
        assert_eq!(seen["white"], row.white.as_str());
        assert!(seen["ending"].is_string(), "{seen}");
        let moves = seen["moves"].as_array().unwrap();
        assert_eq!(moves.len(), kifu.len(), "{seen}");
        for (m, (usi, score, pv, _)) in moves.iter().zip(&kifu) {
            assert_eq!(m["usi"], usi.as_str());
            assert_eq!(m["score"].as_i64(), score.map(i64::from), "{m}");
            let theirs: Vec<&str> = m["pv"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            assert_eq!(theirs, *pv, "{m}");
            assert_eq!(
                m["formatted"], m["pvText"],
                "tsshogi writes the PV as kifu did: {m}"
            );
        }
    }
}
