//! Parquet tables of plies and games, written in row groups so that memory stays bounded
//! however many records go in. Readable by DuckDB, Polars, pandas and Spark.
//!
//! Every column, its type, meaning and point of view is listed in `docs/parquet-schema.md`;
//! in short (`?` marks a column that may be null):
//!
//! - `plies.parquet`, a row per move: the game's columns shared with `games.parquet`
//!   (`source_file`, `record` from 1, `game_id?`, `event?`, `black?`, `white?`, `black_rate?`,
//!   `white_rate?`, `date?` as a timestamp, `date_text?` as written, `time_control?`,
//!   `handicap?`), then `ply`, `variation` (0 on the main line), `parent_ply?`, `side_to_move`,
//!   `position_key?` (`docs/position-key.md`), `sfen`, `move`, `capture?`, `check?`,
//!   `promotion?`, `notation?`, `time_ms?`, `eval?` (first player's view), `pv?`, `result`,
//!   `ending?`;
//! - `games.parquet`, a row per game: the shared columns, `start_sfen`, `plies`, `result`,
//!   `ending?`, `ending_class`, `game_key?`.

use std::io::Write;
use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Compression, ConvertedType, LogicalType, Repetition, Type as Physical};
use parquet::data_type::ByteArray;
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, Type};

use kifu_record::{MoveFacts, Side};

use crate::meta::{GameInfo, result_tag};

/// Rows gathered before a row group is written: a few tens of megabytes for plies.
pub const ROW_GROUP_ROWS: usize = 131_072;

/// A failure writing a table.
#[derive(Debug, thiserror::Error)]
#[error("writing Parquet: {0}")]
pub struct TableError(#[from] ParquetError);

#[derive(Clone, Copy)]
pub(crate) enum Kind {
    Text,
    Int32,
    Int64,
    Double,
    Bool,
    /// Milliseconds since 1970-01-01T00:00, local time of the record (not adjusted to UTC).
    Timestamp,
    /// A 64-bit key, unsigned.
    Key,
}

/// One column's cells. Text cells share one buffer, so that a row costs no allocation; they
/// become parquet's byte arrays (views into that buffer) only when a row group is written.
#[derive(Clone)]
enum Values {
    Text { text: Vec<u8>, ends: Vec<usize> },
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    Double(Vec<f64>),
    Bool(Vec<bool>),
}

/// One column's values of the rows gathered.
#[derive(Clone)]
pub(crate) struct Column {
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
                Kind::Int64 | Kind::Timestamp | Kind::Key => Values::Int64(Vec::new()),
                Kind::Double => Values::Double(Vec::new()),
                Kind::Bool => Values::Bool(Vec::new()),
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
            Values::Bool(v) => v.clear(),
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

    pub(crate) fn text(&mut self, value: Option<&str>) {
        self.present(value.is_some());
        if let (Values::Text { text, ends }, Some(s)) = (&mut self.values, value) {
            text.extend_from_slice(s.as_bytes());
            ends.push(text.len());
        }
    }

    pub(crate) fn int32(&mut self, value: Option<i32>) {
        self.present(value.is_some());
        if let (Values::Int32(v), Some(x)) = (&mut self.values, value) {
            v.push(x);
        }
    }

    pub(crate) fn int64(&mut self, value: Option<i64>) {
        self.present(value.is_some());
        if let (Values::Int64(v), Some(x)) = (&mut self.values, value) {
            v.push(x);
        }
    }

    pub(crate) fn boolean(&mut self, value: Option<bool>) {
        self.present(value.is_some());
        if let (Values::Bool(v), Some(x)) = (&mut self.values, value) {
            v.push(x);
        }
    }

    pub(crate) fn double(&mut self, value: Option<f64>) {
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
            (Values::Bool(v), Values::Bool(more)) => v.extend_from_slice(more),
            _ => unreachable!("rows of one table have the same columns"),
        }
        if let (Some(d), Some(more)) = (&mut self.defs, &other.defs) {
            d.extend_from_slice(more);
        }
    }
}

/// Rows of one table, column by column.
#[derive(Clone)]
pub(crate) struct Rows {
    pub(crate) columns: Vec<Column>,
    pub(crate) len: usize,
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
pub(crate) struct Table<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    pub(crate) rows: Rows,
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
        if [
            "sfen",
            "start_sfen",
            "pv",
            "notation",
            "move",
            "position_key",
            "game_key",
        ]
        .contains(&column)
        {
            properties = properties
                .set_column_dictionary_enabled(ColumnPath::from(column), false)
                .set_column_statistics_enabled(ColumnPath::from(column), EnabledStatistics::None);
        }
    }
    properties.build()
}

