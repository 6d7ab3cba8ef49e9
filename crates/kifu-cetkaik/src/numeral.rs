//! Numbers in CKKA: pekzep numerals in kanji transcription (`二十一億四七百四八万三六百四七`)
//! and arabic numerals (`-27`), within the i32 range.

use std::fmt;

/// Why a text is no CKKA number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumeralError {
    /// Nothing is written.
    Empty,
    /// Not a numeral by the grammar; says which part is wrong.
    Malformed(String),
    /// The number does not fit an i32.
    OutOfRange,
}

impl fmt::Display for NumeralError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumeralError::Empty => f.write_str("empty number"),
            NumeralError::Malformed(s) => write!(f, "not a pekzep numeral: {s}"),
            NumeralError::OutOfRange => {
                f.write_str("number outside −2,147,483,648 … 2,147,483,647")
            }
        }
    }
}

const DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn digit(c: char) -> Option<i64> {
    DIGITS.iter().position(|&d| d == c).map(|i| i as i64 + 1)
}

/// Characters that can appear in a kanji numeral.
pub fn is_numeral_char(c: char) -> bool {
    digit(c).is_some() || matches!(c, '十' | '百' | '万' | '億' | '無' | '下')
}

fn bad(s: &[char], why: &str) -> NumeralError {
    NumeralError::Malformed(format!("`{}` {why}", s.iter().collect::<String>()))
}

// less-than-hundred = [digit] 十 [digit] | digit
fn tens(s: &[char]) -> Result<i64, NumeralError> {
    match s {
        [d] if digit(*d).is_some() => Ok(digit(*d).unwrap_or(0)),
        ['十'] => Ok(10),
        ['十', b] => Ok(10 + digit(*b).ok_or_else(|| bad(s, "is not 1–99"))?),
        [a, '十'] => Ok(10 * digit(*a).ok_or_else(|| bad(s, "is not 1–99"))?),
        [a, '十', b] => match (digit(*a), digit(*b)) {
            (Some(a), Some(b)) => Ok(10 * a + b),
            _ => Err(bad(s, "is not 1–99")),
        },
        _ => Err(bad(s, "is not 1–99")),
    }
}

// elided = 十 [digit] | digit 十 | digit digit | digit
fn elided(s: &[char]) -> Result<i64, NumeralError> {
    match s {
        [a, b] if digit(*a).is_some() && digit(*b).is_some() => {
            Ok(10 * digit(*a).unwrap_or(0) + digit(*b).unwrap_or(0))
        }
        [_] | [_, _] => tens(s),
        _ => Err(bad(s, "is not a two-digit group")),
    }
}

fn split_at(s: &[char], unit: char) -> Option<(&[char], &[char])> {
    let i = s.iter().position(|&c| c == unit)?;
    Some((&s[..i], &s[i + 1..]))
}

// less-than-ten-thousand = [elided] 百 [elided] | 百 less-than-hundred | less-than-hundred
fn below_1e4(s: &[char]) -> Result<i64, NumeralError> {
    match split_at(s, '百') {
        None => tens(s),
        Some((l, r)) => {
            let hi = if l.is_empty() { 1 } else { elided(l)? };
            let lo = match r {
                [] => 0,
                _ if l.is_empty() => elided(r).or_else(|_| tens(r))?,
                _ => elided(r)?,
            };
            Ok(hi * 100 + lo)
        }
    }
}

// A group next to 万 / 億: the smaller form, or (current spec) a bare two-digit group.
fn group(s: &[char], below: fn(&[char]) -> Result<i64, NumeralError>) -> Result<i64, NumeralError> {
    below(s).or_else(|e| elided(s).map_err(|_| e))
}

fn below_1e8(s: &[char]) -> Result<i64, NumeralError> {
    match split_at(s, '万') {
        None => below_1e4(s),
        Some((l, r)) => {
            let hi = if l.is_empty() {
                1
            } else {
                group(l, below_1e4)?
            };
            let lo = if r.is_empty() {
                0
            } else {
                group(r, below_1e4)?
            };
            Ok(hi * 10_000 + lo)
        }
    }
}

