//! `RecordFormat::check` (what `kifu check` uses) and `main_lines` (what `kifu index` uses)
//! against `RecordFormat::records`: the same ply counts, main lines and diagnostics, whether a
//! format builds the records to get them or, like CSA, KIF and KI2, replays into a tally or a
//! main line and builds no move tree.

use kifu_record::{RecordCheck, RecordFormat, decode};
use kifu_records::shogi::{FORMATS, MainLine, csa, ki2, kif, main_lines};
use kifu_shogi::Shogi;
use kifu_testkit::corpus;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn same_as_records(format: &dyn RecordFormat<Shogi>, text: &str) {
    let checked: Vec<RecordCheck> = format.check(text).collect();
    let read: Vec<RecordCheck> = format.records(text).map(RecordCheck::from).collect();
    assert_eq!(checked, read, "{}: {text:?}", format.name());
    let fast: Vec<MainLine> = main_lines(format, text).collect();
    let built: Vec<MainLine> = format.records(text).map(MainLine::from_record).collect();
    assert_eq!(fast, built, "{}: {text:?}", format.name());
}

#[test]
fn every_corpus_record_checks_as_it_reads_in_every_format() {
    let mut files = 0;
    for folder in [
        "shogi/bulk/csa",
        "shogi/converter-suite/csa",
        "shogi/csa-versions",
        "shogi/jkf-suite/csa",
    ] {
        for path in corpus::files(folder, "csa") {
            let bytes = std::fs::read(&path).unwrap();
            let text = decode(&bytes, csa::CSA.encoding()).text;
            same_as_records(&csa::CSA, &text);
            files += 1;
        }
    }
    assert!(files > 500, "{files}");
    let archive = corpus::text("shogi/bulk/all_games.csa");
    same_as_records(&csa::CSA, &archive);
    // KIF, KIFU and KI2 replay into a tally as CSA does, or read the record when the text
    // has variations.
    let mut kif_files = 0;
    for (folder, ext, format) in [
        (
            "shogi/bulk/kif",
            "kif",
            &kif::KIF as &dyn RecordFormat<Shogi>,
        ),
        ("shogi/bulk/kifu", "kifu", &kif::KIFU),
        ("shogi/converter-suite/kif", "kif", &kif::KIF),
        ("shogi/converter-suite/kif", "kifu", &kif::KIFU),
        ("shogi/converter-suite/ki2", "ki2", &ki2::KI2),
        ("shogi/jkf-suite/kif", "kif", &kif::KIF),
        ("shogi/jkf-suite/kif", "kifu", &kif::KIFU),
        ("shogi/jkf-suite/ki2", "ki2", &ki2::KI2),
    ] {
        for path in corpus::files(folder, ext) {
            let bytes = std::fs::read(&path).unwrap();
            let text = decode(&bytes, format.encoding()).text;
            same_as_records(format, &text);
            kif_files += 1;
        }
    }
    assert!(kif_files > 1_000, "{kif_files}");
    // Every format agrees on a few KIF files, whatever it makes of them.
    let kif = corpus::files("shogi/jkf-suite/kif", "kif");
    for format in FORMATS {
        for path in kif.iter().take(3) {
            let bytes = std::fs::read(path).unwrap();
            let text = decode(&bytes, format.encoding()).text;
            same_as_records(*format, &text);
        }
    }
}

