//! Standard shogi records: CSA, KIF/KIFU, KI2, JKF, USI.

use std::path::Path;

use kifu_record::{Diagnostic, NodeItem, SourceText, decode};
use kifu_records::shogi::{Format, ShogiRecord, csa::CsaVersion};

use crate::error::CliError;
use crate::report::FileReport;

pub fn format_of_path(path: &Path) -> Option<Format> {
    Format::from_path(path)
}

fn format_for(path: Option<&Path>, forced: Option<Format>, bytes: &[u8]) -> Format {
    forced
        .or_else(|| path.and_then(format_of_path))
        .unwrap_or_else(|| Format::sniff(&super::lossy_utf8(&bytes[..bytes.len().min(4096)])))
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

/// Reads a file one record at a time (issue 11 case 6: an archive of 100,000 games is checked
/// or split in memory bounded by its largest game): each record, with its index from 0 and
/// whether reading it found errors, goes to `each` and is dropped before the next is read.
/// With `only`, the other records are read past but neither reported nor handed out.
/// Returns what reading found; `only` past the last record is a usage error.
pub fn stream(
    name: &str,
    path: Option<&Path>,
    forced: Option<Format>,
    bytes: &[u8],
    only: Option<usize>,
    each: &mut dyn FnMut(usize, ShogiRecord, bool) -> Result<(), CliError>,
) -> Result<FileReport, CliError> {
    let format = format_for(path, forced, bytes);
    let decoded = decode(bytes, format.encoding());
    // The line index that turns spans into line:column costs 8 bytes a line (128 MB for a
    // 100 MB CSA archive): built only once there is something to report.
    let mut source = None;
    let mut report = FileReport::new(name.to_string(), "shogi", format.name());
    let mut add = |report: &mut FileReport, diagnostics: &[Diagnostic]| {
        if !diagnostics.is_empty() {
            let source = source.get_or_insert_with(|| SourceText::new(name, &decoded.text));
            report.add_diagnostics(source, diagnostics);
        }
    };
    add(&mut report, &decoded.diagnostics);
    let decoding_failed = decoded.diagnostics.iter().any(Diagnostic::is_error);
    let mut count = 0;
    for (index, read) in format.records(&decoded.text).enumerate() {
        count += 1;
        if only.is_some_and(|n| n != index) {
            continue;
        }
        report.records += 1;
        report.plies += plies(&read.record);
        add(&mut report, &read.diagnostics);
        let valid = !decoding_failed && !read.has_errors();
        each(index, read.record, valid)?;
    }
    if let Some(n) = only
        && n >= count
    {
        return Err(crate::games::no_such_record(n + 1, count, name));
    }
    Ok(report)
}

/// Reads every record of one file (for conversion to one file, or display).
pub fn load(
    name: &str,
    path: Option<&Path>,
    forced: Option<Format>,
    bytes: &[u8],
) -> (Vec<ShogiRecord>, FileReport) {
    let mut records = Vec::new();
    let report = stream(name, path, forced, bytes, None, &mut |_, record, _| {
        records.push(record);
        Ok(())
    })
    .expect("collecting records cannot fail");
    (records, report)
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

/// The position after `ply` moves of the main line (at most the number of moves), drawn by
/// the library's position writers.
pub fn show(record: &ShogiRecord, ply: usize, view: View) -> String {
    use kifu_record::HeaderField;
    use kifu_records::shogi::{csa, kif};
    let moves = main_line_moves(record);
    let mut pos = record.start.position.clone();
    for &mv in &moves[..ply] {
        pos.play_unchecked(mv);
    }
    let last = ply.checked_sub(1).map(|i| moves[i]);
    match view {
        View::Sfen => format!("{}\n", pos.to_sfen()),
        View::Csa => csa::write_position(&pos),
        View::Bod => kif::write_bod(&pos, last),
        View::Board => {
            let mut out = String::new();
            for (key, field) in [
                ("先手", HeaderField::FirstPlayer),
                ("後手", HeaderField::SecondPlayer),
            ] {
                if let Some(v) = record.header.get(field) {
                    out.push_str(&format!("{key}：{v}\n"));
                }
            }
            out.push_str(&kif::write_bod(&pos, last));
            out.push_str(&format!("SFEN: {}\n", pos.to_sfen()));
            out
        }
    }
}
