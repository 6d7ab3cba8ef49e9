//! Splits a CSL move (Western, Japanese or mixed) into tokens. Full-width forms are folded to
//! ASCII first, so `７八` and `7八` read alike.

use super::names::{PieceName, japanese_prefix, kanji_rank_prefix};
use crate::square::Square;

/// The squares a digit string can name: `78` is 7h; `111` is 11a or 1k; `1012` is 10l.
pub(crate) fn numeric_squares(d: &str) -> Vec<Square> {
    let mut out = Vec::new();
    for split in 1..d.len() {
        let (f, r) = d.split_at(split);
        if f.len() > 2 || r.len() > 2 || f.starts_with('0') || r.starts_with('0') {
            continue;
        }
        if let (Ok(f), Ok(r)) = (f.parse::<u8>(), r.parse::<u8>())
            && (1..=12).contains(&r)
            && let Some(sq) = Square::new(f, r - 1)
        {
            out.push(sq);
        }
    }
    out
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A run of ASCII letters: a piece abbreviation, maybe with disambiguation letters, typos or
    /// a trailing capture `x`.
    Letters(String),
    Plus,
    Equals,
    Dash,
    Bang,
    /// `・` between the two squares of a Japanese double move.
    Dot,
    /// Digits not followed by a rank letter or numeral: an origin file or a numeric square.
    Digits(String),
    /// `7h`, `10d` or `7八`.
    Square(Square),
    Piece(PieceName),
    Promote,
    Decline,
    /// 同: the previous move's destination.
    Same,
    /// 右 左 上 引 寄 直 (and 跳, a lion's jump).
    Relative(char),
    Igui,
    Pass,
    /// An origin in parentheses: `(7十)`, `（←7十）`.
    Origin(Vec<Square>),
}

/// A token with its byte range in the original text.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub start: usize,
    pub end: usize,
}

/// Folds full-width ASCII and a few look-alikes; keeps a map from folded to original offsets.
fn fold(text: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut map = Vec::with_capacity(text.len() + 1);
    for (i, c) in text.char_indices() {
        let f = match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFF01 + 0x21).unwrap_or(c),
            '\u{3000}' => ' ',
            '×' => 'x',
            '−' | '–' | '—' => '-',
            _ => c,
        };
        let before = out.len();
        out.push(f);
        for _ in before..out.len() {
            map.push(i);
        }
    }
    map.push(text.len());
    (out, map)
}

