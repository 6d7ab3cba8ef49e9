//! The client's line handling: server lines and Game_Summary blocks. Nothing may panic.
#![no_main]

use kifu_csa::server_protocol::{ServerMessage, Step, SummaryReader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut reader = SummaryReader::new();
    for line in text.split('\n') {
        let msg = ServerMessage::parse(line);
        let _ = msg.to_string();
        if let Step::Done(s) = reader.push(line) {
            let _ = s.lines();
        }
    }
});
