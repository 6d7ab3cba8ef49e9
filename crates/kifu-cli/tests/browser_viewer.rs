//! The viewer's page as a player meets it, in a real browser (chromium through chromedriver;
//! see `browser_harness`): the current move kept in view in the move list, every control and
//! text written in the page's own font (measured as not tofu: the test machine's chromium
//! has no Japanese font), web addresses in comments as safe links, and evaluations shown as
//! a value.
//!
//! `KIFU_SCREENSHOTS=DIR` saves a screenshot of each page checked, to look at in review.

mod browser_harness;

use std::path::Path;

use browser_harness::{BROWSER, Browser, browser, file_url, kifu, press};
use fantoccini::Client;
use fantoccini::key::Key;
use serde_json::Value;

/// Runs `script` (a function body that returns a value) in the page.
async fn run(client: &Client, script: &str) -> Value {
    client
        .execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("{script}: {e}"))
}

/// Waits until the page's font has loaded (the layout of the move list changes with it).
async fn fonts_loaded(client: &Client) {
    let status = client
        .execute_async(
            "var done=arguments[arguments.length-1];\
             document.fonts.ready.then(function(){done(Array.from(document.fonts)\
             .map(function(f){return f.status;}).join(','));});",
            vec![],
        )
        .await
        .expect("the fonts");
    assert_eq!(status.as_str(), Some("loaded"), "{status:?}");
}

/// Saves a screenshot of the page when `KIFU_SCREENSHOTS` names a directory.
async fn screenshot(b: &Browser, name: &str) {
    if let Some(dir) = std::env::var_os("KIFU_SCREENSHOTS") {
        let png = b.client.screenshot().await.expect("a screenshot");
        std::fs::write(Path::new(&dir).join(format!("{name}.png")), png).expect("saved");
    }
}

