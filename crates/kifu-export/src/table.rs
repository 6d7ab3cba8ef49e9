//! Parquet tables of plies and games, written in row groups so that memory stays bounded
//! however many records go in. Readable by DuckDB, Polars, pandas and Spark.
//!
//! The columns (`?` marks a column that may be null):
//!
//! - `plies.parquet`: `source_file`, `record_index` (from 0), `game_id?`, `black?`, `white?`,
//!   `black_rate?`, `white_rate?`, `date?`, `ply` (the move's number, from 1), `sfen` (the
//!   position before the move, in the game's position text), `move` (the game's move text:
//!   USI for shogi), `notation?` (the move as the record wrote it), `time_ms?`, `eval?` (from
//!   the first player's point of view), `pv?`, `result` (`1-0`, `0-1`, `1/2-1/2`, `*`),
//!   `ending?`;
//! - `games.parquet`: `source_file`, `record_index`, `game_id?`, `black?`, `white?`,
//!   `black_rate?`, `white_rate?`, `date?`, `start_sfen`, `plies` (moves exported), `result`,
//!   `ending?`, `ending_class`.

use std::io::Write;
use std::sync::Arc;

use parquet::basic::{Compression, ConvertedType, LogicalType, Repetition, Type as Physical};
use parquet::data_type::ByteArray;
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, Type};

use crate::meta::{GameInfo, result_tag};

/// Rows gathered before a row group is written: a few tens of megabytes for plies.
pub const ROW_GROUP_ROWS: usize = 131_072;

/// A failure writing a table.
#[derive(Debug, thiserror::Error)]
#[error("writing Parquet: {0}")]
pub struct TableError(#[from] ParquetError);

#[derive(Clone, Copy)]
enum Kind {
    Text,
    Int32,
    Int64,
    Double,
}

enum Values {
    Text(Vec<ByteArray>),
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    Double(Vec<f64>),
}

/// One column's values of the row group being gathered.
struct Column {
    values: Values,
    /// Definition levels (1 present, 0 null) for a nullable column.
    defs: Option<Vec<i16>>,
}

impl Column {
    fn clear(&mut self) {
        match &mut self.values {
            Values::Text(v) => v.clear(),
            Values::Int32(v) => v.clear(),
            Values::Int64(v) => v.clear(),
            Values::Double(v) => v.clear(),
        }
        if let Some(d) = &mut self.defs {
            d.clear();
        }
    }

    fn present(&mut self, present: bool) {
        if let Some(d) = &mut self.defs {
            d.push(i16::from(present));
        }
    }

    fn text(&mut self, value: Option<&str>) {
        self.present(value.is_some());
        if let (Values::Text(v), Some(s)) = (&mut self.values, value) {
            v.push(ByteArray::from(s.as_bytes().to_vec()));
        }
    }

    fn int32(&mut self, value: Option<i32>) {
        self.present(value.is_some());
        if let (Values::Int32(v), Some(x)) = (&mut self.values, value) {
            v.push(x);
        }
    }

    fn int64(&mut self, value: Option<i64>) {
        self.present(value.is_some());
        if let (Values::Int64(v), Some(x)) = (&mut self.values, value) {
            v.push(x);
        }
    }

    fn double(&mut self, value: Option<f64>) {
        self.present(value.is_some());
        if let (Values::Double(v), Some(x)) = (&mut self.values, value) {
            v.push(x);
        }
    }
}

/// A Parquet file written a row group at a time.
struct Table<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    columns: Vec<Column>,
    rows: usize,
}

