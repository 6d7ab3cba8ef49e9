//! `kifu html` of a file of many games (issue 27): a page per record written as the record is
//! read, and an index whose links say who played, when, the result and the length.

mod support;

use support::*;

/// The first `n` games of the corpus's 500-game CSA archive, each with its number of moves.
fn games(n: usize) -> (String, Vec<usize>) {
    let all = std::fs::read_to_string(corpus("shogi/bulk/all_games.csa")).unwrap();
    let games: Vec<&str> = all.split("\n/\n").take(n).collect();
    let moves = games
        .iter()
        .map(|g| {
            g.lines()
                .filter(|l| {
                    let b = l.as_bytes();
                    b.len() == 7 && matches!(b[0], b'+' | b'-') && b[1].is_ascii_digit()
                })
                .count()
        })
        .collect();
    (games.join("\n/\n") + "\n", moves)
}

#[test]
fn the_index_lists_players_date_result_and_length() {
    let (archive, moves) = games(3);
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("three.csa");
    std::fs::write(&input, &archive).unwrap();
    let out_dir = tmp.path().join("pages");
    let out = kifu(&[
        "html",
        input.to_str().unwrap(),
        "-o",
        &format!("{}/", out_dir.display()),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let index = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    for (i, n) in moves.iter().enumerate() {
        let number = i + 1;
        let page = format!("three-{number}.html");
        assert!(out_dir.join(&page).exists(), "{page}");
        let players = format!("Black{number:04} – White{number:04}");
        let date = "2024/01/06";
        let link = index
            .split("<li>")
            .find(|item| item.contains(&format!("href=\"{page}\"")))
            .unwrap_or_else(|| panic!("no link to {page}: {index}"));
        assert!(link.contains(&players), "{link}");
        assert!(link.contains(date), "{link}");
        assert!(link.contains(&format!(", {n} moves")), "{link}");
        assert!(
            ["1-0", "0-1", "1/2-1/2", "*"]
                .iter()
                .any(|r| link.contains(&format!(", {r}, "))),
            "{link}"
        );
    }
    assert!(
        !index.contains(tmp.path().to_str().unwrap()),
        "no local path"
    );
}

#[test]
fn a_single_page_for_many_records_is_refused_before_anything_is_written() {
    let (archive, _) = games(2);
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("two.csa");
    std::fs::write(&input, &archive).unwrap();
    let page = tmp.path().join("one.html");
    let out = kifu(&[
        "html",
        input.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("-o DIR/"),
        "{}",
        text(&out.stderr)
    );
    assert!(!page.exists());
    let out = kifu(&["html", input.to_str().unwrap(), "-o", "-"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}
