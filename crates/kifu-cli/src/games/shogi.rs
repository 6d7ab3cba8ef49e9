//! Standard shogi records: CSA, KIF/KIFU, KI2, JKF, USI.

use std::path::Path;

use kifu_record::{NodeItem, SourceText};
use kifu_shogi::Position;
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

pub fn check(name: &str, path: Option<&Path>, forced: Option<Format>, bytes: &[u8]) -> FileReport {
    load(name, path, forced, bytes).1
}

/// Reads one file for conversion or display: records, and rendered diagnostics.
pub fn load(
    name: &str,
    path: Option<&Path>,
    forced: Option<Format>,
    bytes: &[u8],
) -> (Vec<ShogiRecord>, FileReport) {
    let format = format_for(path, forced, bytes);
    let (text, parsed) = read_bytes(bytes, format);
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

/// The position after `ply` moves of the main line (all of them when `None`), with the last move.
pub fn position_at(
    record: &ShogiRecord,
    ply: Option<usize>,
) -> (Position, usize, Option<kifu_shogi::Move>) {
    let mut pos = record.start.position.clone();
    let mut last = None;
    let mut played = 0;
    for id in record.moves.main_line() {
        if ply.is_some_and(|n| played >= n) {
            break;
        }
        if let NodeItem::Move(mv) = &record.moves[id].item {
            if pos.check_move(*mv).is_err() {
                break;
            }
            pos.play(*mv);
            last = Some(*mv);
            played += 1;
        }
    }
    (pos, played, last)
}

/// Players, the last move and the board after `ply` moves of the main line.
pub fn show(record: &ShogiRecord, ply: Option<usize>) -> String {
    use kifu_record::HeaderField;
    let (pos, played, last) = position_at(record, ply);
    let mut out = String::new();
    let players = [
        ("先手", record.header.get(HeaderField::FirstPlayer)),
        ("後手", record.header.get(HeaderField::SecondPlayer)),
    ];
    for (key, value) in players {
        if let Some(v) = value {
            out.push_str(&format!("{key}：{v}\n"));
        }
    }
    match last {
        Some(mv) => out.push_str(&format!("手数＝{played}  {mv}  まで\n")),
        None => out.push_str("手数＝0\n"),
    }
    out.push_str(&pos.diagram());
    out.push_str(&format!("SFEN: {}\n", pos.to_sfen()));
    out
}
