//! UTC wall-clock stamps for game ids, record headers and file paths, without a date crate.

use std::time::{SystemTime, UNIX_EPOCH};

/// A broken-down UTC time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
}

impl Stamp {
    pub fn now() -> Stamp {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Stamp::from_unix(i64::try_from(secs).unwrap_or(0))
    }

    /// Days-to-civil conversion (proleptic Gregorian).
    pub fn from_unix(secs: i64) -> Stamp {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        Stamp {
            year,
            month,
            day,
            hour: (rem / 3600) as u32,
            minute: (rem / 60 % 60) as u32,
            second: (rem % 60) as u32,
        }
    }

    /// `YYYYMMDDHHMMSS`, as in shogi-server's game ids.
    pub fn compact(&self) -> String {
        format!(
            "{:04}{:02}{:02}{:02}{:02}{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }

    /// `YYYY/MM/DD HH:MM:SS`, as CSA headers write it.
    pub fn csa(&self) -> String {
        format!(
            "{:04}/{:02}/{:02} {:02}:{:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }

    /// `YYYY/MM/DD` directories for records.
    pub fn dirs(&self) -> [String; 3] {
        [
            format!("{:04}", self.year),
            format!("{:02}", self.month),
            format!("{:02}", self.day),
        ]
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
    }
}
