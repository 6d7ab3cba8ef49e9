//! What a match is told about each engine: `name=… cmd=… option.X=Y nodes=… tc=…`, the
//! `key=value` words fastchess and cutechess users write after `-engine`.

use std::fmt;

/// How long an engine may think.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// `nodes=N`: `go nodes N`.
    pub nodes: Option<u64>,
    /// `depth=N`: `go depth N`.
    pub depth: Option<u32>,
    /// `movetime=MS`: a fixed time a move, told as `byoyomi` with no main time (shogitest's
    /// mapping; USI has no `movetime`).
    pub movetime_ms: Option<u64>,
    /// `tc=…`: a clock.
    pub clock: Option<TimeControl>,
}

impl Limit {
    /// This limit with what it leaves open taken from `defaults` (the match's own options).
    pub fn or(self, defaults: Limit) -> Limit {
        if self.nodes.is_some()
            || self.depth.is_some()
            || self.movetime_ms.is_some()
            || self.clock.is_some()
        {
            self
        } else {
            defaults
        }
    }

    /// Whether anything bounds the search (an engine told nothing would think forever).
    pub fn is_bounded(&self) -> bool {
        self.nodes.is_some()
            || self.depth.is_some()
            || self.movetime_ms.is_some()
            || self.clock.is_some()
    }
}

impl fmt::Display for Limit {
    /// As the record's comment and the summary show it: `nodes=20000`, `tc=60+1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(ms) = self.movetime_ms {
            parts.push(format!("movetime={ms}"));
        }
        if let Some(tc) = self.clock {
            parts.push(format!("tc={tc}"));
        }
        f.write_str(&parts.join(" "))
    }
}

/// A clock: main time, then byoyomi or a Fischer increment; the stop-watch rule charges each
/// move in whole minutes, rounded down (ストップウォッチ方式, as NHK杯 and many amateur
/// tournaments count).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Main time, in ms.
    pub main_ms: u64,
    /// Byoyomi, in ms.
    pub byoyomi_ms: u64,
    /// Fischer increment a move, in ms.
    pub increment_ms: u64,
    /// Charge each move in whole minutes, rounded down.
    pub stopwatch: bool,
}

impl TimeControl {
    /// Parses `MAIN+BYOYOMI` or `MAIN+BYOYOMI+INCREMENT` in seconds (fractions allowed, as
    /// CSA's `$TIME` writes them), with `sw` appended for the stop-watch rule: `60+1`,
    /// `300+0+10`, `0+0.1`, `600+30sw`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let (body, stopwatch) = match text.strip_suffix("sw") {
            Some(b) => (b, true),
            None => (text, false),
        };
        let fields: Vec<&str> = body.split('+').collect();
        if !(2..=3).contains(&fields.len()) {
            return Err(format!(
                "`{text}` is not MAIN+BYOYOMI[+INCREMENT] in seconds (e.g. 60+1, 300+0+10)"
            ));
        }
        let ms = |s: &str| -> Result<u64, String> {
            let secs: f64 = s
                .parse()
                .map_err(|_| format!("`{s}` in tc={text} is not a number of seconds"))?;
            if !(secs >= 0.0 && secs.is_finite()) {
                return Err(format!("`{s}` in tc={text} is not a number of seconds"));
            }
            Ok((secs * 1000.0).round() as u64)
        };
        let tc = TimeControl {
            main_ms: ms(fields[0])?,
            byoyomi_ms: ms(fields[1])?,
            increment_ms: fields.get(2).map(|f| ms(f)).transpose()?.unwrap_or(0),
            stopwatch,
        };
        if tc.byoyomi_ms > 0 && tc.increment_ms > 0 {
            return Err(format!("tc={text}: byoyomi and an increment together"));
        }
        if tc.main_ms == 0 && tc.byoyomi_ms == 0 && tc.increment_ms == 0 {
            return Err(format!("tc={text} gives no time at all"));
        }
        Ok(tc)
    }

    /// As CSA's `$TIME` holds one: `total+byoyomi+increment` in milliseconds' record form.
    pub fn record(&self) -> kifu_record::TimeControl {
        kifu_record::TimeControl {
            initial_ms: self.main_ms,
            byoyomi_ms: self.byoyomi_ms,
            increment_ms: self.increment_ms,
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = |ms: u64| {
            if ms.is_multiple_of(1000) {
                (ms / 1000).to_string()
            } else {
                format!("{}", ms as f64 / 1000.0)
            }
        };
        write!(f, "{}+{}", s(self.main_ms), s(self.byoyomi_ms))?;
        if self.increment_ms > 0 {
            write!(f, "+{}", s(self.increment_ms))?;
        }
        if self.stopwatch {
            f.write_str("sw")?;
        }
        Ok(())
    }
}

