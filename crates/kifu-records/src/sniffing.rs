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

/// The part of the [sniffed prefix](sniffed_prefix) before a record's moves: up to the
/// first non-blank line that [begins a move](begins_moves), all of the prefix when none
/// does. A record names its game, start and rules here (a header, a board diagram, a
/// `position` line), so a search for such names need not read the moves that follow.
pub(crate) fn head_before_moves(text: &str) -> &str {
    let bytes = text.as_bytes();
    let mut seen = 0;
    let mut end = 0;
    while end < bytes.len() && seen < SNIFFED_LINES {
        let start = end;
        let next = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i + 1);
        // Most lines are told by their first byte: a digit begins moves; other printable
        // ASCII, and the lead byte of a CJK character (no white space or side's mark
        // begins with 0xE4 or above), begin a line of something else.
        match bytes[start] {
            b'0'..=b'9' => break,
            0x21..=0x7e | 0xe4.. => seen += 1,
            _ => {
                let body = text[start..next].trim_start();
                if !body.is_empty() {
                    if begins_moves(body) {
                        break;
                    }
                    seen += 1;
                }
            }
        }
        end = next;
    }
    &text[..end]
}

/// Whether a line, without its leading blanks, begins the moves of a record of the
/// family: a move number (an ASCII digit: KIF's `   1 ７六歩(77)`, CSL's `1. P-7f`) or a
/// side's mark (KI2's `▲７六歩`, `☗`, `△`, `☖`).
pub(crate) fn begins_moves(line: &str) -> bool {
    line.as_bytes().first().is_some_and(u8::is_ascii_digit)
        || ['▲', '△', '☗', '☖']
            .iter()
            .any(|&mark| line.starts_with(mark))
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

    /// The head stops before the first move line of any of the family's notations, blank
    /// lines and leading blanks aside, and never runs past the sniffed prefix.
    #[test]
    fn the_head_ends_before_the_first_move_or_with_the_prefix() {
        let header = "手合割：平手\r\n先手：a\n\n";
        for first_move in [
            "   1 ７六歩(77)\n",
            "1. P-7f\n",
            "▲７六歩\n",
            "\u{3000}△３四歩\n",
            "☗７六歩\n",
            "☖３四歩\n",
        ] {
            let text = format!("{header}{first_move}*中将棋\n");
            assert_eq!(head_before_moves(&text), header, "{first_move:?}");
        }
        assert_eq!(head_before_moves("a\nb"), "a\nb");
        assert_eq!(head_before_moves(""), "");
        assert_eq!(head_before_moves("7g7f 3c3d\n"), "");
        let long = format!("{}tail\n", "b\n \n".repeat(SNIFFED_LINES));
        assert_eq!(head_before_moves(&long), sniffed_prefix(&long));
        assert!(!begins_moves("手数----指手") && !begins_moves("|香|") && !begins_moves(""));
    }

    /// The head holds exactly the sniffed lines before the first that begins moves, for every
    /// corpus file and for lines that begin with each kind of white space.
    #[test]
    fn the_head_is_the_sniffed_lines_before_the_moves() {
        let mut texts = crate::corpus_texts::every_corpus_text();
        for lead in [
            "\t", "\r", " ", "\u{a0}", "\u{2003}", "\u{3000}", "\u{85}", "\u{b}",
        ] {
            for line in ["1 ７六歩", "▲７六歩", "a", "手", "|"] {
                let text = format!("x\n{lead}\n{lead}{line}\n*\n");
                texts.push((lead.into(), text));
            }
        }
        for (path, text) in &texts {
            let head = head_before_moves(text);
            let expected: Vec<&str> = first_lines(text).take_while(|l| !begins_moves(l)).collect();
            assert_eq!(first_lines(head).collect::<Vec<_>>(), expected, "{path:?}");
            assert!(sniffed_prefix(text).starts_with(head), "{path:?}");
            let rest = first_lines(&text[head.len()..]).next();
            assert!(
                rest.is_none_or(begins_moves) || expected.len() == SNIFFED_LINES,
                "{path:?}"
            );
        }
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