/// Tokenises `text`; on failure returns the byte range of the unreadable part.
pub(crate) fn lex(text: &str) -> Result<Vec<Token>, (usize, usize)> {
    let (s, map) = fold(text);
    let b = s.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        let c = rest.chars().next().unwrap();
        let start = i;
        // Side marks (▲△☗☖) and separators carry nothing the move needs.
        let (tok, len) =
            if c.is_ascii_whitespace() || matches!(c, ',' | '、' | '▲' | '△' | '☗' | '☖') {
                i += c.len_utf8();
                continue;
            } else if c.is_ascii_digit() {
                let mut j = i;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                let digits = &s[i..j];
                let after = &s[j..];
                if let Some((rank, n)) = kanji_rank_prefix(after) {
                    match digits.parse::<u8>().ok().and_then(|f| Square::new(f, rank)) {
                        Some(sq) => (Tok::Square(sq), j - i + n),
                        None => return Err((map[i], map[j + n])),
                    }
                } else if let Some(sq) = after
                    .as_bytes()
                    .first()
                    .filter(|r| (b'a'..=b'l').contains(*r))
                    .and_then(|&r| Square::new(digits.parse().ok()?, r - b'a'))
                {
                    (Tok::Square(sq), j - i + 1)
                } else if digits.len() <= 2
                    && after.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
                    && !after[1..].starts_with(|ch: char| ch.is_ascii_lowercase())
                    && after.as_bytes()[0] != b'x'
                {
                    // Looks like a square but is off the board (`13a`, `7m`).
                    return Err((map[i], map[j + 1]));
                } else {
                    (Tok::Digits(digits.to_string()), j - i)
                }
            } else if c.is_ascii_alphabetic() {
                let mut j = i;
                while j < b.len() && b[j].is_ascii_alphabetic() {
                    j += 1;
                }
                let word = &s[i..j];
                if word.eq_ignore_ascii_case("pass") {
                    (Tok::Pass, j - i)
                } else {
                    (Tok::Letters(word.to_string()), j - i)
                }
            } else {
                match c {
                    '(' => {
                        let close = rest.find(')').ok_or((map[i], map[s.len()]))?;
                        let inner = rest[1..close].trim_start_matches('←');
                        let squares = match lex(inner).ok().as_deref() {
                            Some(
                                [
                                    Token {
                                        tok: Tok::Square(sq),
                                        ..
                                    },
                                ],
                            ) => vec![*sq],
                            Some(
                                [
                                    Token {
                                        tok: Tok::Digits(d),
                                        ..
                                    },
                                ],
                            ) => numeric_squares(d),
                            _ => Vec::new(),
                        };
                        if squares.is_empty() {
                            return Err((map[i], map[i + close + 1]));
                        }
                        (Tok::Origin(squares), close + 1)
                    }
                    '-' if rest.starts_with("--") => (Tok::Pass, 2),
                    '+' => (Tok::Plus, 1),
                    '=' => (Tok::Equals, 1),
                    '-' => (Tok::Dash, 1),
                    '!' => (Tok::Bang, 1),
                    '・' | '･' => (Tok::Dot, c.len_utf8()),
                    '同' | '仝' => (Tok::Same, c.len_utf8()),
                    '右' | '左' | '上' | '引' | '寄' | '直' | '跳' => {
                        (Tok::Relative(c), c.len_utf8())
                    }
                    _ => {
                        if let Some(n) = ["不成", "生"]
                            .iter()
                            .find(|p| rest.starts_with(*p))
                            .map(|p| p.len())
                        {
                            (Tok::Decline, n)
                        } else if let Some(n) = ["居喰い", "居食い", "居喰", "居食"]
                            .iter()
                            .find(|p| rest.starts_with(*p))
                            .map(|p| p.len())
                        {
                            (Tok::Igui, n)
                        } else if let Some(n) = ["じっと", "ジット", "パス"]
                            .iter()
                            .find(|p| rest.starts_with(*p))
                            .map(|p| p.len())
                        {
                            (Tok::Pass, n)
                        } else if let Some((name, n)) = japanese_prefix(rest) {
                            (Tok::Piece(name), n)
                        } else if c == '成' {
                            (Tok::Promote, c.len_utf8())
                        } else {
                            return Err((map[i], map[i + c.len_utf8()]));
                        }
                    }
                }
            };
        toks.push(Token {
            tok,
            start: map[start],
            end: map[start + len],
        });
        i = start + len;
    }
    Ok(toks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        lex(s)
            .unwrap_or_else(|e| panic!("{s}: {e:?}"))
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn western_and_japanese_squares() {
        let sq = |s: &str| Tok::Square(s.parse().unwrap());
        assert_eq!(
            kinds("Ln-7h"),
            vec![Tok::Letters("Ln".into()), Tok::Dash, sq("7h")]
        );
        assert_eq!(kinds("７八獅").len(), 2);
        assert_eq!(kinds("78-獅")[0], Tok::Digits("78".into()));
        assert_eq!(
            kinds("VMx10d+"),
            vec![Tok::Letters("VMx".into()), sq("10d"), Tok::Plus]
        );
        assert_eq!(kinds("6十一")[0], sq("6k"));
        assert!(lex("13a").is_err());
        assert!(lex("Ln-7m").is_err());
        assert!(lex("7八獅★").is_err());
    }
}
