//! Archives built from the corpus answer as a plain recount does: the recount replays every
//! record and groups positions by their SFEN text (no keys, no archive), so the position key,
//! the sorted files, the segments and the queries are all checked against it.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use kifu_index::archive::Archive;
use kifu_index::dedup::{DedupOptions, groups};
use kifu_index::query::{self, Filter};
use kifu_index::read::{IndexedGame, read_file};
use kifu_index::writer::ArchiveWriter;
use kifu_shogi::Position;

fn bulk(folder: &str, ext: &str) -> Vec<PathBuf> {
    kifu_testkit::corpus::files(&format!("shogi/bulk/{folder}"), ext)
}

fn read_all(files: &[PathBuf]) -> Vec<IndexedGame> {
    files
        .iter()
        .flat_map(|f| {
            let bytes = std::fs::read(f).unwrap();
            let name = f.display().to_string();
            let read = read_file(&name, Some(f), &bytes, None);
            assert!(
                read.failed.is_none() && read.cut_at_error == 0,
                "{name}: {:?}",
                read.problems
            );
            read.games
        })
        .collect()
}

fn build(dir: &Path, parts: &[&[IndexedGame]], run_entries: usize) {
    for (i, part) in parts.iter().enumerate() {
        let mut w = if i == 0 {
            ArchiveWriter::create(dir).unwrap()
        } else {
            ArchiveWriter::append(dir).unwrap()
        };
        w.set_run_entries(run_entries);
        for g in *part {
            w.add(g).unwrap();
        }
        w.finish().unwrap();
    }
}

/// SFEN without its move number: what a position key stands for.
fn plain(p: &Position) -> String {
    p.to_sfen().rsplit_once(' ').unwrap().0.to_owned()
}

/// The recount: per position text, each game's first ply and the moves each game played.
struct Recount {
    first_ply: HashMap<String, BTreeMap<u32, u16>>,
    moves: HashMap<String, BTreeMap<String, HashSet<u32>>>,
}

fn recount(games: &[IndexedGame]) -> Recount {
    let mut r = Recount {
        first_ply: HashMap::new(),
        moves: HashMap::new(),
    };
    for (number, g) in games.iter().enumerate() {
        let number = number as u32;
        let mut position = match &g.meta.start {
            Some(sfen) => Position::from_sfen(sfen).unwrap(),
            None => Position::startpos(),
        };
        for ply in 0..=g.moves.len() {
            let text = plain(&position);
            r.first_ply
                .entry(text.clone())
                .or_default()
                .entry(number)
                .or_insert(ply as u16);
            if let Some(&code) = g.moves.get(ply) {
                let mv = kifu_index::key::move_of_code(code).unwrap();
                r.moves
                    .entry(text)
                    .or_default()
                    .entry(mv.usi())
                    .or_default()
                    .insert(number);
                position.play(mv).unwrap();
            }
        }
    }
    r
}

