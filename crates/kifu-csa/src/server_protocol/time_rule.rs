//! The clock settings of a `BEGIN Time` block.

use std::fmt;

/// `Time_Unit`: `<n>sec`, `<n>min` or `<n>msec`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeUnit {
    /// How many bases (`100` in `100msec`).
    pub count: u32,
    /// The base unit.
    pub base: UnitBase,
}

/// The base of a [`TimeUnit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitBase {
    /// `msec`.
    Msec,
    /// `sec`.
    Sec,
    /// `min`.
    Min,
}

impl TimeUnit {
    /// `1sec`, the default.
    pub const SECOND: TimeUnit = TimeUnit {
        count: 1,
        base: UnitBase::Sec,
    };

    /// Milliseconds in one unit.
    pub fn millis(self) -> u64 {
        let base = match self.base {
            UnitBase::Msec => 1,
            UnitBase::Sec => 1000,
            UnitBase::Min => 60_000,
        };
        u64::from(self.count) * base
    }

    /// Reads `<n>msec`, `<n>sec` or `<n>min` (`n` 1 when left out).
    pub fn parse(text: &str) -> Option<TimeUnit> {
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        let (n, base) = text.split_at(digits);
        let count = if n.is_empty() { 1 } else { n.parse().ok()? };
        let base = match base {
            "msec" => UnitBase::Msec,
            "sec" => UnitBase::Sec,
            "min" => UnitBase::Min,
            _ => return None,
        };
        (count > 0).then_some(TimeUnit { count, base })
    }
}

impl fmt::Display for TimeUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = match self.base {
            UnitBase::Msec => "msec",
            UnitBase::Sec => "sec",
            UnitBase::Min => "min",
        };
        write!(f, "{}{base}", self.count)
    }
}

/// One side's clock settings; every number is in `unit`s.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimeRule {
    /// `Time_Unit`.
    pub unit: TimeUnit,
    /// `Total_Time`; `None` = unlimited.
    pub total: Option<u64>,
    /// `Byoyomi`: time per move once the main time is spent.
    pub byoyomi: u64,
    /// `Increment` (1.2.1): Fischer increment per move.
    pub increment: u64,
    /// `Delay` (1.2.1): uncharged grace time at the start of each move.
    pub delay: u64,
    /// `Least_Time_Per_Move`.
    pub least: u64,
    /// `Time_Roundup:YES` rounds fractions of a unit up instead of truncating.
    pub roundup: bool,
}

impl Default for TimeRule {
    /// What a block with no lines means: 1 s units, unlimited, no byoyomi.
    fn default() -> Self {
        TimeRule {
            unit: TimeUnit::SECOND,
            total: None,
            byoyomi: 0,
            increment: 0,
            delay: 0,
            least: 0,
            roundup: false,
        }
    }
}

impl TimeRule {
    /// Whether `Total_Time`, `Byoyomi` and `Increment` are all zero or absent: no clock.
    pub fn is_unlimited(&self) -> bool {
        self.total.unwrap_or(0) == 0 && self.byoyomi == 0 && self.increment == 0
    }

    /// Applies one `Key:value` line of the block; `false` if the key is unknown or the value bad.
    pub fn apply(&mut self, key: &str, value: &str) -> bool {
        let number = || value.parse::<u64>().ok();
        match key {
            "Time_Unit" => TimeUnit::parse(value).map(|u| self.unit = u).is_some(),
            "Total_Time" => number().map(|n| self.total = Some(n)).is_some(),
            "Byoyomi" => number().map(|n| self.byoyomi = n).is_some(),
            "Increment" => number().map(|n| self.increment = n).is_some(),
            "Delay" => number().map(|n| self.delay = n).is_some(),
            "Least_Time_Per_Move" => number().map(|n| self.least = n).is_some(),
            "Time_Roundup" => match value {
                "YES" => {
                    self.roundup = true;
                    true
                }
                "NO" => {
                    self.roundup = false;
                    true
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// The lines inside the block, as shogi-server writes them (Byoyomi and Increment always;
    /// Delay and Time_Roundup only when set).
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!("Time_Unit:{}", self.unit)];
        if let Some(t) = self.total {
            out.push(format!("Total_Time:{t}"));
        }
        out.push(format!("Byoyomi:{}", self.byoyomi));
        out.push(format!("Increment:{}", self.increment));
        if self.delay > 0 {
            out.push(format!("Delay:{}", self.delay));
        }
        out.push(format!("Least_Time_Per_Move:{}", self.least));
        if self.roundup {
            out.push("Time_Roundup:YES".to_owned());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(TimeUnit::parse("1sec").unwrap().millis(), 1000);
        assert_eq!(TimeUnit::parse("sec").unwrap().millis(), 1000);
        assert_eq!(TimeUnit::parse("1min").unwrap().millis(), 60_000);
        assert_eq!(TimeUnit::parse("100msec").unwrap().millis(), 100);
        assert_eq!(TimeUnit::parse("100msec").unwrap().to_string(), "100msec");
        assert_eq!(TimeUnit::parse("0sec"), None);
        assert_eq!(TimeUnit::parse("1hour"), None);
    }

    #[test]
    fn block_lines_round_trip() {
        let mut r = TimeRule::default();
        for (k, v) in [
            ("Time_Unit", "1sec"),
            ("Total_Time", "300"),
            ("Byoyomi", "0"),
            ("Increment", "10"),
            ("Delay", "2"),
            ("Least_Time_Per_Move", "0"),
            ("Time_Roundup", "YES"),
        ] {
            assert!(r.apply(k, v), "{k}");
        }
        assert!(!r.apply("Total_Time", "x"));
        assert!(!r.apply("Colour", "blue"));
        let mut again = TimeRule::default();
        for line in r.lines() {
            let (k, v) = line.split_once(':').unwrap();
            assert!(again.apply(k, v));
        }
        assert_eq!(again, r);
        assert!(!r.is_unlimited());
        assert!(TimeRule::default().is_unlimited());
    }
}