impl<W: Write + Send> Table<W> {
    pub(crate) fn new(
        sink: W,
        name: &str,
        spec: &[(&str, Kind, bool)],
    ) -> Result<Table<W>, TableError> {
        let fields = spec
            .iter()
            .map(|&(column, kind, nullable)| {
                let (physical, logical) = match kind {
                    Kind::Text => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
                    Kind::Int32 => (Physical::INT32, None),
                    Kind::Int64 => (Physical::INT64, None),
                    Kind::Double => (Physical::DOUBLE, None),
                    Kind::Bool => (Physical::BOOLEAN, None),
                    Kind::Timestamp => (
                        Physical::INT64,
                        Some(LogicalType::timestamp(
                            false,
                            parquet::basic::TimeUnit::MILLIS,
                        )),
                    ),
                    Kind::Key => (Physical::INT64, Some(LogicalType::integer(64, false))),
                };
                let mut builder = Type::primitive_type_builder(column, physical)
                    .with_repetition(if nullable {
                        Repetition::OPTIONAL
                    } else {
                        Repetition::REQUIRED
                    })
                    .with_logical_type(logical.clone());
                if let Kind::Text = kind {
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
    pub(crate) fn end_rows(&mut self) -> Result<(), TableError> {
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
                (C::BoolColumnWriter(w), Values::Bool(v)) => w.write_batch(v, defs, None),
                _ => Err(ParquetError::General("column type mismatch".into())),
            }?;
            writer.close()?;
            index += 1;
        }
        group.close()?;
        self.rows.clear();
        Ok(())
    }

    pub(crate) fn finish(mut self) -> Result<W, TableError> {
        self.flush()?;
        Ok(self.writer.into_inner()?)
    }
}

/// Where a record came from.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The file, as named on the command line or found in a directory.
    pub file: &'a str,
    /// The record's index in the file, from 0 (the tables' `record` counts from 1).
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
    /// Who plays the move.
    pub side_to_move: Side,
    /// The key of the position before the move ([`kifu_record::Game::position_key`]).
    pub position_key: Option<u64>,
    /// Capture, check and promotion ([`kifu_record::Game::move_facts`]).
    pub facts: Option<MoveFacts>,
    /// 0 on the main line; else the variation's number in the record, from 1.
    pub variation: u32,
    /// For a variation's move, the ply of the position it branches from (its first move's
    /// ply − 1), on the line it branches from.
    pub parent_ply: Option<u32>,
}

impl<'a> Ply<'a> {
    /// A main-line ply with no move facts, key, time, evaluation or notation: fill in what is
    /// known with struct update syntax.
    pub fn new(ply: u32, position: &'a str, mv: &'a str, side_to_move: Side) -> Ply<'a> {
        Ply {
            ply,
            position,
            mv,
            notation: None,
            time_ms: None,
            eval: None,
            pv: None,
            side_to_move,
            position_key: None,
            facts: None,
            variation: 0,
            parent_ply: None,
        }
    }
}

/// A game's keys, for a game that has position keys ([`kifu_record::Game::position_key`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameKeys {
    /// The canonical game key ([`kifu_record::game_key`]).
    pub game: Option<u64>,
    /// The key of the position after the last move exported.
    pub end_position: Option<u64>,
}

const COMMON: [(&str, Kind, bool); 12] = [
    ("source_file", Kind::Text, false),
    ("record", Kind::Int32, false),
    ("game_id", Kind::Text, true),
    ("event", Kind::Text, true),
    ("black", Kind::Text, true),
    ("white", Kind::Text, true),
    ("black_rate", Kind::Double, true),
    ("white_rate", Kind::Double, true),
    ("date", Kind::Timestamp, true),
    ("date_text", Kind::Text, true),
    ("time_control", Kind::Text, true),
    ("handicap", Kind::Text, true),
];

