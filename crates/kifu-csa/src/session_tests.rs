//! Transcript tests: every sequence of the protocol, one side or two sides wired together.

use super::*;
use kifu_shogi::ShogiEnding;

/// One side with a clock that the test moves by hand.
struct Side {
    s: Session,
    now: u64,
}

impl Side {
    fn new(config: Config, sfen: Option<&str>) -> Side {
        let start = sfen.map_or_else(Position::startpos, |t| Position::from_sfen(t).unwrap());
        Side {
            s: Session::new(config, start),
            now: 0,
        }
    }
    fn black() -> Side {
        Side::new(Config::new(Color::Black), None)
    }
    fn white() -> Side {
        Side::new(Config::new(Color::White), None)
    }
    fn at(&mut self, now: u64) -> &mut Side {
        self.now = now;
        self
    }
    fn event(&mut self, e: Event) -> Vec<Action> {
        let mut out = Vec::new();
        self.s.handle(e, self.now, &mut out);
        out
    }
    fn ready(&mut self) -> Vec<Action> {
        self.event(Event::OpponentReady)
    }
    fn recv(&mut self, line: &str) -> Vec<Action> {
        self.event(Event::Received(Line::Text(line.as_bytes().to_vec())))
    }
    fn usi(&mut self, usi: &str) -> Vec<Action> {
        let mv = self.s.position().parse_usi_move(usi).unwrap();
        self.event(Event::Local(Decision::Move(mv)))
    }
    fn decide(&mut self, d: Decision) -> Vec<Action> {
        self.event(Event::Local(d))
    }
}

fn sent(actions: &[Action]) -> Vec<String> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Send(m) => Some(m.to_string()),
            _ => None,
        })
        .collect()
}

fn game_over(actions: &[Action]) -> Option<GameEnd> {
    actions.iter().find_map(|a| match a {
        Action::GameOver(e) => Some(e.clone()),
        _ => None,
    })
}

fn interrupted(actions: &[Action]) -> bool {
    actions.iter().any(|a| matches!(a, Action::Interrupted(_)))
        && actions.last() == Some(&Action::Save)
}

