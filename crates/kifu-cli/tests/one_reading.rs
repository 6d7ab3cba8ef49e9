//! Every command reads a file the same way (issue 27): `--ply`, `--record` and `--rules` mean
//! the same in `kifu show`, `kifu render` and `kifu html`, because all of them read through the
//! one driver table. For cetkaik, `--ply` counts the moves of the whole match (its seasons
//! together), the unit commands count a cetkaik file as.

mod support;

use support::*;

const CASE1: &str = "cetkaik/cerke_online/case1_2022-05-31.ckka";

fn path() -> String {
    corpus(CASE1).display().to_string()
}

#[test]
fn a_cetkaik_ply_is_the_same_position_in_show_and_render() {
    // The match has 59 moves over its seasons (62 plies with the 再行/終季 declarations, which
    // `--ply` does not count); its first season has 21.
    let shown = kifu(&["show", &path(), "--ply", "30"]);
    assert_eq!(shown.status.code(), Some(0), "{}", text(&shown.stderr));
    assert!(text(&shown.stdout).starts_with("after 30 moves\n"));

    let svg = kifu(&["show", &path(), "--ply", "30", "--svg"]);
    assert_eq!(svg.status.code(), Some(0), "{}", text(&svg.stderr));
    let rendered = kifu(&["render", &path(), "--ply", "30", "-o", "-"]);
    assert_eq!(
        rendered.status.code(),
        Some(0),
        "{}",
        text(&rendered.stderr)
    );
    assert!(text(&rendered.stdout).starts_with("<svg"));
    assert_eq!(
        svg.stdout, rendered.stdout,
        "show --svg and render draw one position"
    );

    // Ply 30 is in a later season: not the picture of ply 21 (the first season's end) nor of
    // the last position, which `--ply 59` and the default both are.
    let at = |ply: &str| kifu(&["render", &path(), "--ply", ply, "-o", "-"]).stdout;
    assert_ne!(at("30"), at("21"));
    assert_ne!(at("30"), at("59"));
    assert_eq!(at("59"), kifu(&["render", &path(), "-o", "-"]).stdout);

    // One count of moves: past it is the same usage error in both commands.
    for command in ["show", "render"] {
        let out = kifu(
            &[command, &path(), "--ply", "60", "-o", "-"][..if command == "show" { 4 } else { 6 }],
        );
        assert_eq!(
            out.status.code(),
            Some(2),
            "{command}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains("give 0 to 59"),
            "{command}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn rules_mean_the_same_in_show_render_and_html() {
    // Under 硬皇力 the match is invalid (its later seasons break it: see
    // cetkaik_match_cli.rs); every command says so and draws nothing.
    let dir = tempfile::tempdir().unwrap();
    let shown = kifu(&["show", &path(), "--rules", "硬皇力"]);
    assert_eq!(shown.status.code(), Some(1), "{}", text(&shown.stderr));
    assert!(shown.stdout.is_empty());
    let picture = dir.path().join("p.svg");
    let rendered = kifu(&[
        "render",
        &path(),
        "--rules",
        "硬皇力",
        "-o",
        picture.to_str().unwrap(),
    ]);
    assert_eq!(
        rendered.status.code(),
        Some(1),
        "{}",
        text(&rendered.stderr)
    );
    assert!(
        !picture.exists(),
        "no picture of a record kifu reported invalid"
    );
    assert_eq!(text(&shown.stderr), text(&rendered.stderr));

    let page = dir.path().join("p.html");
    let html = kifu(&[
        "html",
        &path(),
        "--rules",
        "硬皇力",
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(html.status.code(), Some(1), "{}", text(&html.stderr));
    assert!(!page.exists());

    // A rule set no game has is a usage error everywhere.
    for command in ["show", "render", "html"] {
        let out = kifu(
            &[command, &path(), "--rules", "nonsense", "-o", "-"]
                [..if command == "show" { 4 } else { 6 }],
        );
        assert_eq!(
            out.status.code(),
            Some(2),
            "{command}: {}",
            text(&out.stderr)
        );
    }
}

/// `kifu perft --game` takes the games table's names and asks the game's driver: a game
/// without a perft count says which games have one, and chu's options are not silently
/// ignored for shogi.
#[test]
fn perft_goes_through_the_games_table() {
    let out = kifu(&["perft", "--game", "chu", "--depth", "1", "--rules", "jcsa"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = kifu(&["perft", "--game", "cetkaik", "--depth", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the games it counts: shogi, chu"),
        "{}",
        text(&out.stderr)
    );
    let out = kifu(&["perft", "--depth", "1", "--rules", "jcsa"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(text(&kifu(&["perft", "--depth", "1"]).stdout).trim(), "30");
}
