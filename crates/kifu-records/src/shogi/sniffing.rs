//! What every format's sniffer reads of a text without a file name.

/// The first lines a sniffer looks at: up to 40 non-blank ones, without leading blanks.
pub(crate) fn first_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim_start)
        .filter(|line| !line.is_empty())
        .take(40)
}
