//! Reading a file's shogi records into what the index and the duplicate finder need: each
//! record replayed once into its facts, its moves' codes and the key of every position of its
//! main line.

use std::path::Path;

use kifu_export::meta::{game_facts, outcome_after};
use kifu_record::{Diagnostic, Game as _, HeaderField, NodeItem, Record, SourceText};
use kifu_records::GameRecords;
use kifu_records::detect::GameKind;
use kifu_records::open::{Request, open};
use kifu_shogi::{Handicap, Move, Position, Shogi};

use crate::games::{GameMeta, GameResult, GameSummary, days_from_civil};
use crate::key::{game_key, hex, move_code, position_key};

/// The longest main line indexed: a ply is a `u16` in the position file. No real game comes
/// near it; a longer record is indexed up to it and counted in [`FileGames::cut_long`].
pub const MAX_PLIES: usize = u16::MAX as usize - 1;

/// One record, replayed.
#[derive(Clone, Debug)]
pub struct IndexedGame {
    /// Its facts; `game` is set when it is added to an archive.
    pub meta: GameMeta,
    /// The fixed-size facts the explorer tallies.
    pub summary: GameSummary,
    /// The key of the start position.
    pub start_key: u64,
    /// The code of each main-line move that replays ([`crate::key::move_code`]).
    pub moves: Vec<u16>,
    /// The key of the position before each move and after the last: `moves.len() + 1` keys.
    pub keys: Vec<u64>,
    /// The header as written (key, value), for telling copies of a game apart.
    pub header: Vec<(String, String)>,
    /// How much the record holds beyond its moves (header entries, comments, move times):
    /// of two copies of a game, the one to keep is the one with more.
    pub detail: usize,
}

/// What reading one file gave.
#[derive(Debug, Default)]
pub struct FileGames {
    /// The file's shogi records, replayed, in file order.
    pub games: Vec<IndexedGame>,
    /// Records whose text or moves had errors: indexed up to the first bad move.
    pub cut_at_error: usize,
    /// Records longer than [`MAX_PLIES`], indexed up to it.
    pub cut_long: usize,
    /// The first problems found, rendered `file:line:column: …`.
    pub problems: Vec<String>,
    /// Why nothing could be read from the file, if so.
    pub failed: Option<String>,
}

/// How many problems of one file are kept for the report.
const PROBLEMS_KEPT: usize = 20;

/// Reads the shogi records of one file. `name` is the file as the user named it (kept in the
/// games table), `path` its path for the format's extension, `format` a format name that
/// overrides extension and content.
pub fn read_file(name: &str, path: Option<&Path>, bytes: &[u8], format: Option<&str>) -> FileGames {
    let mut games = Vec::new();
    let mut out = read_file_each(name, path, bytes, format, |game| games.push(game));
    out.games = games;
    out
}

/// [`read_file`] handing each game to `each` as it is replayed instead of keeping them
/// (`games` of the answer stays empty), so that a file of a million records is never held
/// replayed as a whole.
pub fn read_file_each(
    name: &str,
    path: Option<&Path>,
    bytes: &[u8],
    format: Option<&str>,
    mut each: impl FnMut(IndexedGame),
) -> FileGames {
    let mut out = FileGames::default();
    // The records layer's front door decides the game and the format, as for every command:
    // one decode, the text judged with the extension as a hint. A format named here is a
    // shogi format (the index holds shogi only).
    let request = Request {
        path,
        game: format.map(|_| GameKind::Shogi),
        format,
    };
    let opened = match open(bytes, &request) {
        Ok(opened) => opened,
        Err(e) => {
            out.failed = Some(e.to_string());
            return out;
        }
    };
    if opened.game != GameKind::Shogi {
        out.failed = Some(format!(
            "holds {} records; the index holds shogi only",
            match opened.game {
                GameKind::Chu => "chu shogi",
                _ => "cetkaik",
            }
        ));
        return out;
    }
    let Some(fmt) = Shogi::format_by_name(opened.format) else {
        // The door names formats from the game's own table.
        out.failed = Some(format!("no shogi format `{}`", opened.format));
        return out;
    };
    let decoded = opened.decoded;
    let source = SourceText::new(name, &decoded.text);
    let keep = |problems: &mut Vec<String>, diagnostics: &[Diagnostic]| {
        for d in diagnostics.iter().filter(|d| d.is_error()) {
            if problems.len() < PROBLEMS_KEPT {
                problems.push(source.render(d));
            }
        }
    };
    keep(&mut out.problems, &decoded.diagnostics);
    let decoding_failed = decoded.diagnostics.iter().any(Diagnostic::is_error);
    for (index, read) in fmt.records(&decoded.text).enumerate() {
        keep(&mut out.problems, &read.diagnostics);
        if decoding_failed || read.has_errors() {
            out.cut_at_error += 1;
        }
        let game = replay_as_read(&read.record, name, index as u32 + 1, fmt.name());
        if game.moves.len() == MAX_PLIES {
            out.cut_long += 1;
        }
        each(game);
    }
    out
}

