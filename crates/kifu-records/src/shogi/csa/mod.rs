//! CSA standard record files: the 1997 baseline and V2, V2.1, V2.2, V3.0.
//!
//! [`read`] accepts every edition (and files without a version line), `,` multi-statements
//! and several records separated by `/`. [`write`](fn@write) produces V2.2 or V3.0. As a table entry
//! the format is a [`CsaFormat`] value, which carries the version its writer produces.

mod floodgate;
mod reader;
mod setup;
pub mod syntax;
mod writer;

use kifu_record::{Record, RecordChecks, RecordFormat, Records as BoxedRecords, Written};
use kifu_shogi::Shogi;

pub use floodgate::{Floodgate, Rate, Summary, floodgate};
pub use reader::{Checks, MainLines, Records, ending_kind, read};
pub use writer::{CsaVersion, UnknownCsaVersion, write, write_all, write_position};

/// The CSA format, writing the given version (reading accepts every version).
///
/// ```
/// use kifu_record::RecordFormat;
/// use kifu_records::shogi::csa::{CSA, CsaFormat, CsaVersion};
///
/// let text = "V2.2\nPI\n+\n+7776FU\n%TORYO\n/\nPI\n+\n+2726FU\n";
/// let records: Vec<_> = CSA.records(text).collect(); // one at a time, split at `/`
/// assert_eq!(records.len(), 2);
/// let games: Vec<_> = records.into_iter().map(|read| read.record).collect();
/// let v22 = CsaFormat::new(CsaVersion::V22).write(&games);
/// assert!(v22.text.starts_with("V2.2\n"));
/// assert!(CSA.write(&games).text.starts_with("'CSA encoding=UTF-8\nV3.0\n"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CsaFormat {
    /// The version [`RecordFormat::write`] produces.
    pub version: CsaVersion,
}

/// CSA as kifu writes it by default: V3.0.
pub const CSA: CsaFormat = CsaFormat::new(CsaVersion::V30);

impl CsaFormat {
    /// CSA whose writer writes `version` (reading takes both).
    pub const fn new(version: CsaVersion) -> CsaFormat {
        CsaFormat { version }
    }
}

/// A line that only a CSA file starts with (CSA standard V3.0, sections 1–3: version,
/// names, position and move lines).
pub(crate) fn is_csa_line(line: &str) -> bool {
    line.starts_with("V2")
        || line.starts_with("V3")
        || line.starts_with("PI")
        || line.starts_with("P1")
        || line.starts_with("N+")
        || line.starts_with("'CSA")
        || (matches!(line.as_bytes().first(), Some(b'+' | b'-')) && line.len() == 7)
}

impl RecordFormat<Shogi> for CsaFormat {
    fn name(&self) -> &'static str {
        "csa"
    }

    fn sniff(&self, text: &str) -> bool {
        crate::sniffing::first_lines(text).any(is_csa_line)
    }

    fn holds_many(&self) -> bool {
        true
    }

    fn records<'t>(&self, text: &'t str) -> BoxedRecords<'t, Shogi> {
        Box::new(Records::new(text))
    }

    /// Replays each record as [`CsaFormat::records`] does, building no move tree.
    fn check<'t>(&self, text: &'t str) -> RecordChecks<'t> {
        Box::new(Checks::new(text))
    }

    fn write(&self, records: &[Record<Shogi>]) -> Written {
        write_all(records, self.version)
    }

    fn writes_in_parts(&self) -> bool {
        true
    }

    fn write_part(&self, records: &[Record<Shogi>], before: usize) -> Written {
        writer::write_from(records, self.version, before, true)
    }
}
