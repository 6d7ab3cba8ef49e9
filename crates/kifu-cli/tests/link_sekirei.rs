//! Whole games between two `kifu link` processes, each driving the real USI engine
//! `sekirei` from crates.io (found or installed by kifu-testkit), over TCP on 127.0.0.1 and
//! over a socat pseudo-terminal pair opened as serial lines. Both records are read back with
//! kifu's CSA reader (which replays every move with the rules) and must agree.
//!
//! Keeping them fast: a tenth of a second a move (`--time 0+0.1`), one search thread and a
//! small hash (`--usi-option`). Sekirei never says `bestmove win`, and says `bestmove resign`
//! only without a legal move; kifu resigns for a mated side itself and claims a fourfold
//! repetition, so these games end for real: by mate or by 千日手.
//!
//! The cap: two engines could in principle shuffle for hundreds of plies. At `CAP` plies
//! the test interrupts both sides like an operator would (SIGINT, so `%CHUDAN` in the
//! records), and then checks the interrupted records instead. Typical games end by mate
//! well before it (90 to 230 plies, 7 to 15 s).

use kifu_shogi::ShogiEnding;
use std::path::Path;
use std::time::{Duration, Instant};

use kifu_record::EndingKind;
use kifu_shogi::{DeclarationRule, DeclarationVerdict, Repetition};

#[path = "link_support.rs"]
mod support;
use support::*;

/// About 25 s of play at this speed. In eighteen trial runs seventeen games ended by mate
/// between 86 and 225 plies; one was still going at 256 (where an earlier cap stopped it).
const CAP: usize = 400;

const ENGINE_OPTIONS: [&str; 6] = [
    "--usi-option",
    "Threads=1",
    "--usi-option",
    "Hash=16",
    "--time",
    "0+0.1",
];

fn sigint(p: &mut Proc) {
    if p.child.try_wait().unwrap().is_none() {
        let pid = p.child.id().to_string();
        let _ = std::process::Command::new("kill")
            .args(["-INT", &pid])
            .status();
    }
}

/// The ply number of a ply line (` 146 -4243FU  (後手 has used 11.1 s)`).
fn ply_of(line: &str) -> Option<usize> {
    let mut words = line.split_whitespace();
    let ply = words.next()?.parse().ok()?;
    words.next().filter(|m| m.starts_with(['+', '-']))?;
    Some(ply)
}

struct EngineGame {
    game: Game,
    capped: bool,
    wall: Duration,
}

fn sekirei_vs_sekirei(name: &str, serial: bool) -> EngineGame {
    let dir = workdir(name);
    let player = format!("usi:'{}'", kifu_testkit::sekirei().display());
    let (b_rec, w_rec) = (dir.join("black.csa"), dir.join("white.csa"));
    let mut socat = None;
    let (white_line, black_line) = if serial {
        let (s, a, b) = pty_pair();
        socat = Some(s);
        (format!("serial:{a}"), Some(format!("serial:{b}")))
    } else {
        ("tcp-listen:127.0.0.1:0".to_owned(), None)
    };
    let started = Instant::now();
    let side = |line: &str, color: &'static str, record: &Path| {
        let mut args = vec![
            "--line".to_owned(),
            line.to_owned(),
            "--player".to_owned(),
            player.clone(),
            "--color".to_owned(),
            color.to_owned(),
            "--record".to_owned(),
            record.to_string_lossy().into_owned(),
        ];
        args.extend(ENGINE_OPTIONS.iter().map(|s| s.to_string()));
        args
    };
    let args = side(&white_line, "white", &w_rec);
    let mut white = kifu(
        "white",
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        None,
    );
    let black_line = match black_line {
        // White must be reading before Black, to move first, sends (CSA 1998 communication protocol, (4)).
        Some(line) => {
            white.wait_for("playing");
            line
        }
        None => format!("tcp:127.0.0.1:{}", listening_port(&mut white)),
    };
    let args = side(&black_line, "black", &b_rec);
    let mut black = kifu(
        "black",
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        None,
    );

    let deadline = started + Duration::from_secs(150);
    let mut capped = false;
    while let Some(line) = black.next_line(deadline) {
        if line.starts_with("game over") || line.starts_with("game interrupted") {
            break;
        }
        // Stop on Black's turn, just after White's move arrived: normally no move is in
        // flight then (see `check` for when one is).
        if ply_of(&line).is_some_and(|ply| ply >= CAP && ply % 2 == 0) {
            capped = true;
            sigint(&mut black);
            break;
        }
    }
    let (bs, blog) = black.finish();
    if capped {
        sigint(&mut white);
    }
    let (ws, wlog) = white.finish();
    let wall = started.elapsed();
    if let Some(mut s) = socat {
        let _ = s.child.kill();
        let _ = s.child.wait();
    }
    let game = (
        (bs.code().unwrap_or(-1), blog, read_record(&b_rec)),
        (ws.code().unwrap_or(-1), wlog, read_record(&w_rec)),
    );
    eprintln!(
        "{name}: {} plies, {}, {:.1} s wall",
        game.0.2.moves.len(),
        if capped {
            "capped".to_owned()
        } else {
            format!("ended by {:?}", game.0.2.ending)
        },
        wall.as_secs_f64()
    );
    EngineGame { game, capped, wall }
}

