//! Dates in headers: `1999/07/15`, `1999/07/15(木) 19:07:12`, `2024/05/05 15:05:40`.

use std::fmt;

/// A calendar date with an optional time of day, as records write them (no time zone).
///
/// ```
/// use kifu_record::DateTime;
///
/// let t = DateTime::parse("1999/07/15(木) 19:07:12").unwrap();
/// assert_eq!((t.year, t.month, t.day, t.time), (1999, 7, 15, Some((19, 7, 12))));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DateTime {
    /// The year, as written (four digits).
    pub year: u16,
    /// 1–12.
    pub month: u8,
    /// 1–31.
    pub day: u8,
    /// Hours, minutes, seconds.
    pub time: Option<(u8, u8, u8)>,
}

impl DateTime {
    /// Reads `YYYY/MM/DD` (or with `-`), an optional weekday in parentheses, then an optional
    /// `HH:MM` or `HH:MM:SS`. Returns `None` for anything else (the header keeps the text).
    pub fn parse(s: &str) -> Option<DateTime> {
        let s = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}');
        let date_len = s
            .find(|c: char| !(c.is_ascii_digit() || c == '/' || c == '-'))
            .unwrap_or(s.len());
        let (date, mut rest) = s.split_at(date_len);
        let mut parts = date.split(['/', '-']);
        let year: u16 = parts.next()?.parse().ok()?;
        let month: u8 = parts.next()?.parse().ok()?;
        let day: u8 = parts.next()?.parse().ok()?;
        if parts.next().is_some() || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
            return None;
        }
        if let Some(after) = rest.strip_prefix(['(', '（']) {
            let close = after.find([')', '）'])?;
            rest = &after[close..];
            rest = &rest[rest.chars().next()?.len_utf8()..];
        }
        let rest = rest.trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}');
        let time = if rest.is_empty() {
            None
        } else {
            let mut t = rest.split(':');
            let h: u8 = t.next()?.parse().ok()?;
            let m: u8 = t.next()?.parse().ok()?;
            let sec: u8 = match t.next() {
                Some(x) => x.parse().ok()?,
                None => 0,
            };
            if t.next().is_some() || h > 23 || m > 59 || sec > 60 {
                return None;
            }
            Some((h, m, sec))
        };
        Some(DateTime {
            year,
            month,
            day,
            time,
        })
    }
}

impl fmt::Display for DateTime {
    /// `YYYY/MM/DD` or `YYYY/MM/DD HH:MM:SS`, the form both CSA and KIF accept.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}/{:02}/{:02}", self.year, self.month, self.day)?;
        if let Some((h, m, s)) = self.time {
            write!(f, " {h:02}:{m:02}:{s:02}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_in_the_wild() {
        let d = DateTime::parse("1999/07/15").unwrap();
        assert_eq!((d.year, d.month, d.day, d.time), (1999, 7, 15, None));
        let d = DateTime::parse("1999/07/15(木) 19:07:12").unwrap();
        assert_eq!(d.time, Some((19, 7, 12)));
        let d = DateTime::parse("2024/05/05 15:05").unwrap();
        assert_eq!(d.time, Some((15, 5, 0)));
        let d = DateTime::parse("2024-1-6（土）　9:00:00　").unwrap();
        assert_eq!(d.to_string(), "2024/01/06 09:00:00");
    }

    #[test]
    fn nonsense_is_rejected() {
        for s in [
            "",
            "昭和50年",
            "1999/13/01",
            "1999/07/15 25:00",
            "1999/07",
            "1999/07/15 x",
        ] {
            assert_eq!(DateTime::parse(s), None, "{s}");
        }
    }
}