fn assert_answers(archive: &Archive, r: &Recount, positions: &[String]) {
    for text in positions {
        let position = query::parse_position(text).unwrap();
        let found = query::find(archive, &position, &Filter::default(), None).unwrap();
        let got: Vec<(u32, u16)> = found.iter().map(|g| (g.game, g.ply)).collect();
        let want: Vec<(u32, u16)> = r.first_ply[text].iter().map(|(&g, &p)| (g, p)).collect();
        assert_eq!(got, want, "find {text}");
        let explored = query::explore(archive, &position, &Filter::default(), 3).unwrap();
        let got: BTreeMap<String, u64> = explored
            .moves
            .iter()
            .map(|m| (m.mv.clone(), m.games))
            .collect();
        let want: BTreeMap<String, u64> = r
            .moves
            .get(text)
            .map(|m| {
                m.iter()
                    .map(|(mv, g)| (mv.clone(), g.len() as u64))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(got, want, "explore {text}");
        assert_eq!(explored.games, want_games(r, text));
    }
}

fn want_games(r: &Recount, text: &str) -> u64 {
    r.first_ply[text].len() as u64
}

/// Positions to ask: the start, and the positions the most games reached by several plies
/// or move orders (transpositions), and some reached by one game only.
fn positions_to_ask(r: &Recount) -> Vec<String> {
    let mut by_games: Vec<(&String, usize)> =
        r.first_ply.iter().map(|(p, g)| (p, g.len())).collect();
    by_games.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut out: Vec<String> = by_games
        .iter()
        .take(40)
        .map(|(p, _)| (*p).clone())
        .collect();
    out.extend(by_games.iter().rev().take(20).map(|(p, _)| (*p).clone()));
    out
}

#[test]
fn explore_and_find_agree_with_a_recount_across_segments_and_spills() {
    let games = read_all(&bulk("csa", "csa"));
    assert_eq!(games.len(), 500);
    let r = recount(&games);
    let asked = positions_to_ask(&r);
    let dir = tempfile::tempdir().unwrap();
    // One run in memory; the same games spilled in many small runs; in three segments.
    let whole = dir.path().join("whole.kidx");
    build(&whole, &[&games], usize::MAX);
    let spilled = dir.path().join("spilled.kidx");
    build(&spilled, &[&games], 5_000);
    // A budget so small that the bucket of the start position (every game's first entry)
    // is larger than its share, and is sorted in runs merged from disk.
    let tight = dir.path().join("tight.kidx");
    build(&tight, &[&games], 400);
    let parts = dir.path().join("parts.kidx");
    build(
        &parts,
        &[&games[..100], &games[100..101], &games[101..]],
        7_000,
    );
    assert_eq!(
        std::fs::read(whole.join("positions-0001.bin")).unwrap(),
        std::fs::read(spilled.join("positions-0001.bin")).unwrap(),
        "a spilled and merged segment is the segment sorted in memory"
    );
    assert_eq!(
        std::fs::read(whole.join("positions-0001.bin")).unwrap(),
        std::fs::read(tight.join("positions-0001.bin")).unwrap(),
        "a bucket sorted in runs is the bucket sorted in memory"
    );
    assert!(
        std::fs::read_dir(&tight)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .all(|name| !name.ends_with(".tmp") && !name.contains(".run")),
        "no temporary file is left"
    );
    for path in [&whole, &spilled, &parts] {
        let archive = Archive::open(path).unwrap();
        assert_eq!(archive.games(), 500);
        assert_answers(&archive, &r, &asked);
    }
    assert_eq!(Archive::open(&parts).unwrap().manifest().segments.len(), 3);
    // 16 bytes per position, nothing else in the position files.
    let positions: u64 = games.iter().map(|g| g.keys.len() as u64).sum();
    assert_eq!(
        std::fs::metadata(whole.join("positions-0001.bin"))
            .unwrap()
            .len(),
        16 * positions
    );
}

#[test]
fn filters_narrow_the_games() {
    let mut games = read_all(&bulk("csa", "csa"));
    // The bulk games carry no ratings: two floodgate-style games do.
    let rated = "V2.2\nN+strong\nN-weak\n'black_rate:strong+ab:3100.0\n'white_rate:weak+cd:2900\n\
                 PI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nV2.2\nN+a\nN-b\n'black_rate:a:3200\n\
                 'white_rate:b:3300\nPI\n+\n+2726FU\n-8384FU\n%CHUDAN\n";
    games.extend(read_file("rated.csa", None, rated.as_bytes(), None).games);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.kidx");
    build(&path, &[&games], usize::MAX);
    let archive = Archive::open(&path).unwrap();
    let start = Position::startpos();
    let all = query::find(&archive, &start, &Filter::default(), None).unwrap();
    let check = |filter: Filter, keep: &dyn Fn(&IndexedGame) -> bool| {
        let got: Vec<u32> = query::find(&archive, &start, &filter, None)
            .unwrap()
            .iter()
            .map(|g| g.game)
            .collect();
        let want: Vec<u32> = (0..games.len() as u32)
            .filter(|&i| keep(&games[i as usize]))
            .collect();
        assert_eq!(got, want);
        assert!(!want.is_empty() && want.len() < all.len());
        let explored = query::explore(&archive, &start, &filter, 1).unwrap();
        assert_eq!(explored.games, want.len() as u64);
    };
    let name = games[0].meta.black.clone().unwrap();
    check(
        Filter {
            player: Some(name.to_uppercase()),
            ..Filter::default()
        },
        &|g| {
            [&g.meta.black, &g.meta.white].iter().any(|p| {
                p.as_deref()
                    .is_some_and(|p| p.to_lowercase().contains(&name.to_lowercase()))
            })
        },
    );
    check(
        Filter {
            min_rating: Some(3000.0),
            ..Filter::default()
        },
        &|g| {
            g.meta.black_rating.is_some_and(|r| r as f32 >= 3000.0)
                && g.meta.white_rating.is_some_and(|r| r as f32 >= 3000.0)
        },
    );
    check(
        Filter {
            result: Some(kifu_index::games::GameResult::WhiteWin),
            ..Filter::default()
        },
        &|g| g.meta.result == kifu_index::games::GameResult::WhiteWin,
    );
    let day = games[250].summary.day.unwrap();
    check(
        Filter {
            from_day: Some(day),
            ..Filter::default()
        },
        &|g| g.summary.day.is_some_and(|d| d >= day),
    );
}

#[test]
fn the_same_games_in_three_formats_are_500_groups_of_three_and_a_cut_copy_is_found() {
    let mut files = bulk("csa", "csa");
    files.extend(bulk("kif", "kif"));
    files.extend(bulk("kifu", "kifu"));
    let mut games = read_all(&files);
    assert_eq!(games.len(), 1500);
    let found = groups(&games, DedupOptions::default());
    assert_eq!(found.len(), 500);
    for g in &found {
        assert_eq!(g.members.len(), 3);
        let formats: HashSet<&str> = g
            .members
            .iter()
            .map(|m| games[m.index].meta.format.as_str())
            .collect();
        assert_eq!(formats.len(), 3, "one record of each format: {formats:?}");
        assert!(g.members.iter().all(|m| !m.truncated));
    }
    // A copy of game 7's KIF cut after 40 moves, with no ending, joins its group as truncated.
    let kif = kifu_testkit::corpus::path("shogi/bulk/kif/game_0007.kif");
    // The file is Shift_JIS: cut it as bytes, before the line of move 41.
    let bytes = std::fs::read(&kif).unwrap();
    let mut cut = Vec::new();
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        if line.trim_ascii_start().starts_with(b"41 ") {
            break;
        }
        cut.extend_from_slice(line);
    }
    let read = read_file("cut.kif", Some(Path::new("cut.kif")), &cut, None);
    assert_eq!(read.games.len(), 1);
    assert_eq!(read.games[0].moves.len(), 40);
    games.extend(read.games);
    let found = groups(&games, DedupOptions::default());
    assert_eq!(found.len(), 500);
    let with_cut = found.iter().find(|g| g.members.len() == 4).unwrap();
    let truncated: Vec<&str> = with_cut
        .members
        .iter()
        .filter(|m| m.truncated)
        .map(|m| games[m.index].meta.file.as_str())
        .collect();
    assert_eq!(truncated, ["cut.kif"]);
    assert_ne!(games[with_cut.keep].meta.file, "cut.kif");
}
