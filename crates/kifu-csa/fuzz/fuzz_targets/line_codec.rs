//! Bytes from the line, in arbitrary chunks: framing, parsing and the session must never
//! panic, every parsed message must format back to its line, and the session must only
//! ever hold legal positions.
#![no_main]

use kifu_csa::lines::{Line, LineFramer, MAX_LINE};
use kifu_csa::session::{Config, Event, Session};
use kifu_csa::Message;
use kifu_shogi::{Color, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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

    let mut sessions = [Color::Black, Color::White]
        .map(|c| Session::new(Config::new(c), Position::startpos()));
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
            Line::TooLong { start, length } => assert!(start.len() <= 32 && *length > MAX_LINE),
        }
        for s in &mut sessions {
            s.handle(Event::Received(line.clone()), i as u64, &mut out);
            let replay = s
                .moves()
                .try_fold(Position::startpos(), |mut p, (mv, _)| {
                    p.play(mv).ok().map(|()| p)
                });
            assert_eq!(replay.as_ref(), Some(s.position()));
        }
        out.clear();
    }
});
