//! Splitting a byte stream into LF-terminated lines, with a bound on line length.
//!
//! The protocol's longest message is 11 bytes (`%SENNICHITE`), so anything much longer is
//! garbage: it is reported once and skipped up to the next LF without being stored, so
//! that a peer sending a megabyte without a newline costs no memory. The CSA server
//! protocol carries longer lines (floodgate's `,'*` comments with a whole PV), so a framer
//! for it is made with [`LineFramer::with_limit`].

/// The longest line kept by [`LineFramer::new`]; longer ones are reported as [`Line::TooLong`].
pub const MAX_LINE: usize = 256;

/// One framed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The bytes before the LF, a trailing CR removed.
    Text(Vec<u8>),
    /// A line longer than the framer's limit: its first bytes and its full length.
    TooLong {
        /// The first bytes, up to the limit.
        start: Vec<u8>,
        /// The line's full length in bytes.
        length: usize,
    },
}

/// Accumulates bytes as they arrive and hands out complete lines.
///
/// ```
/// use kifu_csa::lines::{Line, LineFramer};
///
/// let mut framer = LineFramer::new();
/// let mut lines = Vec::new();
/// framer.push(b"+7776FU\r\n%TO", &mut lines);
/// framer.push(b"RYO\n-33", &mut lines);
/// assert_eq!(lines, [Line::Text(b"+7776FU".to_vec()), Line::Text(b"%TORYO".to_vec())]);
/// assert_eq!(framer.finish(), Some(Line::Text(b"-33".to_vec())));
/// ```
#[derive(Debug)]
pub struct LineFramer {
    buf: Vec<u8>,
    /// Length of the over-long line being skipped, if any.
    skipping: Option<usize>,
    /// The longest line kept, in bytes (the LF not counted).
    limit: usize,
}

impl Default for LineFramer {
    fn default() -> Self {
        LineFramer::with_limit(MAX_LINE)
    }
}

impl LineFramer {
    /// A framer for the 1998 line protocol: lines up to [`MAX_LINE`] bytes.
    pub fn new() -> LineFramer {
        LineFramer::default()
    }

    /// A framer keeping lines up to `limit` bytes; longer ones become [`Line::TooLong`].
    pub fn with_limit(limit: usize) -> LineFramer {
        LineFramer {
            buf: Vec::new(),
            skipping: None,
            limit,
        }
    }

    /// The longest line this framer keeps.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Feeds received bytes; complete lines are pushed onto `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<Line>) {
        for chunk in bytes.split_inclusive(|&b| b == b'\n') {
            let (body, ended) = match chunk.split_last() {
                Some((b'\n', body)) => (body, true),
                _ => (chunk, false),
            };
            if let Some(n) = self.skipping.as_mut() {
                *n += body.len();
            } else if self.buf.len() + body.len() > self.limit {
                let take = self.limit.saturating_sub(self.buf.len()).min(body.len());
                self.buf.extend_from_slice(&body[..take]);
                self.skipping = Some(self.buf.len() + body.len() - take);
            } else {
                self.buf.extend_from_slice(body);
            }
            if ended {
                out.push(self.take_line());
            }
        }
    }

    /// Bytes of an unfinished line left when the stream ended (a line cut in half).
    pub fn finish(&mut self) -> Option<Line> {
        if self.buf.is_empty() && self.skipping.is_none() {
            None
        } else {
            Some(self.take_line())
        }
    }

    fn take_line(&mut self) -> Line {
        let mut text = std::mem::take(&mut self.buf);
        match self.skipping.take() {
            Some(length) => {
                text.truncate(32);
                Line::TooLong {
                    start: text,
                    length,
                }
            }
            None => {
                if text.last() == Some(&b'\r') {
                    text.pop();
                }
                Line::Text(text)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(chunks: &[&[u8]]) -> (Vec<Line>, Option<Line>) {
        let mut f = LineFramer::new();
        let mut out = Vec::new();
        for c in chunks {
            f.push(c, &mut out);
        }
        let rest = f.finish();
        (out, rest)
    }

    #[test]
    fn lf_and_crlf_lines_across_chunks() {
        let (lines, rest) = frame(&[b"+77", b"76FU\r\n-3334", b"FU\n%TO", b"RYO\n"]);
        assert_eq!(
            lines,
            vec![
                Line::Text(b"+7776FU".to_vec()),
                Line::Text(b"-3334FU".to_vec()),
                Line::Text(b"%TORYO".to_vec())
            ]
        );
        assert_eq!(rest, None);
    }

    #[test]
    fn a_cut_line_is_handed_back_at_the_end() {
        let (lines, rest) = frame(&[b"+7776FU\n-33"]);
        assert_eq!(lines.len(), 1);
        assert_eq!(rest, Some(Line::Text(b"-33".to_vec())));
    }

    #[test]
    fn a_megabyte_line_is_reported_not_stored() {
        let mut f = LineFramer::new();
        let mut out = Vec::new();
        let block = vec![b'x'; 64 * 1024];
        for _ in 0..16 {
            f.push(&block, &mut out);
            assert!(f.buf.len() <= MAX_LINE);
        }
        f.push(b"\n+7776FU\n", &mut out);
        assert_eq!(out.len(), 2);
        match &out[0] {
            Line::TooLong { start, length } => {
                assert_eq!(*length, 1024 * 1024);
                assert_eq!(start.len(), 32);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(out[1], Line::Text(b"+7776FU".to_vec()));
    }

    #[test]
    fn a_framer_with_a_larger_limit_keeps_long_lines_and_reports_longer_ones() {
        let mut f = LineFramer::with_limit(1000);
        let mut out = Vec::new();
        let long = format!("+7776FU,'* 30{}\n", " -3334FU".repeat(100));
        f.push(long.as_bytes(), &mut out);
        f.push(&[b'x'; 1001], &mut out);
        f.push(b"\n", &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0], Line::Text(long.trim_end().as_bytes().to_vec()));
        assert!(matches!(out[1], Line::TooLong { length: 1001, .. }));
    }
}