fn shown(actions: &[Action]) -> String {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Show(t) => Some(t.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Plays USI moves alternately between two wired sessions (Black first), passing every sent
/// line to the other side; returns the last side's actions.
fn duel(black: &mut Side, white: &mut Side, moves: &[&str]) -> Vec<Action> {
    let mut last = Vec::new();
    for mv in moves {
        let (mover, other) = if black.s.position().turn() == Color::Black {
            (&mut *black, &mut *white)
        } else {
            (&mut *white, &mut *black)
        };
        assert_eq!(mover.s.state(), &State::Thinking, "before {mv}");
        let out = mover.usi(mv);
        for line in sent(&out) {
            last = other.recv(&line);
        }
    }
    last
}

#[test]
fn the_start_black_thinks_and_white_receives() {
    let mut b = Side::black();
    let mut w = Side::white();
    assert_eq!(b.s.state(), &State::Setup);
    assert_eq!(b.ready(), vec![Action::Think]);
    assert_eq!(b.s.state(), &State::Thinking);
    assert_eq!(w.ready(), vec![]);
    assert_eq!(w.s.state(), &State::Receiving);
    // Local decisions before the start, or out of turn, are ignored.
    let mut idle = Side::white();
    assert_eq!(idle.decide(Decision::Resign), vec![]);
    // A handicap game: White moves first.
    let mut w = Side::new(
        Config::new(Color::White),
        Some("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL w - 1"),
    );
    assert_eq!(w.ready(), vec![Action::Think]);
}

#[test]
fn moves_go_out_and_come_in_with_their_times() {
    let mut b = Side::black();
    b.ready();
    let out = b.at(3_000).usi("7g7f");
    assert_eq!(
        out,
        vec![
            Action::Played {
                color: Color::Black,
                line: "+7776FU".into()
            },
            Action::Send(Message::parse("+7776FU").unwrap()),
            Action::Save
        ]
    );
    assert_eq!(b.s.state(), &State::Receiving);
    let out = b.at(10_000).recv("-3334FU\r");
    assert_eq!(
        out,
        vec![
            Action::Played {
                color: Color::White,
                line: "-3334FU".into()
            },
            Action::Save,
            Action::Think
        ]
    );
    let times: Vec<u64> = b.s.moves().map(|(_, t)| t).collect();
    assert_eq!(times, [3_000, 7_000]);
    assert_eq!(b.s.clocks().used_ms, [3_000, 7_000]);
}

#[test]
fn promotion_and_drops_cross_the_line() {
    let mut b = Side::black();
    let mut w = Side::white();
    b.ready();
    w.ready();
    duel(&mut b, &mut w, &["7g7f", "3c3d", "8h2b+"]);
    assert_eq!(
        w.s.position().moves_played().last().map(|m| m.usi()),
        Some("8h2b+".into())
    );
    let out = w.usi("3a2b");
    assert_eq!(sent(&out), ["-3122GI"]);
    b.recv("-3122GI");
    let out = b.usi("B*4e");
    assert_eq!(sent(&out), ["+0045KA"]);
    w.recv("+0045KA");
    assert_eq!(w.s.position(), b.s.position());
}

#[test]
fn resignation_either_way() {
    let mut b = Side::black();
    b.ready();
    let out = b.decide(Decision::Resign);
    assert_eq!(sent(&out), ["%TORYO"]);
    let end = game_over(&out).unwrap();
    assert_eq!(end.result, GameResult::Win(Color::White));
    assert_eq!((end.kind, end.by), (EndingKind::Resign, Color::Black));
    assert_eq!(out.last(), Some(&Action::Save));
    // Whatever comes later is shown and ignored.
    assert!(shown(&b.recv("-3334FU")).contains("ignored"));

    let mut w = Side::white();
    w.ready();
    let end = game_over(&w.recv("%TORYO")).unwrap();
    assert_eq!(end.result, GameResult::Win(Color::White));
    assert!(matches!(w.s.state(), State::Ended(_)));
}

#[test]
fn the_mating_side_waits_and_the_mated_side_resigns() {
    // Black mates with G*5b; White, a program with automatic endings, resigns on its turn.
    let sfen = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
    let mut b = Side::new(Config::new(Color::Black), Some(sfen));
    let mut w = Side::new(Config::new(Color::White), Some(sfen));
    b.ready();
    w.ready();
    let out = b.usi("G*5b");
    assert_eq!(
        b.s.state(),
        &State::Receiving,
        "the mating side keeps waiting"
    );
    let out = w.recv(&sent(&out)[0]);
    assert_eq!(sent(&out), ["%TORYO"]);
    let end = game_over(&b.recv("%TORYO")).unwrap();
    assert_eq!(end.result, GameResult::Win(Color::Black));
}

#[test]
fn take_back_by_a_relay_retracts_two_plies_and_refunds_time() {
    let mut relay_config = Config::new(Color::Black);
    relay_config.relay = true;
    let mut b = Side::new(relay_config, None);
    let mut w_config = Config::new(Color::White);
    w_config.peer_relay = true;
    let mut w = Side::new(w_config, None);
    b.ready();
    w.ready();
    b.at(1_000);
    w.at(1_000);
    duel(&mut b, &mut w, &["2g2f"]);
    b.at(5_000);
    w.at(5_000);
    duel(&mut b, &mut w, &["8c8d"]);
    assert_eq!(b.s.clocks().used_ms, [1_000, 4_000]);
    // The operator meant 7g7f: on his turn he takes back.
    b.at(6_000);
    let out = b.decide(Decision::TakeBack);
    assert_eq!(sent(&out), ["%MATTA"]);
    assert_eq!(out.last(), Some(&Action::Think));
    assert_eq!(b.s.position(), &Position::startpos());
    assert_eq!(b.s.clocks().used_ms, [0, 0]);
    w.at(6_000);
    let out = w.recv("%MATTA");
    assert!(shown(&out).contains("took back"));
    assert_eq!(w.s.state(), &State::Receiving);
    assert_eq!(w.s.position(), &Position::startpos());
    b.at(7_000);
    w.at(7_000);
    duel(&mut b, &mut w, &["7g7f"]);
    assert_eq!(w.s.clocks().used_ms, [1_000, 0]);
}

#[test]
fn take_back_is_refused_between_programs() {
    let mut b = Side::black();
    let mut w = Side::white();
    b.ready();
    w.ready();
    duel(&mut b, &mut w, &["2g2f", "8c8d"]);
    // A program may not send it ...
    let out = b.decide(Decision::TakeBack);
    assert_eq!(sent(&out), Vec::<String>::new());
    assert!(shown(&out).contains("refused"));
    assert_eq!(out.last(), Some(&Action::Think));
    // ... nor accept it: shown, then interruption.
    let out = w.recv("%MATTA");
    assert!(shown(&out).contains("`%MATTA`"));
    assert!(interrupted(&out));
    // A relay cannot take back before two plies exist.
    let mut cfg = Config::new(Color::Black);
    cfg.relay = true;
    let mut b = Side::new(cfg, None);
    b.ready();
    assert!(shown(&b.decide(Decision::TakeBack)).contains("fewer than two"));
}

#[test]
fn interruption_by_the_opponent_or_the_operator() {
    let mut w = Side::white();
    w.ready();
    let out = w.recv("%CHUDAN");
    assert!(interrupted(&out));
    assert!(matches!(w.s.state(), State::Interrupted(_)));
    assert_eq!(sent(&out), Vec::<String>::new());

    let mut b = Side::black();
    b.ready();
    b.usi("7g7f");
    let out = b.event(Event::OperatorInterrupt);
    assert!(interrupted(&out));
    assert_eq!(
        sent(&out),
        Vec::<String>::new(),
        "a program does not send %CHUDAN"
    );
    assert_eq!(
        b.s.position().moves_played().len(),
        1,
        "the position is kept"
    );

    // A relay tells its opponent.
    let mut cfg = Config::new(Color::White);
    cfg.relay = true;
    let mut r = Side::new(cfg, None);
    r.ready();
    assert_eq!(sent(&r.event(Event::OperatorInterrupt)), ["%CHUDAN"]);

    // A pulled cable.
    let mut b = Side::black();
    b.ready();
    let out = b.event(Event::Failure("the line was closed".into()));
    assert!(interrupted(&out));
}

const SHUFFLE: [&str; 4] = ["5i4h", "5a4b", "4h5i", "4b5a"];

#[test]
fn repetition_the_maker_waits_and_the_other_claims() {
    let mut b = Side::black();
    let mut w = Side::white();
    b.ready();
    w.ready();
    for _ in 0..2 {
        duel(&mut b, &mut w, &SHUFFLE);
    }
    duel(&mut b, &mut w, &SHUFFLE[..3]);
    // White's 4b5a brings the start position back a fourth time.
    let out = w.usi("4b5a");
    assert!(shown(&out).contains("waiting for the opponent's %SENNICHITE"));
    assert_eq!(w.s.state(), &State::Receiving);
    // Black, on its turn, claims by itself.
    let out = b.recv(&sent(&out)[0]);
    assert_eq!(sent(&out), ["%SENNICHITE"]);
    assert_eq!(game_over(&out).unwrap().result, GameResult::Draw);
    // White checks the claim and agrees.
    let end = game_over(&w.recv("%SENNICHITE")).unwrap();
    assert_eq!((end.kind, end.by), (EndingKind::Repetition, Color::Black));
    assert_eq!(end.result, GameResult::Draw);
}

#[test]
fn repetition_claims_are_checked() {
    let mut w = Side::white();
    w.ready();
    w.recv("+5948OU");
    let out = w.usi("5a4b");
    let _ = out;
    let out = w.recv("%SENNICHITE");
    assert!(shown(&out).contains("has not occurred four times"));
    assert!(interrupted(&out));
    // Locally a false claim is refused and the player asked again.
    let mut b = Side::black();
    b.ready();
    let out = b.decide(Decision::ClaimRepetition);
    assert_eq!(sent(&out), Vec::<String>::new());
    assert_eq!(out.last(), Some(&Action::Think));
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    let sfen = "8k/9/9/9/9/9/9/9/K6R1 b - 1";
    let mut b = Side::new(Config::new(Color::Black), Some(sfen));
    let mut w = Side::new(Config::new(Color::White), Some(sfen));
    b.ready();
    w.ready();
    for _ in 0..2 {
        duel(&mut b, &mut w, &["2i1i", "1a2a", "1i2i", "2a1a"]);
    }
    duel(&mut b, &mut w, &["2i1i", "1a2a", "1i2i"]);
    let out = w.usi("2a1a");
    // Black, to move in the repeated position, claims; the checker loses.
    let out = b.recv(&sent(&out)[0]);
    assert_eq!(sent(&out), ["%SENNICHITE"]);
    let end = game_over(&w.recv("%SENNICHITE")).unwrap();
    assert_eq!(end.result, GameResult::Win(Color::White));
}

#[test]
fn jishogi_is_a_draw() {
    let mut b = Side::black();
    b.ready();
    let out = b.decide(Decision::Impasse);
    assert_eq!(sent(&out), ["%JISHOGI"]);
    assert_eq!(game_over(&out).unwrap().result, GameResult::Draw);
    let mut w = Side::white();
    w.ready();
    let end = game_over(&w.recv("%JISHOGI")).unwrap();
    assert_eq!(
        (end.kind, end.result),
        (EndingKind::Game(ShogiEnding::Impasse), GameResult::Draw)
    );
}

// Black's king on 5a with ten pieces in the camp (18 points) and pawns in hand.
const KACHI_28: &str = "SSGGKGGSS/1R5B1/9/9/9/9/9/9/4k4 b 10P 1";
const KACHI_27: &str = "SSGGKGGSS/1R5B1/9/9/9/9/9/9/4k4 b 9P 1";

#[test]
fn kachi_is_judged_by_the_27_point_rule() {
    let mut b = Side::new(Config::new(Color::Black), Some(KACHI_28));
    b.ready();
    let out = b.decide(Decision::DeclareWin);
    assert_eq!(sent(&out), ["%KACHI"]);
    assert_eq!(
        game_over(&out).unwrap().result,
        GameResult::Win(Color::Black)
    );
    let mut w = Side::new(Config::new(Color::White), Some(KACHI_28));
    w.ready();
    let end = game_over(&w.recv("%KACHI")).unwrap();
    assert_eq!(end.result, GameResult::Win(Color::Black));
    assert!(end.reason.contains("28 points"), "{}", end.reason);

    // 27 points are not enough for Black: refused locally, lost when received.
    let mut b = Side::new(Config::new(Color::Black), Some(KACHI_27));
    b.ready();
    let out = b.decide(Decision::DeclareWin);
    assert_eq!(sent(&out), Vec::<String>::new());
    assert!(
        shown(&out).contains("27 points; 28 are needed"),
        "{}",
        shown(&out)
    );
    let mut w = Side::new(Config::new(Color::White), Some(KACHI_27));
    w.ready();
    let end = game_over(&w.recv("%KACHI")).unwrap();
    assert_eq!(end.result, GameResult::Win(Color::White));
    assert_eq!(end.kind, EndingKind::IllegalMoveLoss);
    // From the start position the king is nowhere near the camp.
    let mut w = Side::white();
    w.ready();
    let end = game_over(&w.recv("%KACHI")).unwrap();
    assert_eq!(end.result, GameResult::Win(Color::White));
}

#[test]
fn hikiwake_stands_only_with_the_king_in_the_camp() {
    let mut w = Side::new(Config::new(Color::White), Some(KACHI_27));
    w.ready();
    let end = game_over(&w.recv("%HIKIWAKE")).unwrap();
    assert_eq!(
        (end.kind, end.result),
        (EndingKind::Game(ShogiEnding::DeclareDraw), GameResult::Draw)
    );
    let mut b = Side::new(Config::new(Color::Black), Some(KACHI_27));
    b.ready();
    assert_eq!(sent(&b.decide(Decision::DeclareDraw)), ["%HIKIWAKE"]);
    let mut w = Side::white();
    w.ready();
    let out = w.recv("%HIKIWAKE");
    assert!(shown(&out).contains("the declaration fails"));
    assert!(interrupted(&out));
}

#[test]
fn illegal_moves_and_unknown_strings_are_shown_then_interrupt() {
    for (line, why) in [
        ("+7775FU", "illegal move"),
        ("+7776KA", "not KA"),
        ("-3334FU", "but the move is signed for"),
        ("HELLO", "not a move"),
        ("%TSUMI", "not a command"),
        ("", "empty"),
    ] {
        let mut w = Side::white();
        w.ready();
        let out = w.recv(line);
        let text = shown(&out);
        assert!(text.contains(&format!("`{line}`")), "{text}");
        assert!(text.contains(why), "{line}: {text}");
        assert!(interrupted(&out), "{line}");
    }
    let mut w = Side::white();
    w.ready();
    let out = w.event(Event::Received(Line::TooLong {
        start: b"xxxx".to_vec(),
        length: 1 << 20,
    }));
    assert!(shown(&out).contains("1048576 bytes"));
    assert!(interrupted(&out));
    // A move while it is our own turn.
    let mut b = Side::black();
    b.ready();
    let out = b.recv("-3334FU");
    assert!(shown(&out).contains("not the opponent's turn"));
    assert!(interrupted(&out));
}

#[test]
fn an_illegal_local_move_interrupts_rather_than_going_out() {
    let mut b = Side::black();
    b.ready();
    let mv = kifu_shogi::usi::parse_move("7g7e").unwrap();
    let out = b.decide(Decision::Move(mv));
    assert_eq!(sent(&out), Vec::<String>::new());
    assert!(interrupted(&out));
}

#[test]
fn a_clock_running_out_is_shown_once() {
    let mut cfg = Config::new(Color::Black);
    cfg.time = Some(TimeControl {
        initial_ms: 1_000,
        byoyomi_ms: 0,
        increment_ms: 0,
    });
    let mut b = Side::new(cfg, None);
    b.ready();
    assert_eq!(b.at(900).event(Event::Tick), vec![]);
    assert!(shown(&b.at(1_001).event(Event::Tick)).contains("used up its time"));
    assert_eq!(b.at(2_000).event(Event::Tick), vec![]);
}

#[test]
fn a_resumed_game_continues_from_its_position() {
    let moves: Vec<(Move, u64)> = ["7g7f", "3c3d"]
        .iter()
        .map(|m| (kifu_shogi::usi::parse_move(m).unwrap(), 2_000))
        .collect();
    let mut b = Session::resume(Config::new(Color::Black), Position::startpos(), &moves).unwrap();
    assert_eq!(b.clocks().used_ms, [2_000, 2_000]);
    let mut out = Vec::new();
    b.handle(Event::OpponentReady, 0, &mut out);
    assert_eq!(out, [Action::Think]);
    let mut w = Session::resume(Config::new(Color::White), Position::startpos(), &moves).unwrap();
    out.clear();
    w.handle(Event::OpponentReady, 0, &mut out);
    assert_eq!(w.state(), &State::Receiving);
    let bad = [(kifu_shogi::usi::parse_move("7g7e").unwrap(), 0)];
    assert_eq!(
        Session::resume(Config::new(Color::Black), Position::startpos(), &bad)
            .unwrap_err()
            .ply,
        1
    );
}
