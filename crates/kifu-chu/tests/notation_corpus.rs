//! Round trips over the corpus's `chu/notation/`: every lishogi rendering (Western, Western
//! engine, Japanese) of every move reads back to the recorded USI move (or a route to the same
//! position), and so do our own Western and Japanese renderings.

use std::collections::HashMap;

use kifu_chu::notation::{Dialect, japanese, parse_move, western};
use kifu_chu::{Move, Position, parse_usi};

/// A file of the corpus folder `chu`.
fn chu(rel: &str) -> std::path::PathBuf {
    kifu_testkit::corpus::path(&format!("chu/{rel}"))
}

fn same_position(pos: &Position, a: Move, b: Move) -> bool {
    let mut x = pos.clone();
    x.play_unchecked(a);
    let mut y = pos.clone();
    y.play_unchecked(b);
    x.repetition_key() == y.repetition_key()
}

fn games() -> HashMap<String, (Position, Vec<String>)> {
    let text = std::fs::read_to_string(chu("lishogi-games.ndjson")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["id"].as_str().unwrap().to_string(),
                (
                    Position::from_sfen(v["initial_sfen"].as_str().unwrap()).unwrap(),
                    v["moves"]
                        .as_str()
                        .unwrap()
                        .split_whitespace()
                        .map(String::from)
                        .collect(),
                ),
            )
        })
        .collect()
}

/// Reads every rendering; returns the failures.
fn check(suffix: &str, dialect: Dialect) {
    let failures = failures(suffix, dialect);
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

fn failures(suffix: &str, dialect: Dialect) -> Vec<String> {
    let games = games();
    let mut failures = Vec::new();
    let mut total = 0;
    for (id, (start, moves)) in &games {
        let path = chu(&format!("notation/{id}.{suffix}.tsv"))
            .display()
            .to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut pos = start.clone();
        let mut previous = None;
        for (ply, (line, usi)) in text.lines().zip(moves).enumerate() {
            let (u, notation) = line.split_once('\t').unwrap();
            assert_eq!(u, usi, "{path}: line {}", ply + 1);
            let m = parse_usi(usi).unwrap();
            total += 1;
            match parse_move(&pos, notation, dialect, previous) {
                Ok(p)
                    if same_position(&pos, p.mv, m)
                        && (p.warnings.is_empty() || dialect == Dialect::Csl) => {}
                Ok(p) => failures.push(format!(
                    "{id} ply {}: `{notation}` read as {} not {usi}",
                    ply + 1,
                    p.mv
                )),
                Err(e) => failures.push(format!("{id} ply {}: `{notation}` ({usi}): {e}", ply + 1)),
            }
            previous = Some(m.to());
            pos.play_unchecked(m);
        }
    }
    assert!(total > 2400, "{total}");
    failures
}

#[test]
fn lishogi_western_engine_notation_reads_back() {
    check("western-engine", Dialect::LishogiEngine);
}

/// Issue 12 case 13: read as CSL, lishogi's engine notation replays exactly. lishogi writes a
/// pawn capture `Px7f`, which the CSL move-notation post would also allow as its phoenix alias
/// `Px`; with an enemy piece on the square the `x` is the capture mark, and where the phoenix
/// could capture there too the reader says so.
#[test]
fn lishogi_western_engine_notation_as_csl() {
    let failures = failures("western-engine", Dialect::Csl);
    assert!(failures.is_empty(), "{failures:#?}");
    let mut both_readings = 0;
    for (id, (start, moves)) in games() {
        let text =
            std::fs::read_to_string(chu(&format!("notation/{id}.western-engine.tsv"))).unwrap();
        let mut pos = start;
        for (line, usi) in text.lines().zip(&moves) {
            let notation = line.split_once('\t').unwrap().1;
            let m = parse_usi(usi).unwrap();
            if notation.starts_with("Px") {
                let p = parse_move(&pos, notation, Dialect::Csl, None).unwrap();
                assert_eq!(p.mv, m, "{id}: {notation}");
                if !p.warnings.is_empty() {
                    both_readings += 1;
                    assert!(p.warnings[0].contains("phoenix alias"), "{:?}", p.warnings);
                }
            }
            pos.play_unchecked(m);
        }
    }
    assert!(
        both_readings >= 1,
        "the corpus has pawn captures a phoenix could also make"
    );
}

#[test]
fn lishogi_western_notation_reads_back() {
    check("western", Dialect::LishogiWestern);
}

#[test]
fn lishogi_japanese_notation_reads_back() {
    check("japanese", Dialect::Csl);
}

#[test]
fn our_renderings_read_back() {
    let mut failures = Vec::new();
    for (id, (start, moves)) in games() {
        let mut pos = start;
        for (ply, usi) in moves.iter().enumerate() {
            let m = parse_usi(usi).unwrap();
            for (text, kind) in [
                (western(&pos, m), "western"),
                (japanese(&pos, m), "japanese"),
            ] {
                match parse_move(&pos, &text, Dialect::Csl, None) {
                    Ok(p) if same_position(&pos, p.mv, m) && p.warnings.is_empty() => {}
                    other => failures.push(format!(
                        "{id} ply {}: {kind} `{text}` for {usi}: {other:?}",
                        ply + 1
                    )),
                }
            }
            pos.play_unchecked(m);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

/// Every legal move of the 283 perft positions (promoted pieces, lions in the middle game, a
/// counter-strike square): both renderings read back.
#[test]
fn every_move_of_the_perft_positions_reads_back() {
    let table = std::fs::read_to_string(chu("perft.tsv")).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let sfen = line.split('\t').next().unwrap();
        let pos = Position::from_sfen(sfen).unwrap();
        for &m in pos.legal_moves().iter() {
            for text in [western(&pos, m), japanese(&pos, m)] {
                checked += 1;
                match parse_move(&pos, &text, Dialect::Csl, None) {
                    Ok(p) if same_position(&pos, p.mv, m) && p.warnings.is_empty() => {}
                    other => failures.push(format!("{sfen}: {m} as `{text}`: {other:?}")),
                }
            }
        }
    }
    assert!(checked > 60_000, "{checked}");
    assert!(
        failures.is_empty(),
        "{} of {checked} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}
