//! Time controls: CSA V3.0 `$TIME:900+0+5`, CSA V2 `$TIME_LIMIT:00:30+30`, and the
//! commonest KIF `持ち時間` phrasings (`各10分`, `1時間30分`).

/// Main time, byoyomi (time per move once the main time is used up) and Fischer
/// increment, in milliseconds.
///
/// ```
/// use kifu_record::TimeControl;
///
/// let csa = TimeControl::parse("900+0+5").unwrap(); // CSA V3.0 `$TIME:`
/// assert_eq!((csa.initial_ms, csa.byoyomi_ms, csa.increment_ms), (900_000, 0, 5_000));
/// let kif = TimeControl::parse("各10分").unwrap(); // KIF 持ち時間
/// assert_eq!(kif.initial_ms, 600_000);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Main time, in milliseconds.
    pub initial_ms: u64,
    /// Byoyomi (time per move once the main time is used up), in milliseconds.
    pub byoyomi_ms: u64,
    /// Fischer increment per move, in milliseconds.
    pub increment_ms: u64,
}

impl TimeControl {
    /// Any of the three forms; `None` if the text is free prose.
    pub fn parse(s: &str) -> Option<TimeControl> {
        let s = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}');
        Self::parse_csa_time(s)
            .or_else(|| Self::parse_time_limit(s))
            .or_else(|| Self::parse_japanese(s))
    }

    /// CSA V3.0 `initial+byoyomi+increment`, seconds with up to three decimals.
    pub fn parse_csa_time(s: &str) -> Option<TimeControl> {
        let mut parts = s.split('+');
        let tc = TimeControl {
            initial_ms: parse_seconds_ms(parts.next()?)?,
            byoyomi_ms: parse_seconds_ms(parts.next()?)?,
            increment_ms: parse_seconds_ms(parts.next()?)?,
        };
        parts.next().is_none().then_some(tc)
    }

    /// CSA V2 `HH:MM+SS` (main time in hours and minutes, byoyomi in seconds).
    pub fn parse_time_limit(s: &str) -> Option<TimeControl> {
        let (main, byoyomi) = s.split_once('+')?;
        let (h, m) = main.split_once(':')?;
        let h: u64 = digits(h)?;
        let m: u64 = digits(m)?;
        Some(TimeControl {
            initial_ms: (h * 3600 + m * 60) * 1000,
            byoyomi_ms: digits(byoyomi)? * 1000,
            increment_ms: 0,
        })
    }

    // `各10分`, `10分`, `1時間30分`, `各5分 秒読み30秒`: hours/minutes/seconds words only.
    fn parse_japanese(s: &str) -> Option<TimeControl> {
        let s = s.strip_prefix('各').unwrap_or(s);
        let (main, byoyomi) = match s.find("秒読み") {
            Some(i) => (&s[..i], Some(&s[i + "秒読み".len()..])),
            None => (s, None),
        };
        let initial_ms = parse_japanese_duration(main.trim_end_matches([' ', '\u{3000}', '、']))?;
        let byoyomi_ms = match byoyomi {
            Some(b) => parse_japanese_duration(b.trim())?,
            None => 0,
        };
        Some(TimeControl {
            initial_ms,
            byoyomi_ms,
            increment_ms: 0,
        })
    }

    /// `initial+byoyomi+increment` in seconds, decimals only when needed (CSA V3.0 `$TIME`).
    pub fn to_csa_time(&self) -> String {
        format!(
            "{}+{}+{}",
            format_seconds(self.initial_ms),
            format_seconds(self.byoyomi_ms),
            format_seconds(self.increment_ms)
        )
    }

    /// `HH:MM+SS` (CSA V2 `$TIME_LIMIT`), when the control fits that form.
    pub fn to_time_limit(&self) -> Option<String> {
        let whole_minutes = self.initial_ms.is_multiple_of(60_000);
        let whole_seconds = self.byoyomi_ms.is_multiple_of(1000);
        (self.increment_ms == 0 && whole_minutes && whole_seconds).then(|| {
            let minutes = self.initial_ms / 60_000;
            format!(
                "{:02}:{:02}+{:02}",
                minutes / 60,
                minutes % 60,
                self.byoyomi_ms / 1000
            )
        })
    }
}

