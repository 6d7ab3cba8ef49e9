//! Two `kifu link` processes playing over real TCP sockets on 127.0.0.1 (ephemeral ports),
//! one test per ending, the records read back with kifu's CSA reader.

use kifu_shogi::ShogiEnding;
use std::io::{Read as _, Write};
use std::net::TcpStream;
use std::path::Path;

use kifu_record::EndingKind;

#[path = "link_support.rs"]
mod support;
use support::*;

/// Plays `black_moves` against `white_moves` (record files for `moves:`), White listening;
/// returns both exit codes, logs and records.
fn game(
    dir: &Path,
    black_player: &str,
    white_player: &str,
    black_extra: &[&str],
    white_extra: &[&str],
    black_stdin: Option<&str>,
) -> Game {
    let white_record = dir.join("white.csa").to_string_lossy().into_owned();
    let black_record = dir.join("black.csa").to_string_lossy().into_owned();
    let mut args = vec![
        "--line",
        "tcp-listen:127.0.0.1:0",
        "--player",
        white_player,
        "--color",
        "white",
        "--record",
        &white_record,
    ];
    args.extend_from_slice(white_extra);
    let mut white = kifu("white", &args, None);
    let port = listening_port(&mut white);
    let line = format!("tcp:127.0.0.1:{port}");
    let mut args = vec![
        "--line",
        &line,
        "--player",
        black_player,
        "--color",
        "black",
        "--record",
        &black_record,
    ];
    args.extend_from_slice(black_extra);
    let black = kifu("black", &args, black_stdin);
    let (bs, blog) = black.finish();
    let (ws, wlog) = white.finish();
    (
        (
            bs.code().unwrap_or(-1),
            blog,
            read_record(Path::new(&black_record)),
        ),
        (
            ws.code().unwrap_or(-1),
            wlog,
            read_record(Path::new(&white_record)),
        ),
    )
}

fn moves_game(name: &str, record: &str) -> Game {
    let dir = workdir(name);
    let file = write(&dir, "game.csa", record);
    let player = format!("moves:{file}");
    game(&dir, &player, &player, &[], &[], None)
}

/// Both sides continue from the records they saved in `dir`, both played by `player`.
fn resumed_game(dir: &Path, player: &str) -> Game {
    let black_saved = dir.join("black.csa").to_string_lossy().into_owned();
    let white_saved = dir.join("white.csa").to_string_lossy().into_owned();
    game(
        dir,
        player,
        player,
        &["--resume", &black_saved],
        &["--resume", &white_saved],
        None,
    )
}

const OPENING: &str = "+7776FU\n-3334FU\n+2726FU\n-8384FU\n";

#[test]
fn resignation_over_tcp() {
    let ((bc, blog, b), (wc, wlog, w)) = moves_game(
        "resign",
        &format!("V2.2\nPI\n+\n{OPENING}+2625FU\n-4132KI\n%TORYO\n"),
    );
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert_same_game(&b, &w);
    assert_eq!(b.moves.len(), 6);
    assert_eq!(b.ending, Some(EndingKind::Resign));
    assert!(
        wlog.contains("game over: resignation — 後手 wins"),
        "{wlog}"
    );
    assert!(b.text.contains("$START_TIME:"), "{}", b.text);
}

#[test]
fn repetition_claimed_by_the_side_to_move() {
    let cycle = "+5948OU\n-5142OU\n+4859OU\n-4251OU\n";
    let ((bc, blog, b), (wc, wlog, w)) = moves_game(
        "sennichite",
        &format!("PI\n+\n{cycle}{cycle}{cycle}%SENNICHITE\n"),
    );
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert_same_game(&b, &w);
    assert_eq!(b.moves.len(), 12);
    assert_eq!(b.ending, Some(EndingKind::Repetition));
    assert!(
        wlog.contains("waiting for the opponent's %SENNICHITE"),
        "{wlog}"
    );
    assert!(blog.contains("> %SENNICHITE"), "{blog}");
}

