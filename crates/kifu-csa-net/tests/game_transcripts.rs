//! Every ending as the two players see it, line by line, from the sans-IO judge; and each
//! finished game's record read back with kifu's CSA reader.

use kifu_csa::server_protocol::{ClientMessage, GameSummary, PositionBlock};
use kifu_csa_net::game_name::GameName;
use kifu_csa_net::server::game::{Game, Outbox};
use kifu_csa_net::server::record::{Meta, to_csa};
use kifu_record::{EndingKind, NodeItem, Side};
use kifu_records::shogi::csa::{self, CsaVersion};
use kifu_shogi::ShogiEnding;
use kifu_shogi::{Color, Position};

const B: Color = Color::Black;
const W: Color = Color::White;

struct Table {
    game: Game,
    out: Outbox,
}

impl Table {
    fn new(name: &str, sfen: Option<&str>, max_moves: u32) -> Table {
        let g = GameName::parse(name).unwrap();
        let mut s = GameSummary::new("test+g+alice+bob+1", "alice", "bob", g.time_rule());
        if let Some(sfen) = sfen {
            s.position = PositionBlock::new(Position::from_sfen(sfen).unwrap());
            s.to_move = s.position.start.turn();
        }
        s.max_moves = max_moves;
        Table {
            game: Game::new(s, g.stopwatch, 0),
            out: Outbox::default(),
        }
    }

    fn send(&mut self, from: Color, line: &str, now_ms: u64) {
        self.game
            .handle(from, ClientMessage::parse(line), now_ms, &mut self.out);
    }

    /// Plays lines alternately, starting with the side to move, one second each.
    fn script(&mut self, lines: &[&str]) {
        let mut now = 0;
        for line in lines {
            now += 1000;
            let mover = self.game.position().turn();
            self.send(mover, line, now);
        }
    }

    fn heard(&mut self, color: Color) -> Vec<String> {
        self.out.take(color)
    }

    fn tail(&mut self, color: Color, n: usize) -> Vec<String> {
        let all = self.heard(color);
        all[all.len().saturating_sub(n)..].to_vec()
    }

    /// Plies and ending of the written record; both CSA editions must read back the same.
    fn record_ending(&self) -> (usize, EndingKind<ShogiEnding>) {
        let [v30, v22] = [CsaVersion::V30, CsaVersion::V22].map(|version| {
            let text = to_csa(&self.game, &Meta::default(), version);
            let parsed = csa::read(&text);
            assert!(!parsed.has_errors(), "{text}\n{:?}", parsed.diagnostics);
            let record = &parsed.records[0];
            let mut moves = 0;
            let mut ending = None;
            for id in record.moves.main_line() {
                match &record.moves[id].item {
                    NodeItem::Move(_) => moves += 1,
                    NodeItem::End(k) => ending = Some(k.clone()),
                    _ => {}
                }
            }
            (moves, ending)
        });
        // V2.2 has no %MAX_MOVES: the writer keeps that ending as a comment.
        let v22_ending = match &v30.1 {
            Some(EndingKind::MaxMoves) => None,
            other => other.clone(),
        };
        assert_eq!(
            v22,
            (v30.0, v22_ending),
            "the V2.2 record differs from V3.0"
        );
        (v30.0, v30.1.expect("the record has an ending"))
    }
}

#[test]
fn resign() {
    let mut t = Table::new("t-600-10", None, 0);
    t.send(B, "+7776FU", 3_500);
    t.send(W, "-3334FU,'* -25 +2726FU", 4_000);
    t.send(B, "%TORYO", 9_000);
    let expect_b = ["+7776FU,T3", "-3334FU,T0", "%TORYO", "#RESIGN", "#LOSE"];
    let expect_w = ["+7776FU,T3", "-3334FU,T0", "%TORYO", "#RESIGN", "#WIN"];
    assert_eq!(t.heard(B), expect_b);
    assert_eq!(t.heard(W), expect_w);
    assert_eq!(t.game.ending().unwrap().winner, Some(W));
    assert_eq!(t.record_ending(), (2, EndingKind::Resign));
    let text = to_csa(&t.game, &Meta::default(), CsaVersion::V30);
    assert!(text.contains("'** -25 +2726FU"), "{text}");
}

