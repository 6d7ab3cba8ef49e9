//! The server's line handling: bytes framed into lines, parsed (as client messages, login
//! passwords and x1 commands), and judged by a game, with both players and the clock driven
//! by the input. Nothing may panic.
#![no_main]

use kifu_csa::lines::{Line, LineFramer};
use kifu_csa::server_protocol::{ClientMessage, GameSummary};
use kifu_csa_net::server::game::{Game, Outbox};
use kifu_csa_net::game_name::{GameName, Request};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let name = GameName::parse(["t-600-10", "t-0-1", "t-10-5F", "t-600-060"][first as usize % 4])
        .unwrap();
    let mut summary = GameSummary::new("fuzz", "a", "b", name.time_rule());
    summary.max_moves = u32::from(first % 64);
    let mut game = Game::new(summary, name.stopwatch, 0);
    let mut out = Outbox::default();
    let mut framer = LineFramer::with_limit(kifu_csa_net::server::MAX_LINE_BYTES);
    let mut lines = Vec::new();
    framer.push(rest, &mut lines);
    lines.extend(framer.finish());
    let mut now = 0u64;
    for (i, line) in lines.into_iter().enumerate() {
        let Line::Text(bytes) = line else { continue };
        let text = String::from_utf8_lossy(&bytes);
        let _ = Request::from_password(&text);
        let _ = kifu_csa_net::server::auth::secret(&text, i % 2 == 0);
        let _ = kifu_csa_net::server::x1::X1Command::parse(&text).reply();
        // As the server reads them: a comment may be EUC-JP or Shift_JIS.
        let msg = ClientMessage::parse_bytes(&bytes);
        let who = kifu_shogi::Color::ALL[(bytes.len() + i) % 2];
        now += u64::from(bytes.first().copied().unwrap_or(0)) * 37;
        if bytes.first() == Some(&b'!') {
            game.disconnect(who, now, &mut out);
        } else {
            game.handle(who, msg, now, &mut out);
        }
        game.tick(now, &mut out);
        let _ = game.deadline_ms();
    }
    let _ = kifu_csa_net::server::record::to_csa(
        &game,
        &Default::default(),
        kifu_records::shogi::csa::CsaVersion::V22,
    );
});