fn positive(s: &[char]) -> Result<i64, NumeralError> {
    match split_at(s, '億') {
        None => below_1e8(s),
        Some((l, r)) => {
            let hi = if l.is_empty() {
                1
            } else {
                group(l, below_1e8)?
            };
            let lo = if r.is_empty() {
                0
            } else {
                group(r, below_1e8)?
            };
            Ok(hi * 100_000_000 + lo)
        }
    }
}

/// Reads a pekzep numeral (`無`, `下五`, `万二三百四五`).
pub fn parse_pekzep(s: &str) -> Result<i32, NumeralError> {
    let chars: Vec<char> = s.chars().collect();
    let value = match chars.as_slice() {
        [] => return Err(NumeralError::Empty),
        ['無'] => 0,
        ['下', rest @ ..] if !rest.is_empty() => -positive(rest)?,
        rest => positive(rest)?,
    };
    i32::try_from(value).map_err(|_| NumeralError::OutOfRange)
}

/// Reads an arabic numeral: `-?[0-9]+`.
pub fn parse_arabic(s: &str) -> Result<i32, NumeralError> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() {
        return Err(NumeralError::Empty);
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumeralError::Malformed(format!(
            "`{s}` is not an arabic numeral"
        )));
    }
    let trimmed = digits.trim_start_matches('0');
    if trimmed.len() > 10 {
        return Err(NumeralError::OutOfRange);
    }
    let v: i64 = trimmed.parse().unwrap_or(0);
    let v = if s.starts_with('-') { -v } else { v };
    i32::try_from(v).map_err(|_| NumeralError::OutOfRange)
}

/// Either form.
pub fn parse(s: &str) -> Result<i32, NumeralError> {
    if s.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
        parse_arabic(s)
    } else {
        parse_pekzep(s)
    }
}

fn push_digit(out: &mut String, n: i64) {
    out.push(DIGITS[(n - 1) as usize]);
}

fn fmt_tens(out: &mut String, n: i64) {
    let (a, b) = (n / 10, n % 10);
    if a > 1 {
        push_digit(out, a);
    }
    if a > 0 {
        out.push('十');
    }
    if b > 0 {
        push_digit(out, b);
    }
}

// A two-digit group without a middle 十; `dd` also for 11–19 when `digits_for_teens`.
fn fmt_elided(out: &mut String, n: i64, digits_for_teens: bool) {
    let (a, b) = (n / 10, n % 10);
    if a == 0 || b == 0 || (a == 1 && !digits_for_teens) {
        fmt_tens(out, n);
    } else {
        push_digit(out, a);
        push_digit(out, b);
    }
}

fn fmt_below_1e4(out: &mut String, n: i64) {
    match n {
        0 => {}
        1..=99 => fmt_tens(out, n),
        100..=199 => {
            out.push('百');
            fmt_tens(out, n - 100);
        }
        _ => {
            let (q, r) = (n / 100, n % 100);
            fmt_elided(out, q, r != 0);
            out.push('百');
            if r > 0 {
                fmt_elided(out, r, true);
            }
        }
    }
}

fn fmt_big(out: &mut String, n: i64, unit: i64, mark: char, below: fn(&mut String, i64)) {
    if n < unit {
        below(out, n);
        return;
    }
    let (q, r) = (n / unit, n % unit);
    if q > 1 {
        below(out, q);
    }
    out.push(mark);
    below(out, r);
}

fn fmt_below_1e8(out: &mut String, n: i64) {
    fmt_big(out, n, 10_000, '万', fmt_below_1e4);
}

