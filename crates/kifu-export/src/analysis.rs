//! `kifu analyze --parquet`: a row per position an engine was asked about, with what it found
//! and how the move played from there was judged. Its first columns are `plies.parquet`'s
//! keys, so the two tables join (`docs/parquet-schema.md`, "analysis.parquet").

use std::io::Write;

use crate::table::{Kind, Table, TableError};

const COLUMNS: &[(&str, Kind, bool)] = &[
    ("source_file", Kind::Text, false),
    ("record", Kind::Int32, false),
    ("game_key", Kind::Key, true),
    ("ply", Kind::Int32, false),
    ("main_line", Kind::Bool, false),
    ("side_to_move", Kind::Text, false),
    ("position_key", Kind::Key, false),
    ("sfen", Kind::Text, false),
    ("move", Kind::Text, true),
    ("eval", Kind::Int32, true),
    ("mate", Kind::Int32, true),
    ("best", Kind::Text, true),
    ("pv", Kind::Text, true),
    ("depth", Kind::Int32, true),
    ("seldepth", Kind::Int32, true),
    ("nodes", Kind::Int64, true),
    ("loss_cp", Kind::Int32, true),
    ("loss_win_rate", Kind::Double, true),
    ("class", Kind::Text, true),
    ("engine", Kind::Text, false),
    ("budget", Kind::Text, false),
    ("failure", Kind::Text, true),
];

/// Every column's name, in order (for the schema page's test).
pub fn column_names() -> Vec<&'static str> {
    COLUMNS.iter().map(|c| c.0).collect()
}

/// One position analysed (or that could not be).
#[derive(Clone, Debug, Default)]
pub struct AnalysisRow<'a> {
    /// The file, as named on the command line or found in a directory.
    pub source_file: &'a str,
    /// The record's number in its file, from 1.
    pub record: u32,
    /// The canonical game key of the record's main line.
    pub game_key: Option<u64>,
    /// The number of the move played from this position, as `plies.parquet` counts (the
    /// position has had `ply − 1` moves; the last position of a line is its plies + 1).
    pub ply: u32,
    /// On the main line (else a variation).
    pub main_line: bool,
    /// `black` or `white`.
    pub side_to_move: &'a str,
    /// The position's key (`docs/position-key.md`).
    pub position_key: u64,
    /// The position's SFEN with its move number.
    pub sfen: &'a str,
    /// The move the record played from here (USI).
    pub mv: Option<&'a str>,
    /// Centipawns from Black's side, a mate ±30000.
    pub eval: Option<i32>,
    /// Plies to a mate, positive when Black mates, when the engine gave a length.
    pub mate: Option<i32>,
    /// The engine's best move (USI, or `resign`/`win`).
    pub best: Option<&'a str>,
    /// The principal variation, USI moves separated by spaces.
    pub pv: Option<&'a str>,
    /// The search's depth.
    pub depth: Option<u32>,
    /// Its selective depth.
    pub seldepth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Centipawns the move played from here gave away, the mover's side.
    pub loss_cp: Option<i64>,
    /// Points of winning chance it gave away.
    pub loss_win_rate: Option<f64>,
    /// Its class: `inaccuracy`, `dubious`, `mistake`, `blunder`.
    pub class: Option<&'a str>,
    /// The engine: `id name|command|options`.
    pub engine: &'a str,
    /// The budget: `nodes=N`, `depth=N`, `movetime=MS`.
    pub budget: &'a str,
    /// Why the position was not analysed.
    pub failure: Option<&'a str>,
}

/// `analysis.parquet`.
pub struct AnalysisTable<W: Write + Send>(Table<W>);

impl<W: Write + Send> AnalysisTable<W> {
    /// A table writing to `sink`.
    pub fn new(sink: W) -> Result<AnalysisTable<W>, TableError> {
        Ok(AnalysisTable(Table::new(sink, "analysis", COLUMNS)?))
    }

    /// Adds one row.
    pub fn push(&mut self, row: &AnalysisRow<'_>) -> Result<(), TableError> {
        let rows = &mut self.0.rows;
        let c = &mut rows.columns;
        c[0].text(Some(row.source_file));
        c[1].int32(Some(row.record as i32));
        c[2].int64(row.game_key.map(|k| k as i64));
        c[3].int32(Some(row.ply as i32));
        c[4].boolean(Some(row.main_line));
        c[5].text(Some(row.side_to_move));
        c[6].int64(Some(row.position_key as i64));
        c[7].text(Some(row.sfen));
        c[8].text(row.mv);
        c[9].int32(row.eval);
        c[10].int32(row.mate);
        c[11].text(row.best);
        c[12].text(row.pv);
        c[13].int32(row.depth.map(|d| d as i32));
        c[14].int32(row.seldepth.map(|d| d as i32));
        c[15].int64(row.nodes.map(|n| n as i64));
        c[16].int32(row.loss_cp.map(|l| l.clamp(0, i64::from(i32::MAX)) as i32));
        c[17].double(row.loss_win_rate);
        c[18].text(row.class);
        c[19].text(Some(row.engine));
        c[20].text(Some(row.budget));
        c[21].text(row.failure);
        rows.len += 1;
        self.0.end_rows()
    }

    /// Writes what is left and the footer; gives the sink back.
    pub fn finish(self) -> Result<W, TableError> {
        self.0.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_with_nulls_makes_a_parquet_file() {
        let mut table = AnalysisTable::new(Vec::new()).unwrap();
        table
            .push(&AnalysisRow {
                source_file: "game.kif",
                record: 1,
                ply: 1,
                main_line: true,
                side_to_move: "black",
                sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                mv: Some("7g7f"),
                eval: Some(35),
                best: Some("2g2f"),
                engine: "e",
                budget: "nodes=1",
                ..AnalysisRow::default()
            })
            .unwrap();
        let bytes = table.finish().unwrap();
        assert_eq!(&bytes[..4], b"PAR1");
        assert_eq!(
            column_names()[..4],
            ["source_file", "record", "game_key", "ply"]
        );
    }
}