/// Black's king on 5a with ten pieces in White's camp, `pawns` pawns in hand.
fn entered_king(pawns: usize) -> String {
    format!(
        "P1+GI+GI+KI+KI+OU+KI+KI+GI+GI\nP2 * +HI *  *  *  *  * +KA * \n\
         P3 *  *  *  *  *  *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \n\
         P6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \n\
         P9 *  *  *  * -OU *  *  *  * \nP+{}\n+\n",
        "00FU".repeat(pawns)
    )
}

#[test]
fn kachi_checked_with_the_27_point_rule() {
    let ((bc, blog, b), (wc, wlog, w)) =
        moves_game("kachi", &format!("{}%KACHI\n", entered_king(10)));
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert_same_game(&b, &w);
    assert_eq!(w.ending, Some(EndingKind::Game(ShogiEnding::DeclareWin)));
    assert!(
        wlog.contains("先手 wins") && wlog.contains("28 points"),
        "{wlog}"
    );
}

#[test]
fn hikiwake_declared_draw() {
    let ((bc, blog, b), (wc, wlog, w)) =
        moves_game("hikiwake", &format!("{}%HIKIWAKE\n", entered_king(9)));
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert_same_game(&b, &w);
    assert_eq!(w.ending, Some(EndingKind::Game(ShogiEnding::DeclareDraw)));
    assert!(wlog.contains("— draw"), "{wlog}");
}

#[test]
fn jishogi_draw() {
    let ((bc, blog, b), (wc, wlog, w)) =
        moves_game("jishogi", &format!("PI\n+\n{OPENING}%JISHOGI\n"));
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert_same_game(&b, &w);
    assert_eq!(b.ending, Some(EndingKind::Game(ShogiEnding::Impasse)));
}

#[test]
fn interruption_then_resume() {
    let dir = workdir("resume");
    let first = write(&dir, "first.csa", &format!("PI\n+\n{OPENING}%CHUDAN\n"));
    let player = format!("moves:{first}");
    let time = ["--time", "300+10"];
    let ((bc, blog, b), (wc, wlog, w)) = game(&dir, &player, &player, &time, &time, None);
    assert_eq!((bc, wc), (1, 1), "{blog}\n---\n{wlog}");
    assert_same_game(&b, &w);
    assert_eq!(b.moves.len(), 4);
    assert_eq!(b.ending, Some(EndingKind::Abort));
    assert!(wlog.contains("game interrupted"), "{wlog}");
    // Restart from the saved records; the game continues with its clocks.
    let used_before: u64 = b.times_ms.iter().sum();
    let rest = write(
        &dir,
        "rest.csa",
        &format!("PI\n+\n{OPENING}+2625FU\n-8485FU\n%TORYO\n"),
    );
    let player = format!("moves:{rest}");
    let ((bc, blog, b), (wc, wlog, w)) = resumed_game(&dir, &player);
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert_same_game(&b, &w);
    assert_eq!(b.moves.len(), 6);
    assert_eq!(b.ending, Some(EndingKind::Resign));
    assert_eq!(b.times_ms[..4].iter().sum::<u64>(), used_before);
    // The time control comes back from the records.
    assert!(b.text.contains("$TIME:300+10+0") && w.text.contains("$TIME:300+10+0"));
}

#[test]
fn a_record_player_stops_where_the_opponent_leaves_the_record() {
    let dir = workdir("diverge");
    let black = write(
        &dir,
        "black.csa",
        "PI\n+\n+7776FU\n-3334FU\n+6766FU\n-8384FU\n%TORYO\n",
    );
    let white = write(&dir, "white.csa", &format!("PI\n+\n{OPENING}%TORYO\n"));
    let ((bc, blog, b), (wc, wlog, w)) = game(
        &dir,
        &format!("moves:{black}"),
        &format!("moves:{white}"),
        &[],
        &[],
        None,
    );
    assert_eq!((bc, wc), (1, 1), "{blog}\n---\n{wlog}");
    assert!(
        wlog.contains(
            "the opponent left the record at ply 3: the record has +2726FU, the line brought +6766FU"
        ),
        "{wlog}"
    );
    assert!(wlog.contains("game interrupted"), "{wlog}");
    // White answered nothing after the divergence; both saved the same three plies.
    assert!(!wlog.contains("> -8384FU"), "{wlog}");
    assert_same_game(&b, &w);
    assert_eq!(b.moves, ["+7776FU", "-3334FU", "+6766FU"]);
    assert_eq!(b.ending, Some(EndingKind::Abort));
}

