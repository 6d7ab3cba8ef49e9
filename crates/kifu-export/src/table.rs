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

use bytes::Bytes;
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

/// One column's cells. Text cells share one buffer, so that a row costs no allocation; they
/// become parquet's byte arrays (views into that buffer) only when a row group is written.
#[derive(Clone)]
enum Values {
    Text { text: Vec<u8>, ends: Vec<usize> },
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    Double(Vec<f64>),
}

/// One column's values of the rows gathered.
#[derive(Clone)]
struct Column {
    values: Values,
    /// Definition levels (1 present, 0 null) for a nullable column.
    defs: Option<Vec<i16>>,
}

impl Column {
    fn new(kind: Kind, nullable: bool) -> Column {
        Column {
            values: match kind {
                Kind::Text => Values::Text {
                    text: Vec::new(),
                    ends: Vec::new(),
                },
                Kind::Int32 => Values::Int32(Vec::new()),
                Kind::Int64 => Values::Int64(Vec::new()),
                Kind::Double => Values::Double(Vec::new()),
            },
            defs: nullable.then(Vec::new),
        }
    }

    fn clear(&mut self) {
        match &mut self.values {
            Values::Text { text, ends } => {
                text.clear();
                ends.clear();
            }
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
        if let (Values::Text { text, ends }, Some(s)) = (&mut self.values, value) {
            text.extend_from_slice(s.as_bytes());
            ends.push(text.len());
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

    /// Adds the cells of `other`, a column of the same kind.
    fn extend(&mut self, other: &Column) {
        match (&mut self.values, &other.values) {
            (
                Values::Text { text, ends },
                Values::Text {
                    text: more,
                    ends: more_ends,
                },
            ) => {
                let base = text.len();
                text.extend_from_slice(more);
                ends.extend(more_ends.iter().map(|end| base + end));
            }
            (Values::Int32(v), Values::Int32(more)) => v.extend_from_slice(more),
            (Values::Int64(v), Values::Int64(more)) => v.extend_from_slice(more),
            (Values::Double(v), Values::Double(more)) => v.extend_from_slice(more),
            _ => unreachable!("rows of one table have the same columns"),
        }
        if let (Some(d), Some(more)) = (&mut self.defs, &other.defs) {
            d.extend_from_slice(more);
        }
    }
}

/// Rows of one table, column by column.
#[derive(Clone)]
struct Rows {
    columns: Vec<Column>,
    len: usize,
}

impl Rows {
    fn new(spec: &[(&str, Kind, bool)]) -> Rows {
        Rows {
            columns: spec
                .iter()
                .map(|&(_, kind, nullable)| Column::new(kind, nullable))
                .collect(),
            len: 0,
        }
    }

    fn clear(&mut self) {
        for column in &mut self.columns {
            column.clear();
        }
        self.len = 0;
    }

    fn extend(&mut self, other: &Rows) {
        for (column, more) in self.columns.iter_mut().zip(&other.columns) {
            column.extend(more);
        }
        self.len += other.len;
    }
}

/// A Parquet file written a row group at a time.
struct Table<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    rows: Rows,
}

/// The writer's settings for a table of these columns.
fn properties(spec: &[(&str, Kind, bool)]) -> WriterProperties {
    // Snappy is what Spark, pandas (pyarrow), Polars and DuckDB write by default, and every
    // Parquet reader has it; it costs about a tenth of the export and halves the files.
    let mut properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS));
    // Positions, moves, notations and principal variations are nearly all distinct: a
    // dictionary would only cost time, and so would min/max statistics no query prunes on.
    // The columns that repeat (the file, players, game id, date, result, ending, ratings,
    // the record's index) keep both: a dictionary stores each value once per row group.
    for &(column, _, _) in spec {
        if ["sfen", "start_sfen", "pv", "notation", "move"].contains(&column) {
            properties = properties
                .set_column_dictionary_enabled(ColumnPath::from(column), false)
                .set_column_statistics_enabled(ColumnPath::from(column), EnabledStatistics::None);
        }
    }
    properties.build()
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
        let writer = SerializedFileWriter::new(sink, Arc::new(schema), Arc::new(properties(spec)))?;
        Ok(Table {
            writer,
            rows: Rows::new(spec),
        })
    }

    /// Writes the row group once it is full.
    fn end_rows(&mut self) -> Result<(), TableError> {
        if self.rows.len >= ROW_GROUP_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), TableError> {
        if self.rows.len == 0 {
            return Ok(());
        }
        let mut group = self.writer.next_row_group()?;
        let mut index = 0;
        while let Some(mut writer) = group.next_column()? {
            use parquet::column::writer::ColumnWriter as C;
            let column = &mut self.rows.columns[index];
            let defs = column.defs.as_deref();
            match (writer.untyped(), &mut column.values) {
                (C::ByteArrayColumnWriter(w), Values::Text { text, ends }) => {
                    // The cells become views into one shared buffer: no copy per cell.
                    let shared = Bytes::from(std::mem::take(text));
                    let mut start = 0;
                    let cells: Vec<ByteArray> = ends
                        .iter()
                        .map(|&end| {
                            let cell = ByteArray::from(shared.slice(start..end));
                            start = end;
                            cell
                        })
                        .collect();
                    w.write_batch(&cells, defs, None)
                }
                (C::Int32ColumnWriter(w), Values::Int32(v)) => w.write_batch(v, defs, None),
                (C::Int64ColumnWriter(w), Values::Int64(v)) => w.write_batch(v, defs, None),
                (C::DoubleColumnWriter(w), Values::Double(v)) => w.write_batch(v, defs, None),
                _ => Err(ParquetError::General("column type mismatch".into())),
            }?;
            writer.close()?;
            index += 1;
        }
        group.close()?;
        self.rows.clear();
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

const PLIES: [(&str, Kind, bool); 17] = [
    COMMON[0],
    COMMON[1],
    COMMON[2],
    COMMON[3],
    COMMON[4],
    COMMON[5],
    COMMON[6],
    COMMON[7],
    ("ply", Kind::Int32, false),
    ("sfen", Kind::Text, false),
    ("move", Kind::Text, false),
    ("notation", Kind::Text, true),
    ("time_ms", Kind::Int64, true),
    ("eval", Kind::Int32, true),
    ("pv", Kind::Text, true),
    ("result", Kind::Text, false),
    ("ending", Kind::Text, true),
];

const GAMES: [(&str, Kind, bool); 13] = [
    COMMON[0],
    COMMON[1],
    COMMON[2],
    COMMON[3],
    COMMON[4],
    COMMON[5],
    COMMON[6],
    COMMON[7],
    ("start_sfen", Kind::Text, false),
    ("plies", Kind::Int32, false),
    ("result", Kind::Text, false),
    ("ending", Kind::Text, true),
    ("ending_class", Kind::Text, false),
];

fn common(rows: &mut Rows, source: Source<'_>, game: &GameInfo) {
    let c = &mut rows.columns;
    c[0].text(Some(source.file));
    c[1].int32(Some(source.record as i32));
    c[2].text(game.game_id.as_deref());
    c[3].text(game.black.as_deref());
    c[4].text(game.white.as_deref());
    c[5].double(game.black_rate);
    c[6].double(game.white_rate);
    c[7].text(game.date.as_deref());
}

/// The column of a ply's game result, which [`GamePlies`] fills last.
const PLY_RESULT: usize = 15;

fn push_ply(rows: &mut Rows, source: Source<'_>, game: &GameInfo, ply: &Ply<'_>) {
    push_ply_but_result(rows, source, game, ply);
    rows.columns[PLY_RESULT].text(Some(result_tag(game)));
}

/// Every cell of a ply's row but its game result (see [`GamePlies`]).
fn push_ply_but_result(rows: &mut Rows, source: Source<'_>, game: &GameInfo, ply: &Ply<'_>) {
    common(rows, source, game);

    let c = &mut rows.columns;
    c[8].int32(Some(ply.ply as i32));
    c[9].text(Some(ply.position));
    c[10].text(Some(ply.mv));
    c[11].text(ply.notation);
    c[12].int64(ply.time_ms.map(|t| t as i64));
    c[13].int32(ply.eval);
    c[14].text(ply.pv);
    c[16].text(game.ending_text.as_deref());
    rows.len += 1;
}

fn push_game(rows: &mut Rows, source: Source<'_>, game: &GameInfo, start: &str, plies: u32) {
    common(rows, source, game);

    let c = &mut rows.columns;
    c[8].text(Some(start));
    c[9].int32(Some(plies as i32));
    c[10].text(Some(result_tag(game)));
    c[11].text(game.ending_text.as_deref());
    c[12].text(Some(game.ending.name()));
    rows.len += 1;
}

/// Rows of `plies.parquet` gathered apart from the table, for instance by a worker thread
/// while another writes: appending them to a [`PliesTable`] copies a few buffers, not cells.
///
/// ```
/// use kifu_export::meta::GameInfo;
/// use kifu_export::table::{PliesTable, PlyRows, Ply, Source};
///
/// let mut rows = PlyRows::default();
/// let source = Source { file: "a.csa", record: 0 };
/// let ply = Ply {
///     ply: 1,
///     position: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
///     mv: "7g7f",
///     notation: Some("+7776FU"),
///     time_ms: None,
///     eval: None,
///     pv: None,
/// };
/// rows.push(source, &GameInfo::default(), &ply);
/// assert_eq!(rows.len(), 1);
/// let mut table = PliesTable::new(Vec::new()).unwrap();
/// table.append(&rows).unwrap();
/// let bytes = table.finish().unwrap();
/// assert_eq!(&bytes[..4], b"PAR1");
/// ```
#[derive(Clone)]
pub struct PlyRows(Rows);

impl Default for PlyRows {
    fn default() -> PlyRows {
        PlyRows(Rows::new(&PLIES))
    }
}

impl PlyRows {
    /// Adds one ply of a game.
    pub fn push(&mut self, source: Source<'_>, game: &GameInfo, ply: &Ply<'_>) {
        push_ply(&mut self.0, source, game, ply);
    }

    /// Starts the plies of a game whose result is known only once the replay that writes
    /// them has reached the end (see [`GamePlies`]), so that it need not be replayed twice.
    pub fn game(&mut self) -> GamePlies<'_> {
        GamePlies {
            rows: self,
            pending: 0,
            result: "*",
        }
    }

    /// How many rows are gathered.
    pub fn len(&self) -> usize {
        self.0.len
    }

    /// Whether no row is gathered.
    pub fn is_empty(&self) -> bool {
        self.0.len == 0
    }
}