#[test]
fn time_up_by_the_timer_without_input() {
    let mut t = Table::new("t-0-10", None, 0);
    assert_eq!(t.game.deadline_ms(), Some(10_000));
    t.send(B, "+7776FU", 9_999);
    assert_eq!(t.game.deadline_ms(), Some(19_999));
    t.game.tick(19_998, &mut t.out);
    assert!(t.game.ending().is_none());
    t.game.tick(19_999, &mut t.out);
    assert_eq!(t.heard(B), ["+7776FU,T9", "#TIME_UP", "#WIN"]);
    assert_eq!(t.heard(W), ["+7776FU,T9", "#TIME_UP", "#LOSE"]);
    assert_eq!(t.record_ending(), (1, EndingKind::TimeLoss));
}

#[test]
fn time_up_on_a_late_move() {
    let mut t = Table::new("t-0-10", None, 0);
    t.send(B, "+7776FU", 10_000);
    assert_eq!(t.heard(B), ["#TIME_UP", "#LOSE"]);
    assert_eq!(t.heard(W), ["#TIME_UP", "#WIN"]);
}

#[test]
fn illegal_move() {
    let mut t = Table::new("t-600-10", None, 0);
    t.send(B, "+7775FU", 1_000);
    assert_eq!(t.heard(B), ["#ILLEGAL_MOVE", "#LOSE"]);
    assert_eq!(t.heard(W), ["#ILLEGAL_MOVE", "#WIN"]);
    assert_eq!(t.record_ending(), (0, EndingKind::IllegalMoveLoss));
    let text = to_csa(&t.game, &Meta::default(), CsaVersion::V30);
    assert!(text.contains("ILLEGAL_MOVE(+7775FU)"), "{text}");
}

#[test]
fn uchifuzume_chudan_and_bad_syntax_are_illegal() {
    let mut t = Table::new("t-600-10", Some("8k/9/8G/9/9/9/9/9/4K2R1 b P 1"), 0);
    t.send(B, "+0012FU", 1_000);
    assert_eq!(t.tail(W, 2), ["#ILLEGAL_MOVE", "#WIN"]);
    let note = &t.game.ending().unwrap().note;
    assert!(note.contains("+0012FU"), "{note}");
    for bad in ["%CHUDAN", "+7776FU'* 10", "+7776XX"] {
        let mut t = Table::new("t-600-10", None, 0);
        t.send(B, bad, 1_000);
        assert_eq!(t.heard(B), ["#ILLEGAL_MOVE", "#LOSE"], "{bad}");
    }
}

#[test]
fn sennichite() {
    let mut t = Table::new("t-600-10", None, 0);
    let cycle = ["+2838HI", "-8272HI", "+3828HI", "-7282HI"];
    t.script(&[cycle, cycle, cycle].concat());
    let tail = ["-7282HI,T1", "#SENNICHITE", "#DRAW"];
    assert_eq!(t.tail(B, 3), tail);
    assert_eq!(t.tail(W, 3), tail);
    assert_eq!(t.record_ending(), (12, EndingKind::Repetition));
}

#[test]
fn oute_sennichite_the_checking_side_loses() {
    let mut t = Table::new("t-600-10", Some("8k/R8/9/9/9/9/9/9/4K4 b - 1"), 0);
    let cycle = ["+9291HI", "-1112OU", "+9192HI", "-1211OU"];
    t.script(&[cycle, cycle, cycle].concat());
    assert_eq!(t.tail(B, 3), ["-1211OU,T1", "#OUTE_SENNICHITE", "#LOSE"]);
    assert_eq!(t.tail(W, 3), ["-1211OU,T1", "#OUTE_SENNICHITE", "#WIN"]);
    assert_eq!(
        t.record_ending(),
        (12, EndingKind::IllegalAction(Side::First))
    );
}

const KACHI_28: &str = "RBGG1GGBR/SS2K2SS/9/9/9/9/9/9/4k4 b - 1";

