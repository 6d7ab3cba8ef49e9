//! USI engines on a TCP line: scripted engines that die mid-game, resign or declare a win,
//! and a person typing against the real engine `sekirei` (found or installed by
//! kifu-testkit). Whole engine-against-engine games are in link_sekirei.rs.

use kifu_record::EndingKind;
use kifu_shogi::ShogiEnding;

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
            "0+0.2",
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
            "0+0.2",
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

/// A shell-script engine that answers every `go` with `bestmove ANSWER`.
fn answering_engine(dir: &std::path::Path, answer: &str) -> String {
    let script = dir.join(format!("engine-{answer}.sh"));
    std::fs::write(
        &script,
        format!(
            "while read -r cmd rest; do case \"$cmd\" in \
             usi) echo 'id name answers-{answer}'; echo usiok;; isready) echo readyok;; \
             go) echo 'bestmove {answer}';; quit) exit 0;; esac; done\n"
        ),
    )
    .unwrap();
    format!("usi:sh {}", script.display())
}

/// Black's king on 5a with ten pieces in White's camp and `pawns` pawns in hand.
fn entered_king(pawns: usize) -> String {
    format!(
        "P1+GI+GI+KI+KI+OU+KI+KI+GI+GI\nP2 * +HI *  *  *  *  * +KA * \n\
         P3 *  *  *  *  *  *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \n\
         P6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \n\
         P9 *  *  *  * -OU *  *  *  * \nP+{}\n+\n",
        "00FU".repeat(pawns)
    )
}

/// Black's engine starts from the set-up `position` (a record resumed), White is a record
/// player with no moves; returns both outcomes.
fn engine_from(name: &str, answer: &str, position: &str) -> Game {
    let dir = workdir(name);
    let setup = write(&dir, "setup.csa", position);
    let black_saved = write(&dir, "black.csa", position);
    let (b_rec, w_rec) = (dir.join("black.csa"), dir.join("white.csa"));
    let white_player = format!("moves:{setup}");
    let mut white = kifu(
        "white",
        &[
            "--line",
            "tcp-listen:127.0.0.1:0",
            "--player",
            &white_player,
            "--color",
            "white",
            "--record",
            w_rec.to_str().unwrap(),
        ],
        None,
    );
    let line = format!("tcp:127.0.0.1:{}", listening_port(&mut white));
    let engine = answering_engine(&dir, answer);
    let black = kifu(
        "black",
        &[
            "--line",
            &line,
            "--player",
            &engine,
            "--color",
            "black",
            "--resume",
            &black_saved,
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
fn an_engines_bestmove_resign_is_sent_as_toryo() {
    let ((bc, blog, b), (wc, wlog, w)) = engine_from("engine-resign", "resign", "PI\n+\n");
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert!(blog.contains("> %TORYO"), "{blog}");
    assert_same_game(&b, &w);
    assert!(b.moves.is_empty());
    assert_eq!(w.ending, Some(EndingKind::Resign));
    assert!(wlog.contains("後手 wins"), "{wlog}");
}

#[test]
fn an_engines_bestmove_win_is_sent_as_kachi_and_judged() {
    let ((bc, blog, b), (wc, wlog, w)) = engine_from("engine-win", "win", &entered_king(10));
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert!(blog.contains("> %KACHI"), "{blog}");
    assert_same_game(&b, &w);
    assert_eq!(w.ending, Some(EndingKind::Game(ShogiEnding::DeclareWin)));
    assert!(
        wlog.contains("先手 wins") && wlog.contains("28 points"),
        "{wlog}"
    );
}

#[test]
fn an_engines_refused_win_interrupts_instead_of_looping() {
    // 27 points are needed; with one pawn fewer in hand the declaration fails.
    let ((bc, blog, b), (wc, wlog, w)) = engine_from("engine-win-refused", "win", &entered_king(0));
    assert_eq!(bc, 1, "{blog}");
    assert!(blog.contains("%KACHI refused"), "{blog}");
    assert!(
        blog.contains("again after the 27-point rule refused it"),
        "{blog}"
    );
    assert!(!blog.contains("> %KACHI"), "{blog}");
    assert_eq!(b.ending, Some(EndingKind::Abort));
    // White sees the line close and saves the game too.
    assert_eq!(wc, 1, "{wlog}");
    assert_eq!(w.moves, b.moves);
}

#[test]
#[ignore = "needs sekirei: run scripts/setup-test-deps"]
fn a_person_plays_sekirei_over_tcp() {
    let engine = format!("usi:'{}'", kifu_testkit::sekirei().display());
    let ((bc, blog, b), (wc, wlog, w)) = engine_game("sekirei-human", &engine, "3c3d\ntoryo\n");
    assert_eq!((bc, wc), (0, 0), "{blog}\n---\n{wlog}");
    assert_same_game(&b, &w);
    assert_eq!(b.moves.len(), 3);
    assert_eq!(b.moves[1], "-3334FU");
    assert_eq!(b.ending, Some(EndingKind::Resign));
    assert!(wlog.contains("先手 wins"), "{wlog}");
}
