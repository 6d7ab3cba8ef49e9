//! Choosing a format: by name (for `--to`), or by looking at the text.

use kifu_record::Diagnostic;

use super::{ChuRecord, csl, json, kif, usi};

/// The chu record formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// CSL notation, Western (written) or any mix (read).
    Csl,
    /// CSL notation written in Japanese.
    CslJapanese,
    /// lishogi's chu KIF.
    Kif,
    /// USI move lists, one game per line.
    Usi,
    /// JSON (also lishogi's export and NDJSON when reading).
    Json,
}

impl Format {
    /// `csl`, `csl-ja`, `kif`, `usi`, `json` (as in `kifu convert --to`).
    pub fn from_name(name: &str) -> Option<Format> {
        Some(match name.to_ascii_lowercase().as_str() {
            "csl" => Format::Csl,
            "csl-ja" | "csl-jp" | "ja" => Format::CslJapanese,
            "kif" | "kifu" => Format::Kif,
            "usi" | "sfen" => Format::Usi,
            "json" | "ndjson" => Format::Json,
            _ => return None,
        })
    }

    /// The format a file name's extension stands for (`.csl`, `.kif`, `.usi`, `.json`, `.ndjson`);
    /// `None` for other files (a directory walk should skip them).
    pub fn from_extension(ext: &str) -> Option<Format> {
        Some(match ext.to_ascii_lowercase().as_str() {
            "csl" | "txt" => Format::Csl,
            "kif" | "kifu" => Format::Kif,
            "usi" | "sfen" => Format::Usi,
            "json" | "ndjson" | "jsonl" => Format::Json,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Csl => "csl",
            Format::CslJapanese => "csl-ja",
            Format::Kif => "kif",
            Format::Usi => "usi",
            Format::Json => "json",
        }
    }

    /// Guesses the format of a text: JSON by its first character, USI by `position`/`startpos` or
    /// a first word that is a USI move, KIF by its `手数----指手` line or `key：value` headers,
    /// CSL otherwise.
    pub fn detect(text: &str) -> Format {
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if t.starts_with('{') || t.starts_with('[') && t[1..].trim_start().starts_with('{') {
            return Format::Json;
        }
        let first = t.split_whitespace().next().unwrap_or("");
        if ["position", "startpos", "sfen"].contains(&first)
            || crate::usi::parse_usi(first).is_some() && !t.contains('.')
        {
            return Format::Usi;
        }
        if t.contains("手数----")
            || t.contains("一歩目")
            || t.lines()
                .take(10)
                .any(|l| l.contains("手合割：") || l.starts_with("先手："))
        {
            return Format::Kif;
        }
        Format::Csl
    }

    /// Reads every game of a text in this format.
    pub fn parse(self, text: &str) -> (Vec<ChuRecord>, Vec<Diagnostic>) {
        match self {
            Format::Csl | Format::CslJapanese => one(csl::parse(text)),
            Format::Kif => one(kif::parse(text)),
            Format::Usi => usi::parse_many(text),
            Format::Json => json::parse_many(text),
        }
    }

    /// Whether a file in this format holds several games (USI lists, NDJSON).
    pub fn holds_many(self) -> bool {
        matches!(self, Format::Usi | Format::Json)
    }

    /// The games of a text one at a time, each with its own diagnostics; for the formats that
    /// hold one game, that one. `.nth(n)` gives the game at index `n` without keeping the others.
    pub fn records(
        self,
        text: &str,
    ) -> Box<dyn Iterator<Item = (ChuRecord, Vec<Diagnostic>)> + '_> {
        match self {
            Format::Usi => Box::new(usi::records(text)),
            Format::Json => json::records(text),
            Format::Csl | Format::CslJapanese => Box::new(std::iter::once(csl::parse(text))),
            Format::Kif => Box::new(std::iter::once(kif::parse(text))),
        }
    }

    /// What writing `record` in this format cannot hold, one line each.
    pub fn losses(self, record: &ChuRecord) -> Vec<String> {
        match self {
            Format::Csl | Format::CslJapanese => csl::losses(record),
            Format::Kif => kif::losses(record),
            Format::Usi => usi::losses(record),
            Format::Json => json::losses(record),
        }
    }

    /// Writes every game: several to a file where the format holds several (NDJSON for JSON).
    /// For a one-game format only the first is written; see [`Format::holds_many`].
    pub fn write_all(self, records: &[ChuRecord]) -> String {
        match self {
            Format::Json => json::write_many(records),
            Format::Usi => records.iter().map(usi::write).collect(),
            _ => records.first().map(|r| self.write(r)).unwrap_or_default(),
        }
    }

    /// Writes one game in this format.
    pub fn write(self, record: &ChuRecord) -> String {
        match self {
            Format::Csl => csl::write(record),
            Format::CslJapanese => csl::write_japanese(record),
            Format::Kif => kif::write(record),
            Format::Usi => usi::write(record),
            Format::Json => json::write(record),
        }
    }
}

fn one((r, d): (ChuRecord, Vec<Diagnostic>)) -> (Vec<ChuRecord>, Vec<Diagnostic>) {
    (vec![r], d)
}

/// Reads a text in whatever format it looks like.
pub fn parse_any(text: &str) -> (Format, Vec<ChuRecord>, Vec<Diagnostic>) {
    let f = Format::detect(text);
    let (records, diags) = f.parse(text);
    (f, records, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection() {
        assert_eq!(Format::detect("{\"moves\": \"7i7h\"}"), Format::Json);
        assert_eq!(Format::detect("position startpos moves 7i7h"), Format::Usi);
        assert_eq!(Format::detect("7i7h 5d5e"), Format::Usi);
        assert_eq!(
            Format::detect("先手：A\n手数----指手--\n   1   7八獅子 （←7十）"),
            Format::Kif
        );
        assert_eq!(Format::detect("[Black \"A\"]\n1. Ln-7h"), Format::Csl);
        assert_eq!(Format::detect("7八獅\n"), Format::Csl);
        for f in [
            Format::Csl,
            Format::CslJapanese,
            Format::Kif,
            Format::Usi,
            Format::Json,
        ] {
            assert_eq!(Format::from_name(f.name()), Some(f));
        }
    }
}