impl<W: Write + Send> Table<W> {
    fn new(sink: W, name: &str, spec: &[(&str, Kind, bool)]) -> Result<Table<W>, TableError> {
        let fields = spec
            .iter()
            .map(|&(column, kind, nullable)| {
                let (physical, logical) = match kind {
                    Kind::Text => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
                    Kind::Int32 => (Physical::INT32, None),
                    Kind::Int64 => (Physical::INT64, None),
                    Kind::Double => (Physical::DOUBLE, None),
                };
                let mut builder = Type::primitive_type_builder(column, physical)
                    .with_repetition(if nullable {
                        Repetition::OPTIONAL
                    } else {
                        Repetition::REQUIRED
                    })
                    .with_logical_type(logical.clone());
                if logical.is_some() {
                    builder = builder.with_converted_type(ConvertedType::UTF8);
                }
                builder.build().map(Arc::new)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let schema = Type::group_type_builder(name).with_fields(fields).build()?;
        // Positions and principal variations are nearly all distinct: a dictionary would
        // only cost time, and so would min/max statistics no query prunes on. Names, dates,
        // results and endings repeat and keep both.
        let mut properties = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS));
        for column in ["sfen", "start_sfen", "pv", "notation", "move"] {
            properties = properties
                .set_column_dictionary_enabled(ColumnPath::from(column), false)
                .set_column_statistics_enabled(ColumnPath::from(column), EnabledStatistics::None);
        }
        let writer =
            SerializedFileWriter::new(sink, Arc::new(schema), Arc::new(properties.build()))?;
        let columns = spec
            .iter()
            .map(|&(_, kind, nullable)| Column {
                values: match kind {
                    Kind::Text => Values::Text(Vec::new()),
                    Kind::Int32 => Values::Int32(Vec::new()),
                    Kind::Int64 => Values::Int64(Vec::new()),
                    Kind::Double => Values::Double(Vec::new()),
                },
                defs: nullable.then(Vec::new),
            })
            .collect();
        Ok(Table {
            writer,
            columns,
            rows: 0,
        })
    }

    /// Counts a finished row and writes the row group once it is full.
    fn end_row(&mut self) -> Result<(), TableError> {
        self.rows += 1;
        if self.rows >= ROW_GROUP_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), TableError> {
        if self.rows == 0 {
            return Ok(());
        }
        let mut group = self.writer.next_row_group()?;
        let mut index = 0;
        while let Some(mut writer) = group.next_column()? {
            use parquet::column::writer::ColumnWriter as C;
            let column = &self.columns[index];
            let defs = column.defs.as_deref();
            match (writer.untyped(), &column.values) {
                (C::ByteArrayColumnWriter(w), Values::Text(v)) => w.write_batch(v, defs, None),
                (C::Int32ColumnWriter(w), Values::Int32(v)) => w.write_batch(v, defs, None),
                (C::Int64ColumnWriter(w), Values::Int64(v)) => w.write_batch(v, defs, None),
                (C::DoubleColumnWriter(w), Values::Double(v)) => w.write_batch(v, defs, None),
                _ => Err(ParquetError::General("column type mismatch".into())),
            }?;
            writer.close()?;
            index += 1;
        }
        group.close()?;
        for column in &mut self.columns {
            column.clear();
        }
        self.rows = 0;
        Ok(())
    }

    fn finish(mut self) -> Result<W, TableError> {
        self.flush()?;
        Ok(self.writer.into_inner()?)
    }
}

/// Where a record came from.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The file, as named on the command line or found in a directory.
    pub file: &'a str,
    /// The record's index in the file, from 0.
    pub record: usize,
}

/// One ply to write: the move and the position before it, as text.
#[derive(Clone, Copy, Debug)]
pub struct Ply<'a> {
    /// The move's number, from 1.
    pub ply: u32,
    /// The position before the move.
    pub position: &'a str,
    /// The move, in the game's move text.
    pub mv: &'a str,
    /// The move as the record wrote it.
    pub notation: Option<&'a str>,
    /// Time spent on the move.
    pub time_ms: Option<u64>,
    /// The engine's evaluation written with the move, first player's point of view.
    pub eval: Option<i32>,
    /// The engine's principal variation written with the move.
    pub pv: Option<&'a str>,
}

