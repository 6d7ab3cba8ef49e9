//! `kifu html` and `kifu render` in a real browser: Debian's chromium, driven through
//! chromedriver (WebDriver). Every ply of a record of each game is stepped through with the
//! keyboard and the board's position checked against the library's; a variation is followed;
//! `#ply=N` opens at a ply and `#flip` turns the board; pictures are compared with committed
//! references.
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (or `$KIFU_CHROMIUM`,
//! `$KIFU_CHROMEDRIVER`): `scripts/setup-test-deps` installs them. A missing browser fails
//! these tests; it never skips them (`browser_harness` starts the browser). `KIFU_BLESS=1` rewrites the reference pictures (look at
//! them before committing).

mod browser_harness;

use std::path::Path;

use browser_harness::{
    BROWSER, board_position, browser, cetkaik_seasons, file_url, kifu, main_line_positions, press,
    program, read,
};
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use kifu_record::{Game, NodeId, Record, Span};
use kifu_render::Picture;
use kifu_shogi::{Position, Shogi};

/// Opens `page`, steps through the main line with → and checks every ply, then Home and End.
async fn step_through<G: Picture>(client: &Client, page: &Path, expected: &[String]) {
    client.goto(&file_url(page)).await.expect("the page opens");
    assert_eq!(board_position::<G>(client).await, expected[0], "start");
    for (ply, want) in expected.iter().enumerate().skip(1) {
        press(client, Key::Right).await;
        assert_eq!(
            &board_position::<G>(client).await,
            want,
            "{} ply {ply}",
            page.display()
        );
    }
    press(client, Key::Right).await;
    assert_eq!(&board_position::<G>(client).await, expected.last().unwrap());
    press(client, Key::Home).await;
    assert_eq!(board_position::<G>(client).await, expected[0]);
    press(client, Key::End).await;
    assert_eq!(&board_position::<G>(client).await, expected.last().unwrap());
    press(client, Key::Left).await;
    if expected.len() > 1 {
        assert_eq!(
            board_position::<G>(client).await,
            expected[expected.len() - 2]
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run scripts/setup-test-deps"]
async fn every_ply_of_a_record_of_each_game_matches_the_library() {
    let _one = BROWSER.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let b = browser().await;

    let shogi_file = "shogi/jkf-suite/kif/kiou201403160101.kif";
    let shogi_page = dir.path().join("shogi.html");
    kifu(&[
        "html",
        kifu_testkit::corpus::path(shogi_file).to_str().unwrap(),
        "-o",
        shogi_page.to_str().unwrap(),
    ]);
    let records = read::<Shogi>(shogi_file);
    step_through::<Shogi>(&b.client, &shogi_page, &main_line_positions(&records[0])).await;

    let chu_file = "chu/lishogi-games.ndjson";
    let chu_dir = dir.path().join("chu");
    kifu(&[
        "html",
        kifu_testkit::corpus::path(chu_file).to_str().unwrap(),
        "-o",
        chu_dir.to_str().unwrap(),
    ]);
    let records = read::<kifu_chu::Chu>(chu_file);
    step_through::<kifu_chu::Chu>(
        &b.client,
        &chu_dir.join("lishogi-games-1.html"),
        &main_line_positions(&records[0]),
    )
    .await;

    let cetkaik_file = "cetkaik/cerke_online/case1_2022-05-31.ckka";
    let cetkaik_dir = dir.path().join("cetkaik");
    kifu(&[
        "html",
        kifu_testkit::corpus::path(cetkaik_file).to_str().unwrap(),
        "-o",
        cetkaik_dir.to_str().unwrap(),
    ]);
    let seasons = cetkaik_seasons(cetkaik_file);
    assert!(seasons.len() > 1);
    for (i, season) in seasons.iter().enumerate() {
        step_through::<kifu_cetkaik::Cetkaik>(
            &b.client,
            &cetkaik_dir.join(format!("case1_2022-05-31-{}.html", i + 1)),
            &main_line_positions(season),
        )
        .await;
    }
    // The index links every season.
    let index = std::fs::read_to_string(cetkaik_dir.join("index.html")).unwrap();
    assert_eq!(index.matches("<a href=").count(), seasons.len());
}

/// The first alternative to a main-line move (the page's first variation menu): its node.
fn first_variation<G: Game>(record: &Record<G>) -> NodeId {
    let tree = &record.moves;
    std::iter::once(tree.root())
        .chain(tree.main_line())
        .find_map(|id| tree.variations(id).next())
        .expect("a variation")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run scripts/setup-test-deps"]
async fn a_variation_a_ply_in_the_address_and_an_illegal_move() {
    let _one = BROWSER.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let b = browser().await;
    let c = &b.client;

    let file = "shogi/jkf-suite/kif/fork.kif";
    let page = dir.path().join("fork.html");
    kifu(&[
        "html",
        kifu_testkit::corpus::path(file).to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    let record = &read::<Shogi>(file)[0];
    let variation = first_variation(record);
    c.goto(&file_url(&page)).await.unwrap();
    // The page's own font passes chromium's font sanitizer and loads.
    let fonts = c
        .execute(
            "return document.fonts.ready.then(function(){return Array.from(document.fonts)\
             .map(function(f){return f.family+':'+f.status;}).join(',');});",
            vec![],
        )
        .await
        .expect("the fonts");
    assert_eq!(fonts.as_str(), Some("kifu:loaded"), "{fonts:?}");
    let select = c
        .find(Locator::Css("#moves select"))
        .await
        .expect("a variation menu");
    select
        .select_by_index(1)
        .await
        .expect("choose the variation");
    assert_eq!(
        board_position::<Shogi>(c).await,
        Shogi::position_text(&record.position_at(variation)),
        "the board shows the variation's move"
    );
    if let Some(next) = record.moves.main_child(variation) {
        press(c, Key::Right).await;
        assert_eq!(
            board_position::<Shogi>(c).await,
            Shogi::position_text(&record.position_at(next)),
            "→ follows the variation"
        );
    }

    // #ply=N opens the main line at ply N.
    let expected = main_line_positions(record);
    let n = 3.min(expected.len() - 1);
    c.goto(&format!("{}#ply={n}", file_url(&page)))
        .await
        .unwrap();
    assert_eq!(board_position::<Shogi>(c).await, expected[n]);

    // #flip turns the board round: the first player at the top; `f` turns it back.
    c.goto(&format!("{}#ply={n}&flip", file_url(&page)))
        .await
        .unwrap();
    let flipped = |c: &Client| {
        let c = c.clone();
        async move {
            let board = c.find(Locator::Id("board")).await.unwrap();
            let top = c
                .find(Locator::Id("top"))
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            (board.attr("data-flip").await.unwrap(), top)
        }
    };
    let (flag, top) = flipped(c).await;
    assert_eq!(flag.as_deref(), Some("1"));
    assert!(top.starts_with('☗'), "the first player at the top: {top:?}");
    assert_eq!(
        board_position::<Shogi>(c).await,
        expected[n],
        "the same position"
    );
    let actions = KeyActions::new("keyboard".to_string())
        .then(KeyAction::Down { value: 'f' })
        .then(KeyAction::Up { value: 'f' });
    c.perform_actions(actions).await.expect("key press");
    let (flag, top) = flipped(c).await;
    assert_eq!(flag.as_deref(), Some("0"));
    assert!(
        top.starts_with('☖'),
        "the second player at the top: {top:?}"
    );

    // A record with an illegal move, with --keep-prefix, shows the moves before it and says
    // so (without it, it gets no page).
    let bad = dir.path().join("illegal.csa");
    std::fs::write(&bad, "V2.2\nPI\n+\n+7776FU\n-3334FU\n+7776FU\n-8384FU\n").unwrap();
    let page = dir.path().join("illegal.html");
    kifu(&[
        "html",
        bad.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
        "--keep-prefix",
    ]);
    c.goto(&file_url(&page)).await.unwrap();
    let message = c
        .find(Locator::Id("error"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        message.contains("ply 3") && message.contains("no piece on 77"),
        "{message:?}"
    );
    press(c, Key::End).await;
    assert_eq!(
        board_position::<Shogi>(c).await,
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
        "the board stops before the illegal move"
    );
}

/// A real 300-ply game from the corpus with 50 variations of up to four moves, each a legal
/// alternative to the main-line move at its ply.
fn long_record_with_variations() -> Record<Shogi> {
    let games = kifu_testkit::corpus::text("shogi/lishogi-usi/games.txt");
    let longest = games
        .lines()
        .max_by_key(|l| l.split_whitespace().count())
        .expect("games");
    let moves: Vec<&str> = longest.split_whitespace().take(300).collect();
    assert_eq!(moves.len(), 300, "the longest corpus game has 300 plies");
    let mut record: Record<Shogi> = Record::new(Default::default());
    let mut position = Shogi::start_position(&record.start);
    let mut node = record.moves.root();
    let mut main: Vec<(NodeId, Position)> = Vec::new();
    for text in moves {
        let mv = kifu_shogi::usi::parse_move(text).expect("USI move");
        main.push((node, position.clone()));
        Shogi::play(&mut position, &mv).expect("legal");
        node = record.moves.add_move(node, mv, Span::default());
    }
    let mut added = 0;
    for (parent, before) in main.iter().step_by(6) {
        if added == 50 {
            break;
        }
        let played = record.moves[record.moves.main_child(*parent).unwrap()]
            .mv()
            .copied();
        let Some(alternative) = before
            .legal_moves()
            .into_iter()
            .copied()
            .find(|m| Some(*m) != played)
        else {
            continue;
        };
        let mut position = before.clone();
        let mut at = *parent;
        let mut mv = alternative;
        for _ in 0..4 {
            Shogi::play(&mut position, &mv).expect("legal");
            at = record.moves.add_move(at, mv, Span::default());
            let Some(next) = position.legal_moves().into_iter().next().copied() else {
                break;
            };
            mv = next;
        }
        added += 1;
    }
    assert_eq!(added, 50);
    record
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run scripts/setup-test-deps"]
async fn a_300_ply_record_with_50_variations_is_under_300_kb_and_opens_in_a_second() {
    let record = long_record_with_variations();
    let page = kifu_render::html::page(&record, None, "long game", &[]).html;
    println!(
        "page of a 300-ply record with 50 variations: {} bytes",
        page.len()
    );
    assert!(page.len() < 300_000, "{} bytes", page.len());

    let _one = BROWSER.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.html");
    std::fs::write(&path, &page).unwrap();
    let b = browser().await;
    let mut best = f64::MAX;
    // The best of three loads: the first also starts the browser's renderer process.
    for _ in 0..3 {
        b.client.goto("about:blank").await.unwrap();
        b.client
            .goto(&format!("{}#ply=300", file_url(&path)))
            .await
            .unwrap();
        let ready = b
            .client
            .execute("return window.kifuReadyMs;", vec![])
            .await
            .unwrap();
        best = best.min(ready.as_f64().expect("the viewer reports when it is ready"));
    }
    println!("the page is ready {best:.0} ms after navigation starts");
    assert!(best < 1000.0, "{best} ms");
}

/// Decoded RGBA pixels of a PNG, with its size.
fn pixels(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("a frame");
    buf.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("unexpected PNG colour type {other:?}"),
    };
    (info.width, info.height, rgba)
}

/// The share of pixels that differ by more than a little in some channel.
fn difference(a: &[u8], b: &(u32, u32, Vec<u8>), size: (u32, u32)) -> f64 {
    assert_eq!(size, (b.0, b.1), "picture sizes differ");
    let differing = a
        .chunks(4)
        .zip(b.2.chunks(4))
        .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 60))
        .count();
    differing as f64 / (size.0 * size.1) as f64
}

/// Compares a PNG with the committed reference `name` (a path from the workspace's root), or
/// writes it with `KIFU_BLESS=1` when this picture is the one that `blesses` the reference.
fn compare_with_reference(name: &str, actual: &[u8], tolerance: f64, blesses: bool) {
    let reference_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(name);
    if blesses && std::env::var_os("KIFU_BLESS").is_some() {
        std::fs::create_dir_all(reference_path.parent().unwrap()).unwrap();
        std::fs::write(&reference_path, actual).unwrap();
        return;
    }
    let reference = std::fs::read(&reference_path)
        .unwrap_or_else(|e| panic!("{}: {e} (KIFU_BLESS=1 writes it)", reference_path.display()));
    let (w, h, actual) = pixels(actual);
    let share = difference(&actual, &pixels(&reference), (w, h));
    println!("{name}: {:.3}% of pixels differ", share * 100.0);
    assert!(
        share <= tolerance,
        "{name}: {:.2}% of the pixels differ from {} (at most {:.2}% may)",
        share * 100.0,
        reference_path.display(),
        tolerance * 100.0
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run scripts/setup-test-deps"]
async fn pictures_match_the_references() {
    let _one = BROWSER.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let b = browser().await;
    let c = &b.client;
    // (game, file, ply, whether the file holds several records)
    let cases = [
        (
            "shogi",
            "shogi/jkf-suite/kif/kiou201403160101.kif",
            "40",
            false,
        ),
        ("chu", "chu/lishogi-games.ndjson", "22", true),
        (
            "cetkaik",
            "cetkaik/cerke_online/case4_2022-09-08.ckka",
            // The last of its 10 moves (`--ply` counts a match's moves, not its declarations).
            "10",
            false,
        ),
    ];
    for (game, file, ply, many) in cases {
        let flag = "--ply";
        let input = kifu_testkit::corpus::path(file);
        let input = input.to_str().unwrap();
        // The PNG kifu draws itself: the README's pictures are the references.
        let png_path = dir.path().join(format!("{game}.png"));
        kifu(&["render", input, flag, ply, "-o", png_path.to_str().unwrap()]);
        let png_bytes = std::fs::read(&png_path).unwrap();
        compare_with_reference(&format!("docs/{game}.png"), &png_bytes, 0.002, true);
        // The same SVG drawn by chromium looks like kifu's PNG.
        let svg_path = dir.path().join(format!("{game}.svg"));
        kifu(&["render", input, flag, ply, "-o", svg_path.to_str().unwrap()]);
        c.goto(&file_url(&svg_path)).await.unwrap();
        let shot = c
            .find(Locator::Css("svg"))
            .await
            .unwrap()
            .screenshot()
            .await
            .unwrap();
        compare_with_reference(&format!("docs/{game}.png"), &shot, 0.03, false);
        // The viewer's board at the same ply.
        let out = dir.path().join(if many {
            game.to_string()
        } else {
            format!("{game}.html")
        });
        kifu(&["html", input, "-o", out.to_str().unwrap()]);
        let page = if many {
            let stem = Path::new(file).file_stem().unwrap().to_str().unwrap();
            out.join(format!("{stem}-1.html"))
        } else {
            out
        };
        c.goto(&format!("{}#ply={ply}", file_url(&page)))
            .await
            .unwrap();
        let shot = c
            .find(Locator::Id("board"))
            .await
            .unwrap()
            .screenshot()
            .await
            .unwrap();
        compare_with_reference(
            &format!("crates/kifu-cli/tests/reference/{game}-html.png"),
            &shot,
            0.03,
            true,
        );
    }
}

#[test]
fn a_missing_browser_fails_loudly() {
    let result =
        std::panic::catch_unwind(|| program("KIFU_NO_SUCH_VARIABLE", "/nonexistent/chromium"));
    let message = *result.expect_err("panics").downcast::<String>().unwrap();
    assert!(message.contains("setup-test-deps"), "{message}");
}
