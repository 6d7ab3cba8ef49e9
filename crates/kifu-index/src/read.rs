//! Reading a file's shogi records into what the index and the duplicate finder need: each
//! record replayed once into its facts, its moves' codes and the key of every position of its
//! main line.

use std::path::Path;

use kifu_export::meta::facts_of_parts;
use kifu_record::{Diagnostic, Game as _, HeaderField, SourceText};
use kifu_records::GameRecords;
use kifu_records::detect::GameKind;
use kifu_records::open::{Request, open};
use kifu_records::shogi::{MainLine, main_lines};
use kifu_shogi::{Handicap, Shogi};

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
    // Lines are indexed only for a file with a problem to show: most files have none, and
    // indexing a large file's lines costs as much as replaying its games.
    let source = std::cell::OnceCell::new();
    let keep = |problems: &mut Vec<String>, diagnostics: &[Diagnostic]| {
        for d in diagnostics.iter().filter(|d| d.is_error()) {
            if problems.len() < PROBLEMS_KEPT {
                let source = source.get_or_init(|| SourceText::new(name, &decoded.text));
                problems.push(source.render(d));
            }
        }
    };
    keep(&mut out.problems, &decoded.diagnostics);
    let decoding_failed = decoded.diagnostics.iter().any(Diagnostic::is_error);
    // Each record's main line, replayed once as it is read (CSA builds no move tree at all).
    for (index, line) in main_lines(fmt, &decoded.text).enumerate() {
        keep(&mut out.problems, &line.diagnostics);
        if decoding_failed || line.has_errors() {
            out.cut_at_error += 1;
        }
        let game = index_main_line(line, name, index as u32 + 1, fmt.name());
        if game.moves.len() == MAX_PLIES {
            out.cut_long += 1;
        }
        each(game);
    }
    out
}

/// The [`IndexedGame`] of a main line as read: the moves the reader replayed (up to
/// [`MAX_PLIES`]), the key of each position before them and after the last, and the facts.
fn index_main_line(line: MainLine, file: &str, number: u32, format: &str) -> IndexedGame {
    let MainLine {
        mut header,
        start,
        moves: played,
        mut hashes,
        ending,
        outcome,
        comments,
        comment_count,
        timed_nodes,
        diagnostics: _,
    } = line;
    let mut info = facts_of_parts(
        &header,
        Shogi::start_name(&start),
        &comments,
        ending.as_ref(),
    );
    info.set_outcome(outcome);
    let start_key = position_key(&start.position);
    let plies = played.len().min(MAX_PLIES);
    let moves: Vec<u16> = played[..plies].iter().copied().map(move_code).collect();
    // The key of each position before a move kept, then of the position after the last
    // (the position keys are the rules' hashes).
    hashes.truncate(plies + 1);
    let keys = hashes;
    let result = match (info.result, info.draw) {
        (Some(kifu_record::Side::First), _) => GameResult::BlackWin,
        (Some(kifu_record::Side::Second), _) => GameResult::WhiteWin,
        (None, true) => GameResult::Draw,
        (None, false) => GameResult::Unknown,
    };
    let start_time = header.start_time();
    let day = start_time.map(|d| days_from_civil(i32::from(d.year), d.month.into(), d.day.into()));
    let handicap = start.handicap;
    let detail = header.len() + comment_count + timed_nodes;
    let meta = GameMeta {
        game: 0,
        file: file.to_owned(),
        record: number,
        format: format.to_owned(),
        black: info.black,
        white: info.white,
        black_rating: info.black_rate,
        white_rating: info.white_rate,
        date: info.date,
        day: start_time.map(|d| format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)),
        event: header.get(HeaderField::Event).map(str::to_owned),
        time_control: header.get(HeaderField::TimeControl).map(str::to_owned),
        handicap: handicap.map(|h| h.kif_name().to_owned()),
        start: (handicap != Some(Handicap::Even)).then(|| start.position.to_sfen()),
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
        header: std::mem::take(header.entries_mut())
            .into_iter()
            .map(|e| (e.key, e.value))
            .collect(),
        detail,
    }
}
