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
    let mut seen = 0;
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        end += line.len();
        if !line.trim().is_empty() {
            seen += 1;
            if seen == SNIFFED_LINES {
                break;
            }
        }
    }
    &text[..end]
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
}