const COMMON: [(&str, Kind, bool); 8] = [
    ("source_file", Kind::Text, false),
    ("record_index", Kind::Int32, false),
    ("game_id", Kind::Text, true),
    ("black", Kind::Text, true),
    ("white", Kind::Text, true),
    ("black_rate", Kind::Double, true),
    ("white_rate", Kind::Double, true),
    ("date", Kind::Text, true),
];

fn common<W: Write + Send>(table: &mut Table<W>, source: Source<'_>, game: &GameInfo) {
    let c = &mut table.columns;
    c[0].text(Some(source.file));
    c[1].int32(Some(source.record as i32));
    c[2].text(game.game_id.as_deref());
    c[3].text(game.black.as_deref());
    c[4].text(game.white.as_deref());
    c[5].double(game.black_rate);
    c[6].double(game.white_rate);
    c[7].text(game.date.as_deref());
}

/// `plies.parquet`: one row per ply.
pub struct PliesTable<W: Write + Send>(Table<W>);

impl<W: Write + Send> PliesTable<W> {
    /// A table writing to `sink`.
    pub fn new(sink: W) -> Result<PliesTable<W>, TableError> {
        let mut spec = COMMON.to_vec();
        spec.extend([
            ("ply", Kind::Int32, false),
            ("sfen", Kind::Text, false),
            ("move", Kind::Text, false),
            ("notation", Kind::Text, true),
            ("time_ms", Kind::Int64, true),
            ("eval", Kind::Int32, true),
            ("pv", Kind::Text, true),
            ("result", Kind::Text, false),
            ("ending", Kind::Text, true),
        ]);
        Ok(PliesTable(Table::new(sink, "plies", &spec)?))
    }

    /// Adds one ply of a game.
    pub fn push(
        &mut self,
        source: Source<'_>,
        game: &GameInfo,
        ply: &Ply<'_>,
    ) -> Result<(), TableError> {
        let t = &mut self.0;
        common(t, source, game);
        let c = &mut t.columns;
        c[8].int32(Some(ply.ply as i32));
        c[9].text(Some(ply.position));
        c[10].text(Some(ply.mv));
        c[11].text(ply.notation);
        c[12].int64(ply.time_ms.map(|t| t as i64));
        c[13].int32(ply.eval);
        c[14].text(ply.pv);
        c[15].text(Some(result_tag(game)));
        c[16].text(game.ending_text.as_deref());
        t.end_row()
    }

    /// Writes what is left and the footer; gives the sink back.
    pub fn finish(self) -> Result<W, TableError> {
        self.0.finish()
    }
}

/// `games.parquet`: one row per game.
pub struct GamesTable<W: Write + Send>(Table<W>);

impl<W: Write + Send> GamesTable<W> {
    /// A table writing to `sink`.
    pub fn new(sink: W) -> Result<GamesTable<W>, TableError> {
        let mut spec = COMMON.to_vec();
        spec.extend([
            ("start_sfen", Kind::Text, false),
            ("plies", Kind::Int32, false),
            ("result", Kind::Text, false),
            ("ending", Kind::Text, true),
            ("ending_class", Kind::Text, false),
        ]);
        Ok(GamesTable(Table::new(sink, "games", &spec)?))
    }

    /// Adds one game: its start position as text and the number of plies exported.
    pub fn push(
        &mut self,
        source: Source<'_>,
        game: &GameInfo,
        start: &str,
        plies: u32,
    ) -> Result<(), TableError> {
        let t = &mut self.0;
        common(t, source, game);
        let c = &mut t.columns;
        c[8].text(Some(start));
        c[9].int32(Some(plies as i32));
        c[10].text(Some(result_tag(game)));
        c[11].text(game.ending_text.as_deref());
        c[12].text(Some(game.ending.name()));
        t.end_row()
    }

    /// Writes what is left and the footer; gives the sink back.
    pub fn finish(self) -> Result<W, TableError> {
        self.0.finish()
    }
}