#[test]
fn take_back_from_the_human_side() {
    let dir = workdir("matta");
    let white_moves = write(
        &dir,
        "white-moves.csa",
        "PI\n+\n+2726FU\n-8384FU\n+7776FU\n-3334FU\n",
    );
    let player = format!("moves:{white_moves}");
    // The operator relays 2g2f and 7g7f (White, a record, answers both), takes the second
    // pair back on his turn, then resigns. White's record player still follows: the game
    // on the line is its record's again after the take-back.
    let ((bc, blog, b), (wc, wlog, w)) = game(
        &dir,
        "human",
        &player,
        &[],
        &["--opponent-relay"],
        Some("26歩\n7g7f\nmatta\ntoryo\n"),
    );
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert!(wlog.contains("> -3334FU"), "{wlog}");
    assert_same_game(&b, &w);
    assert_eq!(b.moves, ["+2726FU", "-8384FU"]);
    assert_eq!(b.ending, Some(EndingKind::Resign));
    assert!(blog.contains("> %MATTA"), "{blog}");
    assert!(wlog.contains("the opponent took back two plies"), "{wlog}");
}

#[test]
fn take_back_is_refused_between_programs() {
    let dir = workdir("matta-refused");
    let white_moves = write(&dir, "white-moves.csa", "PI\n+\n+2726FU\n-8384FU\n");
    let player = format!("moves:{white_moves}");
    // Without --opponent-relay White treats %MATTA as trouble: shown, then interruption.
    let ((_, blog, _), (wc, wlog, w)) =
        game(&dir, "human", &player, &[], &[], Some("2g2f\nmatta\n"));
    assert_eq!(wc, 1, "{blog}\n---\n{wlog}");
    assert!(wlog.contains("`%MATTA`"), "{wlog}");
    assert_eq!(w.ending, Some(EndingKind::Abort));
    assert_eq!(w.moves, ["+2726FU", "-8384FU"]);
}

/// A bare TCP peer written here plays the opponent, to send what kifu never would.
/// It sends `first`, waits for kifu's reply when `reply` is set, then sends `rest`.
fn against_raw_peer(name: &str, first: &[u8], reply: bool, rest: &[u8]) -> Outcome {
    let dir = workdir(name);
    let moves = write(&dir, "white-moves.csa", &format!("PI\n+\n{OPENING}"));
    let record = dir.join("white.csa.out").to_string_lossy().into_owned();
    let player = format!("moves:{moves}");
    let mut white = kifu(
        name,
        &[
            "--line",
            "tcp-listen:127.0.0.1:0",
            "--player",
            &player,
            "--color",
            "white",
            "--record",
            &record,
        ],
        None,
    );
    let port = listening_port(&mut white);
    let mut peer = TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
    // Whatever the peer sends may be cut short by kifu closing the line: that is fine.
    let _ = peer.write_all(first);
    if reply {
        let mut byte = [0u8];
        while peer.read(&mut byte).is_ok_and(|n| n == 1) && byte[0] != b'\n' {}
    }
    let _ = peer.write_all(rest);
    let _ = peer.shutdown(std::net::Shutdown::Write);
    let mut answer = Vec::new();
    let _ = peer.read_to_end(&mut answer);
    let (status, log) = white.finish();
    (
        status.code().unwrap_or(-1),
        log,
        read_record(Path::new(&record)),
    )
}

