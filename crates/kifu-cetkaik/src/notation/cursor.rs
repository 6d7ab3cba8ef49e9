//! A cursor over CKKA text: separators, raw `#{…}#` strings, spans.

use kifu_record::Span;

/// Spaces of the spec (and a few more harmless ones).
pub fn is_space(c: char) -> bool {
    matches!(c, '\t' | ' ' | '\u{A0}' | '\u{3000}' | '\r')
}

/// Punctuation that may separate elements.
pub fn is_punct(c: char) -> bool {
    matches!(c, ',' | '.' | '、' | '。' | '，' | '．' | '｡' | '､')
}

pub fn is_separator(c: char) -> bool {
    is_space(c) || is_punct(c) || c == '\n'
}

#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    pub text: &'a str,
    pub pos: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str, pos: usize) -> Cursor<'a> {
        Cursor { text, pos }
    }

    pub fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    pub fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    pub fn eat_char(&mut self, f: impl Fn(char) -> bool) -> Option<char> {
        match self.peek() {
            Some(c) if f(c) => {
                self.pos += c.len_utf8();
                Some(c)
            }
            _ => None,
        }
    }

    /// Skips spaces on this line (not newlines).
    pub fn skip_spaces(&mut self) {
        while self.eat_char(is_space).is_some() {}
    }

    /// Skips spaces, newlines and punctuation.
    pub fn skip_separators(&mut self) {
        while self.eat_char(is_separator).is_some() {}
    }

    pub fn span_from(&self, start: usize) -> Span {
        Span::new(start, self.pos)
    }

    /// Moves to the next separator (to recover after an error).
    pub fn skip_to_separator(&mut self) {
        while let Some(c) = self.peek() {
            if is_separator(c) {
                break;
            }
            self.bump();
        }
    }

    /// Reads `#…#{ … }#…#` (or `[ … ]`) with any number of `#`; the cursor is on the first
    /// `#` or the opening bracket. Returns the content, or an error message if unterminated.
    pub fn raw_string(&mut self, open: char, close: char) -> Result<&'a str, String> {
        let start = self.pos;
        let mut hashes = 0;
        while self.eat("#") {
            hashes += 1;
        }
        if self.eat_char(|c| c == open).is_none() {
            self.pos = start;
            return Err(format!("expected `{open}`"));
        }
        let mut terminator = String::from(close);
        terminator.push_str(&"#".repeat(hashes));
        let body_start = self.pos;
        let rest = self.rest();
        // Items may not span lines.
        let line_end = rest.find('\n').unwrap_or(rest.len());
        match rest[..line_end].find(&terminator) {
            Some(i) => {
                self.pos = body_start + i + terminator.len();
                Ok(&self.text[body_start..body_start + i])
            }
            None => {
                self.pos = body_start + line_end;
                Err(format!(
                    "unterminated `{}{open}`: no `{terminator}` on this line",
                    "#".repeat(hashes)
                ))
            }
        }
    }

    /// Whether a raw string of `open` starts here (`{`, `#{`, `##{` …).
    pub fn at_raw(&self, open: char) -> bool {
        self.rest().trim_start_matches('#').starts_with(open)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_strings_with_hashes() {
        let mut c = Cursor::new("{a}", 0);
        assert_eq!(c.raw_string('{', '}'), Ok("a"));
        let mut c = Cursor::new("#{x}y}#", 0);
        assert_eq!(c.raw_string('{', '}'), Ok("x}y"));
        let mut c = Cursor::new("##{p}#q}##rest", 0);
        assert_eq!(c.raw_string('{', '}'), Ok("p}#q"));
        assert_eq!(c.rest(), "rest");
        let mut c = Cursor::new("{open\n}", 0);
        assert!(c.raw_string('{', '}').is_err());
        let mut c = Cursor::new("#[a]b]#", 0);
        assert_eq!(c.raw_string('[', ']'), Ok("a]b"));
    }
}
