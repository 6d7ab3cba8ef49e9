//! `kifu convert DIR` reads each file as its own game (issue 27): a directory of chu `.kif`
//! files converts as chu (`.kif` is also shogi's extension), and a directory mixing games
//! converts each file where its game has the target, names the others with the reason, and
//! exits 1 (some inputs failed), not 2 (a usage error).

mod support;

use std::path::Path;

use support::*;

/// Chu game `n` of the corpus's lishogi export, as a chu KIF file.
fn chu_kif(n: usize, path: &Path) {
    let games = std::fs::read_to_string(corpus("chu/lishogi-games.ndjson")).unwrap();
    let game = games.lines().nth(n).unwrap();
    let out = kifu_with(
        &[
            "convert", "-", "--game", "chu", "--from", "json", "--to", "kif",
        ],
        game,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    std::fs::write(path, out.stdout).unwrap();
}

/// `kifu check --json` of a directory: each file's game and format.
fn games_in(dir: &Path) -> Vec<(String, String, String)> {
    let out = kifu(&["check", "--json", dir.to_str().unwrap()]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let name = Path::new(f["path"].as_str().unwrap())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            assert_eq!(f["errors"], 0, "{f}");
            (
                name,
                f["game"].as_str().unwrap().to_string(),
                f["format"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_directory_of_chu_kif_converts_as_chu() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("chu");
    std::fs::create_dir(&input).unwrap();
    chu_kif(0, &input.join("a.kif"));
    chu_kif(1, &input.join("b.kif"));
    for (to, ext) in [("csl", "csl"), ("json", "json")] {
        let out_dir = tmp.path().join(to);
        let out = kifu(&[
            "convert",
            input.to_str().unwrap(),
            "--to",
            to,
            "-o",
            &format!("{}/", out_dir.display()),
        ]);
        assert_eq!(out.status.code(), Some(0), "{to}: {}", text(&out.stderr));
        let chu = |name: &str| (format!("{name}.{ext}"), "chu".to_string(), to.to_string());
        assert_eq!(games_in(&out_dir), [chu("a"), chu("b")], "{to}");
    }
}

#[test]
fn a_directory_mixing_games_converts_each_file_in_its_own_game() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("mixed");
    std::fs::create_dir(&input).unwrap();
    chu_kif(0, &input.join("chu.kif"));
    std::fs::copy(
        repo().join("examples/records/random-game.csa"),
        input.join("shogi.csa"),
    )
    .unwrap();
    std::fs::copy(
        corpus("cetkaik/cerke_online/case1_2022-05-31.ckka"),
        input.join("match.ckka"),
    )
    .unwrap();
    let out_dir = tmp.path().join("out");
    let out = kifu(&[
        "convert",
        input.to_str().unwrap(),
        "--to",
        "kif",
        "-o",
        &format!("{}/", out_dir.display()),
    ]);
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("match.ckka: error: not converted: cetkaik records have no format `kif`"),
        "{said}"
    );
    assert!(said.contains("converted 2 of 3 files"), "{said}");
    assert_eq!(
        games_in(&out_dir),
        [
            ("chu.kif".to_string(), "chu".to_string(), "kif".to_string()),
            (
                "shogi.kif".to_string(),
                "shogi".to_string(),
                "kif".to_string()
            )
        ]
    );
}
