//! A file of many records written in parts as they are read (`RecordFormat::write_part`, what
//! `kifu convert` does for an archive) is the file `write` makes of all of them: text and
//! warnings, for every format that writes in parts.

mod support;

use kifu_chu::Chu;
use kifu_record::{Game, Record, RecordFormat, Written};
use kifu_records::read_bytes;
use kifu_records::shogi::csa::{CsaFormat, CsaVersion};
use kifu_records::shogi::{csa, format_by_extension, usi_record};
use kifu_shogi::Shogi;
use support::corpus;

/// `records` written in parts of `size` records each, joined.
fn in_parts<G: Game>(format: &dyn RecordFormat<G>, records: &[Record<G>], size: usize) -> Written {
    let mut joined = Written::default();
    for (part, records) in records.chunks(size).enumerate() {
        joined.append(format.write_part(records, part * size));
    }
    joined
}

fn assert_parts_make_the_file<G: Game>(format: &dyn RecordFormat<G>, records: &[Record<G>]) {
    assert!(format.writes_in_parts(), "{}", format.name());
    let whole = format.write(records);
    for size in [1, 2, 7] {
        assert_eq!(
            in_parts(format, records, size),
            whole,
            "{}, parts of {size}",
            format.name()
        );
    }
}

/// Records that give every writer something to warn about: the bulk games have times, the
/// KIF suite has variations, comments and handicaps.
fn shogi_records() -> Vec<Record<Shogi>> {
    let mut records = Vec::new();
    let bulk = corpus::path("shogi/bulk/all_games.csa");
    let (_, parsed) = read_bytes(&std::fs::read(bulk).unwrap(), &csa::CSA);
    records.extend(parsed.records.into_iter().take(12));
    for path in corpus::files("shogi/jkf-suite/kif", "kif") {
        let (_, parsed) = read_bytes(
            &std::fs::read(&path).unwrap(),
            format_by_extension(&path).unwrap(),
        );
        records.extend(parsed.records);
    }
    records
}

#[test]
fn shogi_files_written_in_parts_are_the_whole_file() {
    let records = shogi_records();
    assert!(records.len() > 20);
    for format in [
        &csa::CSA as &dyn RecordFormat<Shogi>,
        &CsaFormat::new(CsaVersion::V22),
        &usi_record::USI,
    ] {
        assert_parts_make_the_file(format, &records);
        assert!(
            !format.write(&records).warnings.is_empty(),
            "{}: the records should give the writer something to warn about",
            format.name()
        );
    }
}

#[test]
fn chu_files_written_in_parts_are_the_whole_file() {
    let bytes = std::fs::read(corpus::path("chu/lishogi-games.ndjson")).unwrap();
    let (_, parsed) = read_bytes(&bytes, &kifu_records::chu::json::JSON);
    assert_eq!(parsed.records.len(), 10);
    for format in [
        &kifu_records::chu::json::JSON as &dyn RecordFormat<Chu>,
        &kifu_records::chu::usi::USI,
    ] {
        assert_parts_make_the_file(format, &parsed.records);
    }
}
