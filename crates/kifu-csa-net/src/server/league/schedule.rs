//! When a league's rounds start: every so often (aligned to the clock, so `30m` starts at
//! hh:00 and hh:30 as floodgate's games do), or at given times of day or of the week in UTC
//! (shogi-server's `<group>.conf` lines `Sun 12:30`, here also plain `12:30` for every day).

use jiff::Timestamp;

/// A league's round times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every this many seconds, at multiples of it since 1970-01-01 00:00 UTC.
    Every(i64),
    /// At these times (sorted, without repeats).
    At(Vec<TimeOfWeek>),
}

/// A time of day, on every day or on one weekday (0 = Monday … 6 = Sunday), in UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TimeOfWeek {
    /// The day, or every day.
    pub weekday: Option<u8>,
    /// Minutes since 00:00 UTC.
    pub minute_of_day: u16,
}

const DAYS: [[&str; 2]; 7] = [
    ["mon", "monday"],
    ["tue", "tuesday"],
    ["wed", "wednesday"],
    ["thu", "thursday"],
    ["fri", "friday"],
    ["sat", "saturday"],
    ["sun", "sunday"],
];

impl Schedule {
    /// `every = "30m"`: a number and a unit (`s`, `m`, `h`), or several (`1h30m`).
    pub fn every(text: &str) -> Result<Schedule, String> {
        let mut seconds = 0i64;
        let mut digits = String::new();
        for c in text.trim().chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            let unit = match c {
                's' => 1,
                'm' => 60,
                'h' => 3600,
                _ => return Err(format!("`{c}` is not a unit; write e.g. 30s, 5m or 1h30m")),
            };
            let n: i64 = digits
                .parse()
                .map_err(|_| "write a number before each unit, e.g. 30m".to_owned())?;
            seconds = seconds.saturating_add(n.saturating_mul(unit));
            digits.clear();
        }
        if !digits.is_empty() {
            return Err("give a unit after the number (s, m or h)".into());
        }
        if !(1..=7 * 86_400).contains(&seconds) {
            return Err("a round every 1 s at least and every 7 days at most".into());
        }
        Ok(Schedule::Every(seconds))
    }

    /// `at = ["12:30", "Sun 09:00"]`.
    pub fn at(times: &[String]) -> Result<Schedule, String> {
        if times.is_empty() {
            return Err("give at least one time".into());
        }
        let mut parsed = Vec::new();
        for t in times {
            let (day, clock) = match t.trim().split_once(' ') {
                Some((d, c)) => (Some(d), c.trim()),
                None => (None, t.trim()),
            };
            let weekday = match day {
                None => None,
                Some(d) => Some(
                    DAYS.iter()
                        .position(|names| names.contains(&d.to_ascii_lowercase().as_str()))
                        .ok_or_else(|| format!("`{d}` is not a weekday (Mon … Sun)"))?
                        as u8,
                ),
            };
            let minute_of_day = clock
                .split_once(':')
                .and_then(|(h, m)| Some((h.parse::<u16>().ok()?, m.parse::<u16>().ok()?)))
                .filter(|&(h, m)| h < 24 && m < 60)
                .map(|(h, m)| h * 60 + m)
                .ok_or_else(|| format!("`{t}` is not a time like 12:30 or Sun 12:30 (UTC)"))?;
            parsed.push(TimeOfWeek {
                weekday,
                minute_of_day,
            });
        }
        parsed.sort();
        parsed.dedup();
        Ok(Schedule::At(parsed))
    }

    /// The first round time strictly after `now`.
    pub fn next_after(&self, now: Timestamp) -> Timestamp {
        let secs = now.as_second();
        let next = match self {
            Schedule::Every(period) => (secs.div_euclid(*period) + 1) * period,
            Schedule::At(times) => {
                let day = secs.div_euclid(86_400);
                // 1970-01-01 was a Thursday (3 with Monday = 0).
                (0..=7)
                    .flat_map(|d| times.iter().map(move |t| (day + d, t)))
                    .filter(|(d, t)| {
                        t.weekday
                            .is_none_or(|w| (d + 3).rem_euclid(7) == i64::from(w))
                    })
                    .map(|(d, t)| d * 86_400 + i64::from(t.minute_of_day) * 60)
                    .filter(|&s| s > secs)
                    .min()
                    .expect("every weekday comes within eight days")
            }
        };
        Timestamp::from_second(next).expect("a time within jiff's range")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    #[test]
    fn every_aligns_to_the_clock() {
        let s = Schedule::every("30m").unwrap();
        assert_eq!(
            s.next_after(ts("2026-11-28T17:21:11Z")),
            ts("2026-11-28T17:30:00Z")
        );
        assert_eq!(
            s.next_after(ts("2026-11-28T17:30:00Z")),
            ts("2026-11-28T18:00:00Z")
        );
        assert_eq!(Schedule::every("1h30m").unwrap(), Schedule::Every(5400));
        assert_eq!(
            Schedule::every("5s")
                .unwrap()
                .next_after(ts("2026-11-28T00:00:07Z")),
            ts("2026-11-28T00:00:10Z")
        );
        for bad in ["", "30", "m", "30x", "0s", "8d"] {
            assert!(Schedule::every(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn times_of_day_and_of_week() {
        let s = Schedule::at(&["12:30".into(), "Sun 09:00".into()]).unwrap();
        // 2026-11-28 is a Saturday.
        assert_eq!(
            s.next_after(ts("2026-11-28T12:00:00Z")),
            ts("2026-11-28T12:30:00Z")
        );
        assert_eq!(
            s.next_after(ts("2026-11-28T12:30:00Z")),
            ts("2026-11-29T09:00:00Z")
        );
        assert_eq!(
            s.next_after(ts("2026-11-29T09:00:00Z")),
            ts("2026-11-29T12:30:00Z")
        );
        let weekly = Schedule::at(&["Monday 00:00".into()]).unwrap();
        assert_eq!(
            weekly.next_after(ts("2026-11-30T00:00:00Z")),
            ts("2026-12-07T00:00:00Z")
        );
        for bad in ["25:00", "12", "Xday 10:00", "10:60"] {
            assert!(Schedule::at(&[bad.into()]).is_err(), "{bad}");
        }
    }
}
