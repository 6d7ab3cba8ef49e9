//! Standard shogi records: CSA, KIF/KIFU, KI2, JKF, USI.

use std::path::Path;

use kifu_record::{NodeItem, SourceText};
use kifu_shogi::formats::{Format, ShogiRecord, csa::CsaVersion, read_bytes};

use crate::report::FileReport;

pub fn format_of_path(path: &Path) -> Option<Format> {
    Format::from_path(path)
}

fn format_for(path: Option<&Path>, forced: Option<Format>, bytes: &[u8]) -> Format {
    forced
        .or_else(|| path.and_then(format_of_path))
        .unwrap_or_else(|| Format::sniff(&String::from_utf8_lossy(&bytes[..bytes.len().min(4096)])))
}

pub fn parse_format(name: &str) -> Result<Format, String> {
    Format::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!(
            "unknown shogi format `{name}` (one of: {})",
            names.join(", ")
        )
    })
}

pub fn plies(record: &ShogiRecord) -> usize {
    record
        .moves
        .main_line()
        .filter(|&id| matches!(record.moves[id].item, NodeItem::Move(_)))
        .count()
}

/// No start position written, no move and no ending.
fn holds_no_game(record: &ShogiRecord) -> bool {
    record.start_span.is_empty() && record.moves.is_empty()
}

/// Reads one file for conversion or display: records, and rendered diagnostics.
pub fn load(
    name: &str,
    path: Option<&Path>,
    forced: Option<Format>,
    bytes: &[u8],
) -> (Vec<ShogiRecord>, FileReport) {
    let format = format_for(path, forced, bytes);
    let (text, mut parsed) = read_bytes(bytes, format);
    // Readers hand back a record even when no line of the file was one of theirs (a stray `:`
    // in random bytes makes a header line). Without a move or a start position, and with lines
    // the reader could not use, there was no game in the file.
    let passed_over = !parsed.diagnostics.is_empty() && !parsed.has_errors();
    if passed_over && parsed.records.iter().all(holds_no_game) {
        parsed.records.clear();
    }
    let mut report = FileReport::new(name.to_string(), "shogi", format.name());
    report.records = parsed.records.len();
    report.plies = parsed.records.iter().map(plies).sum();
    report.add_diagnostics(&SourceText::new(name, &text), &parsed.diagnostics);
    (parsed.records, report)
}

pub fn write(
    records: &[ShogiRecord],
    to: Format,
    csa_version: CsaVersion,
) -> (Vec<u8>, Vec<String>) {
    to.encode(to.write(records, csa_version))
}

/// The moves of the main line up to the first one the rules refused (kept in the record,
/// but the game did not go on from it).
pub fn main_line_moves(record: &ShogiRecord) -> Vec<kifu_shogi::Move> {
    record
        .moves
        .main_line()
        .map(|id| &record.moves[id])
        .take_while(|node| !node.illegal)
        .filter_map(|node| match node.item {
            NodeItem::Move(mv) => Some(mv),
            _ => None,
        })
        .collect()
}

/// How `kifu show` draws a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The players, the KIF board diagram (BOD) with its `手数＝` line, and the SFEN.
    Board,
    /// The BOD alone, as KIF readers take it.
    Bod,
    /// SFEN alone.
    Sfen,
    /// The CSA position lines (`P1` … `P9`, hands, side to move).
    Csa,
}

/// The position after `ply` moves of the main line (at most the number of moves).
pub fn show(record: &ShogiRecord, ply: usize, view: View) -> String {
    use kifu_record::HeaderField;
    let moves = main_line_moves(record);
    let mut pos = record.start.position.clone();
    let mut before_last = None;
    for &mv in &moves[..ply] {
        before_last = Some((pos.clone(), mv));
        pos.play(mv);
    }
    // The library's writers draw the position: a record that starts there, with no moves.
    let at = ShogiRecord::new(kifu_shogi::formats::StartPosition {
        position: pos.clone(),
        handicap: None,
    });
    match view {
        View::Sfen => format!("{}\n", pos.to_sfen()),
        View::Csa => {
            let text = kifu_shogi::formats::csa::write(&at, CsaVersion::V22).text;
            text.lines()
                .filter(|l| l.starts_with('P') || *l == "+" || *l == "-")
                .map(|l| format!("{l}\n"))
                .collect()
        }
        View::Bod | View::Board => {
            let mut out = String::new();
            if view == View::Board {
                for (key, field) in [
                    ("先手", HeaderField::FirstPlayer),
                    ("後手", HeaderField::SecondPlayer),
                ] {
                    if let Some(v) = record.header.get(field) {
                        out.push_str(&format!("{key}：{v}\n"));
                    }
                }
            }
            out.push_str(&bod(&at));
            let title = match &before_last {
                Some((before, mv)) => {
                    let mark = match before.side_to_move() {
                        kifu_shogi::Color::Black => '▲',
                        kifu_shogi::Color::White => '△',
                    };
                    format!("手数＝{ply}  {mark}{}  まで\n", kif_move_text(before, *mv))
                }
                None => "手数＝0\n".to_string(),
            };
            // The BOD's closing line: after the hands and before the side to move.
            let side_line = out
                .rfind("先手番\n")
                .or_else(|| out.rfind("後手番\n"))
                .unwrap_or(out.len());
            out.insert_str(side_line, &title);
            if view == View::Board {
                out.push_str(&format!("SFEN: {}\n", pos.to_sfen()));
            }
            out
        }
    }
}

/// The KIF writer's board diagram of a record's start.
fn bod(at: &ShogiRecord) -> String {
    let text = kifu_shogi::formats::kif::write(at).text;
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        inside |= line.starts_with("後手の持駒") || line.starts_with("上手の持駒");
        if line.starts_with("手数----") {
            break;
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    if !out.contains("先手番") && !out.contains("後手番") {
        out.push_str(
            if at.start.position.side_to_move() == kifu_shogi::Color::Black {
                "先手番\n"
            } else {
                "後手番\n"
            },
        );
    }
    out
}

/// `３一金(32)`: the move as the KIF writer writes it.
fn kif_move_text(before: &kifu_shogi::Position, mv: kifu_shogi::Move) -> String {
    let mut one = ShogiRecord::new(kifu_shogi::formats::StartPosition {
        position: before.clone(),
        handicap: None,
    });
    let root = one.moves.root();
    one.moves.add_move(root, mv, kifu_record::Span::default());
    let text = kifu_shogi::formats::kif::write(&one).text;
    text.lines()
        .skip_while(|l| !l.starts_with("手数----"))
        .nth(1)
        .and_then(|l| l.split_ascii_whitespace().nth(1))
        .map(str::to_string)
        .unwrap_or_else(|| mv.to_string())
}
