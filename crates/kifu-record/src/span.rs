use std::fmt;

/// A half-open byte range `start..end` into the decoded text of one source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// The first byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span `start..end` (an `end` before `start` is taken as `start`).
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: clamp_u32(start),
            end: clamp_u32(end.max(start)),
        }
    }

    /// An empty span at one position, for things that are missing.
    pub fn point(at: usize) -> Span {
        Span::new(at, at)
    }

    /// The number of bytes covered.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// True when the span covers nothing (it marks a place).
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The span as a range for slicing the text.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

// Sources over 4 GiB are not records; positions past that saturate rather than wrap.
fn clamp_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A 1-based line and column; the column counts characters, not bytes, so that
/// it points at the right place in Japanese text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    /// The line, from 1.
    pub line: u32,
    /// The column in characters, from 1.
    pub column: u32,
}

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Decoded text with its name, able to turn byte offsets into lines and columns.
///
/// Line starts are computed once, so resolving many diagnostics stays cheap; they are kept
/// as `u32` like spans (4 bytes a line: 50 MB for a 100 MB archive of short CSA lines).
///
/// ```
/// use kifu_record::{SourceText, Span};
///
/// let source = SourceText::new("game.kif", "手合割：平手\n1 ７六歩(77)\n");
/// let at = source.line_col(source.text().find('７').unwrap() as u32);
/// assert_eq!((at.line, at.column), (2, 3)); // columns count characters, not bytes
/// assert_eq!(source.slice(Span::new(0, 9)), "手合割");
/// ```
#[derive(Clone, Debug)]
pub struct SourceText<'a> {
    name: String,
    text: &'a str,
    line_starts: Vec<u32>,
}

impl<'a> SourceText<'a> {
    /// Indexes the lines of `text`, read from the source called `name`.
    pub fn new(name: impl Into<String>, text: &'a str) -> SourceText<'a> {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.match_indices('\n')
                .map_while(|(i, _)| u32::try_from(i + 1).ok()),
        );
        SourceText {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// The source's name (a path, or `-` for standard input).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The decoded text.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Line and column of a byte offset (clamped to the text, and to a char boundary).
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = self.floor_char_boundary(offset as usize);
        let line = self.line_starts.partition_point(|&s| s as usize <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let column = self.text[start..offset].chars().count() + 1;
        LineCol {
            line: line as u32 + 1,
            column: column as u32,
        }
    }

    /// The whole line (without its terminator) that contains the offset.
    pub fn line_text(&self, offset: u32) -> &'a str {
        let offset = self.floor_char_boundary(offset as usize);
        let line = self.line_starts.partition_point(|&s| s as usize <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |&next| next as usize - 1);
        self.text[start..end].trim_end_matches('\r')
    }

    /// The text a span covers, clamped to the source.
    pub fn slice(&self, span: Span) -> &'a str {
        let start = self.floor_char_boundary(span.start as usize);
        let end = self.floor_char_boundary(span.end as usize).max(start);
        &self.text[start..end]
    }

    pub(crate) fn floor_char_boundary(&self, mut offset: usize) -> usize {
        offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters() {
        let src = SourceText::new("a.kif", "手合割：平手\n   1 ７六歩(77)\n");
        let off = src.text().find('７').unwrap() as u32;
        assert_eq!(src.line_col(off), LineCol { line: 2, column: 6 });
        assert_eq!(src.line_text(off), "   1 ７六歩(77)");
    }

    #[test]
    fn offsets_past_the_end_are_clamped() {
        let src = SourceText::new("x", "ab");
        assert_eq!(src.line_col(99), LineCol { line: 1, column: 3 });
        assert_eq!(src.slice(Span::new(1, 99)), "b");
    }
}
