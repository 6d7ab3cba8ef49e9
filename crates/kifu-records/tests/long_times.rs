//! Times never overflow (issue 11, case 5): `T8640000` (100 days, in the whole seconds CSA
//! V2.2 asks for) is read, and cumulative times past 1193:02:47 (the u32-millisecond limit)
//! are written in full by KIF and JKF and read back.

use kifu_record::RecordFormat;
use kifu_records::read_bytes;
use kifu_records::shogi::csa::{self, CsaFormat, CsaVersion};
use kifu_records::shogi::{ShogiRecord, jkf, kif};
use kifu_shogi::Shogi;

const HUNDRED_DAYS_MS: u64 = 8_640_000 * 1000;

fn read(format: &'static dyn RecordFormat<Shogi>, text: &str) -> ShogiRecord {
    let (_, parsed) = read_bytes(text.as_bytes(), format);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    parsed.records.into_iter().next().unwrap()
}

fn times(record: &ShogiRecord) -> Vec<(Option<u64>, Option<u64>)> {
    record
        .moves
        .main_line()
        .map(|id| (record.moves[id].time_ms(), record.moves[id].total_ms()))
        .collect()
}

/// 先手 thinks 100 days on each of two moves: 200 days in all.
fn long_game() -> ShogiRecord {
    read(
        &csa::CSA,
        "V2.2\nPI\n+\n+7776FU\nT8640000\n-3334FU\nT1\n+2726FU\nT8640000\n%TORYO\n",
    )
}

#[test]
fn csa_whole_seconds_of_any_size_are_read() {
    let record = long_game();
    assert_eq!(times(&record)[0].0, Some(HUNDRED_DAYS_MS));
    let text = CsaFormat::new(CsaVersion::V22).write(&[record]).text;
    assert!(text.contains("+2726FU\nT8640000\n"), "{text}");
}

#[test]
fn kif_cumulative_times_do_not_saturate() {
    let record = long_game();
    let written = kif::KIFU.write(std::slice::from_ref(&record));
    assert!(
        written.text.contains("(144000:00/2400:00:00)"),
        "{}",
        written.text
    );
    assert!(
        written.text.contains("(144000:00/4800:00:00)"),
        "{}",
        written.text
    );
    let back = read(&kif::KIFU, &written.text);
    assert_eq!(
        times(&back)[2],
        (Some(HUNDRED_DAYS_MS), Some(2 * HUNDRED_DAYS_MS))
    );
}

#[test]
fn jkf_cumulative_times_do_not_saturate() {
    let record = long_game();
    let written = jkf::JKF.write(std::slice::from_ref(&record));
    let json: serde_json::Value = serde_json::from_str(&written.text).unwrap();
    assert_eq!(json["moves"][3]["time"]["total"]["h"], 4800);
    assert_eq!(json["moves"][3]["time"]["now"]["m"], 144_000);
    let back = read(&jkf::JKF, &written.text);
    assert_eq!(
        times(&back)[2],
        (Some(HUNDRED_DAYS_MS), Some(2 * HUNDRED_DAYS_MS))
    );
}