/// One engine of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Its name in records and tables (unique in the match).
    pub name: String,
    /// The command line (program, then arguments, split on whitespace).
    pub cmd: String,
    /// `setoption` pairs, in order.
    pub options: Vec<(String, String)>,
    /// Its own limit; what it leaves open comes from the match.
    pub limit: Limit,
}

/// A word of an engine's specification that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--engine {word}: {reason}")]
pub struct SpecError {
    /// The word.
    pub word: String,
    /// Why.
    pub reason: String,
}

impl EngineSpec {
    /// Reads `name=… cmd=… option.X=Y nodes=N depth=N movetime=MS tc=…`; `cmd` is required,
    /// `name` defaults to the command's program name.
    ///
    /// ```
    /// use kifu_engines::spec::EngineSpec;
    ///
    /// let words = ["name=strong", "cmd=sekirei", "option.Threads=1", "nodes=20000"];
    /// let e = EngineSpec::parse(&words).unwrap();
    /// assert_eq!((e.name.as_str(), e.cmd.as_str()), ("strong", "sekirei"));
    /// assert_eq!(e.options, [("Threads".to_owned(), "1".to_owned())]);
    /// assert_eq!(e.limit.nodes, Some(20_000));
    /// assert!(EngineSpec::parse(&["name=x"]).is_err());
    /// ```
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<EngineSpec, SpecError> {
        let mut name = None;
        let mut cmd = None;
        let mut options = Vec::new();
        let mut limit = Limit::default();
        for word in words {
            let word = word.as_ref();
            let bad = |reason: String| SpecError {
                word: word.to_owned(),
                reason,
            };
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| bad("expected key=value".to_owned()))?;
            let number = || {
                value
                    .parse::<u64>()
                    .map_err(|_| bad(format!("`{value}` is not a whole number")))
            };
            match key {
                "name" => name = Some(value.to_owned()),
                "cmd" => cmd = Some(value.to_owned()),
                "nodes" => limit.nodes = Some(number()?),
                "depth" => {
                    limit.depth =
                        Some(u32::try_from(number()?).map_err(|_| bad("too deep".to_owned()))?)
                }
                "movetime" => limit.movetime_ms = Some(number()?),
                "tc" => limit.clock = Some(TimeControl::parse(value).map_err(bad)?),
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        options.push((option.to_owned(), value.to_owned()))
                    }
                    _ => {
                        return Err(bad(
                            "unknown key (name, cmd, option.NAME, nodes, depth, movetime, tc)"
                                .to_owned(),
                        ));
                    }
                },
            }
        }
        let cmd = cmd
            .filter(|c| !c.trim().is_empty())
            .ok_or_else(|| SpecError {
                word: words
                    .iter()
                    .map(|w| w.as_ref())
                    .collect::<Vec<_>>()
                    .join(" "),
                reason: "cmd=PROGRAM is missing".to_owned(),
            })?;
        let name = name.unwrap_or_else(|| {
            let program = cmd.split_whitespace().next().unwrap_or("engine");
            program.rsplit('/').next().unwrap_or(program).to_owned()
        });
        Ok(EngineSpec {
            name,
            cmd,
            options,
            limit,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let tc = TimeControl::parse("60+1").unwrap();
        assert_eq!(
            (tc.main_ms, tc.byoyomi_ms, tc.increment_ms),
            (60_000, 1000, 0)
        );
        assert_eq!(tc.to_string(), "60+1");
        let f = TimeControl::parse("300+0+2.5").unwrap();
        assert_eq!(
            (f.increment_ms, f.to_string()),
            (2500, "300+0+2.5".to_owned())
        );
        let sw = TimeControl::parse("600+30sw").unwrap();
        assert!(sw.stopwatch);
        assert_eq!(TimeControl::parse("0+0.1").unwrap().byoyomi_ms, 100);
        assert!(TimeControl::parse("60").is_err());
        assert!(TimeControl::parse("60+1+1").is_err());
        assert!(TimeControl::parse("0+0").is_err());
        assert!(TimeControl::parse("a+1").is_err());
    }

    #[test]
    fn specs_and_their_faults() {
        let e = EngineSpec::parse(&["cmd=/usr/bin/sekirei --x", "tc=10+0.5", "depth=3"]).unwrap();
        assert_eq!(e.name, "sekirei");
        assert_eq!(e.limit.to_string(), "depth=3 tc=10+0.5");
        assert!(EngineSpec::parse(&["cmd=x", "nodes=many"]).is_err());
        assert!(EngineSpec::parse(&["cmd=x", "speed=9"]).is_err());
        assert!(EngineSpec::parse(&["cmd=x", "option.=1"]).is_err());
        let defaults = Limit {
            nodes: Some(5),
            ..Limit::default()
        };
        assert_eq!(Limit::default().or(defaults), defaults);
        assert_eq!(e.limit.or(defaults), e.limit);
    }
}
