//! The position writers behind `kifu show --bod/--csa/--sfen`: each output reads back as the
//! same position with kifu's own readers.

use kifu_records::shogi::{csa, kif};
use kifu_shogi::Position;

/// The moves of a short real opening (角換わり), 16 plies, ending with a capture and a
/// bishop in White's hand.
const OPENING: &str =
    "7g7f 8c8d 2g2f 8d8e 8h7g 3c3d 7i8h 4a3b 3i3h 2b7g+ 8h7g 3a2b 3h2g 7a7b 6i7h 6a6b";

/// The position after all of `moves` from the start, and the last move.
fn after(moves: &str) -> (Position, kifu_shogi::Move) {
    let mut pos = Position::startpos();
    let mut last = None;
    for usi in moves.split(' ') {
        let mv = pos.parse_usi_move(usi).unwrap();
        pos.play_unchecked(mv);
        last = Some(mv);
    }
    (pos, last.unwrap())
}

fn midgame_with_last_move() -> (Position, kifu_shogi::Move) {
    after(OPENING)
}

#[test]
fn bod_title_is_a_kif_move_with_its_origin_and_reads_back_with_the_ply() {
    let (pos, mv) = midgame_with_last_move();
    let bod = kif::write_bod(&pos, Some(mv));
    assert!(
        bod.ends_with("先手番\n手数＝16  △６二金(61)  まで\n"),
        "{bod}"
    );
    let parsed = kif::read(&bod);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let start = &parsed.records[0].start.position;
    assert_eq!(start.to_sfen(), pos.without_history().to_sfen());
    assert_eq!(
        start.move_number(),
        17,
        "the ply count of the title is kept"
    );
}

#[test]
fn bod_title_names_drops_and_promotions() {
    let (mut pos, _) = midgame_with_last_move();
    let drop = pos.parse_usi_move("B*5e").unwrap();
    pos.play_unchecked(drop);
    assert!(kif::write_bod(&pos, Some(drop)).ends_with("手数＝17  ▲５五角打  まで\n"));
    let mut pos = Position::from_sfen("4k4/9/9/9/9/9/9/1B7/4K4 b - 1").unwrap();
    let promote = pos.parse_usi_move("8h3c+").unwrap();
    pos.play_unchecked(promote);
    assert!(kif::write_bod(&pos, Some(promote)).ends_with("手数＝1  ▲３三角成(88)  まで\n"));
}

#[test]
fn bod_without_a_last_move_has_no_title_and_reads_back() {
    let pos = midgame_with_last_move().0.without_history();
    let sfen = pos.to_sfen();
    let bod = kif::write_bod(&pos, None);
    assert!(!bod.contains("手数"));
    let parsed = kif::read(&bod);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let back = &parsed.records[0].start.position;
    // Without a title the diagram is a start: move number 1.
    assert_eq!(
        back.to_sfen().rsplit_once(' ').unwrap().0,
        sfen.rsplit_once(' ').unwrap().0
    );
}

#[test]
fn csa_position_reads_back_as_a_record_start() {
    let pos = midgame_with_last_move().0.without_history();
    let text = csa::write_position(&pos);
    assert!(text.contains("P+00KA\n"), "{text}");
    assert!(text.contains("P-00KA\n"), "{text}");
    assert!(text.ends_with("\n+\n"));
    let parsed = csa::read(&format!("V2.2\n{text}"));
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    assert_eq!(
        parsed.records[0].start.position.to_sfen(),
        pos.to_sfen().replace(" 17", " 1")
    );
}

#[test]
fn sfen_round_trips() {
    let sfen = midgame_with_last_move().0.to_sfen();
    assert!(sfen.ends_with(" b Bb 17"), "{sfen}");
    assert_eq!(Position::from_sfen(&sfen).unwrap().to_sfen(), sfen);
}