fn check(g: EngineGame) {
    let ((bc, blog, b), (wc, wlog, w)) = g.game;
    let logs = format!("{blog}\n---\n{wlog}");
    // Each side names its own engine as USI's `id name` gave it.
    assert!(b.text.contains("N+Sekirei\n"), "{}", b.text);
    assert!(w.text.contains("N-Sekirei\n"), "{}", w.text);
    if g.capped {
        assert_eq!((bc, wc), (1, 1), "{logs}");
        assert!(blog.contains("interrupted by the operator"), "{logs}");
        assert_eq!(
            (b.ending.clone(), w.ending.clone()),
            (Some(EndingKind::Abort), Some(EndingKind::Abort))
        );
        // Black stopped on its own turn, so normally nothing was in flight; should an
        // instant reply have crossed the signal, one record holds one ply more.
        let (short, long) = if b.moves.len() <= w.moves.len() {
            (&b, &w)
        } else {
            (&w, &b)
        };
        assert!(short.moves.len() >= CAP, "{logs}");
        assert!(long.moves.len() - short.moves.len() <= 1, "{logs}");
        assert_eq!(short.moves[..], long.moves[..short.moves.len()], "{logs}");
        return;
    }
    assert_eq!((bc, wc), (0, 0), "{logs}");
    assert_same_game(&b, &w);
    assert!(b.moves.len() > 10, "{logs}");
    let pos = &b.position;
    match b.ending {
        // Only a side without a legal move resigns (kifu for it, or sekirei itself).
        Some(EndingKind::Resign) => {
            assert!(
                !pos.has_legal_moves(),
                "resigned with a legal move left\n{}",
                b.text
            );
            assert!(pos.is_check(), "mate, not stalemate\n{}", b.text);
            let winner = pos.turn().flip();
            assert!(wlog.contains(&format!("{winner} wins")), "{logs}");
            assert!(blog.contains(&format!("{winner} wins")), "{logs}");
        }
        Some(EndingKind::Repetition) => {
            assert_ne!(pos.repetition(), Repetition::None, "{}", b.text)
        }
        Some(EndingKind::Game(ShogiEnding::DeclareWin)) => {
            let (verdict, _) = pos.declaration(DeclarationRule::Points27).unwrap();
            assert_eq!(verdict, DeclarationVerdict::Win, "{}", b.text);
        }
        ref other => panic!("an engine game cannot end with {other:?}\n{logs}"),
    }
    assert!(g.wall < Duration::from_secs(120), "{:?}", g.wall);
}

#[test]
#[ignore = "needs sekirei: run scripts/setup-test-deps"]
fn sekirei_against_sekirei_over_tcp() {
    check(sekirei_vs_sekirei("sekirei-tcp", false));
}

#[test]
#[ignore = "needs sekirei and socat: run scripts/setup-test-deps"]
fn sekirei_against_sekirei_over_a_serial_line() {
    check(sekirei_vs_sekirei("sekirei-pty", true));
}
