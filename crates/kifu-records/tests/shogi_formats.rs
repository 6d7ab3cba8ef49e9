//! Converting a corpus game from every shogi format to every other, and back.

mod support;

use kifu_records::shogi::csa::CsaVersion;
use kifu_records::shogi::{Format, ShogiRecord, read_bytes};
use support::compare::assert_same_game;

#[test]
fn every_format_to_every_format() {
    let bytes = kifu_testkit::corpus::bytes("shogi/bulk/kif/game_0007.kif");
    let (_, original) = read_bytes(&bytes, Format::Kif);
    assert!(original.diagnostics.is_empty());
    for from in Format::ALL {
        let (bytes, _) = from.encode(from.write(&original.records, CsaVersion::V30));
        let (_, there) = read_bytes(&bytes, from);
        assert!(
            there.diagnostics.is_empty(),
            "{from:?}: {:?}",
            there.diagnostics
        );
        for to in Format::ALL {
            let (bytes, _) = to.encode(to.write(&there.records, CsaVersion::V22));
            let (_, back) = read_bytes(&bytes, to);
            assert!(
                back.diagnostics.is_empty(),
                "{from:?}->{to:?}: {:?}",
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
            assert_eq!(moves(a), moves(b), "{from:?}->{to:?}");
            let times =
                |f: Format| matches!(f, Format::Csa | Format::Kif | Format::Kifu | Format::Jkf);
            if times(from) && times(to) {
                assert_same_game(a, b, false, &format!("{from:?}->{to:?}"));
            }
        }
    }
}
