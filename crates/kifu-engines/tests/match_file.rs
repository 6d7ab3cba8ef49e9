//! A match played from a TOML match file: engines with options and limits, games,
//! concurrency, openings from a book beside the file, the output directory and the records'
//! format all come from the file.

mod common;

use common::record_reads_back;
use kifu_engines::evaluation::RecordStyle;
use kifu_engines::ledger::Ledger;
use kifu_engines::runner::run;
use kifu_engines::schedule::Mode;
use kifu_engines::settings::MatchSettings;

#[test]
fn a_match_file_plays_the_match_it_describes() {
    let dir = tempfile::tempdir().unwrap();
    let engine = env!("CARGO_BIN_EXE_kifu-usi-faulty");
    std::fs::write(
        dir.path().join("book.sfen"),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n\
         position startpos moves 2g2f 8c8d\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("match.toml"),
        format!(
            r#"
games = 4
concurrency = 2
openings = "book.sfen"
max-moves = 60
hang-timeout = 5
output = "out"
event = "from a file"

[[engine]]
name = "first"
cmd = "{engine}"
nodes = 10
options = {{ Score = 120 }}

[[engine]]
name = "second"
cmd = "{engine}"
movetime = 1000
"#
        ),
    )
    .unwrap();
    let config = MatchSettings::load(&dir.path().join("match.toml"))
        .unwrap()
        .into_config()
        .unwrap();
    assert_eq!(config.mode, Mode::Match);
    assert_eq!(config.concurrency, 2);
    assert_eq!(config.style, RecordStyle::Csa);
    assert_eq!(config.openings.len(), 2);
    assert_eq!(
        config.engines[0].options,
        [("Score".to_owned(), "120".to_owned())]
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let report = rt
        .block_on(run(&config, |_, _, _| {}, std::future::pending()))
        .unwrap();
    assert_eq!(report.finished, 4);
    let out = dir.path().join("out");
    let (_, mut rows) = Ledger::open(&out.join("ledger.jsonl")).unwrap();
    // Games finish in any order when two run at once.
    rows.sort_by_key(|r| r.game);
    assert_eq!(rows.len(), 4);
    for (i, row) in rows.iter().enumerate() {
        let text = record_reads_back(&out.join(&row.record));
        assert!(text.contains("$EVENT:from a file"), "{text}");
        // Two pairs, one opening each, colours reversed within a pair.
        assert_eq!(row.black, if i % 2 == 0 { "first" } else { "second" });
        // The first engine's score (+120 from its side) is in its moves' `'**` lines.
        let own = if row.black == "first" {
            "'** 120"
        } else {
            "'** -120"
        };
        assert!(text.contains(own), "{own} in\n{text}");
    }
    assert_eq!(rows[0].opening, rows[1].opening);
    assert_eq!(rows[2].opening, rows[3].opening);
    assert_ne!(
        rows[0].opening, rows[2].opening,
        "each pair its own opening"
    );
    assert_eq!(report.json["games"], 4);
}