/// The canonical pekzep numeral of `n`, as the spec's examples write it.
pub fn to_pekzep(n: i32) -> String {
    let mut out = String::new();
    let mut v = n as i64;
    if v == 0 {
        return "無".into();
    }
    if v < 0 {
        out.push('下');
        v = -v;
    }
    fmt_big(&mut out, v, 100_000_000, '億', fmt_below_1e8);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every example of the seed, both ways where the form is canonical.
    const CANONICAL: &[(i32, &str)] = &[
        (0, "無"),
        (1, "一"),
        (9, "九"),
        (10, "十"),
        (11, "十一"),
        (19, "十九"),
        (20, "二十"),
        (21, "二十一"),
        (25, "二十五"),
        (30, "三十"),
        (99, "九十九"),
        (100, "百"),
        (101, "百一"),
        (110, "百十"),
        (111, "百十一"),
        (120, "百二十"),
        (125, "百二十五"),
        (210, "二百十"),
        (525, "五百二五"),
        (1_000, "十百"),
        (1_200, "十二百"),
        (2_000, "二十百"),
        (2_200, "二二百"),
        (5_678, "五六百七八"),
        (12_345, "万二三百四五"),
        (876_543, "八十七万六五百四三"),
        (12_345_678, "一二百三四万五六百七八"),
        (100_000_000, "億"),
        (2_147_483_647, "二十一億四七百四八万三六百四七"),
        (-2_147_483_648, "下二十一億四七百四八万三六百四八"),
        (-27, "下二十七"),
        (40, "四十"),
        (28, "二十八"),
    ];

    #[test]
    fn seed_examples_both_ways() {
        for &(n, s) in CANONICAL {
            assert_eq!(parse_pekzep(s), Ok(n), "{s}");
            assert_eq!(to_pekzep(n), s, "{n}");
        }
    }

    #[test]
    fn every_number_of_1_to_120_as_listed_in_the_seed() {
        let listed = "一 二 三 四 五 六 七 八 九 十 十一 十二 十三 十四 十五 十六 十七 十八 十九 二十 二十一 二十二 二十三 二十四 二十五 二十六 二十七 二十八 二十九 三十";
        for (i, s) in listed.split(' ').enumerate() {
            assert_eq!(parse_pekzep(s), Ok(i as i32 + 1));
        }
        for n in 1..=120 {
            assert_eq!(parse_pekzep(&to_pekzep(n)), Ok(n));
        }
    }

    #[test]
    fn elided_and_permissive_forms_are_read() {
        assert_eq!(parse_pekzep("百二五"), Ok(125));
        assert_eq!(parse_pekzep("八七万六五百四三"), Ok(876_543));
        assert_eq!(parse_pekzep("十二百三四"), Ok(1_234));
        assert_eq!(parse_pekzep("一十"), Ok(10));
        assert!(parse_pekzep("下無").is_err());
    }

    #[test]
    fn malformed_numerals_are_errors() {
        for s in [
            "",
            "百百",
            "十十",
            "一二三",
            "万万",
            "億億",
            "下",
            "五百二十五十",
            "x",
            "無無",
            "二十五百",
        ] {
            assert!(parse_pekzep(s).is_err(), "{s}");
        }
        // 五百二十五: the middle 十 must be dropped after a hundreds group.
        assert!(parse_pekzep("五百二十五").is_err());
        assert_eq!(parse_pekzep("二十二億"), Err(NumeralError::OutOfRange));
        assert_eq!(
            parse_pekzep("下二十一億四七百四八万三六百四九"),
            Err(NumeralError::OutOfRange)
        );
    }

    #[test]
    fn arabic_numerals() {
        assert_eq!(parse("30"), Ok(30));
        assert_eq!(parse("-27"), Ok(-27));
        assert_eq!(parse("-0"), Ok(0));
        assert_eq!(parse("007"), Ok(7));
        assert_eq!(parse("2147483647"), Ok(i32::MAX));
        assert_eq!(parse("-2147483648"), Ok(i32::MIN));
        assert_eq!(parse("2147483648"), Err(NumeralError::OutOfRange));
        assert_eq!(parse("00000000000000000001"), Ok(1));
        assert!(parse("-").is_err());
        assert!(parse("3a").is_err());
    }

    #[test]
    fn every_value_round_trips_on_a_sample_of_the_range() {
        let mut x: u64 = 1;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let n = x as i32;
            assert_eq!(parse_pekzep(&to_pekzep(n)), Ok(n), "{n} {}", to_pekzep(n));
        }
        for n in -20_000..20_000 {
            assert_eq!(parse_pekzep(&to_pekzep(n)), Ok(n), "{n} {}", to_pekzep(n));
        }
    }
}
