//! Position and move text: shogi SFEN, USI `position … moves …` lines, and chu moves in the
//! CSL and lishogi notations.

use kifu_chu::notation::{Dialect, parse_move, western};
use kifu_shogi::Position;
use kifu_shogi::usi::parse_position_command;

/// Every reader on the same text.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    sfen(text);
    usi(text);
    chu_move(text);
}

/// Any text given as SFEN either fails with a column inside the text (or just past it) or
/// gives a position whose SFEN reads back to the same position, with legal moves that all pass
/// `check_move` and can be played and taken back.
fn sfen(text: &str) {
    match Position::from_sfen(text) {
        Err(e) => assert!(e.column >= 1 && e.column <= text.chars().count() + 1, "{e}"),
        Ok(mut pos) => {
            let sfen = pos.to_sfen();
            assert_eq!(Position::from_sfen(&sfen).unwrap(), pos);
            let hash = pos.hash();
            for mv in pos.legal_moves().iter().copied() {
                assert_eq!(pos.check_move(mv), Ok(()));
                pos.play_unchecked(mv);
                pos.undo();
            }
            assert_eq!(pos.hash(), hash);
            assert_eq!(pos.to_sfen(), sfen);
            let _ = pos.repetition();
            let _ = pos.declaration(kifu_shogi::DeclarationRule::Points27);
        }
    }
}

/// `position … moves …`: errors point inside the line; an accepted game, written back as USI,
/// reads as the same moves to the same end position.
fn usi(text: &str) {
    match parse_position_command(text) {
        Err(e) => assert!(e.column >= 1 && e.column <= text.chars().count() + 1, "{e}"),
        Ok(cmd) => {
            let again = parse_position_command(&cmd.to_usi()).expect("our own output parses");
            assert_eq!(again.moves, cmd.moves);
            assert_eq!(again.end(), cmd.end());
        }
    }
}

/// The CSL / lishogi move reader never panics, and whatever it accepts is legal.
fn chu_move(text: &str) {
    let positions = [
        kifu_chu::Position::startpos(),
        kifu_chu::Position::from_sfen("k11/12/12/3g8/4p7/5N6/12/12/12/12/12/11K b - 1").unwrap(),
    ];
    for pos in &positions {
        for dialect in [
            Dialect::Csl,
            Dialect::LishogiEngine,
            Dialect::LishogiWestern,
        ] {
            if let Ok(p) = parse_move(pos, text, dialect, None) {
                assert!(pos.is_legal(p.mv), "accepted an illegal move {}", p.mv);
                let _ = western(pos, p.mv);
            }
        }
    }
}
