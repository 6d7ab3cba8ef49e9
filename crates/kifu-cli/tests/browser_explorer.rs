//! `kifu html --archive` in a real browser (chromium through chromedriver; see
//! `browser_harness`): stepping through the record shows, for each position, the table
//! `kifu explore` gives for it, and the page lists similar games.

mod browser_harness;

use std::process::Command;

use browser_harness::{BROWSER, browser, file_url, kifu, press};
use fantoccini::key::Key;
use serde_json::Value;

/// `kifu explore ARCHIVE POSITION --json`, as (move, games, wins, draws, losses) rows.
fn explored(archive: &std::path::Path, position: &str) -> (u64, Vec<Value>) {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["explore", archive.to_str().unwrap(), position, "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            serde_json::json!([
                m["move"],
                m["games"],
                m["results"]["win"],
                m["results"]["draw"],
                m["results"]["loss"]
            ])
        })
        .collect();
    (answer["games"].as_u64().unwrap(), rows)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run scripts/setup-test-deps"]
async fn stepping_to_a_ply_shows_that_positions_explorer_table() {
    let _one = BROWSER.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("games.kidx");
    let bulk = kifu_testkit::corpus::path("shogi/bulk/csa");
    kifu(&[
        "index",
        bulk.to_str().unwrap(),
        "-o",
        archive.to_str().unwrap(),
        "-q",
    ]);
    let record = bulk.join("game_0001.csa");
    let page = dir.path().join("game.html");
    kifu(&[
        "html",
        record.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
        "--archive",
        archive.to_str().unwrap(),
    ]);
    let record_read =
        &browser_harness::read::<kifu_shogi::Shogi>("shogi/bulk/csa/game_0001.csa")[0];
    let positions = browser_harness::main_line_positions(record_read);

    let b = browser().await;
    let c = &b.client;
    c.goto(&file_url(&page)).await.unwrap();
    for (ply, position) in positions.iter().enumerate().take(7) {
        let (games, expected) = explored(&archive, position);
        let shown = c
            .execute(
                "return {caption:document.getElementById('explorer-caption').textContent,\
                 rows:Array.from(document.querySelectorAll('#explorer-moves tr')).map(function(tr){\
                 return Array.from(tr.children).slice(0,5).map(function(td,i){\
                 return i==0?td.textContent:Number(td.textContent);});})};",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(shown["rows"], Value::Array(expected), "ply {ply}");
        assert!(
            shown["caption"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{games} of the archive's 500 games")),
            "ply {ply}: {shown}"
        );
        press(c, Key::Right).await;
    }
    let similar = c
        .execute(
            "return Array.from(document.querySelectorAll('#similar li[data-file]')).length;",
            vec![],
        )
        .await
        .unwrap();
    assert!(similar.as_u64().unwrap() > 0, "no similar game listed");
}
