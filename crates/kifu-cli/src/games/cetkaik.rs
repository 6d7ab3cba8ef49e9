//! Cetkaik (机戦) records: CKKA files in all four notations.

use std::path::Path;

use kifu_cetkaik::Rules;
use kifu_record::SourceText;
use kifu_records::cetkaik::{self as ckka, GameRecord, Notation};

use crate::report::FileReport;

pub fn wants(path: &Path, explicit: bool) -> bool {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some(e) if is_ckka_extension(e) => true,
        Some("txt" | "json") => explicit,
        _ => false,
    }
}

/// `.ckka`, and `.ckka0` … `.ckka3` for a file that says its notation in its name.
pub fn is_ckka_extension(ext: &str) -> bool {
    matches!(ext, "ckka" | "ckka0" | "ckka1" | "ckka2" | "ckka3")
}

/// `ckka` (notation ⓪), `ckka1`, `ckka2`, `ckka3`, or `json`.
pub fn parse_target(name: &str) -> Result<Option<Notation>, String> {
    Ok(Some(match name {
        "ckka" | "ckka0" => Notation::Full,
        "ckka1" => Notation::Abbreviated,
        "ckka2" => Notation::Phonetic,
        "ckka3" => Notation::Mrf,
        "json" => return Ok(None),
        other => {
            return Err(format!(
                "unknown cetkaik format `{other}` (one of: ckka, ckka1, ckka2, ckka3, json)"
            ));
        }
    }))
}

pub fn rules(name: Option<&str>) -> Result<Rules, String> {
    match name {
        None => Ok(Rules::standard()),
        Some(n) => Rules::by_name(n).ok_or_else(|| format!("unknown cetkaik rule set `{n}`")),
    }
}

/// Reads a record. `format` (`--format`) forces kifu's JSON form (`json`) or CKKA text (`ckka`,
/// `ckka0` … `ckka3`); without it the content decides.
pub fn load(
    name: &str,
    format: Option<&str>,
    bytes: &[u8],
    rules: Rules,
) -> (Option<GameRecord>, FileReport) {
    let json = match format.map(parse_target).transpose() {
        Ok(forced) => forced.map(|n| n.is_none()),
        Err(e) => {
            return (
                None,
                FileReport::failed(name.to_string(), "cetkaik", "?", e),
            );
        }
    };
    // UTF-16 without a byte-order mark is valid UTF-8 full of NULs: refuse it, do not read it
    // as a text with nothing in it.
    let decoded = match bytes.iter().position(|&b| b == 0) {
        Some(at) => Err(format!(
            "a NUL byte at offset {at}: UTF-16 or binary data? CKKA files must be UTF-8"
        )),
        None => std::str::from_utf8(bytes).map_err(|e| {
            format!(
                "not UTF-8 (byte {}): CKKA files must be UTF-8",
                e.valid_up_to()
            )
        }),
    };
    let text = match decoded {
        Ok(t) => t,
        Err(msg) => {
            return (
                None,
                FileReport::failed(name.to_string(), "cetkaik", "ckka", msg),
            );
        }
    };
    let is_json = json.unwrap_or_else(|| ckka::json::looks_like_kifu_json(text));
    let (record, parse_diags) = match json {
        Some(true) => ckka::json::parse_json(text),
        Some(false) => ckka::parse_text(text),
        None => ckka::parse(text),
    };
    let (game, diagnostics) = ckka::replay_detecting_rules(&record, parse_diags, rules);
    let format = if is_json { "json" } else { "ckka" };
    let mut report = FileReport::new(name.to_string(), "cetkaik", format);
    report.records = 1;
    report.plies = game.seasons.iter().map(|s| s.events.len()).sum();
    report.add_diagnostics(&SourceText::new(name, text), &diagnostics);
    (Some(game), report)
}

/// The written record and what the target could not hold of it.
pub fn write(game: &GameRecord, to: Option<Notation>) -> (Vec<u8>, Vec<String>) {
    match to {
        Some(n) => (
            ckka::write::write(game, n).into_bytes(),
            ckka::write::losses(game, n),
        ),
        None => (
            ckka::write::write_json(game).into_bytes(),
            ckka::write::json_losses(game),
        ),
    }
}

pub fn show(game: &GameRecord, ply: Option<usize>, colour: bool) -> String {
    let positions = game.positions();
    let at = ply
        .unwrap_or(positions.len().saturating_sub(1))
        .min(positions.len().saturating_sub(1));
    match positions.get(at) {
        Some(pos) => format!(
            "after {at} moves\n{}",
            kifu_cetkaik::diagram::diagram(pos, colour)
        ),
        None => "no position".to_string(),
    }
}
