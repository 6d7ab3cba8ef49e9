//! The client's line handling: server lines and Game_Summary blocks, and the `go` times the
//! bridge would tell an engine from each summary's clocks. Nothing may panic.
#![no_main]

use kifu_csa::server_protocol::{Clock, ServerMessage, Step, SummaryReader};
use kifu_csa::usi::time::{TimePolicy, server_go_times};
use kifu_shogi::Color;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut reader = SummaryReader::new();
    for line in text.split('\n') {
        let msg = ServerMessage::parse(line);
        let _ = msg.to_string();
        if let Step::Done(s) = reader.push(line) {
            let _ = s.lines();
            // Unclamped on purpose: the clock itself must survive absurd Time fields.
            let mut clock = Clock::new(
                s.time.of(Color::Black).clone(),
                s.time.of(Color::White).clone(),
                false,
            );
            for color in [Color::Black, Color::White] {
                let _ = server_go_times(&clock, color, TimePolicy::margin(2500));
                let t = clock.charge(color, 1_000);
                clock.commit(color, t);
                let _ = clock.deadline_ms(color);
            }
        }
    }
});