#[test]
fn an_illegal_move_is_shown_and_interrupts() {
    let (code, log, rec) = against_raw_peer("illegal", b"+7776FU\n", true, b"+3334FU\n");
    assert_eq!(code, 1, "{log}");
    assert!(log.contains("received `+3334FU`"), "{log}");
    assert_eq!(rec.moves, ["+7776FU", "-3334FU"]);
    let (code, log, rec) = against_raw_peer("illegal-2", b"+7776FU\n", true, b"+2255KA\n");
    assert_eq!(code, 1, "{log}");
    assert!(log.contains("received `+2255KA`: illegal move"), "{log}");
    assert_eq!(rec.ending, Some(EndingKind::Abort));
}

#[test]
fn garbage_and_a_megabyte_line_are_reported_not_fatal() {
    let (code, log, rec) = against_raw_peer("garbage", b"\xff\xfehello\n", false, b"");
    assert_eq!(code, 1, "{log}");
    assert!(log.contains("hello"), "{log}");
    assert_eq!(rec.ending, Some(EndingKind::Abort));
    let mut huge = vec![b'x'; 1 << 20];
    huge.push(b'\n');
    let (code, log, rec) = against_raw_peer("megabyte", &huge, false, b"");
    assert_eq!(code, 1, "{log}");
    assert!(log.contains("a line of 1048576 bytes"), "{log}");
    assert!(log.contains("record: "), "{log}");
    assert_eq!(rec.ending, Some(EndingKind::Abort));
}

#[test]
fn a_pulled_cable_saves_the_game() {
    let (code, log, rec) = against_raw_peer("eof", b"+7776FU\n", true, b"+26");
    assert_eq!(code, 1, "{log}");
    assert!(log.contains("closed") && log.contains("`+26`"), "{log}");
    assert_eq!(rec.moves, ["+7776FU", "-3334FU"]);
    assert_eq!(rec.ending, Some(EndingKind::Abort));
}

#[test]
fn a_dead_engine_is_reported() {
    let dir = workdir("dead-engine");
    let record = dir.join("r.csa").to_string_lossy().into_owned();
    let p = kifu(
        "dead",
        &[
            "--line",
            "tcp-listen:127.0.0.1:0",
            "--player",
            "usi:exit 3",
            "--record",
            &record,
        ],
        None,
    );
    let (status, log) = p.finish();
    assert_eq!(status.code(), Some(1), "{log}");
    assert!(log.contains("engine"), "{log}");
}

#[test]
fn the_side_ahead_retracts_to_the_common_position_on_resume() {
    let dir = workdir("retract");
    // Black sent its fifth move, but the line failed before White received it.
    let saved = "PI\n+\n+7776FU\nT3\n-3334FU\nT4\n+2726FU\nT5\n-8384FU\nT6\n";
    let black = write(
        &dir,
        "black-saved.csa",
        &format!("{saved}+2625FU\nT7\n%CHUDAN\n"),
    );
    let white = write(&dir, "white-saved.csa", &format!("{saved}%CHUDAN\n"));
    let rest = write(
        &dir,
        "rest.csa",
        &format!("PI\n+\n{OPENING}+6978KI\n-8485FU\n%TORYO\n"),
    );
    let player = format!("moves:{rest}");
    let ((bc, blog, b), (wc, wlog, w)) = game(
        &dir,
        &player,
        &player,
        &["--resume", &black, "--retract", "1"],
        &["--resume", &white],
        None,
    );
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert_same_game(&b, &w);
    assert_eq!(b.moves[4..], ["+6978KI", "-8485FU"]);
    // The retracted move's 7 seconds went back to Black's clock.
    assert_eq!(b.times_ms[..4], [3_000, 4_000, 5_000, 6_000]);
    assert!(b.times_ms[4] < 7_000);
}

