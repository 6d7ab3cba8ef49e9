//! What a sniffer reads of a text without a file name, whatever the game: its first
//! [`SNIFFED_LINES`] non-blank lines. Judging by the beginning keeps telling a file's format
//! cheap however long the file is, and the same for every game's formats.

/// How many non-blank lines a sniffer reads.
pub const SNIFFED_LINES: usize = 40;

/// The lines a sniffer looks at, one by one: the first [`SNIFFED_LINES`] non-blank ones,
/// without leading blanks (how the shogi formats' line rules read a text).
pub(crate) fn first_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim_start)
        .filter(|line| !line.is_empty())
        .take(SNIFFED_LINES)
}

/// The same lines as one slice of `text`: up to the end of its [`SNIFFED_LINES`]-th
/// non-blank line, all of it when it has fewer (for a parser that reads a whole text, as
/// CKKA's does).
pub(crate) fn sniffed_prefix(text: &str) -> &str {
    // Every file opened goes through this (each game's detection asks for it), so line ends
    // are found with memchr and most lines are told from blank ones by their first byte.
    let bytes = text.as_bytes();
    let mut seen = 0;
    let mut end = 0;
    while end < bytes.len() {
        let start = end;
        end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i + 1);
        if !is_blank(&text[start..end]) {
            seen += 1;
            if seen == SNIFFED_LINES {
                break;
            }
        }
    }
    &text[..end]
}

/// True when `line` holds only white space (as `str::trim` counts it).
fn is_blank(line: &str) -> bool {
    // The ASCII white space of `char::is_whitespace`: tab to carriage return, and space.
    match line.bytes().find(|b| !matches!(b, b'\t'..=b'\r' | b' ')) {
        None => true,
        // An ASCII byte that is not white space settles it; other bytes start characters
        // that may be white space (U+3000).
        Some(b) if b.is_ascii() => false,
        Some(_) => line.trim().is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefix_ends_with_the_last_line_the_iterator_gives() {
        let text = format!("\n  a\r\n\n{}tail\n", "b\n \n".repeat(SNIFFED_LINES));
        let prefix = sniffed_prefix(&text);
        assert_eq!(first_lines(&text).count(), SNIFFED_LINES);
        assert_eq!(first_lines(prefix).count(), SNIFFED_LINES);
        assert!(prefix.ends_with("b\n") && !prefix.contains("tail"));
        assert_eq!(sniffed_prefix("a\r\nb"), "a\r\nb");
        assert_eq!(sniffed_prefix(""), "");
    }

    /// Blank lines of every kind (ASCII white space, U+3000, a vertical tab, a form feed)
    /// are not counted; lines that begin with white space and hold something are.
    #[test]
    fn blank_lines_are_what_trim_leaves_empty() {
        for line in [
            "",
            "\n",
            " \t\r\n",
            "\u{3000}\n",
            " \u{3000} ",
            "\u{b}\u{c}\n",
            "\u{85}",
        ] {
            assert!(is_blank(line), "{line:?}");
            assert_eq!(is_blank(line), line.trim().is_empty());
        }
        for line in ["a", " a\n", "\u{3000}手\n", "手", "\t1 ７六歩(77)\r\n"] {
            assert!(!is_blank(line), "{line:?}");
        }
        let text = format!(
            "{}\u{3000}\n{}rest\n",
            "x\n".repeat(SNIFFED_LINES - 1),
            "\u{3000}y\n"
        );
        assert!(sniffed_prefix(&text).ends_with("\u{3000}y\n"));
    }
}