/// Replays one record's main line into an [`IndexedGame`], each move checked by the rules.
pub fn replay(record: &Record<Shogi>, file: &str, number: u32, format: &str) -> IndexedGame {
    replay_main_line(record, file, number, format, Checks::Rules)
}

/// [`replay`] of a record a reader of `kifu-records` gave: the reader replayed it under the
/// rules and kept a move they refuse only marked illegal, so the main line up to the first
/// such move is played without checking each move a second time.
fn replay_as_read(record: &Record<Shogi>, file: &str, number: u32, format: &str) -> IndexedGame {
    replay_main_line(record, file, number, format, Checks::DoneByReader)
}

/// Whether the moves of a record's main line still need the rules' check.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Checks {
    Rules,
    DoneByReader,
}

fn replay_main_line(
    record: &Record<Shogi>,
    file: &str,
    number: u32,
    format: &str,
    checks: Checks,
) -> IndexedGame {
    let mut info = game_facts(record);
    let start = Shogi::start_position(&record.start);
    let start_key = position_key(&start);
    let plies = record.main_line_plies().min(MAX_PLIES);
    let mut moves = Vec::with_capacity(plies);
    let mut keys = Vec::with_capacity(plies + 1);
    let mut visit = |position: &Position, mv: Move| {
        if moves.len() < MAX_PLIES {
            keys.push(position_key(position));
            moves.push(move_code(mv));
        }
    };
    let (last, end) = match checks {
        Checks::Rules => record.walk_main_line(|_, position, &mv| visit(position, mv)),
        Checks::DoneByReader => {
            let tree = &record.moves;
            let mut position = start.clone();
            position.reserve(plies);
            let mut last = tree.root();
            while let Some(id) = tree.main_child(last) {
                let node = &tree[id];
                let NodeItem::Move(mv) = node.item else {
                    break;
                };
                if node.illegal {
                    break;
                }
                visit(&position, mv);
                position.play_unchecked(mv);
                last = id;
            }
            (last, position)
        }
    };
    // The key after the last move: of the end position when the whole line was kept, else
    // of the position before the first move left out.
    if moves.len() < MAX_PLIES {
        keys.push(position_key(&end));
    } else {
        let mut position = start.clone();
        for &code in &moves {
            if let Some(mv) = crate::key::move_of_code(code) {
                position.play_unchecked(mv);
            }
        }
        keys.push(position_key(&position));
    }
    info.set_outcome(outcome_after(record, last, &end));
    let result = match (info.result, info.draw) {
        (Some(kifu_record::Side::First), _) => GameResult::BlackWin,
        (Some(kifu_record::Side::Second), _) => GameResult::WhiteWin,
        (None, true) => GameResult::Draw,
        (None, false) => GameResult::Unknown,
    };
    let header = &record.header;
    let start_time = header.start_time();
    let day = start_time.map(|d| days_from_civil(i32::from(d.year), d.month.into(), d.day.into()));
    let handicap = record.start.handicap;
    let detail = header.len()
        + record
            .moves
            .ids()
            .map(|id| {
                let node = &record.moves[id];
                node.comments.len() + usize::from(node.time_ms.is_some())
            })
            .sum::<usize>();
    let meta = GameMeta {
        game: 0,
        file: file.to_owned(),
        record: number,
        format: format.to_owned(),
        black: info.black.clone(),
        white: info.white.clone(),
        black_rating: info.black_rate,
        white_rating: info.white_rate,
        date: info.date.clone(),
        day: start_time.map(|d| format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)),
        event: header.get(HeaderField::Event).map(str::to_owned),
        time_control: header.get(HeaderField::TimeControl).map(str::to_owned),
        handicap: handicap.map(|h| h.kif_name().to_owned()),
        start: (handicap != Some(Handicap::Even)).then(|| start.to_sfen()),
        result,
        ending: info.ending.name().to_owned(),
        plies: moves.len() as u32,
        game_key: hex(game_key(&keys)),
    };
    let summary = GameSummary {
        result,
        plies: moves.len() as u32,
        black_rating: info.black_rate.map(|r| r as f32),
        white_rating: info.white_rate.map(|r| r as f32),
        day,
    };
    IndexedGame {
        meta,
        summary,
        start_key,
        moves,
        keys,
        header: header
            .entries()
            .iter()
            .map(|e| (e.key.clone(), e.value.clone()))
            .collect(),
        detail,
    }
}
