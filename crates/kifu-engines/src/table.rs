//! The games of a match as a Parquet table, one row per game (the ledger's columns), so that
//! DuckDB or pandas can ask what the summary does not: `SELECT reason, count(*) FROM
//! 'games.parquet' GROUP BY reason`. Written with the `parquet` crate's column writers, as
//! `kifu-export` writes its tables.

use std::path::Path;
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

use crate::ledger::GameRow;

const SCHEMA: &str = "message game {
    required int64 game;
    required int64 pairing;
    required int64 pair;
    required binary black (UTF8);
    required binary white (UTF8);
    required binary opening (UTF8);
    required binary result (UTF8);
    required binary reason (UTF8);
    required binary detail (UTF8);
    required int32 plies;
    required int64 black_time_ms;
    required int64 white_time_ms;
    required binary record (UTF8);
    required binary start_time (UTF8);
    required binary end_time (UTF8);
}";

/// Writes `rows` to `path` (through a temporary file beside it, renamed into place).
pub fn write(path: &Path, rows: &[GameRow]) -> Result<(), ParquetError> {
    let schema = Arc::new(parse_message_type(SCHEMA)?);
    let props = Arc::new(
        WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .build(),
    );
    let tmp = path.with_extension("parquet.tmp");
    let file = std::fs::File::create(&tmp)?;
    let mut writer = SerializedFileWriter::new(file, schema, props)?;
    let mut group = writer.next_row_group()?;
    let mut column = 0;
    while let Some(mut col) = group.next_column()? {
        let int64 = |f: &dyn Fn(&GameRow) -> i64| rows.iter().map(f).collect::<Vec<i64>>();
        let text = |f: &dyn Fn(&GameRow) -> &str| {
            rows.iter()
                .map(|r| ByteArray::from(f(r)))
                .collect::<Vec<ByteArray>>()
        };
        match (column, col.untyped()) {
            (0, ColumnWriter::Int64ColumnWriter(w)) => {
                w.write_batch(&int64(&|r| r.game as i64), None, None)?;
            }
            (1, ColumnWriter::Int64ColumnWriter(w)) => {
                w.write_batch(&int64(&|r| r.pairing as i64), None, None)?;
            }
            (2, ColumnWriter::Int64ColumnWriter(w)) => {
                w.write_batch(&int64(&|r| r.pair as i64), None, None)?;
            }
            (3, ColumnWriter::ByteArrayColumnWriter(w)) => {
                w.write_batch(&text(&|r| &r.black), None, None)?;
            }
            (4, ColumnWriter::ByteArrayColumnWriter(w)) => {
                w.write_batch(&text(&|r| &r.white), None, None)?;
            }
            (5, ColumnWriter::ByteArrayColumnWriter(w)) => {
                w.write_batch(&text(&|r| &r.opening), None, None)?;
            }
            (6, ColumnWriter::ByteArrayColumnWriter(w)) => {
                w.write_batch(&text(&|r| &r.result), None, None)?;
            }
            (7, ColumnWriter::ByteArrayColumnWriter(w)) => {
                w.write_batch(&text(&|r| &r.reason), None, None)?;
            }
            (8, ColumnWriter::ByteArrayColumnWriter(w)) => {
                w.write_batch(&text(&|r| &r.detail), None, None)?;
            }
            (9, ColumnWriter::Int32ColumnWriter(w)) => {
                let v: Vec<i32> = rows.iter().map(|r| r.plies as i32).collect();
                w.write_batch(&v, None, None)?;
            }
            (10, ColumnWriter::Int64ColumnWriter(w)) => {
                w.write_batch(&int64(&|r| r.black_time_ms as i64), None, None)?;
            }
            (11, ColumnWriter::Int64ColumnWriter(w)) => {
                w.write_batch(&int64(&|r| r.white_time_ms as i64), None, None)?;
            }
            (12, ColumnWriter::ByteArrayColumnWriter(w)) => {
                w.write_batch(&text(&|r| &r.record), None, None)?;
            }
            (13, ColumnWriter::ByteArrayColumnWriter(w)) => {
                w.write_batch(&text(&|r| &r.start_time), None, None)?;
            }
            (14, ColumnWriter::ByteArrayColumnWriter(w)) => {
                w.write_batch(&text(&|r| &r.end_time), None, None)?;
            }
            _ => {
                return Err(ParquetError::General(format!(
                    "column {column} does not have the schema's type"
                )));
            }
        }
        col.close()?;
        column += 1;
    }
    group.close()?;
    writer.close()?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}
