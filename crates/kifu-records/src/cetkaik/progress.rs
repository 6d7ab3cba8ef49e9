//! Progress elements: capture comments, hand lines (all syntaxes), 再行, 終季, season and game ends.

use super::header::score;
use super::record::{ElementKind, HandLine, Who};
use kifu_cetkaik::match_state::Declaration;
use kifu_cetkaik::notation::cursor::Cursor;
use kifu_cetkaik::profession::{Color, Profession};
use kifu_cetkaik::yaku::Hand;
use kifu_record::{Diagnostic, DiagnosticKind, Span};

/// The words that close a season: one per season of four, or of two (上季, 下季).
pub const SEASON_ENDS: [&str; 6] = ["春終", "夏終", "秋終", "冬終", "上季終", "下季終"];

/// Keywords that stand alone: 再行, 終季, season ends, 星一周.
pub fn keyword(c: &mut Cursor<'_>) -> Option<ElementKind> {
    if c.eat("再行") {
        return Some(ElementKind::Declaration(Declaration::TyMok));
    }
    if c.eat("終季") {
        return Some(ElementKind::Declaration(Declaration::TaXot));
    }
    for s in SEASON_ENDS {
        if c.eat(s) {
            return Some(ElementKind::SeasonEnd(s.to_string()));
        }
    }
    if c.eat("星一周") {
        return Some(ElementKind::GameEnd);
    }
    None
}

/// `手` then a capture (`手馬`, `手黒馬`) or a season score (`手二十`).
pub fn after_hop(c: &mut Cursor<'_>, diags: &mut Vec<Diagnostic>) -> Option<ElementKind> {
    let start = c.pos;
    c.eat("手");
    let color = c.peek().and_then(Color::from_kanji);
    if color.is_some() {
        c.bump();
    }
    if let Some(prof) = c.peek().and_then(Profession::from_kanji) {
        c.bump();
        return Some(ElementKind::Capture { color, prof });
    }
    if color.is_none()
        && let Some(n) = score(c, diags)
    {
        return Some(ElementKind::SeasonScore(n));
    }
    c.skip_to_separator();
    diags.push(Diagnostic::error(
        DiagnosticKind::Syntax,
        c.span_from(start),
        "`手` must be followed by a profession (capture comment) or a number (score)",
    ));
    None
}

/// The part of a hand line after the player: `為` hands, then `而手N` or an inline declaration.
pub fn hand_line(c: &mut Cursor<'_>, who: Who, diags: &mut Vec<Diagnostic>) -> Option<HandLine> {
    let start = c.pos;
    if !c.eat("為") {
        diags.push(Diagnostic::error(
            DiagnosticKind::Syntax,
            Span::new(start, start),
            "expected `為` in a hand line",
        ));
        c.skip_to_separator();
        return None;
    }
    let mut hands = Vec::new();
    loop {
        let at = c.pos;
        let paren = c.eat("(") || c.eat("（");
        match Hand::parse_prefix(c.rest()) {
            Some((h, n)) => {
                c.pos += n;
                hands.push(h);
            }
            None => {
                let bad: String = c
                    .rest()
                    .chars()
                    .take_while(|&ch| !"()（）加而再終 \t\n".contains(ch))
                    .collect();
                if bad.is_empty() {
                    // Nothing that could be a hand: point at the character standing there,
                    // or at the end of the text (a span past it would point at nothing).
                    let width = c.rest().chars().next().map_or(0, char::len_utf8);
                    diags.push(Diagnostic::error(
                        DiagnosticKind::Syntax,
                        Span::new(at, at + width),
                        "a hand is missing here (after `為` or `加`)",
                    ));
                } else {
                    diags.push(Diagnostic::error(
                        DiagnosticKind::Unknown,
                        Span::new(at, at + bad.len()),
                        format!("unknown hand `{bad}`"),
                    ));
                }
                c.pos += bad.len();
            }
        }
        if paren && !(c.eat(")") || c.eat("）")) {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                c.span_from(at),
                "unclosed `(` in a hand line",
            ));
        }
        if c.eat("加") || c.rest().starts_with('(') || c.rest().starts_with('（') {
            continue;
        }
        break;
    }
    if hands.is_empty() {
        return None;
    }
    let mut line = HandLine {
        who,
        hands,
        score: None,
        declaration: None,
    };
    if c.eat("而") {
        c.eat("手");
        line.score = score(c, diags);
        if line.score.is_none() {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                c.span_from(start),
                "`而` must be followed by a score",
            ));
        }
    }
    if c.eat("再行") {
        line.declaration = Some(Declaration::TyMok);
    } else if c.eat("終季") {
        line.declaration = Some(Declaration::TaXot);
    }
    // Hands written twice, and 王 with 同色王, are not declarations.
    for (i, h) in line.hands.iter().enumerate() {
        if line.hands[..i].contains(h) {
            diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                c.span_from(start),
                format!("hand {h} named twice"),
            ));
        }
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> HandLine {
        let mut c = Cursor::new(s, 0);
        let mut d = Vec::new();
        let l = hand_line(&mut c, Who::Unknown, &mut d).unwrap();
        assert!(d.is_empty(), "{d:?}");
        assert!(c.at_end(), "{s}: left {}", c.rest());
        l
    }

    #[test]
    fn all_hand_line_syntaxes() {
        let l = line("為(同色獣)(王)終季");
        assert_eq!(l.hands.len(), 2);
        assert_eq!(l.declaration, Some(Declaration::TaXot));
        let l = line("為王加獣而手八");
        assert_eq!((l.hands.len(), l.score), (2, Some(8)));
        let l = line("為行行而五");
        assert_eq!(l.score, Some(5));
        let l = line("為獣加同色馬弓兵");
        assert_eq!(l.hands[1].to_string(), "同色馬弓兵");
        let l = line("為(同色獣)再行");
        assert_eq!(l.declaration, Some(Declaration::TyMok));
    }

    #[test]
    fn captures_and_scores() {
        let mut d = Vec::new();
        let mut c = Cursor::new("手赤馬", 0);
        assert_eq!(
            after_hop(&mut c, &mut d),
            Some(ElementKind::Capture {
                color: Some(Color::Red),
                prof: Profession::Horse
            })
        );
        let mut c = Cursor::new("手二十", 0);
        assert_eq!(
            after_hop(&mut c, &mut d),
            Some(ElementKind::SeasonScore(20))
        );
        let mut c = Cursor::new("手犬", 0);
        assert_eq!(after_hop(&mut c, &mut d), None);
        assert_eq!(d.len(), 1);
    }
}
