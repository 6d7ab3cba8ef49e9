//! USI engines on a TCP line: a scripted engine that dies mid-game, and the real engine
//! `sekirei` from crates.io when it is installed (`cargo install sekirei --locked`).

use std::process::Command;

use kifu_record::EndingKind;

#[path = "link_support.rs"]
mod support;
use support::*;

/// Black's engine on `black_player`, White typed by a person (`white_input` on its stdin).
fn engine_game(name: &str, black_player: &str, white_input: &str) -> Game {
    let dir = workdir(name);
    let (b_rec, w_rec) = (dir.join("black.csa"), dir.join("white.csa"));
    let mut white = kifu(
        "white",
        &[
            "--line",
            "tcp-listen:127.0.0.1:0",
            "--player",
            "human",
            "--color",
            "white",
            "--time",
            "60+1",
            "--record",
            w_rec.to_str().unwrap(),
        ],
        Some(white_input),
    );
    let port = listening_port(&mut white);
    let line = format!("tcp:127.0.0.1:{port}");
    let black = kifu(
        "black",
        &[
            "--line",
            &line,
            "--player",
            black_player,
            "--color",
            "black",
            "--time",
            "60+1",
            "--record",
            b_rec.to_str().unwrap(),
        ],
        None,
    );
    let (bs, blog) = black.finish();
    let (ws, wlog) = white.finish();
    (
        (bs.code().unwrap_or(-1), blog, read_record(&b_rec)),
        (ws.code().unwrap_or(-1), wlog, read_record(&w_rec)),
    )
}

#[test]
fn an_engine_dying_mid_game_is_reported_and_the_game_saved() {
    let dir = workdir("dying-engine-script");
    let script = dir.join("engine.sh");
    let flag = dir.join("moved");
    let _ = std::fs::remove_file(&flag);
    std::fs::write(
        &script,
        format!(
            "while read -r cmd rest; do case \"$cmd\" in \
             usi) echo 'id name dying'; echo usiok;; isready) echo readyok;; \
             go) if [ -e '{0}' ]; then exit 7; fi; touch '{0}'; echo 'bestmove 7g7f';; \
             quit) exit 0;; esac; done\n",
            flag.display()
        ),
    )
    .unwrap();
    let player = format!("usi:sh {}", script.display());
    let ((bc, blog, b), (wc, wlog, w)) = engine_game("dying-engine", &player, "3c3d\n8c8d\n");
    assert_eq!(bc, 1, "{blog}");
    assert!(blog.contains("the engine quit"), "{blog}");
    assert_eq!(b.moves, ["+7776FU", "-3334FU"]);
    assert_eq!(b.ending, Some(EndingKind::Abort));
    assert!(b.text.contains("N+dying"), "{}", b.text);
    // White sees the line close while waiting, and saves too.
    assert_eq!(wc, 1, "{wlog}");
    assert_eq!(w.moves, b.moves);
}

#[test]
fn sekirei_plays_over_tcp() {
    if Command::new("sekirei").arg("--help").output().is_err() {
        eprintln!(
            "SKIPPED sekirei_plays_over_tcp: the `sekirei` engine is not installed (cargo install sekirei --locked)"
        );
        return;
    }
    let ((bc, blog, b), (wc, wlog, w)) = engine_game("sekirei", "usi:sekirei", "toryo\n");
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert_same_game(&b, &w);
    assert_eq!(b.moves.len(), 1);
    assert_eq!(b.ending, Some(EndingKind::Resign));
    assert!(wlog.contains("先手 wins"), "{wlog}");
}