/// Texts that go down every path of the CSA reader and its replay: illegal moves held back
/// and excused or reported, moves after the end, unknown endings, times in the wrong place,
/// records without a `/`, text holding no game.
const CSA_CASES: &[&str] = &[
    "",
    "'only a comment\n",
    "V2.2\nPI\n+\n+7776FU\nT3\n-3334FU\nT4\n%TORYO\n",
    "V2.2\nPI\n+\n+7776FU\n+3334FU\n",
    "V2.2\nPI\n+\n+7776FU\n-5554FU\n-3334FU\n+2726FU\n",
    "V2.2\nPI\n+\n+7776FU\n-5554FU\n%ILLEGAL_MOVE\n",
    "V2.2\nPI\n+\n+7776FU\n-5554FU\nT5\n'why\n%+ILLEGAL_ACTION\n",
    "V2.2\nPI\n+\n+7776FU\nT1\nT2\n-3334FU\n",
    "V2.2\nT1\nPI\n+\n+7776FU\n",
    "V2.2\nPI\n+\n+7776FU\n%TORYO\n-3334FU\n+2726FU\n",
    "V2.2\nPI\n+\n+7776FU\n%FOO\n-3334FU\n",
    "V2.2\nPI\n+\n+7776FU\n%FOO\nT3\n'kept\n",
    "V2.2\nPI\n+\n+7776FU\n%TSUMI\n%TORYO\n",
    "V2.2\nPI\n+\n+7776FU\n/\n'between\n/\nPI\n+\n+2726FU\n",
    "V2.2\nPI\n+\n+7776FU\nV2.2\nPI\n+\n+2726FU\n",
    "PI\n-\n-3334FU\n",
    "+7776FU\n-3334FU\n",
    "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n+7776FU\n",
    "V2.2\nN+a\nN-b\n$EVENT:e\n",
    "V2.2\nPI\n+\n+7776FU,T1,'c\n-3334FU,T2\n+8822UM\n-3122GI\n+0055KA\n",
    "V2.2\nPI\n+\n+7776XX\n-3334FU\n",
    "V2.2\nPI\n+\n+5958OU\n-5152OU\n+5859OU\n-5251OU\n+5958OU\n-5152OU\n+5859OU\n-5251OU\n+5958OU\n-5152OU\n+5859OU\n-5251OU\n+5958OU\n-5152OU\n+5859OU\n-5251OU\n+5958OU\n%SENNICHITE\n",
    "V2.2\nPI\n+\n+7776FU\n%KACHI\n",
    "V2.2\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0045KA\n%TSUMI\n",
];

#[test]
fn crafted_csa_texts_check_as_they_read() {
    for text in CSA_CASES {
        same_as_records(&csa::CSA, text);
    }
}

#[test]
fn damaged_games_check_as_they_read() {
    // Each bulk game damaged at random: a line dropped, doubled, swapped with another or
    // cut short, which makes illegal moves, moves of the wrong side, stray times and lost
    // endings in every mix.
    let mut rng = StdRng::seed_from_u64(14);
    for path in corpus::files("shogi/bulk/csa", "csa").iter().take(200) {
        let text = std::fs::read_to_string(path).unwrap();
        for _ in 0..5 {
            let mut lines: Vec<&str> = text.lines().collect();
            for _ in 0..rng.random_range(1..4) {
                let i = rng.random_range(0..lines.len());
                match rng.random_range(0..4) {
                    0 => {
                        lines.remove(i);
                    }
                    1 => lines.insert(i, lines[i]),
                    2 => {
                        let j = rng.random_range(0..lines.len());
                        lines.swap(i, j);
                    }
                    _ => {
                        let cut = rng.random_range(0..=lines[i].len());
                        lines[i] = lines[i].get(..cut).unwrap_or(lines[i]);
                    }
                }
                if lines.is_empty() {
                    break;
                }
            }
            same_as_records(&csa::CSA, &lines.join("\n"));
        }
    }
}

