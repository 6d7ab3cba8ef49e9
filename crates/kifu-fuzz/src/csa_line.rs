//! A CSA 1998 line: bytes from the other side, and what a person types at
//! `kifu link --player human`.

use kifu_csa::Message;
use kifu_csa::lines::{Line, LineFramer, MAX_LINE};
use kifu_csa::player::parse_input;
use kifu_csa::session::{Config, Decision, Event, Session};
use kifu_shogi::{Color, Position};

/// Both readings of the same bytes.
pub fn run(data: &[u8]) {
    line(data);
    if let Ok(text) = std::str::from_utf8(data) {
        human_input(text);
    }
}

/// Bytes from the line in chunks cut where the first four bytes say: framing, parsing and the
/// session never panic, every parsed message formats back to its line, and the sessions only
/// ever hold legal positions, the ones their moves replay to.
fn line(data: &[u8]) {
    let (cuts, bytes) = data.split_at(data.len().min(4));
    let mut framer = LineFramer::new();
    let mut lines = Vec::new();
    let mut rest = bytes;
    for &c in cuts {
        let (a, b) = rest.split_at((c as usize).min(rest.len()));
        framer.push(a, &mut lines);
        rest = b;
    }
    framer.push(rest, &mut lines);
    lines.extend(framer.finish());

    let mut sessions =
        [Color::Black, Color::White].map(|c| Session::new(Config::new(c), Position::startpos()));
    let mut out = Vec::new();
    for (i, line) in lines.into_iter().enumerate() {
        match &line {
            Line::Text(t) => {
                assert!(t.len() <= MAX_LINE && !t.contains(&b'\n'));
                if let Ok(m) = Message::parse_bytes(t) {
                    let text = std::str::from_utf8(t).unwrap();
                    assert_eq!(m.to_string(), text.strip_suffix('\r').unwrap_or(text));
                }
            }
            Line::TooLong { start, length } => {
                assert!(start.len() <= 32 && *length > MAX_LINE)
            }
        }
        for s in &mut sessions {
            s.handle(Event::Received(line.clone()), i as u64, &mut out);
            let replay = s.moves().try_fold(Position::startpos(), |mut p, (mv, _)| {
                p.play(mv).ok().map(|()| p)
            });
            assert_eq!(replay.as_ref(), Some(s.position()));
        }
        out.clear();
    }
}

/// Positions a person types in: the start, one after a capture (for `同`) with a piece in
/// hand, and two where promotions and drops are possible.
fn positions() -> Vec<Position> {
    let mut after = Position::startpos();
    for m in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
        let mv = after.parse_usi_move(m).unwrap();
        after.play_unchecked(mv);
    }
    vec![
        Position::startpos(),
        after,
        Position::from_sfen("4k4/9/9/2S6/9/4G4/3G5/9/3GKG3 b Sr2b 1").unwrap(),
        Position::from_sfen("3gkg3/9/4g4/9/9/9/6s2/9/4K4 w RS 1").unwrap(),
    ]
}

/// Any text typed in each position: parsing never panics, and a move it accepts is legal
/// where it was typed.
fn human_input(text: &str) {
    for pos in positions() {
        if let Ok(Decision::Move(mv)) = parse_input(&pos, text) {
            assert!(
                pos.check_move(mv).is_ok(),
                "{text:?} gave an illegal {mv:?}"
            );
        }
    }
}
