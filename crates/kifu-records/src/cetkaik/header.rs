//! The header: `{…}` info items, then an optional `[name]score [name]score` line.

use super::record::{InfoItem, NameEntry, NamesLine};
use kifu_cetkaik::notation::cursor::{Cursor, is_space};
use kifu_cetkaik::numeral;
use kifu_record::{Diagnostic, DiagnosticKind, Span};

/// Reads the header; returns the items, the names line and where the body starts.
pub fn parse_header(
    text: &str,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<InfoItem>, Option<NamesLine>, usize) {
    let mut items = Vec::new();
    let mut names = None;
    let mut line_start = 0;
    while line_start < text.len() {
        let line_end = text[line_start..]
            .find('\n')
            .map_or(text.len(), |i| line_start + i);
        let mut c = Cursor::new(text, line_start);
        c.skip_spaces();
        match c.peek() {
            None => return (items, names, text.len()),
            Some('\n') => {}
            Some('{' | '#') if c.at_raw('{') => {
                while c.pos < line_end {
                    c.skip_spaces();
                    if c.pos >= line_end {
                        break;
                    }
                    let start = c.pos;
                    if !c.at_raw('{') {
                        diags.push(Diagnostic::error(
                            DiagnosticKind::Syntax,
                            Span::new(start, line_end),
                            "header lines hold only `{…}` items",
                        ));
                        break;
                    }
                    match c.raw_string('{', '}') {
                        Ok(content) => items.push(info_item(content, c.span_from(start))),
                        Err(msg) => diags.push(Diagnostic::error(
                            DiagnosticKind::Syntax,
                            c.span_from(start),
                            msg.to_string(),
                        )),
                    }
                }
            }
            Some('[' | '#') if names.is_none() && c.at_raw('[') => {
                let start = c.pos;
                match names_line(&mut c, diags) {
                    Some(n) => names = Some(n),
                    None => {
                        diags.push(Diagnostic::error(
                            DiagnosticKind::Syntax,
                            Span::new(start, line_end),
                            "expected a names line `[name]score [name]score`",
                        ));
                    }
                }
                c.skip_spaces();
                if c.pos < line_end {
                    diags.push(Diagnostic::warning(
                        DiagnosticKind::Syntax,
                        Span::new(c.pos, line_end),
                        "text after the names line ignored",
                    ));
                }
                // The names line closes the header.
                return (items, names, (line_end + 1).min(text.len()));
            }
            Some(_) => return (items, names, line_start),
        }
        line_start = line_end + 1;
    }
    (items, names, text.len())
}

fn info_item(content: &str, span: Span) -> InfoItem {
    match content.split_once(':') {
        // `{https://…}`: a URL, not a key.
        Some((_, value)) if value.starts_with("//") => InfoItem {
            key: None,
            value: content.to_string(),
            span,
        },
        Some((key, value)) if !key.is_empty() => InfoItem {
            key: Some(key.to_string()),
            value: value.to_string(),
            span,
        },
        Some(("", value)) => InfoItem {
            key: None,
            value: value.to_string(),
            span,
        },
        _ => InfoItem {
            key: None,
            value: content.to_string(),
            span,
        },
    }
}

fn is_number_char(c: char) -> bool {
    numeral::is_numeral_char(c) || c.is_ascii_digit() || c == '-'
}

/// A score after a name: a pekzep or arabic numeral, possibly after spaces.
pub fn score(c: &mut Cursor<'_>, diags: &mut Vec<Diagnostic>) -> Option<i32> {
    let save = c.pos;
    c.skip_spaces();
    let start = c.pos;
    while c.eat_char(is_number_char).is_some() {}
    if c.pos == start {
        c.pos = save;
        return None;
    }
    let s = &c.text[start..c.pos];
    match numeral::parse(s) {
        Ok(n) => Some(n),
        Err(e) => {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                c.span_from(start),
                e.to_string(),
            ));
            None
        }
    }
}

fn name_entry(c: &mut Cursor<'_>, diags: &mut Vec<Diagnostic>) -> Option<NameEntry> {
    let start = c.pos;
    match c.raw_string('[', ']') {
        Ok(name) => {
            let name = name.to_string();
            Some(NameEntry {
                name,
                score: score(c, diags),
            })
        }
        Err(msg) => {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                c.span_from(start),
                msg.to_string(),
            ));
            None
        }
    }
}

/// `[name]score [name]score`; the cursor is on the first `[` (or `#`).
pub fn names_line(c: &mut Cursor<'_>, diags: &mut Vec<Diagnostic>) -> Option<NamesLine> {
    let start = c.pos;
    let first = name_entry(c, diags)?;
    while c.eat_char(is_space).is_some() {}
    if !c.at_raw('[') {
        return None;
    }
    let second = name_entry(c, diags)?;
    Some(NamesLine {
        first,
        second,
        span: c.span_from(start),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_keys_and_names() {
        let text = "{律:硬皇力}\n{:18:00} #{a}b}# {https://x/y?z=1}\n[SY]二十 [ぶちょー]\nCI兵XIXU";
        let mut d = Vec::new();
        let (items, names, body) = parse_header(text, &mut d);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(items[0].key.as_deref(), Some("律"));
        assert_eq!(items[0].value, "硬皇力");
        assert_eq!(items[1].key, None);
        assert_eq!(items[1].value, "18:00");
        assert_eq!(items[2].value, "a}b");
        assert_eq!(items[3].value, "https://x/y?z=1");
        let n = names.unwrap();
        assert_eq!(
            (n.first.name.as_str(), n.second.name.as_str()),
            ("SY", "ぶちょー")
        );
        assert_eq!(n.scores(), (20, 20));
        assert_eq!(&text[body..], "CI兵XIXU");
    }

    #[test]
    fn score_inference() {
        let mut d = Vec::new();
        let (_, n, _) = parse_header("[筆]十二 [翰]", &mut d);
        assert_eq!(n.unwrap().scores(), (12, 28));
        let (_, n, _) = parse_header("[a] [b] 二十八", &mut d);
        assert_eq!(n.unwrap().scores(), (12, 28));
        let (_, n, _) = parse_header("#[x]y]# [b]", &mut d);
        assert_eq!(n.unwrap().first.name, "x]y");
        assert!(d.is_empty());
    }

    #[test]
    fn unterminated_items_are_reported() {
        let mut d = Vec::new();
        parse_header("{abc\nKA兵KE", &mut d);
        assert_eq!(d.len(), 1);
        assert!(d[0].message.contains("unterminated"));
    }
}
