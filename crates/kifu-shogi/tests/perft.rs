//! Every row of the corpus perft table up to ~2·10⁷ nodes; deeper rows are for the benchmark.

use kifu_shogi::{Position, perft};

const MAX_NODES: u64 = 20_000_000;

#[test]
fn corpus_perft_rows() {
    let text = kifu_testkit::corpus::text("shogi/perft/perft.tsv");
    let mut checked = 0;
    let mut failures = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut f = line.split('\t');
        let (Some(sfen), Some(depth), Some(nodes)) = (f.next(), f.next(), f.next()) else {
            panic!("line {}: malformed row", i + 1);
        };
        let depth: u32 = depth.parse().unwrap();
        let nodes: u64 = nodes.parse().unwrap();
        if nodes > MAX_NODES {
            continue;
        }
        let mut pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let got = perft(&mut pos, depth);
        if got != nodes {
            failures.push(format!(
                "line {}: {sfen} depth {depth}: expected {nodes}, got {got}",
                i + 1
            ));
        }
        assert_eq!(
            pos.to_sfen(),
            sfen,
            "perft must leave the position as it found it"
        );
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // 302 rows, of which only the start position at depth 6 is deeper than the limit.
    assert_eq!(checked, 301);
}
