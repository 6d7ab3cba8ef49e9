//! The CSA record file split into statements, with no knowledge of the rules.
//!
//! A physical line is one statement, or several joined by `,` (`+2726FU,T12`). Comment,
//! `N+`/`N-` and `$` lines are never split: a comma in a comment, a name or an event is text.
//! Every statement carries the span of its own text, so later stages can point at it.

use kifu_record::{CommentKind, Side, Span};
use kifu_shogi::notation::csa::{CsaMove, CsaMoveError};

/// One logical statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement<'a> {
    /// `'CSA encoding=…` on the first line (V3.0).
    Encoding(&'a str),
    /// `V2.2` → `"2.2"`.
    Version(&'a str),
    /// `N+name` / `N-name`.
    Name(Side, &'a str),
    /// `$KEY:value`.
    Info {
        /// The key between `$` and `:` (`EVENT`, `START_TIME` …).
        key: &'a str,
        /// The text after the first `:`.
        value: &'a str,
    },
    /// `PI` followed by the removed pieces (`82HI22KA`).
    Even {
        /// The square+piece pairs after `PI`, as written.
        removed: &'a str,
    },
    /// `P1` … `P9`: the nine cells of one rank, as written.
    Rank {
        /// The rank, 1 to 9.
        rank: u8,
        /// The text after `P1` … `P9`.
        cells: &'a str,
    },
    /// `P+…` / `P-…`: square+code pairs, `00` for the hand, `00AL` for "all the rest".
    Pieces(Side, &'a str),
    /// `+` or `-` alone: the side to move.
    Turn(Side),
    /// A move, or move text whose piece cannot be read (`+7776XX`, a drop of `TO`): such a
    /// move still takes its ply, so it goes to the replay rather than being skipped.
    Move(Result<CsaMove, CsaMoveError>),
    /// `%TORYO` → `"TORYO"`, `%+ILLEGAL_ACTION` → `"+ILLEGAL_ACTION"`.
    Special(&'a str),
    /// `T12`, `T6.123` → the text after `T`.
    Time(&'a str),
    /// A comment line without its marker(s).
    Comment(CommentKind, &'a str),
    /// `/` alone: the next record starts.
    Separator,
    /// Not a CSA statement; the reason says what was expected.
    Invalid(&'static str),
}

/// Statements of a whole text with their spans, in order.
pub struct Statements<'a> {
    text: &'a str,
    /// Offset of the next physical line.
    pos: usize,
    /// The rest of the current physical line when it holds `,`-joined statements.
    pending: Option<(usize, &'a str)>,
    first_line: bool,
}

impl<'a> Statements<'a> {
    /// The statements of `text`, from its first line.
    pub fn new(text: &'a str) -> Statements<'a> {
        Statements {
            text,
            pos: 0,
            pending: None,
            first_line: true,
        }
    }
}

impl<'a> Iterator for Statements<'a> {
    type Item = (Statement<'a>, Span);

    // Inlined into each record reader's loop (building records and only checking them):
    // called out of line, the statement is returned through memory for every line read.
    #[inline(always)]
    fn next(&mut self) -> Option<(Statement<'a>, Span)> {
        loop {
            if let Some((start, rest)) = self.pending.take() {
                // A comment runs to the end of its physical line, commas included
                // (`+7776FU,T0,'T0 ,'7776` holds the comment `T0 ,'7776`), as the JKF
                // reference reads CSA; its leading spaces are part of it.
                let unblanked = rest.trim_start_matches([' ', '\t']);
                if unblanked.starts_with('\'') {
                    let at = start + rest.len() - unblanked.len();
                    return Some((comment(unblanked), Span::new(at, at + unblanked.len())));
                }
                let (piece, next) = match rest.bytes().position(|b| b == b',') {
                    Some(i) => (&rest[..i], Some((start + i + 1, &rest[i + 1..]))),
                    None => (rest, None),
                };
                self.pending = next;
                let trimmed = trim_blanks(piece);
                if trimmed.is_empty() {
                    continue;
                }
                let span = Span::new(start, start + trimmed.len());
                return Some((statement(trimmed), span));
            }
            let bytes = self.text.as_bytes();
            if self.pos >= bytes.len() {
                return None;
            }
            let start = self.pos;
            if let Some((statement, len, next)) = common_line(&self.text[start..]) {
                self.pos = start + next;
                self.first_line = false;
                return Some((statement, Span::new(start, start + len)));
            }
            // The line's end and whether it holds a `,`, in one scan for either: nearly every
            // line that comes here (headers, comments, the position) has no comma, and each
            // search of a short line costs about fifty instructions whatever it finds.
            let (end, comma) = match memchr::memchr2(b'\n', b',', &bytes[start..]) {
                Some(i) if bytes[start + i] == b',' => (
                    memchr::memchr(b'\n', &bytes[start + i..])
                        .map_or(bytes.len(), |j| start + i + j),
                    true,
                ),
                Some(i) => (start + i, false),
                None => (bytes.len(), false),
            };
            self.pos = end + 1;
            let line = &self.text[start..end];
            let line = line.strip_suffix('\r').unwrap_or(line);
            let first_line = std::mem::replace(&mut self.first_line, false);
            if line.is_empty() {
                continue;
            }
            let whole = |s| Some((s, Span::new(start, start + line.len())));
            match line.as_bytes()[0] {
                b'\'' => {
                    if first_line && let Some(label) = line.strip_prefix("'CSA encoding=") {
                        return whole(Statement::Encoding(label.trim()));
                    }
                    return whole(comment(line));
                }
                b'N' | b'$' => return whole(statement(line)),
                _ if !comma => {
                    let trimmed = trim_blanks(line);
                    if trimmed.is_empty() {
                        continue;
                    }
                    return Some((statement(trimmed), Span::new(start, start + trimmed.len())));
                }
                _ => self.pending = Some((start, line)),
            }
        }
    }
}

/// A move or a time line alone on its line, as [`Statements::common_line`] reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommonLine {
    /// `+7776FU`: the move, well formed.
    Move(CsaMove),
    /// `T12`: whole seconds (at most 15 digits, so that they cannot overflow).
    Seconds(u64),
}

impl<'a> Statements<'a> {
    /// The next line when it is one of the two most of a record is made of, a move
    /// (`[+-]dddd[A-Z]{2}`, well formed) or a time (`T` and up to 15 digits) alone on its
    /// line, with its span; the reader is then past it. `None`, reading nothing, for any
    /// other line, which [`Statements::next`] reads with the same result for these two.
    ///
    /// A move and its time are read from their fixed shape in the bytes, with no statement
    /// built, matched and taken apart again. (The CSA reader scans the same shapes itself,
    /// [`move_line`] and [`time_line`] over [`Statements::ahead`], to resolve a move against
    /// its position in the same pass.)
    #[inline(always)]
    pub fn common_line(&mut self) -> Option<(CommonLine, Span)> {
        let (start, b) = self.ahead()?;
        let (line, len, next) = match move_line(b) {
            Some((text, next)) => (CommonLine::Move(CsaMove::parse_well_formed(text)?), 7, next),
            None => {
                let (seconds, len, next) = time_line(b)?;
                (CommonLine::Seconds(seconds), len, next)
            }
        };
        self.pass(next);
        Some((line, Span::new(start, start + len)))
    }
}

impl<'a> Statements<'a> {
    /// The text from the next physical line on, with its offset, when the reader stands at
    /// the start of a line (not inside a `,`-joined one): for a reader that scans the
    /// common lines ([`move_line`], [`time_line`]) itself and then [`Statements::pass`]es
    /// them.
    #[inline(always)]
    pub fn ahead(&self) -> Option<(usize, &'a [u8])> {
        if self.pending.is_some() {
            return None;
        }
        Some((self.pos, self.text.as_bytes().get(self.pos..)?))
    }

    /// Moves the reader past `len` bytes of whole lines given by [`Statements::ahead`].
    #[inline(always)]
    pub fn pass(&mut self, len: usize) {
        if len > 0 {
            self.pos += len;
            self.first_line = false;
        }
    }
}

impl<'a> Statements<'a> {
    /// [`Statements::ahead`] as text, for a reader that reads the header's lines itself
    /// ([`header_line`]) and then [`Statements::pass`]es them.
    #[inline(always)]
    pub fn ahead_text(&self) -> Option<(usize, &'a str)> {
        if self.pending.is_some() {
            return None;
        }
        Some((self.pos, self.text.get(self.pos..)?))
    }
}

/// One of the lines a record's header is nearly always made of, alone on its line at the
/// start of `rest`: the version (`V2.2`), a name (`N+…`, `N-…`), a game information line
/// (`$EVENT:…`), a position line (`PI…`, `P1`–`P9`, `P+`, `P-`), the side to move (`+`,
/// `-`) or a comment; or the record's ending (`%TORYO`). Gives the statement, its length and the offset of the next line,
/// exactly as [`Statements::next`] reads that line there (a unit test holds the two
/// together); `None`, for the general path, for any other line or any line it would read
/// otherwise: a blank one, one with no `\n` after it, a `'CSA encoding=` line (which means
/// something only first in the file), a line of `,`-joined statements, one whose trailing
/// blanks the general path trims, and every line that is not well formed.
///
/// A record's nine or so header lines cost about two hundred instructions each through
/// the general path (a two-byte search for the line's end or a `,`, the blank trimming,
/// the statement classified out of line and returned through memory): a tenth of what
/// `kifu check` spent reading a record (issue 36). Here each is one scan for its end and
/// a look at its first bytes.
#[inline(always)]
pub fn header_line(rest: &str) -> Option<(Statement<'_>, usize, usize)> {
    let b = rest.as_bytes();
    let end = find_byte(b, b'\n')?;
    let len = if end > 0 && b[end - 1] == b'\r' {
        end - 1
    } else {
        end
    };
    let line = rest.get(..len)?;
    let l = line.as_bytes();
    let statement = match *l.first()? {
        b'\'' => {
            if l.starts_with(b"'CSA encoding=") {
                return None;
            }
            comment(line)
        }
        b'N' => Statement::Name(side(*l.get(1)?)?, line.get(2..)?),
        b'$' => {
            let colon = find_byte(l, b':')?;
            if colon < 2 {
                return None;
            }
            Statement::Info {
                key: line.get(1..colon)?,
                value: line.get(colon + 1..)?,
            }
        }
        // The general path splits these at a `,` and trims their trailing blanks.
        first => {
            if matches!(l.last(), Some(b' ' | b'\t')) || find_byte(l, b',').is_some() {
                return None;
            }
            match (first, l.get(1)) {
                (b'V', _) => Statement::Version(line.get(1..)?),
                (b'P', Some(b'I')) => Statement::Even {
                    removed: line.get(2..)?,
                },
                (b'P', Some(&r @ b'1'..=b'9')) => Statement::Rank {
                    rank: r - b'0',
                    cells: line.get(2..)?,
                },
                (b'P', Some(&sign @ (b'+' | b'-'))) => {
                    Statement::Pieces(side(sign)?, line.get(2..)?)
                }
                (b'+' | b'-', None) => Statement::Turn(side(first)?),
                (b'%', _) => Statement::Special(line.get(1..)?),
                _ => return None,
            }
        }
    };
    Some((statement, len, end + 1))
}

/// Where `byte` first occurs in `b`, eight bytes at a time: the lines it looks through are
/// a few dozen bytes, for which a call to a vectorised search costs more than it saves.
#[inline(always)]
fn find_byte(b: &[u8], byte: u8) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const TOPS: u64 = u64::from_le_bytes([0x80; 8]);
    let pattern = ONES * u64::from(byte);
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of eight"));
        let x = word ^ pattern;
        // The lowest set top bit marks the first byte equal to `byte` (the bits above it
        // may be false, and are not looked at).
        let found = x.wrapping_sub(ONES) & !x & TOPS;
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&c| c == byte)
        .map(|i| at + i)
}

/// A move alone on its line at the start of `b`, of the move's fixed shape (a sign and
/// six bytes, not checked further here): its seven bytes and the offset of the next line.
#[inline(always)]
pub fn move_line(b: &[u8]) -> Option<(&[u8; 7], usize)> {
    let text = b.first_chunk::<7>()?;
    if !matches!(text[0], b'+' | b'-') {
        return None;
    }
    Some((text, line_end(b, 7)?))
}

/// A time alone on its line at the start of `b`, `T` and whole seconds (1 to 15 digits, so
/// that they cannot overflow; longer ones are the general path's): the seconds, the
/// statement's length and the offset of the next line.
#[inline(always)]
pub fn time_line(b: &[u8]) -> Option<(u64, usize, usize)> {
    // Most times are one or two digits on a line ending in `\n` (`T0`, `T12`): read from
    // the first four bytes with no loop and no bounds to check, the rest digit by digit.
    if let Some(&[b'T', first, second, third]) = b.first_chunk::<4>() {
        let (first, second) = (first.wrapping_sub(b'0'), second.wrapping_sub(b'0'));
        if first < 10 {
            if second == b'\n'.wrapping_sub(b'0') {
                return Some((u64::from(first), 2, 3));
            }
            if second < 10 && third == b'\n' {
                return Some((u64::from(first) * 10 + u64::from(second), 3, 4));
            }
        }
    }
    time_line_digit_by_digit(b)
}

/// [`time_line`] for any time line, digit by digit.
#[inline(always)]
fn time_line_digit_by_digit(b: &[u8]) -> Option<(u64, usize, usize)> {
    if b.first() != Some(&b'T') {
        return None;
    }
    let mut seconds = 0u64;
    let mut len = 1;
    while let Some(&d) = b.get(len) {
        let digit = d.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        seconds = seconds * 10 + u64::from(digit);
        len += 1;
        if len > 16 {
            return None;
        }
    }
    if len == 1 {
        return None;
    }
    Some((seconds, len, line_end(b, len)?))
}

/// The offset of the line after a statement of `len` bytes at the start of `b`, when the
/// statement is all its line holds (`\n` or `\r\n` follows it).
#[inline(always)]
fn line_end(b: &[u8], len: usize) -> Option<usize> {
    match b.get(len) {
        Some(b'\n') => Some(len + 1),
        Some(b'\r') if b.get(len + 1) == Some(&b'\n') => Some(len + 2),
        _ => None,
    }
}

/// The two lines most of a record is made of, a move (`+7776FU`) and a time (`T12`) alone
/// on their line, read without the general scan: the statement, its length and the offset of
/// the next line. `None` for any other line (or one that is not well formed), which the
/// general path reads, with the same result for these two.
#[inline(always)]
fn common_line(rest: &str) -> Option<(Statement<'_>, usize, usize)> {
    let b = rest.as_bytes();
    let line_end = |len: usize| line_end(b, len);
    match b.first()? {
        b'+' | b'-' => {
            let next = line_end(7)?;
            let mv = CsaMove::parse_well_formed(&b[..7])?;
            Some((Statement::Move(Ok(mv)), 7, next))
        }
        b'T' => {
            let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 {
                return None;
            }
            let next = line_end(1 + digits)?;
            Some((Statement::Time(&rest[1..1 + digits]), 1 + digits, next))
        }
        _ => None,
    }
}

fn trim_blanks(s: &str) -> &str {
    let b = s.as_bytes();
    let kept = b.len()
        - b.iter()
            .rev()
            .take_while(|&&c| c == b' ' || c == b'\t')
            .count();
    &s[..kept]
}

fn comment(line: &str) -> Statement<'_> {
    let body = &line[1..];
    if let Some(text) = body.strip_prefix("**") {
        Statement::Comment(CommentKind::Engine, text.strip_prefix(' ').unwrap_or(text))
    } else if let Some(text) = body.strip_prefix('*') {
        Statement::Comment(CommentKind::Text, text)
    } else {
        Statement::Comment(CommentKind::Hidden, body)
    }
}

fn side(b: u8) -> Option<Side> {
    match b {
        b'+' => Some(Side::First),
        b'-' => Some(Side::Second),
        _ => None,
    }
}

/// Classifies one logical statement (no line terminator, no `,`).
pub fn statement(s: &str) -> Statement<'_> {
    let b = s.as_bytes();
    match b[0] {
        b'\'' => comment(s),
        b'V' => Statement::Version(&s[1..]),
        b'N' => match b.get(1).copied().and_then(side) {
            Some(side) => Statement::Name(side, &s[2..]),
            None => Statement::Invalid("a name line starts with `N+` or `N-`"),
        },
        // The colon found as a byte: `str::split_once` runs a character searcher, which cost
        // 0.2 M of `kifu check`'s 29 M instructions over the 500 bulk games (issue 36).
        b'$' => match b.iter().position(|&c| c == b':') {
            Some(colon) if colon > 1 => Statement::Info {
                key: &s[1..colon],
                value: &s[colon + 1..],
            },
            _ => Statement::Invalid("a game information line is `$KEY:value`"),
        },
        b'P' => match b.get(1) {
            Some(b'I') => Statement::Even { removed: &s[2..] },
            Some(&r @ b'1'..=b'9') => Statement::Rank {
                rank: r - b'0',
                cells: &s[2..],
            },
            Some(&c @ (b'+' | b'-')) => {
                Statement::Pieces(side(c).expect("matched a sign"), &s[2..])
            }
            _ => Statement::Invalid("a position line is `PI`, `P1`–`P9`, `P+` or `P-`"),
        },
        b'+' | b'-' if b.len() == 1 => Statement::Turn(side(b[0]).expect("matched a sign")),
        b'+' | b'-' => parse_move(s),
        b'%' => Statement::Special(&s[1..]),
        b'T' => Statement::Time(&s[1..]),
        b'/' if b.len() == 1 => Statement::Separator,
        _ => Statement::Invalid("not a CSA statement"),
    }
}

/// Move text, read by the shared CSA move notation ([`kifu_shogi::notation::csa`]).
fn parse_move(s: &str) -> Statement<'_> {
    match CsaMove::parse(s) {
        Ok(mv) => Statement::Move(Ok(mv)),
        Err(CsaMoveError::Malformed(_)) => {
            Statement::Invalid("a move is a sign, two squares and a piece code (`+7776FU`)")
        }
        Err(CsaMoveError::BadSquare(_)) => {
            Statement::Invalid("a move's squares are two digits each, 11 to 99 (`+7776FU`)")
        }
        Err(unreadable) => Statement::Move(Err(unreadable)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<(Statement<'_>, &str)> {
        Statements::new(text)
            .map(|(st, span)| (st, &text[span.range()]))
            .collect()
    }

    #[test]
    fn spec_example_statements() {
        let text = "'comment\r\nV2.2\r\nN+Tanigawa, Koji\r\n$EVENT:a,b\r\nPI82HI\r\n+\r\n+2726FU,T12\r\n-0034KA\r\n%TORYO\r\n/\r\n";
        let got = all(text);
        assert_eq!(
            got,
            [
                (
                    Statement::Comment(CommentKind::Hidden, "comment"),
                    "'comment"
                ),
                (Statement::Version("2.2"), "V2.2"),
                (
                    Statement::Name(Side::First, "Tanigawa, Koji"),
                    "N+Tanigawa, Koji"
                ),
                (
                    Statement::Info {
                        key: "EVENT",
                        value: "a,b"
                    },
                    "$EVENT:a,b"
                ),
                (Statement::Even { removed: "82HI" }, "PI82HI"),
                (Statement::Turn(Side::First), "+"),
                (Statement::Move("+2726FU".parse()), "+2726FU"),
                (Statement::Time("12"), "T12"),
                (Statement::Move("-0034KA".parse()), "-0034KA"),
                (Statement::Special("TORYO"), "%TORYO"),
                (Statement::Separator, "/"),
            ]
        );
    }

    #[test]
    fn comments_of_v3() {
        let text = "'CSA encoding=UTF-8\n'*読み, 筋\n'** 30 -3334FU #12\n'CSA encoding=x";
        let got = all(text);
        assert_eq!(got[0].0, Statement::Encoding("UTF-8"));
        assert_eq!(got[1].0, Statement::Comment(CommentKind::Text, "読み, 筋"));
        assert_eq!(
            got[2].0,
            Statement::Comment(CommentKind::Engine, "30 -3334FU #12")
        );
        // only the first line can declare the encoding
        assert_eq!(
            got[3].0,
            Statement::Comment(CommentKind::Hidden, "CSA encoding=x")
        );
    }

    #[test]
    fn board_lines() {
        let got = all("P1-KY-KE * \nP+00KI00FU\nP-00AL\nP2 * -HI");
        assert_eq!(
            got[0].0,
            Statement::Rank {
                rank: 1,
                cells: "-KY-KE *"
            }
        );
        assert_eq!(got[1].0, Statement::Pieces(Side::First, "00KI00FU"));
        assert_eq!(got[2].0, Statement::Pieces(Side::Second, "00AL"));
        assert_eq!(
            got[3].0,
            Statement::Rank {
                rank: 2,
                cells: " * -HI"
            }
        );
    }

    #[test]
    fn malformed_statements_are_invalid_not_panics() {
        for s in [
            "+77", "+7776F", "+7776fu", "+0076", "+7706FU", "+1076FU", "N", "Nx", "$", "$:v", "P",
            "PX", "X", "//", "+7776FUU", "-", "+",
        ] {
            let got = all(s);
            assert_eq!(got.len(), 1, "{s}");
            match s {
                "-" | "+" => assert!(matches!(got[0].0, Statement::Turn(_))),
                _ => assert!(
                    matches!(got[0].0, Statement::Invalid(_)),
                    "{s}: {:?}",
                    got[0]
                ),
            }
        }
    }

    #[test]
    fn a_comment_after_a_comma_runs_to_the_end_of_the_line() {
        let got = all("+7776FU,T0,'T0 ,'7776 ,'1手目\n-3334FU,' 　spaced, kept");
        assert_eq!(got.len(), 5, "{got:?}");
        assert_eq!(
            got[2],
            (
                Statement::Comment(CommentKind::Hidden, "T0 ,'7776 ,'1手目"),
                "'T0 ,'7776 ,'1手目"
            )
        );
        assert_eq!(
            got[4].0,
            Statement::Comment(CommentKind::Hidden, " 　spaced, kept")
        );
    }

    #[test]
    fn empty_parts_and_spans() {
        let text = "\n\n+2726FU,,T3  \n";
        let got: Vec<_> = Statements::new(text).collect();
        assert_eq!(got.len(), 2);
        assert!(matches!(got[0].0, Statement::Move(Ok(_))));
        assert_eq!(&text[got[1].1.range()], "T3");
        assert_eq!(got[1].0, Statement::Time("3"));
    }

    /// What the general path reads from the start of `text`: the first statement, its span
    /// and where the next one starts, when that is the start of a line.
    fn general_first(text: &str) -> Option<(Statement<'_>, Span, usize)> {
        let mut statements = Statements::new(text);
        let (statement, span) = statements.next()?;
        let (next, _) = statements.ahead()?;
        Some((statement, span, next))
    }

    /// Lines of every kind a header has, well formed and not: each is read with odd line
    /// ends and blanks, with non-ASCII text, and cut short at every length.
    const HEADER_LINES: &[&str] = &[
        "V2.2",
        "V2",
        "V3.0",
        "V",
        "V2.2,N+x",
        "N+Black0001",
        "N-White0001",
        "N+",
        "N",
        "Nx",
        "N+羽生 善治, 九段",
        "$EVENT:lishogi fixture game 0001",
        "$START_TIME:2024/01/06 09:00:00",
        "$EVENT:a,b:c",
        "$:value",
        "$X:",
        "$",
        "$NOTE:a\\nb",
        "$EVENT:第1期　竜王戦",
        "PI",
        "PI82HI22KA",
        "PI82HI,+",
        "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY",
        "P2 * -HI *  *  *  *  * -KA * ",
        "P+00KI00FU",
        "P-00AL",
        "P0",
        "PX",
        "P",
        "+",
        "-",
        "+,-",
        "+7776FU",
        "-3334FU,T12",
        "T12",
        "%TORYO",
        "%+ILLEGAL_ACTION",
        "%",
        "%TORYO,T3",
        "/",
        "'comment, with a comma",
        "'*text comment",
        "'** 30 -3334FU #12",
        "'CSA encoding=UTF-8",
        "'",
        "あ",
        "",
    ];

    #[test]
    fn header_lines_read_as_the_general_path_reads_them() {
        let mut taken = 0;
        for line in HEADER_LINES {
            for end in ["\n", "\r\n", " \n", "\t\n", "\r\r\n", " \r\n", ""] {
                let whole = format!("{line}{end}");
                for cut in 0..=whole.len() {
                    let Some(head) = whole.get(..cut) else {
                        continue;
                    };
                    // What follows the line must not change how it is read.
                    for after in ["", "+7776FU\n", ",", "\n"] {
                        let text = format!("{head}{after}");
                        let Some((statement, len, next)) = header_line(&text) else {
                            continue;
                        };
                        let general = general_first(&text);
                        assert_eq!(
                            Some((statement, Span::new(0, len), next)),
                            general,
                            "{text:?}"
                        );
                        taken += 1;
                    }
                }
            }
        }
        // The fast way does take the usual lines (and the test compares something).
        assert!(taken > 500, "{taken}");
        for usual in [
            "V2.2\n",
            "%TORYO\n",
            "N+Black0001\n",
            "$START_TIME:2024/01/06 09:00:00\r\n",
            "PI\n",
            "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n",
            "+\n",
            "'c\n",
        ] {
            assert!(header_line(usual).is_some(), "{usual:?}");
        }
    }

    #[test]
    fn finding_a_byte_eight_at_a_time_agrees_with_a_plain_search() {
        let text = b"$START_TIME:2024/01/06 09:00:00\n,:x";
        for from in 0..text.len() {
            for to in from..=text.len() {
                let b = &text[from..to];
                for byte in [b'\n', b',', b':', b'0', b'x', 0x80] {
                    assert_eq!(
                        find_byte(b, byte),
                        b.iter().position(|&c| c == byte),
                        "{b:?} {byte}"
                    );
                }
            }
        }
    }

    #[test]
    fn last_line_without_newline_and_non_ascii_junk() {
        let got = all("%CHUDAN");
        assert_eq!(got, [(Statement::Special("CHUDAN"), "%CHUDAN")]);
        let got = all("あ,い\n+７７");
        assert_eq!(got.len(), 3);
        assert!(got.iter().all(|g| matches!(g.0, Statement::Invalid(_))));
    }
}
