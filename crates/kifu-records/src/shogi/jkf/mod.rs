//! JKF, the JSON Kifu Format: header, initial preset or board, moves with
//! from/to/piece/promote/same/relative/capture, times, comments, specials and forks.

mod reader;
mod writer;

use kifu_record::{Record, RecordFormat, RecordRead, Records, Written};
use kifu_shogi::{Shogi, StartPosition};

pub use reader::read;
pub use writer::{to_value, write};

/// JKF as a table entry: one game per JSON document.
///
/// ```
/// use kifu_record::RecordFormat;
/// use kifu_records::shogi::jkf::JKF;
///
/// let text = r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}}]}"#;
/// assert!(JKF.sniff(text));
/// let read = JKF.records(text).next().unwrap();
/// assert!(!read.has_errors(), "{:?}", read.diagnostics);
/// assert!(JKF.write(&[read.record]).text.contains("\"piece\": \"FU\""));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JkfFormat;

/// The JSON Kifu Format.
pub const JKF: JkfFormat = JkfFormat;

impl RecordFormat<Shogi> for JkfFormat {
    fn name(&self) -> &'static str {
        "jkf"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["json"]
    }

    fn sniff(&self, text: &str) -> bool {
        text.trim_start().starts_with('{')
    }

    fn records<'t>(&self, text: &'t str) -> Records<'t, Shogi> {
        Box::new(std::iter::once_with(move || {
            let parsed = read(text);
            // Text that is not JSON gives no record; still hand out one, with the error.
            let record = parsed.records.into_iter().next();
            RecordRead {
                record: record.unwrap_or_else(|| Record::new(StartPosition::even())),
                diagnostics: parsed.diagnostics,
            }
        }))
    }

    fn write(&self, records: &[Record<Shogi>]) -> Written {
        crate::shogi::record::write_first(records, "JKF holds one game", write)
    }
}