/// The plies of one game being added to [`PlyRows`], their result cells left for the end:
/// [`GamePlies::finish`] gives the result, and dropping it unfinished writes `*` (unknown),
/// so every row is whole either way.
///
/// ```
/// use kifu_export::meta::GameInfo;
/// use kifu_export::table::{PlyRows, Ply, Source};
/// use kifu_record::Side;
///
/// let mut rows = PlyRows::default();
/// let mut info = GameInfo::default();
/// let ply = Ply {
///     ply: 1,
///     position: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
///     mv: "7g7f",
///     notation: None,
///     time_ms: None,
///     eval: None,
///     pv: None,
/// };
/// let mut game = rows.game();
/// game.push(Source { file: "a.csa", record: 0 }, &info, &ply);
/// info.result = Some(Side::First); // found by the replay that wrote the plies
/// game.finish(&info);
/// assert_eq!(rows.len(), 1);
/// ```
pub struct GamePlies<'a> {
    rows: &'a mut PlyRows,
    /// Rows pushed whose result cell is not written yet.
    pending: usize,
    result: &'static str,
}

impl GamePlies<'_> {
    /// Adds one ply; `game`'s result is not read (its other fields are).
    pub fn push(&mut self, source: Source<'_>, game: &GameInfo, ply: &Ply<'_>) {
        push_ply_but_result(&mut self.rows.0, source, game, ply);
        self.pending += 1;
    }

    /// Writes `game`'s result into the result cell of every ply pushed.
    pub fn finish(mut self, game: &GameInfo) {
        self.result = result_tag(game);
    }
}