#[test]
fn the_operator_interrupts_with_a_signal() {
    let dir = workdir("sigint");
    let moves = write(&dir, "white-moves.csa", &format!("PI\n+\n{OPENING}"));
    let record = dir.join("white.csa");
    let player = format!("moves:{moves}");
    let mut white = kifu(
        "sigint",
        &[
            "--line",
            "tcp-listen:127.0.0.1:0",
            "--player",
            &player,
            "--color",
            "white",
            "--record",
            record.to_str().unwrap(),
        ],
        None,
    );
    let port = listening_port(&mut white);
    let mut peer = TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
    peer.write_all(b"+7776FU\n").unwrap();
    white.wait_for("> -3334FU");
    let pid = white.child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let (status, log) = white.finish();
    assert_eq!(status.code(), Some(1), "{log}");
    assert!(log.contains("interrupted by the operator"), "{log}");
    let rec = read_record(&record);
    assert_eq!(rec.moves, ["+7776FU", "-3334FU"]);
    assert_eq!(rec.ending, Some(EndingKind::Abort));
    drop(peer);
}

#[test]
fn after_a_repetition_the_game_restarts_from_that_position() {
    let dir = workdir("sennichite-restart");
    let cycle = "+5948OU\n-5142OU\n+4859OU\n-4251OU\n";
    let first = write(&dir, "first.csa", &format!("PI\n+\n{cycle}{cycle}{cycle}"));
    let player = format!("moves:{first}");
    let ((bc, _, b), (wc, _, _)) = game(&dir, &player, &player, &[], &[], None);
    assert_eq!((bc, wc), (0, 0));
    assert_eq!(b.ending, Some(EndingKind::Repetition));
    let again = write(&dir, "again.csa", &format!("PI\n+\n{OPENING}%TORYO\n"));
    let player = format!("moves:{again}");
    let ((bc, blog, b), (wc, wlog, w)) = resumed_game(&dir, &player);
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert_same_game(&b, &w);
    // A new game from the repeated position: no repetition history, four new moves.
    assert_eq!(b.moves, ["+7776FU", "-3334FU", "+2726FU", "-8384FU"]);
    assert_eq!(b.ending, Some(EndingKind::Resign));
}

#[test]
fn the_operator_confirms_the_opponent_is_ready() {
    let dir = workdir("confirm");
    let file = write(&dir, "game.csa", &format!("PI\n+\n{OPENING}%TORYO\n"));
    let player = format!("moves:{file}");
    let ((bc, blog, b), (wc, wlog, _)) =
        game(&dir, &player, &player, &["--confirm"], &[], Some("\n"));
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert!(
        blog.contains("press Enter when the opponent is ready"),
        "{blog}"
    );
    assert_eq!(b.moves.len(), 4);
}

#[test]
fn bad_usage_exits_with_2() {
    for args in [
        &["--line", "usb", "--player", "human"][..],
        &["--line", "tcp:localhost", "--player", "human"],
        &["--line", "stdio", "--player", "robot"],
        &["--line", "stdio", "--player", "human", "--time", "ten"],
        &["--line", "serial:/dev/null,baud=fast", "--player", "human"],
    ] {
        let (status, log) = kifu("usage", args, None).finish();
        assert_eq!(status.code(), Some(2), "{args:?}: {log}");
        assert!(log.contains("invalid value"), "{log}");
    }
}

/// `tcp-listen:HOST:PORT` binds that address only, and the program says where it listens and
/// who can reach it; `tcp-listen:PORT` is every interface, and says so.
#[test]
fn the_listening_address_is_named_with_its_reach() {
    let dir = workdir("listen-address");
    let record = dir.join("game.csa").to_string_lossy().into_owned();
    let moves = "moves:examples/records/random-game.csa";
    let cases = [
        (
            "tcp-listen:127.0.0.1:0",
            "listening on 127.0.0.1:",
            "(this machine only)",
        ),
        ("tcp-listen:0", "listening on 0.0.0.0:", "(every interface"),
    ];
    for (line, address, reach) in cases {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"));
        cmd.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
            .args([
                "link", "--line", line, "--player", moves, "--record", &record,
            ])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null());
        let mut p = spawn(line, cmd, None);
        let said = p.wait_for("listening on ");
        let _ = p.child.kill();
        let _ = p.child.wait();
        assert!(
            said.contains(address) && said.contains(reach),
            "{line}: {said}"
        );
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["link", "--help"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("tcp-listen:[HOST:]PORT"));
}