/// Where the current move's line is, against the move list's visible box and the window.
async fn current_move_in_view(client: &Client) -> (bool, Value) {
    let rects = run(
        client,
        "var li=document.querySelector('#moves li.cur'),l=document.getElementById('moves');\
         if(!li)return null;var r=li.getBoundingClientRect(),b=l.getBoundingClientRect();\
         var top=b.top+l.clientTop;\
         return {li:[r.top,r.bottom],list:[top,top+l.clientHeight],window:window.innerHeight,\
         scroll:l.scrollTop,text:li.textContent,value:li.value};",
    )
    .await;
    let n = |v: &Value| v.as_f64().expect("a number");
    let seen = rects["li"][0].as_f64().is_some_and(|top| {
        let bottom = n(&rects["li"][1]);
        top >= n(&rects["list"][0]) - 0.5
            && bottom <= n(&rects["list"][1]) + 0.5
            && top >= 0.0
            && bottom <= n(&rects["window"])
    });
    (seen, rects)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run scripts/setup-test-deps"]
async fn the_current_move_is_scrolled_into_the_move_list() {
    let _one = BROWSER.lock().await;
    let dir = tempfile::tempdir().unwrap();
    // 86 plies: the list is longer than the window shows.
    let file = kifu_testkit::corpus::path("shogi/jkf-suite/kif/kiou201403160101.kif");
    let page = dir.path().join("kiou.html");
    kifu(&["html", file.to_str().unwrap(), "-o", page.to_str().unwrap()]);
    let b = browser().await;
    let c = &b.client;
    c.goto(&format!("{}#ply=80", file_url(&page)))
        .await
        .unwrap();
    fonts_loaded(c).await;
    let overflow = run(
        c,
        "var l=document.getElementById('moves');return l.scrollHeight>l.clientHeight*1.5;",
    )
    .await;
    assert_eq!(overflow, Value::Bool(true), "the list must overflow");
    let (seen, rects) = current_move_in_view(c).await;
    assert!(seen, "#ply=80: the current move is out of view: {rects}");
    assert_eq!(rects["value"], 80, "{rects}");
    screenshot(&b, "ply-80").await;
    // Home, End and stepping keep it in view too.
    // The record ends with its 85th move (then 投了).
    for (key, ply) in [
        (Key::Home, None),
        (Key::End, Some(85)),
        (Key::Left, Some(84)),
    ] {
        press(c, key).await;
        let (seen, rects) = current_move_in_view(c).await;
        match ply {
            Some(ply) => {
                assert!(seen, "{key:?}: out of view: {rects}");
                assert_eq!(rects["value"], ply, "{rects}");
            }
            // The start has no line in the list: the list is at its top.
            None => assert_eq!(rects, Value::Null),
        }
    }
    press(c, Key::Home).await;
    let top = run(c, "return document.getElementById('moves').scrollTop;").await;
    press(c, Key::Right).await;
    let (seen, rects) = current_move_in_view(c).await;
    assert!(seen && rects["value"] == 1, "{rects} (list at {top})");
    // A jump by the address, after the page has loaded.
    c.goto(&format!("{}#ply=60", file_url(&page)))
        .await
        .unwrap();
    let (seen, rects) = current_move_in_view(c).await;
    assert!(seen && rects["value"] == 60, "{rects}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run scripts/setup-test-deps"]
async fn the_variation_menu_and_every_control_write_in_the_page_font_not_tofu() {
    let _one = BROWSER.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let file = kifu_testkit::corpus::path("shogi/jkf-suite/kif/fork.kif");
    let page = dir.path().join("fork.html");
    kifu(&["html", file.to_str().unwrap(), "-o", page.to_str().unwrap()]);
    let b = browser().await;
    let c = &b.client;
    c.goto(&file_url(&page)).await.unwrap();
    fonts_loaded(c).await;

    // Every element that shows text, controls included, asks for the page's font first.
    let strays = run(
        c,
        "var out=[];document.querySelectorAll('body *').forEach(function(e){\
         if(e.tagName==='svg'||e.closest('svg')||e.tagName==='SCRIPT')return;\
         var f=getComputedStyle(e).fontFamily;if(f.split(',')[0].trim().replace(/\"/g,'')!=='kifu')\
         out.push(e.tagName+'#'+e.id+': '+f);});return out;",
    )
    .await;
    assert_eq!(
        strays,
        Value::Array(vec![]),
        "elements not in the page's font"
    );

    // The variation menu's text, measured. The select is as wide as its widest option, in the
    // font it draws with: drawn with the page's font it must be as much wider (or narrower)
    // than the same menu in the machine's serif as the options' text in the page's font is
    // than that text in the machine's serif. And each character of the options, drawn in the
    // select's font on a canvas, differs from tofu (a private-use character, which no font
    // has, drawn in the same font: the box the browser draws for a character it cannot).
    let measured = run(
        c,
        "var s=document.querySelector('#moves select');if(!s)return null;\
         var cs=getComputedStyle(s),size=cs.fontSize;\
         function width(text,family){var span=document.createElement('span');\
          span.style.font=size+' '+family;span.style.whiteSpace='pre';span.textContent=text;\
          document.body.appendChild(span);var w=span.getBoundingClientRect().width;span.remove();return w;}\
         function ink(ch,family){var c=document.createElement('canvas');c.width=c.height=64;\
          var x=c.getContext('2d');x.font='48px '+family;x.fillText(ch,4,52);\
          return Array.from(x.getImageData(0,0,64,64).data).join(',');}\
         var texts=Array.from(s.options).map(function(o){return o.text;});\
         var widest=function(f){return Math.max.apply(null,texts.map(function(x){return width(x,f);}));};\
         var page=s.getBoundingClientRect().width;\
         s.style.fontFamily='serif';var serif=s.getBoundingClientRect().width;s.style.fontFamily='';\
         var chars=Array.from(new Set(Array.from(texts.join('')).filter(function(ch){return ch.charCodeAt(0)>127;})));\
         function tofu(family){var box=ink('\\uE000',family);\
          return chars.filter(function(ch){return ink(ch,family)===box;}).join('');}\
         return {texts:texts,family:cs.fontFamily,page:page,serif:serif,kifuText:widest('kifu'),\
          serifText:widest('serif'),chars:chars.join(''),tofuInSelectFont:tofu(cs.fontFamily),\
          tofuInSerif:tofu('serif')};",
    )
    .await;
    println!("variation menu: {measured}");
    let n = |key: &str| {
        measured[key]
            .as_f64()
            .unwrap_or_else(|| panic!("{measured}"))
    };
    let chars = measured["chars"].as_str().expect("characters");
    assert!(
        chars.chars().any(|ch| ch as u32 > 0x3000),
        "the options hold Japanese text: {measured}"
    );
    assert!(
        ((n("page") - n("serif")) - (n("kifuText") - n("serifText"))).abs() < 1.5,
        "the menu does not draw with the page's font: {measured}"
    );
    assert_eq!(
        measured["tofuInSelectFont"], "",
        "characters of the menu drawn as tofu: {measured}"
    );
    // This machine's own fonts have no Japanese (the profile the issue names): say so when it
    // is not this test's profile.
    if measured["tofuInSerif"].as_str() != Some(chars) {
        println!("note: this machine's serif font draws some of {chars:?}");
    }
    screenshot(&b, "variation-menu").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run scripts/setup-test-deps"]
async fn addresses_in_comments_are_safe_links_and_evaluations_are_values() {
    let _one = BROWSER.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("comments.csa");
    std::fs::write(
        &record,
        "V3.0\nN+先手\nN-後手\nPI\n+\n\
         +7776FU\n'** 30 -3334FU +2726FU #1234\n\
         -3334FU\n'*棋譜は https://example.com/kifu?a=1&b=2 を参照。javascript:alert(1) も見よ\n\
         +2726FU\n'*#評価値=-85\n\
         -8384FU\n'* -120 +2625FU -8485FU\n'*ふつうのコメント\n%TORYO\n",
    )
    .unwrap();
    let page = dir.path().join("comments.html");
    kifu(&[
        "html",
        record.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    let b = browser().await;
    let c = &b.client;
    let at = |ply: u32| {
        let c = c.clone();
        let url = format!("{}#ply={ply}", file_url(&page));
        async move {
            c.goto("about:blank").await.unwrap();
            c.goto(&url).await.unwrap();
            run(
                &c,
                "var cm=document.getElementById('comment');\
                 return {eval:document.getElementById('eval').textContent,comment:cm.textContent,\
                 links:Array.from(cm.querySelectorAll('a')).map(function(a){\
                  return [a.getAttribute('href'),a.getAttribute('rel'),a.getAttribute('target')];}),\
                 scripts:document.querySelectorAll('a[href^=\"javascript\" i]').length};",
            )
            .await
        }
    };
    let one = at(1).await;
    assert!(
        one["eval"].as_str().unwrap().starts_with("評価値 +30"),
        "{one}"
    );
    assert!(
        !one["comment"].as_str().unwrap().contains("3334FU"),
        "no raw line: {one}"
    );
    let two = at(2).await;
    assert_eq!(
        two["links"],
        serde_json::json!([[
            "https://example.com/kifu?a=1&b=2",
            "noopener noreferrer",
            "_blank"
        ]]),
        "{two}"
    );
    assert_eq!(two["scripts"], 0, "{two}");
    assert_eq!(
        two["comment"],
        "棋譜は https://example.com/kifu?a=1&b=2 を参照。javascript:alert(1) も見よ"
    );
    assert_eq!(two["eval"], "", "{two}");
    screenshot(&b, "comment-link").await;
    let three = at(3).await;
    assert_eq!(three["eval"], "評価値 -85", "{three}");
    assert_eq!(three["comment"], "", "{three}");
    let four = at(4).await;
    assert!(
        four["eval"].as_str().unwrap().starts_with("評価値 -120"),
        "{four}"
    );
    assert_eq!(four["comment"], "ふつうのコメント", "{four}");
    screenshot(&b, "evaluation").await;
}

/// The page's fonts' status, and the characters of `text` that the page's font draws as
/// tofu (the same pixels on a canvas as a private-use character, which no font has).
async fn tofu_in_page_font(client: &Client, text: &str) -> Value {
    let script = format!(
        "var t={};function ink(ch){{var c=document.createElement('canvas');c.width=c.height=64;\
         var x=c.getContext('2d');x.font='48px kifu';x.fillText(ch,4,52);\
         return Array.from(x.getImageData(0,0,64,64).data).join(',');}}var box=ink('\\uE000');\
         return {{status:Array.from(document.fonts).map(function(f){{return f.status;}}).join(','),\
         tofu:Array.from(t).filter(function(ch){{return ch!==' '&&ink(ch)===box;}}).join('')}};",
        serde_json::to_string(text).unwrap()
    );
    run(client, &script).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run scripts/setup-test-deps"]
async fn a_directory_of_pages_shares_one_font_file_unless_asked_not_to() {
    let _one = BROWSER.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let records = kifu_testkit::corpus::path("shogi/jkf-suite/kif");
    let shared = dir.path().join("shared");
    kifu(&[
        "html",
        records.to_str().unwrap(),
        "-o",
        shared.to_str().unwrap(),
    ]);
    let alone = dir.path().join("alone");
    kifu(&[
        "html",
        records.to_str().unwrap(),
        "-o",
        alone.to_str().unwrap(),
        "--self-contained",
    ]);
    let size = |d: &Path, ext: &str| -> (usize, u64) {
        let files: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        let bytes = files.iter().map(|p| p.metadata().unwrap().len()).sum();
        (files.len(), bytes)
    };
    let (pages, shared_bytes) = size(&shared, "html");
    let (alone_pages, alone_bytes) = size(&alone, "html");
    let font = std::fs::read(shared.join("kifu-font.ttf")).expect("the shared font");
    println!(
        "{pages} pages and their index: {alone_bytes} bytes self-contained, \
         {shared_bytes} bytes + a {} byte font shared",
        font.len()
    );
    assert!(pages > 3 && pages == alone_pages);
    assert!(!alone.join("kifu-font.ttf").exists());
    // Each self-contained page carries its cut of the font; shared, the directory saves
    // more than 10 KB a page.
    let saved = alone_bytes - shared_bytes - font.len() as u64;
    assert!(saved > 10_000 * pages as u64, "{saved} bytes saved");
    for entry in std::fs::read_dir(&shared).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            let html = std::fs::read_to_string(&path).unwrap();
            assert!(
                html.contains("url(\"kifu-font.ttf\")") && !html.contains("base64,"),
                "{}",
                path.display()
            );
        }
    }
    // A page of the directory, and its index, load the shared font from file:// and write
    // Japanese with it, not with tofu.
    let b = browser().await;
    let c = &b.client;
    c.goto(&file_url(&shared.join("fork.html"))).await.unwrap();
    fonts_loaded(c).await;
    let measured = tofu_in_page_font(c, "開始局面 変化 ７六歩").await;
    println!("shared font: {measured}");
    assert_eq!(measured["status"], "loaded", "{measured}");
    assert_eq!(measured["tofu"], "", "{measured}");
    let select = run(
        c,
        "return getComputedStyle(document.querySelector('#moves select')).fontFamily;",
    )
    .await;
    assert!(select.as_str().unwrap().starts_with("kifu"), "{select}");
    c.goto(&file_url(&shared.join("index.html"))).await.unwrap();
    fonts_loaded(c).await;
    let measured = tofu_in_page_font(c, "fork.kif").await;
    assert_eq!(measured["tofu"], "", "the index's own words: {measured}");
    screenshot(&b, "shared-font-page").await;
}

/// The positions after each playable main-line move of `record`, as the library draws them.
fn scenes<G: kifu_render::Picture>(record: &kifu_record::Record<G>) -> Vec<kifu_render::Scene> {
    let mut out = Vec::new();
    let nodes = kifu_render::main_line(record);
    kifu_render::walk_line(record, &nodes, |step| {
        out.push(G::scene(&step.position, step.played.as_ref().map(|p| &p.1)));
        Ok::<(), ()>(())
    })
    .unwrap();
    out
}

/// What the viewer shows at its current ply: the notes beside the board, the pieces drawn
/// (on the board and in the hands) and the marked squares.
async fn shown(client: &Client) -> Value {
    run(
        client,
        "var d=document.getElementById('dyn');\
         return {notes:document.getElementById('notes').textContent,\
         tokens:d.querySelectorAll('use[href^=\"#t\"]').length,\
         marks:d.querySelectorAll('rect').length,\
         steps:d.querySelectorAll('.steps').length};",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run scripts/setup-test-deps"]
async fn cetkaik_pages_show_each_seasons_throws_hands_and_scores() {
    let _one = BROWSER.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let file = "cetkaik/cerke_online/case1_2022-05-31.ckka";
    let out = dir.path().join("cetkaik");
    kifu(&[
        "html",
        kifu_testkit::corpus::path(file).to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    let seasons = browser_harness::cetkaik_seasons(file);
    let b = browser().await;
    let c = &b.client;
    let (mut throws, mut held) = (0, 0);
    for (i, season) in seasons.iter().enumerate() {
        let page = out.join(format!("case1_2022-05-31-{}.html", i + 1));
        c.goto(&file_url(&page)).await.unwrap();
        for (ply, scene) in scenes(season).iter().enumerate() {
            if ply > 0 {
                press(c, Key::Right).await;
            }
            let seen = shown(c).await;
            assert_eq!(
                seen["notes"],
                scene.notes.join("\n"),
                "season {} ply {ply}",
                i + 1
            );
            let hands = scene.hands[0].len() + scene.hands[1].len();
            assert_eq!(
                seen["tokens"],
                scene.cells.iter().flatten().count() + hands,
                "season {} ply {ply}: pieces on the board and in hand",
                i + 1
            );
            throws += usize::from(scene.notes.iter().any(|n| n.starts_with("sticks")));
            held = held.max(hands);
        }
        if i == 0 {
            screenshot(&b, "cetkaik-season-1-end").await;
        }
    }
    assert!(
        seasons.len() > 1 && throws > 0 && held > 0,
        "{throws} throws, {held} held"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run scripts/setup-test-deps"]
async fn chu_pages_show_both_steps_of_a_lion_move() {
    let _one = BROWSER.lock().await;
    let file = "chu/lishogi-games.ndjson";
    let records = browser_harness::read::<kifu_chu::Chu>(file);
    // The first record with a lion's double move, and its plies.
    let (number, plies) = records
        .iter()
        .enumerate()
        .find_map(|(i, record)| {
            let mut plies = Vec::new();
            let mut ply = 0;
            record.walk_main_line(|_, _, mv| {
                ply += 1;
                if mv.mid().is_some() {
                    plies.push(ply);
                }
            });
            (!plies.is_empty()).then_some((i, plies))
        })
        .expect("a record with a double move");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("chu");
    kifu(&[
        "html",
        kifu_testkit::corpus::path(file).to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    let page = out.join(format!("lishogi-games-{}.html", number + 1));
    let b = browser().await;
    let c = &b.client;
    let all = scenes(&records[number]);
    for &ply in &plies {
        c.goto(&format!("{}#ply={ply}", file_url(&page)))
            .await
            .unwrap();
        let seen = shown(c).await;
        let scene = &all[ply];
        assert_eq!(seen["marks"], scene.marks.len(), "ply {ply}: {seen}");
        assert!(
            scene.marks.iter().any(|m| m.1 == kifu_render::Mark::Via),
            "ply {ply}"
        );
        assert_eq!(seen["steps"], 1, "ply {ply}: the two steps drawn: {seen}");
    }
    screenshot(&b, "chu-lion").await;
    // An ordinary move has no steps drawn.
    let ordinary = (1..all.len()).find(|p| !plies.contains(p)).unwrap();
    c.goto(&format!("{}#ply={ordinary}", file_url(&page)))
        .await
        .unwrap();
    assert_eq!(shown(c).await["steps"], 0);
}

/// A 117-move game with ShogiHome's analysis comments on every position (scores that swing
/// both ways, a mate now and then, and a PV whose first move is not the game's), written as
/// KIF; returns the file and, per position, the score and the PV's first move (USI).
fn analysed_game(dir: &Path) -> (std::path::PathBuf, Vec<(i32, String)>) {
    use kifu_record::evaluation::Searcher;
    use kifu_record::{Comment, Score, Span};
    use kifu_records::shogi::analysis_comments::{CommentDialect, Finding, comments};
    use kifu_shogi::Shogi;

    let mut record = browser_harness::read::<Shogi>("shogi/bulk/kif/game_0009.kif")
        .into_iter()
        .next()
        .expect("a record");
    let mut nodes = vec![(record.moves.root(), record.position_at(record.moves.root()))];
    record.walk_main_line(|id, before, mv| {
        let mut after = before.clone();
        after.play_unchecked(*mv);
        nodes.push((id, after));
    });
    let mut expected = Vec::new();
    for (ply, (id, position)) in nodes.iter().enumerate() {
        let legal = position.legal_moves();
        if legal.is_empty() {
            continue;
        }
        let best = legal[(ply * 7) % legal.len()];
        let score = if ply % 23 == 22 {
            Score::Mate {
                winner_first: ply % 2 == 0,
                plies: Some(5),
            }
        } else {
            Score::Value(((ply as i32 * 131) % 1600) - 800)
        };
        let cp = match score {
            Score::Value(v) => v,
            Score::Mate { winner_first, .. } => {
                if winner_first {
                    30000
                } else {
                    -30000
                }
            }
        };
        expected.push((cp, best.usi()));
        let finding = Finding {
            score: Some(score),
            pv: &[best],
            depth: Some(12),
            nodes: Some(20_000),
            ..Finding::default()
        };
        for (kind, text) in comments(
            CommentDialect::ShogiHome,
            Searcher::Analysis,
            position,
            &finding,
        ) {
            record.moves[*id]
                .comments_mut()
                .push(Comment::new(kind, text, Span::default()));
        }
    }
    let file = dir.join("analysed.kif");
    let written = kifu_records::shogi::format_by_name("kifu")
        .unwrap()
        .write(std::slice::from_ref(&record));
    std::fs::write(&file, written.text).unwrap();
    (file, expected)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run scripts/setup-test-deps"]
async fn an_analysed_game_has_an_evaluation_graph_and_the_engines_move_as_an_arrow() {
    let _one = BROWSER.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let (record, expected) = analysed_game(dir.path());
    assert!(expected.len() > 100, "a long game: {}", expected.len());
    let page = dir.path().join("analysed.html");
    kifu(&[
        "html",
        record.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    let b = browser().await;
    let c = &b.client;
    c.goto(&file_url(&page)).await.unwrap();
    let points = run(
        c,
        "return Array.from(document.querySelectorAll('#graph circle')).map(function(p){\
         return [+p.getAttribute('data-ply'),+p.getAttribute('data-eval')];});",
    )
    .await;
    let points: Vec<(u32, i32)> = serde_json::from_value(points).unwrap();
    assert_eq!(points.len(), expected.len(), "one point per position");
    for (ply, (point, (cp, _))) in points.iter().zip(&expected).enumerate() {
        assert_eq!(*point, (ply as u32, *cp), "the point of ply {ply}");
    }
    // Clicking the 40th point shows ply 40, with the engine's move there as the arrow.
    c.find(fantoccini::Locator::Css("#graph circle[data-ply='40']"))
        .await
        .expect("the point of ply 40")
        .click()
        .await
        .expect("clicked");
    let shown = run(
        c,
        "var best=document.getElementById('best');\
         return {sfen:document.getElementById('board').getAttribute('data-sfen'),\
         label:document.getElementById('label').textContent,\
         best:best&&best.getAttribute('data-usi'),\
         current:document.querySelector('#graph circle.cur').getAttribute('data-ply'),\
         eval:document.getElementById('eval').textContent};",
    )
    .await;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["show", record.to_str().unwrap(), "--ply", "40", "--sfen"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let sfen = String::from_utf8(out.stdout).unwrap();
    assert_eq!(shown["sfen"], sfen.trim(), "{shown}");
    assert!(
        shown["label"].as_str().unwrap().starts_with("40手目"),
        "{shown}"
    );
    assert_eq!(shown["best"], expected[40].1.as_str(), "{shown}");
    assert_eq!(shown["current"], "40", "{shown}");
    // the score, then the PV (▲３六歩 …) beside it
    assert!(
        shown["eval"]
            .as_str()
            .unwrap()
            .starts_with(&format!("評価値 {:+}▲", expected[40].0)),
        "{shown}"
    );
    screenshot(&b, "evaluation-graph").await;
}
