//! The CSA server protocol: bytes a player sends to the server, and lines a server sends to
//! the client bridge.

use kifu_csa::lines::{Line, LineFramer};
use kifu_csa::server_protocol::{
    ClientMessage, Clock, GameSummary, ServerMessage, Step, SummaryReader,
};
use kifu_csa::usi::time::{TimePolicy, server_go_times};
use kifu_csa_net::game_name::{GameName, Request};
use kifu_csa_net::server::game::{Game, Outbox};
use kifu_shogi::Color;

/// Both sides on the same bytes.
pub fn run(data: &[u8]) {
    server(data);
    client(data);
}

/// The server's line handling: bytes framed into lines, parsed (as client messages, login
/// passwords and x1 commands), and judged by a game of the time rule the first byte picks,
/// with both players and the clock driven by the input. Nothing may panic, and the record of
/// whatever game it became can be written.
fn server(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let name =
        GameName::parse(["t-600-10", "t-0-1", "t-10-5F", "t-600-060"][first as usize % 4]).unwrap();
    let mut summary = GameSummary::new("fuzz", "a", "b", name.time_rule());
    summary.max_moves = u32::from(first % 64);
    // Judged as the server judges it: a stop-watch game's clock rounds to the unit its
    // summary does not announce as a byoyomi.
    let rule = name.clock_rule();
    let clock = Clock::new(rule.clone(), rule, name.stopwatch);
    let mut game = Game::with_clock(summary, clock, 0);
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
        let who = Color::ALL[(bytes.len() + i) % 2];
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
}

/// The client's line handling: server lines and Game_Summary blocks, and the `go` times the
/// bridge would tell an engine from each summary's clocks. Nothing may panic.
fn client(data: &[u8]) {
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
}
