//! What the match tests share: the misbehaving test engine and a small match around it.

#![allow(dead_code)]

use std::path::Path;

use kifu_engines::evaluation::RecordStyle;
use kifu_engines::game::Rules;
use kifu_engines::openings::Opening;
use kifu_engines::runner::MatchConfig;
use kifu_engines::schedule::Mode;
use kifu_engines::spec::EngineSpec;

/// `kifu-usi-faulty` with `words` added (`option.Fault=crash` …).
pub fn faulty(name: &str, words: &[&str]) -> EngineSpec {
    let mut all = vec![
        format!("name={name}"),
        format!("cmd={}", env!("CARGO_BIN_EXE_kifu-usi-faulty")),
    ];
    all.extend(words.iter().map(|w| (*w).to_owned()));
    EngineSpec::parse(&all).unwrap()
}

/// A match of `engines` over `games` games, one at a time, from the standard start.
pub fn config(dir: &Path, engines: Vec<EngineSpec>, games: u64) -> MatchConfig {
    MatchConfig {
        engines,
        mode: Mode::Match,
        games,
        concurrency: 1,
        openings: vec![Opening::startpos()],
        seed: None,
        rules: Rules {
            max_plies: 40,
            margin_ms: 150,
            hang_ms: 700,
            ..Rules::default()
        },
        sprt: None,
        out_dir: dir.to_owned(),
        event: "test".to_owned(),
        style: RecordStyle::Csa,
    }
}

/// Reads a saved record back with kifu's CSA reader and says whether it is clean.
pub fn record_reads_back(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let csa = kifu_records::shogi::format_by_name("csa").unwrap();
    let (text, parsed) = kifu_records::read_bytes(&bytes, csa);
    assert!(
        !parsed.has_errors(),
        "{}: {:?}\n{text}",
        path.display(),
        parsed.diagnostics
    );
    assert_eq!(parsed.records.len(), 1);
    text.into_owned()
}
