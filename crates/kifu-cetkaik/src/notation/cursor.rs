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

/// Whether `c` separates elements: a space, punctuation or a newline.
pub fn is_separator(c: char) -> bool {
    is_space(c) || is_punct(c) || c == '\n'
}

/// Why [`Cursor::raw_string`] found no raw string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RawStringError {
    /// The opening bracket is missing after the `#`s.
    #[error("expected `{open}`")]
    NoOpening {
        /// The bracket that was expected (`{` or `[`).
        open: char,
    },
    /// The raw string does not close on its line.
    #[error("unterminated `{opening}`: no `{terminator}` on this line")]
    Unterminated {
        /// The opening as written, hashes included (`##{`).
        opening: String,
        /// What would have closed it (`}##`).
        terminator: String,
    },
}

/// A reading position in a text.
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    /// The whole text.
    pub text: &'a str,
    /// The byte offset read up to.
    pub pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at byte `pos` of `text`.
    pub fn new(text: &'a str, pos: usize) -> Cursor<'a> {
        Cursor { text, pos }
    }

    /// The text not read yet.
    pub fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// The next character, not read.
    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Whether everything is read.
    pub fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    /// Reads the next character.
    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// Reads `s` if the text goes on with it.
    pub fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Reads the next character if `f` accepts it.
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

    /// The span from `start` to what is read.
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
    /// `#` or the opening bracket. Returns the content, or why there is none.
    pub fn raw_string(&mut self, open: char, close: char) -> Result<&'a str, RawStringError> {
        let start = self.pos;
        let mut hashes = 0;
        while self.eat("#") {
            hashes += 1;
        }
        if self.eat_char(|c| c == open).is_none() {
            self.pos = start;
            return Err(RawStringError::NoOpening { open });
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
                Err(RawStringError::Unterminated {
                    opening: format!("{}{open}", "#".repeat(hashes)),
                    terminator,
                })
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
        let mut c = Cursor::new("#{open\n}", 0);
        assert_eq!(
            c.raw_string('{', '}').unwrap_err().to_string(),
            "unterminated `#{`: no `}#` on this line"
        );
        let mut c = Cursor::new("#[a]b]#", 0);
        assert_eq!(c.raw_string('[', ']'), Ok("a]b"));
    }
}