/// The same text with a blank after every move, time, side-to-move, version and position
/// line: the reader's fast ways for a move or a time alone on its line and for the header's
/// lines refuse such a line, so every statement of it goes through the general statement
/// parser and the replay's general entry, while lines, columns and the text of every
/// statement stay where they were. (Names, game information and comments keep their blanks,
/// so they cannot be sent the general way like this: a unit test of `header_line` holds the
/// two ways together for them.)
fn through_the_general_path(text: &str) -> String {
    text.split('\n')
        .map(|line| match line.as_bytes().first() {
            // A comment after a `,` runs to the end of its line: a blank would join it.
            Some(b'+' | b'-' | b'T' | b'V' | b'P') if !line.contains('\'') => format!("{line} "),
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Diagnostics as a user reads them: line, column, message and the text they point at. A
/// span joined over several lines (the moves left out after an illegal one) quotes its first
/// line whole, which in the general path's text ends in the added blank: that blank is not
/// the reader's doing and is taken out.
fn rendered(text: &str, diagnostics: &[kifu_record::Diagnostic]) -> Vec<String> {
    let source = kifu_record::SourceText::new("t.csa", text);
    diagnostics
        .iter()
        .map(|d| source.render(d).replace(" `)", "`)"))
        .collect()
}

/// What `check` gives (plies and diagnostics per record) and what `records` gives (the
/// diagnostics per record, the records written back as CSA), in terms that do not depend on
/// byte offsets.
type Readings = (Vec<(usize, Vec<String>)>, Vec<Vec<String>>, String);

fn readings(text: &str) -> Readings {
    let checked = csa::CSA
        .check(text)
        .map(|c| (c.plies, rendered(text, &c.diagnostics)))
        .collect();
    let (mut records, mut diagnostics) = (Vec::new(), Vec::new());
    for read in csa::CSA.records(text) {
        diagnostics.push(rendered(text, &read.diagnostics));
        records.push(read.record);
    }
    (checked, diagnostics, csa::CSA.write(&records).text)
}

fn fast_path_reads_as_the_general_path(text: &str) {
    let general = through_the_general_path(text);
    assert_eq!(readings(text), readings(&general), "{text:?}");
}

#[test]
fn move_and_time_lines_read_the_same_by_the_fast_and_the_general_path() {
    for text in CSA_CASES {
        fast_path_reads_as_the_general_path(text);
    }
    let mut rng = StdRng::seed_from_u64(36);
    for path in corpus::files("shogi/bulk/csa", "csa").iter().take(100) {
        let text = std::fs::read_to_string(path).unwrap();
        fast_path_reads_as_the_general_path(&text);
        // Damaged as above: stray and doubled times, moves that do not fit, lost endings.
        for _ in 0..3 {
            let mut lines: Vec<&str> = text.lines().collect();
            for _ in 0..rng.random_range(1..4) {
                let i = rng.random_range(0..lines.len());
                match rng.random_range(0..3) {
                    0 => {
                        lines.remove(i);
                    }
                    1 => lines.insert(i, lines[i]),
                    _ => {
                        let j = rng.random_range(0..lines.len());
                        lines.swap(i, j);
                    }
                }
            }
            fast_path_reads_as_the_general_path(&lines.join("\n"));
        }
    }
}

/// What a text says, whatever its line ends: each record's plies and diagnostics (kind,
/// severity, message; not the byte offsets, which a `\r` before each `\n` moves), and the
/// records written back as CSA.
type Said = (Vec<(usize, Vec<String>)>, String);

fn said(text: &str) -> Said {
    let checked = csa::CSA
        .check(text)
        .map(|c| {
            let diagnostics = c
                .diagnostics
                .iter()
                .map(|d| format!("{:?} {:?} {}", d.severity, d.kind, d.message))
                .collect();
            (c.plies, diagnostics)
        })
        .collect();
    let records: Vec<_> = csa::CSA.records(text).map(|read| read.record).collect();
    (checked, csa::CSA.write(&records).text)
}

#[test]
fn crlf_texts_read_as_their_lf_twins() {
    // The fast way takes a move line and a time line ending in `\r\n` as it takes one ending
    // in `\n` (and the general path strips the `\r`): the records and what is said of them
    // are the same. No corpus CSA file has `\r\n` line ends, so they are made here, of the
    // crafted texts, bulk games and the same games damaged.
    let mut texts: Vec<String> = CSA_CASES.iter().map(|text| text.to_string()).collect();
    let mut rng = StdRng::seed_from_u64(3613);
    for path in corpus::files("shogi/bulk/csa", "csa").iter().take(60) {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        for _ in 0..rng.random_range(1..4) {
            let i = rng.random_range(0..lines.len());
            let j = rng.random_range(0..lines.len());
            lines.swap(i, j);
        }
        texts.push(lines.join("\n"));
        texts.push(text);
    }
    for text in &texts {
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(said(text), said(&crlf), "{text:?}");
    }
}