fn digits(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `12`, `6.123`, `0.5` → milliseconds; at most three decimals (CSA `T` lines, `$TIME`).
pub fn parse_seconds(s: &str) -> Option<u64> {
    parse_seconds_ms(s)
}

// One pass over the bytes: this runs for every `T` line of every CSA file.
fn parse_seconds_ms(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    let dot = b.iter().position(|&c| c == b'.').unwrap_or(b.len());
    let (whole, frac) = (&b[..dot], b.get(dot + 1..).unwrap_or(&[]));
    if whole.is_empty() || frac.len() > 3 {
        return None;
    }
    let mut secs: u64 = 0;
    for &c in whole {
        if !c.is_ascii_digit() {
            return None;
        }
        secs = secs.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
    }
    let mut ms = 0;
    for (i, &c) in frac.iter().enumerate() {
        if !c.is_ascii_digit() {
            return None;
        }
        ms += u64::from(c - b'0') * [100, 10, 1][i];
    }
    secs.checked_mul(1000)?.checked_add(ms)
}

fn format_seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_owned()
    }
}

fn parse_japanese_duration(s: &str) -> Option<u64> {
    let mut total = 0u64;
    let mut rest = s;
    let mut any = false;
    for (unit, ms) in [("時間", 3_600_000u64), ("分", 60_000), ("秒", 1000)] {
        if let Some(i) = rest.find(unit) {
            let n = digits(&normalise_digits(&rest[..i]))?;
            total = total.checked_add(n.checked_mul(ms)?)?;
            rest = &rest[i + unit.len()..];
            any = true;
        }
    }
    (any && rest.is_empty()).then_some(total)
}

fn normalise_digits(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csa_v3_time() {
        let tc = TimeControl::parse("900+0+5").unwrap();
        assert_eq!(
            (tc.initial_ms, tc.byoyomi_ms, tc.increment_ms),
            (900_000, 0, 5000)
        );
        let tc = TimeControl::parse("0+30+0.5").unwrap();
        assert_eq!(tc.increment_ms, 500);
        assert_eq!(tc.to_csa_time(), "0+30+0.5");
        assert_eq!(TimeControl::parse_csa_time("1+2"), None);
        assert_eq!(TimeControl::parse_csa_time("1+2+0.1234"), None);
    }

    #[test]
    fn csa_v2_time_limit() {
        let tc = TimeControl::parse("00:25+00").unwrap();
        assert_eq!(tc.initial_ms, 25 * 60_000);
        assert_eq!(tc.byoyomi_ms, 0);
        let tc = TimeControl::parse("01:30+30").unwrap();
        assert_eq!(tc.to_time_limit().unwrap(), "01:30+30");
        assert_eq!(tc.to_csa_time(), "5400+30+0");
        let fischer = TimeControl::parse("900+0+5").unwrap();
        assert_eq!(fischer.to_time_limit(), None);
    }

    #[test]
    fn kif_phrasings() {
        assert_eq!(TimeControl::parse("各10分").unwrap().initial_ms, 600_000);
        assert_eq!(
            TimeControl::parse("1時間30分").unwrap().initial_ms,
            5_400_000
        );
        let tc = TimeControl::parse("各５分 秒読み30秒").unwrap();
        assert_eq!((tc.initial_ms, tc.byoyomi_ms), (300_000, 30_000));
        assert_eq!(TimeControl::parse("なし"), None);
        assert_eq!(TimeControl::parse("10分切れ負け"), None);
    }

    #[test]
    fn seconds_with_decimals() {
        assert_eq!(parse_seconds_ms("6.123"), Some(6123));
        assert_eq!(parse_seconds_ms("6.1"), Some(6100));
        assert_eq!(parse_seconds_ms("12"), Some(12_000));
        assert_eq!(parse_seconds_ms("-1"), None);
        assert_eq!(parse_seconds_ms("1."), Some(1000));
        assert_eq!(parse_seconds_ms("99999999999999999999"), None);
        assert_eq!(parse_seconds_ms(""), None);
        assert_eq!(parse_seconds_ms(".5"), None);
        assert_eq!(parse_seconds_ms("1.x"), None);
        assert_eq!(parse_seconds_ms("1.2.3"), None);
    }
}
