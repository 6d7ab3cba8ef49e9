//! UTC wall-clock stamps for game ids, record headers and file paths.

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;

/// A moment on the UTC wall clock, to the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp(DateTime);

impl Stamp {
    /// Now, to the second.
    pub fn now() -> Stamp {
        Stamp::at(Timestamp::now())
    }

    /// The stamp of `secs` seconds after 1970-01-01 00:00:00 UTC (clamped to the range a
    /// civil date can show).
    pub fn from_unix(secs: i64) -> Stamp {
        let at = Timestamp::from_second(secs).unwrap_or(if secs < 0 {
            Timestamp::MIN
        } else {
            Timestamp::MAX
        });
        Stamp::at(at)
    }

    fn at(at: Timestamp) -> Stamp {
        Stamp(TimeZone::UTC.to_datetime(at))
    }

    /// `YYYYMMDDHHMMSS`, as in shogi-server's game ids.
    pub fn compact(&self) -> String {
        self.0.strftime("%Y%m%d%H%M%S").to_string()
    }

    /// `YYYY/MM/DD HH:MM:SS`, as CSA headers write it.
    pub fn csa(&self) -> String {
        self.0.strftime("%Y/%m/%d %H:%M:%S").to_string()
    }

    /// `YYYY/MM/DD` directories for records.
    pub fn dirs(&self) -> [String; 3] {
        ["%Y", "%m", "%d"].map(|f| self.0.strftime(f).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants() {
        assert_eq!(Stamp::from_unix(0).compact(), "19700101000000");
        assert_eq!(Stamp::from_unix(1_636_149_605).csa(), "2021/11/05 22:00:05");
        assert_eq!(Stamp::from_unix(951_782_400).compact(), "20000229000000");
        assert_eq!(Stamp::from_unix(951_782_400).dirs(), ["2000", "02", "29"]);
    }
}
