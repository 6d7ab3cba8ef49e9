//! Text a player sent, made safe to write into a line-based file.
//!
//! Records, the game index and the log are read line by line, and readers disagree on what
//! ends a line: CSA readers split on LF, some on a lone CR, Python's `str.splitlines` also on
//! VT, FF, FS, GS, RS, NEL and U+2028/U+2029. A comment `'* 0\r%TORYO` written as is would
//! end the game in such a reader's eyes. So every control character (Unicode's `Cc`: C0,
//! DEL, C1) and the two Unicode separators are written as a visible escape — `\x0D`,
//! `\u{2028}` — keeping what the player sent readable without letting it shape the file.

use std::borrow::Cow;

fn needs_escape(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}

/// `text` with its control characters and line separators escaped; borrowed when clean.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !needs_escape(c) {
            out.push(c);
        } else if (c as u32) < 0x100 {
            out.push_str(&format!("\\x{:02X}", c as u32));
        } else {
            out.push_str(&format!("\\u{{{:04X}}}", c as u32));
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_text_is_borrowed_and_unchanged() {
        let text = "30 -3334FU +2726FU 日本語";
        assert!(matches!(escape_controls(text), Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn every_line_breaker_and_control_is_escaped() {
        assert_eq!(escape_controls("* 0\r%TORYO"), "* 0\\x0D%TORYO");
        assert_eq!(escape_controls("a\nb\0c\x1b[31m"), "a\\x0Ab\\x00c\\x1B[31m");
        assert_eq!(
            escape_controls("\x0b\x0c\x1c\x1d\x1e\u{85}\u{2028}\u{2029}\x7f"),
            "\\x0B\\x0C\\x1C\\x1D\\x1E\\x85\\u{2028}\\u{2029}\\x7F"
        );
        assert_eq!(escape_controls("tab\there"), "tab\\x09here");
    }

    #[test]
    fn no_escaped_text_breaks_a_line_for_any_reader() {
        let nasty: String = (0u32..0x3000).filter_map(char::from_u32).collect();
        let safe = escape_controls(&nasty);
        assert_eq!(safe.lines().count(), 1);
        // Python's str.splitlines boundaries.
        assert!(!safe.contains([
            '\r', '\n', '\x0b', '\x0c', '\x1c', '\x1d', '\x1e', '\u{85}', '\u{2028}', '\u{2029}'
        ]));
    }
}