const fn with_common<const N: usize>(
    own: [(&'static str, Kind, bool); N],
) -> [(&'static str, Kind, bool); 40] {
    let mut all = [("", Kind::Int32, false); 40];
    let mut i = 0;
    while i < COMMON.len() {
        all[i] = COMMON[i];
        i += 1;
    }
    let mut j = 0;
    while j < N {
        all[COMMON.len() + j] = own[j];
        j += 1;
    }
    all
}

const PLIES_OWN: [(&str, Kind, bool); 16] = [
    ("ply", Kind::Int32, false),
    ("variation", Kind::Int32, false),
    ("parent_ply", Kind::Int32, true),
    ("side_to_move", Kind::Text, false),
    ("position_key", Kind::Key, true),
    ("sfen", Kind::Text, false),
    ("move", Kind::Text, false),
    ("capture", Kind::Bool, true),
    ("check", Kind::Bool, true),
    ("promotion", Kind::Bool, true),
    ("notation", Kind::Text, true),
    ("time_ms", Kind::Int64, true),
    ("eval", Kind::Int32, true),
    ("pv", Kind::Text, true),
    ("result", Kind::Text, false),
    ("ending", Kind::Text, true),
];

const GAMES_OWN: [(&str, Kind, bool); 7] = [
    ("start_sfen", Kind::Text, false),
    ("plies", Kind::Int32, false),
    ("result", Kind::Text, false),
    ("ending", Kind::Text, true),
    ("ending_class", Kind::Text, false),
    ("game_key", Kind::Key, true),
    ("end_position_key", Kind::Key, true),
];

const PLIES_ALL: [(&str, Kind, bool); 40] = with_common(PLIES_OWN);
const GAMES_ALL: [(&str, Kind, bool); 40] = with_common(GAMES_OWN);

/// The columns of `plies.parquet`, in order.
const PLIES: &[(&str, Kind, bool)] = PLIES_ALL.split_at(COMMON.len() + PLIES_OWN.len()).0;
/// The columns of `games.parquet`, in order.
const GAMES: &[(&str, Kind, bool)] = GAMES_ALL.split_at(COMMON.len() + GAMES_OWN.len()).0;

/// Every column's name, `plies.parquet`'s then `games.parquet`'s (for the schema page's test).
pub fn column_names() -> (Vec<&'static str>, Vec<&'static str>) {
    (
        PLIES.iter().map(|c| c.0).collect(),
        GAMES.iter().map(|c| c.0).collect(),
    )
}

fn common(rows: &mut Rows, source: Source<'_>, game: &GameInfo) {
    let c = &mut rows.columns;
    c[0].text(Some(source.file));
    c[1].int32(Some(source.record as i32 + 1));
    c[2].text(game.game_id.as_deref());
    c[3].text(game.event.as_deref());
    c[4].text(game.black.as_deref());
    c[5].text(game.white.as_deref());
    c[6].double(game.black_rate);
    c[7].double(game.white_rate);
    c[8].int64(game.date_ms);
    c[9].text(game.date.as_deref());
    c[10].text(game.time_control.as_deref());
    c[11].text(game.handicap.as_deref());
}

/// The column of a ply's game result, which [`GamePlies`] fills last.
const PLY_RESULT: usize = 26;

fn push_ply(rows: &mut Rows, source: Source<'_>, game: &GameInfo, ply: &Ply<'_>) {
    push_ply_but_result(rows, source, game, ply);
    rows.columns[PLY_RESULT].text(Some(result_tag(game)));
}

/// Every cell of a ply's row but its game result (see [`GamePlies`]).
fn push_ply_but_result(rows: &mut Rows, source: Source<'_>, game: &GameInfo, ply: &Ply<'_>) {
    common(rows, source, game);

    let c = &mut rows.columns;
    c[12].int32(Some(ply.ply as i32));
    c[13].int32(Some(ply.variation as i32));
    c[14].int32(ply.parent_ply.map(|p| p as i32));
    c[15].text(Some(match ply.side_to_move {
        Side::First => "black",
        Side::Second => "white",
    }));
    c[16].int64(ply.position_key.map(|k| k as i64));
    c[17].text(Some(ply.position));
    c[18].text(Some(ply.mv));
    c[19].boolean(ply.facts.map(|f| f.capture));
    c[20].boolean(ply.facts.map(|f| f.check));
    c[21].boolean(ply.facts.map(|f| f.promotion));
    c[22].text(ply.notation);
    c[23].int64(ply.time_ms.map(|t| t as i64));
    c[24].int32(ply.eval);
    c[25].text(ply.pv);
    c[27].text(game.ending_text.as_deref());
    rows.len += 1;
}

fn push_game(
    rows: &mut Rows,
    source: Source<'_>,
    game: &GameInfo,
    start: &str,
    plies: u32,
    keys: GameKeys,
) {
    common(rows, source, game);

    let c = &mut rows.columns;
    c[12].text(Some(start));
    c[13].int32(Some(plies as i32));
    c[14].text(Some(result_tag(game)));
    c[15].text(game.ending_text.as_deref());
    c[16].text(Some(game.ending.name()));
    c[17].int64(keys.game.map(|k| k as i64));
    c[18].int64(keys.end_position.map(|k| k as i64));
    rows.len += 1;
}

/// Rows of `plies.parquet` gathered apart from the table, for instance by a worker thread
/// while another writes: appending them to a [`PliesTable`] copies a few buffers, not cells.
///
/// ```
/// use kifu_export::meta::GameInfo;
/// use kifu_export::table::{PliesTable, PlyRows, Ply, Source};
/// use kifu_record::Side;
///
/// let mut rows = PlyRows::default();
/// let source = Source { file: "a.csa", record: 0 };
/// let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// let ply = Ply {
///     notation: Some("+7776FU"),
///     ..Ply::new(1, start, "7g7f", Side::First)
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
        PlyRows(Rows::new(PLIES))
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
/// let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// let ply = Ply::new(1, start, "7g7f", Side::First);
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
        GameRows(Rows::new(GAMES))
    }
}

impl GameRows {
    /// Adds one game: its start position as text, the number of plies exported and its keys.
    pub fn push(
        &mut self,
        source: Source<'_>,
        game: &GameInfo,
        start: &str,
        plies: u32,
        keys: GameKeys,
    ) {
        push_game(&mut self.0, source, game, start, plies, keys);
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
        Ok(PliesTable(Table::new(sink, "plies", PLIES)?))
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
        Ok(GamesTable(Table::new(sink, "games", GAMES)?))
    }

    /// Adds one game (see [`GameRows::push`]).
    pub fn push(
        &mut self,
        source: Source<'_>,
        game: &GameInfo,
        start: &str,
        plies: u32,
        keys: GameKeys,
    ) -> Result<(), TableError> {
        push_game(&mut self.0.rows, source, game, start, plies, keys);
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