#[test]
fn kachi_won() {
    let mut t = Table::new("t-600-10", Some(KACHI_28), 0);
    t.send(B, "%KACHI", 2_000);
    assert_eq!(t.heard(B), ["%KACHI,T2", "%KACHI", "#JISHOGI", "#WIN"]);
    assert_eq!(t.heard(W), ["%KACHI,T2", "%KACHI", "#JISHOGI", "#LOSE"]);
    assert_eq!(
        t.record_ending(),
        (0, EndingKind::Game(ShogiEnding::DeclareWin))
    );
}

#[test]
fn kachi_failed_with_27_points_for_black() {
    let mut t = Table::new(
        "t-600-10",
        Some("RBGG1GGBR/SS2K2S1/9/9/9/9/9/9/4k4 b - 1"),
        0,
    );
    t.send(B, "%KACHI", 2_000);
    assert_eq!(
        t.heard(B),
        ["%KACHI,T2", "%KACHI", "#ILLEGAL_MOVE", "#LOSE"]
    );
    assert_eq!(t.heard(W), ["%KACHI,T2", "%KACHI", "#ILLEGAL_MOVE", "#WIN"]);
    let note = &t.game.ending().unwrap().note;
    assert!(note.contains("27 points"), "{note}");
    assert_eq!(t.record_ending(), (0, EndingKind::IllegalMoveLoss));
}

#[test]
fn max_moves_is_censored() {
    let mut t = Table::new("t-600-10", None, 4);
    t.script(&["+7776FU", "-3334FU", "+2726FU", "-8384FU"]);
    let tail = ["-8384FU,T1", "#MAX_MOVES", "#CENSORED"];
    assert_eq!(t.tail(B, 3), tail);
    assert_eq!(t.tail(W, 3), tail);
    assert_eq!(t.record_ending(), (4, EndingKind::MaxMoves));
}

#[test]
fn disconnect_of_the_mover_and_of_the_waiting_side() {
    let mut t = Table::new("t-600-10", None, 0);
    t.send(B, "+7776FU", 1_000);
    t.game.disconnect(W, 2_000, &mut t.out);
    assert_eq!(t.tail(B, 4), ["+7776FU,T1", "%TORYO", "#RESIGN", "#WIN"]);
    assert_eq!(t.record_ending(), (1, EndingKind::Resign));

    // The side not to move leaves: the game goes on until the mover's move.
    let mut t = Table::new("t-600-10", None, 0);
    t.game.disconnect(W, 500, &mut t.out);
    assert!(t.game.ending().is_none());
    t.send(B, "+7776FU", 1_000);
    assert_eq!(t.heard(B), ["+7776FU,T1", "%TORYO", "#RESIGN", "#WIN"]);
    assert_eq!(t.game.ending().unwrap().winner, Some(B));
}

#[test]
fn keep_alive_unknown_lines_queue_and_duplicates() {
    let mut t = Table::new("t-600-10", None, 0);
    t.send(W, "", 100);
    t.send(B, " ", 100);
    t.send(B, "HELLO", 200);
    assert_eq!(t.heard(W), [""]);
    assert_eq!(t.heard(B), ["##[ERROR] unknown command: HELLO"]);
    // White answers before its turn: queued and played at once after Black's move.
    t.send(W, "-3334FU", 500);
    t.send(B, "+7776FU", 1_200);
    assert_eq!(t.heard(W), ["+7776FU,T1", "-3334FU,T0"]);
    // Black sends its move twice (a double send): the copy is ignored, not queued.
    t.send(B, "+2726FU", 1_300);
    t.send(B, "+2726FU", 1_400);
    t.send(W, "-8384FU", 2_500);
    assert_eq!(
        t.heard(B),
        ["+7776FU,T1", "-3334FU,T0", "+2726FU,T0", "-8384FU,T1"]
    );
    assert!(t.game.ending().is_none());
}

#[test]
fn fischer_clock_runs_across_moves() {
    let mut t = Table::new("t-10-5F", None, 0);
    assert_eq!(t.game.deadline_ms(), Some(15_000));
    t.send(B, "+7776FU", 12_000);
    assert_eq!(t.game.clock().remaining(B), 3);
    // Black now has 3 + 5 seconds for its next move.
    t.send(W, "-3334FU", 12_000);
    assert_eq!(t.game.deadline_ms(), Some(20_000));
    t.game.tick(20_000, &mut t.out);
    assert_eq!(t.tail(W, 2), ["#TIME_UP", "#WIN"]);
}