impl Drop for GamePlies<'_> {
    fn drop(&mut self) {
        let column = &mut self.rows.0.columns[PLY_RESULT];
        for _ in 0..self.pending {
            column.text(Some(self.result));
        }
    }
}

/// Rows of `games.parquet` gathered apart from the table (see [`PlyRows`]).
#[derive(Clone)]
pub struct GameRows(Rows);

impl Default for GameRows {
    fn default() -> GameRows {
        GameRows(Rows::new(&GAMES))
    }
}

impl GameRows {
    /// Adds one game: its start position as text and the number of plies exported.
    pub fn push(&mut self, source: Source<'_>, game: &GameInfo, start: &str, plies: u32) {
        push_game(&mut self.0, source, game, start, plies);
    }

    /// How many rows are gathered.
    pub fn len(&self) -> usize {
        self.0.len
    }

    /// Whether no row is gathered.
    pub fn is_empty(&self) -> bool {
        self.0.len == 0
    }
}

/// `plies.parquet`: one row per ply.
pub struct PliesTable<W: Write + Send>(Table<W>);

impl<W: Write + Send> PliesTable<W> {
    /// A table writing to `sink`.
    pub fn new(sink: W) -> Result<PliesTable<W>, TableError> {
        Ok(PliesTable(Table::new(sink, "plies", &PLIES)?))
    }

    /// Adds one ply of a game.
    pub fn push(
        &mut self,
        source: Source<'_>,
        game: &GameInfo,
        ply: &Ply<'_>,
    ) -> Result<(), TableError> {
        push_ply(&mut self.0.rows, source, game, ply);
        self.0.end_rows()
    }

    /// Adds rows gathered apart. A row group is written once it holds at least
    /// [`ROW_GROUP_ROWS`] rows, so it may hold a little more.
    pub fn append(&mut self, rows: &PlyRows) -> Result<(), TableError> {
        self.0.rows.extend(&rows.0);
        self.0.end_rows()
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
        Ok(GamesTable(Table::new(sink, "games", &GAMES)?))
    }

    /// Adds one game: its start position as text and the number of plies exported.
    pub fn push(
        &mut self,
        source: Source<'_>,
        game: &GameInfo,
        start: &str,
        plies: u32,
    ) -> Result<(), TableError> {
        push_game(&mut self.0.rows, source, game, start, plies);
        self.0.end_rows()
    }

    /// Adds rows gathered apart (see [`PliesTable::append`]).
    pub fn append(&mut self, rows: &GameRows) -> Result<(), TableError> {
        self.0.rows.extend(&rows.0);
        self.0.end_rows()
    }

    /// Writes what is left and the footer; gives the sink back.
    pub fn finish(self) -> Result<W, TableError> {
        self.0.finish()
    }
}
