//! Converting a corpus game from every shogi format to every other, and back.

mod support;

use kifu_record::RecordFormat;
use kifu_records::read_bytes;
use kifu_records::shogi::csa::{CsaFormat, CsaVersion};
use kifu_records::shogi::{FORMATS, ShogiRecord, Written, kif};
use kifu_shogi::Shogi;
use support::compare::assert_same_game;

/// What `format` writes, CSA as V2.2 (the table's CSA writes V3.0).
fn written_v22(format: &dyn RecordFormat<Shogi>, records: &[ShogiRecord]) -> Written {
    if format.name() == "csa" {
        CsaFormat::new(CsaVersion::V22).write(records)
    } else {
        format.write(records)
    }
}

#[test]
fn every_format_to_every_format() {
    let bytes = kifu_testkit::corpus::bytes("shogi/bulk/kif/game_0007.kif");
    let (_, original) = read_bytes(&bytes, &kif::KIF);
    assert!(original.diagnostics.is_empty());
    for &from in FORMATS {
        let (bytes, _) = from.write(&original.records).encode(from.encoding());
        let (_, there) = read_bytes(&bytes, from);
        assert!(
            there.diagnostics.is_empty(),
            "{}: {:?}",
            from.name(),
            there.diagnostics
        );
        for &to in FORMATS {
            let (bytes, _) = written_v22(to, &there.records).encode(to.encoding());
            let (_, back) = read_bytes(&bytes, to);
            assert!(
                back.diagnostics.is_empty(),
                "{}->{}: {:?}",
                from.name(),
                to.name(),
                back.diagnostics
            );
            // USI and KI2 keep only the moves; the others keep times as well.
            let a = &original.records[0];
            let b = &back.records[0];
            let moves = |r: &ShogiRecord| -> Vec<_> {
                r.moves
                    .main_line()
                    .filter_map(|id| r.moves[id].mv().copied())
                    .collect()
            };
            let pair = format!("{}->{}", from.name(), to.name());
            assert_eq!(moves(a), moves(b), "{pair}");
            let times = |f: &'static dyn RecordFormat<Shogi>| {
                matches!(f.name(), "csa" | "kif" | "kifu" | "jkf")
            };
            if times(from) && times(to) {
                assert_same_game(a, b, false, &pair);
            }
        }
    }
}
