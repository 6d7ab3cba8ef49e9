//! `kifu render`, `kifu show --svg` and `kifu html` without a browser: what they write, and
//! the usage errors (exit 2) they refuse.

use std::process::{Command, Output};

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .output()
        .expect("kifu runs")
}

fn corpus(rel: &str) -> String {
    kifu_testkit::corpus::path(rel)
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn render_writes_svg_and_png_and_show_prints_the_same_svg() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus("shogi/jkf-suite/kif/kiou201403160101.kif");
    let svg = dir.path().join("board.svg");
    let out = kifu(&["render", &input, "--ply", "10", "-o", svg.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::read_to_string(&svg).unwrap();
    // The move number is drawn with the embedded font: 手 is glyph U+624B.
    assert!(written.starts_with("<svg") && written.contains("href=\"#g624b\""));
    let shown = kifu(&["show", &input, "--ply", "10", "--svg"]);
    assert_eq!(String::from_utf8(shown.stdout).unwrap(), written);
    // Turned round, the same as `render --flip`; --flip without --svg is a usage error.
    let flipped = dir.path().join("flipped.svg");
    let out = kifu(&[
        "render",
        &input,
        "--ply",
        "10",
        "--flip",
        "-o",
        flipped.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let flipped = std::fs::read_to_string(&flipped).unwrap();
    assert_ne!(flipped, written);
    let shown = kifu(&["show", &input, "--ply", "10", "--svg", "--flip"]);
    assert_eq!(String::from_utf8(shown.stdout).unwrap(), flipped);
    assert_eq!(kifu(&["show", &input, "--flip"]).status.code(), Some(2));

    let png = dir.path().join("board.png");
    let out = kifu(&["render", &input, "--flip", "-o", png.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(&std::fs::read(&png).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
    // An existing picture is kept without --force.
    let again = kifu(&["render", &input, "-o", png.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(1));
}

#[test]
fn names_in_japanese_are_drawn_and_a_character_the_font_lacks_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("names.csa");
    // 𠮷 (U+20BB7) is outside the Basic Multilingual Plane and the embedded font.
    std::fs::write(&record, "V2.2\nN+三浦弘行\nN-𠮷田 髙橋\nPI\n+\n+7776FU\n").unwrap();
    let svg = dir.path().join("names.svg");
    let out = kifu(&[
        "render",
        record.to_str().unwrap(),
        "-o",
        svg.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("warning: the embedded font has no glyph for 𠮷 (U+20BB7)")
            && stderr.contains("serif font"),
        "{stderr}"
    );
    let written = std::fs::read_to_string(&svg).unwrap();
    for c in "三浦弘行田髙橋".chars() {
        let id = format!("<path id=\"g{:x}\"", u32::from(c));
        assert!(written.contains(&id), "{c} is drawn from the embedded font");
    }
    let png = dir.path().join("names.png");
    let out = kifu(&[
        "render",
        record.to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("the PNG leaves them out"), "{stderr}");
    assert!(png.is_file());
}

#[test]
fn a_replay_page_says_which_characters_its_font_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("names.csa");
    std::fs::write(
        &record,
        "V2.2\nN+三浦弘行\nN-𠮷田 髙橋\nPI\n+\n+7776FU\n'𠮷の一手\n",
    )
    .unwrap();
    let page = dir.path().join("names.html");
    let out = kifu(&[
        "html",
        record.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // Once, although the name and a comment both hold it.
    assert_eq!(stderr.matches("𠮷 (U+20BB7)").count(), 1, "{stderr}");
    assert!(stderr.contains("browser's serif font"), "{stderr}");
    assert!(std::fs::read_to_string(&page).unwrap().contains("𠮷田"));
    // A page whose every character the font holds says nothing.
    let plain = dir.path().join("plain.csa");
    std::fs::write(&plain, "V2.2\nN+三浦弘行\nN-髙橋\nPI\n+\n+7776FU\n").unwrap();
    let out = kifu(&["html", plain.to_str().unwrap(), "-o", "-"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn render_refuses_what_it_cannot_do() {
    let input = corpus("shogi/csa-versions/v2_2.csa");
    for (args, says) in [
        (vec!["render", &input, "-o", "board.txt"], ".svg or .png"),
        (vec!["render", &input, "--ply", "99", "-o", "-"], "--ply 99"),
        (
            vec!["render", &input, "--record", "2", "-o", "-"],
            "--record 2",
        ),
        (vec!["render", &input, "-o", &input], ".svg or .png"),
    ] {
        let out = kifu(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn html_of_a_file_of_several_records_is_a_page_each_and_an_index() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let out = kifu(&[
        "html",
        &corpus("cetkaik/cerke_online/case1_2022-05-31.ckka"),
        "-o",
        site.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert_eq!(index.matches("<a href=").count(), 3, "three seasons");
    let page = std::fs::read_to_string(site.join("case1_2022-05-31-1.html")).unwrap();
    assert!(page.contains("data-position=\""));
    assert!(
        !page.contains("<script src") && !page.contains("<link"),
        "no script or style from elsewhere"
    );
    // The pages share one font file beside them; --self-contained puts one in each.
    assert!(page.contains("url(\"kifu-font.ttf\")") && !page.contains("base64,"));
    assert!(site.join("kifu-font.ttf").is_file());
    let alone = dir.path().join("alone");
    let out = kifu(&[
        "html",
        &corpus("cetkaik/cerke_online/case1_2022-05-31.ckka"),
        "-o",
        alone.to_str().unwrap(),
        "--self-contained",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let page = std::fs::read_to_string(alone.join("case1_2022-05-31-1.html")).unwrap();
    assert!(page.contains("base64,") && !alone.join("kifu-font.ttf").exists());
    // One page to standard output.
    let out = kifu(&["html", &corpus("shogi/csa-versions/v2_2.csa"), "-o", "-"]);
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("data-sfen=\"")
    );
}

#[test]
fn a_cetkaik_caption_gives_the_stick_throw_and_the_scores() {
    let file = "cetkaik/cerke_online/case1_2022-05-31.ckka";
    let text = kifu_testkit::corpus::text(file);
    let season = kifu_records::cetkaik::FORMATS[0]
        .records(&text)
        .next()
        .expect("a season")
        .record;
    // The first ply whose move needed a throw of the sticks.
    let mut ply = 0;
    let mut thrown = None;
    season.walk_main_line(|_, _, event| {
        ply += 1;
        if let kifu_cetkaik::Event::Move { throws, .. } = event
            && (throws.bridge.is_some() || throws.water.is_some())
            && thrown.is_none()
        {
            thrown = Some(ply);
        }
    });
    let ply = thrown.expect("a throw in the first season").to_string();
    let dir = tempfile::tempdir().unwrap();
    let input = corpus(file);
    let draw = |ply: &str, caption: bool| {
        let svg = dir.path().join(format!("{ply}-{caption}.svg"));
        let mut args = vec!["render", input.as_str(), "--ply", ply, "--force", "-o"];
        let path = svg.to_str().unwrap().to_string();
        args.push(&path);
        if caption {
            args.push("--caption");
        }
        let out = kifu(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(&svg).unwrap()
    };
    let glyph = |c: char| format!("href=\"#g{:x}\"", c as u32);
    let with = draw(&ply, true);
    // 裁 (the sticks) and 対 (between the scores) are written only by the caption.
    for c in ['裁', '対'] {
        assert!(with.contains(&glyph(c)), "{c} in the caption at ply {ply}");
        assert!(
            !draw(&ply, false).contains(&glyph(c)),
            "{c} without --caption"
        );
    }
    // At the start there is no throw; the scores are there.
    let start = draw("0", true);
    assert!(start.contains(&glyph('対')) && !start.contains(&glyph('裁')));
}

#[test]
fn a_picture_speaks_one_language_japanese_by_default_english_with_lang_en() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus("shogi/jkf-suite/kif/kiou201403160101.kif");
    let draw = |lang: Option<&str>| {
        let svg = dir
            .path()
            .join(format!("{}.svg", lang.unwrap_or("default")));
        let mut args = vec!["render", input.as_str(), "--ply", "40", "--caption"];
        if let Some(lang) = lang {
            args.extend(["--lang", lang]);
        }
        let path = svg.to_str().unwrap().to_string();
        args.extend(["-o", path.as_str()]);
        let out = kifu(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(&svg).unwrap()
    };
    let glyph = |c: char| format!("href=\"#g{:x}\"", c as u32);
    let (default, japanese, english) = (draw(None), draw(Some("ja")), draw(Some("en")));
    assert_eq!(default, japanese);
    for c in ['歩', '一', '手', '▲', '△'] {
        assert!(!english.contains(&glyph(c)), "no {c} in English");
    }
    for c in ['P', 'a', 'M'] {
        assert!(english.contains(&glyph(c)), "{c} in English");
        assert!(!japanese.contains(&glyph(c)), "no {c} in Japanese");
    }
    let refused = kifu(&["render", input.as_str(), "--lang", "fr", "-o", "-"]);
    assert_eq!(refused.status.code(), Some(2));
}

#[test]
fn an_english_picture_of_each_game_draws_no_japanese_character() {
    let dir = tempfile::tempdir().unwrap();
    // The players' names are the record's own words, drawn as written.
    for (game, file, ply, names) in [
        (
            "shogi",
            "shogi/jkf-suite/kif/kiou201403160101.kif",
            "40",
            "三浦弘行渡辺明",
        ),
        ("chu", "chu/lishogi-games.ndjson", "20", ""),
        (
            "cetkaik",
            "cetkaik/cerke_online/case1_2022-05-31.ckka",
            "30",
            "",
        ),
    ] {
        let input = corpus(file);
        let svg = dir.path().join(format!("{game}.svg"));
        let path = svg.to_str().unwrap().to_string();
        let out = kifu(&[
            "render",
            input.as_str(),
            "--record",
            "1",
            "--ply",
            ply,
            "--caption",
            "--lang",
            "en",
            "-o",
            path.as_str(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{game}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&svg).unwrap();
        // Every character drawn is a glyph the picture refers to as `#g<hex>`.
        let japanese: Vec<char> = text
            .split("href=\"#g")
            .skip(1)
            .filter_map(|rest| u32::from_str_radix(rest.split('"').next()?, 16).ok())
            .filter_map(char::from_u32)
            .filter(|c| !names.contains(*c))
            .filter(|c| matches!(*c as u32, 0x3000..=0x30FF | 0x4E00..=0x9FFF | 0xFF00..=0xFFEF | 0x25B2 | 0x25B3))
            .collect();
        assert!(
            japanese.is_empty(),
            "{game}: {japanese:?} in an English picture"
        );
    }
}
