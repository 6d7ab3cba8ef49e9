//! Notation ②'s hand lines and declarations: `[hsjoihs] zau io hop1 om2.`, `ta xot1.`.

use super::record::{HandLine, Who};
use kifu_cetkaik::Declaration;
use kifu_cetkaik::notation::cursor::Cursor;
use kifu_cetkaik::notation::phonetic::{NUMBER_WORDS, next_word, skip_word, word};
use kifu_cetkaik::numeral;
use kifu_cetkaik::yaku::Hand;
use kifu_record::{Diagnostic, DiagnosticKind};

/// `zau <hands> [ua] hop1 <number>` after a player; the cursor is on `zau`.
pub fn phonetic_hand_line(
    c: &mut Cursor<'_>,
    who: Who,
    diags: &mut Vec<Diagnostic>,
) -> Option<HandLine> {
    let start = c.pos;
    word(c); // zau
    let mut hands = Vec::new();
    loop {
        c.skip_spaces();
        if let Some((h, n)) = Hand::parse_prefix(c.rest()) {
            c.pos += n;
            hands.push(h);
            continue;
        }
        // Multi-word pekzep names: try the longest run of words that names a hand.
        let mut d = c.clone();
        let mut best = None;
        let mut words = Vec::new();
        for _ in 0..4 {
            d.skip_spaces();
            let w = word(&mut d);
            if w.is_empty() {
                break;
            }
            words.push(w);
            if let Some(h) = Hand::parse_pekzep(&words.join(" ")) {
                best = Some((h, d.pos));
            }
        }
        match best {
            Some((h, end)) => {
                hands.push(h);
                c.pos = end;
            }
            None => break,
        }
    }
    c.skip_spaces();
    let mut d = c.clone();
    if word(&mut d) == "ua" {
        *c = d;
        c.skip_spaces();
    }
    let mut d = c.clone();
    let mut score = None;
    if word(&mut d) == "hop1" {
        *c = d;
        let mut kanji = String::new();
        loop {
            let w = next_word(c);
            match NUMBER_WORDS.iter().find(|(s, _)| *s == w) {
                Some((_, k)) => {
                    kanji.push(*k);
                    skip_word(c);
                }
                None => break,
            }
        }
        match numeral::parse_pekzep(&kanji) {
            Ok(n) => score = Some(n),
            Err(e) => diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                c.span_from(start),
                e.to_string(),
            )),
        }
    }
    if hands.is_empty() {
        diags.push(Diagnostic::error(
            DiagnosticKind::Syntax,
            c.span_from(start),
            "no hand named after `zau`",
        ));
        return None;
    }
    Some(HandLine {
        who,
        hands,
        score,
        declaration: None,
    })
}

/// `ta xot1` (終季) and `ty mok1` (再行).
pub fn phonetic_declaration(c: &mut Cursor<'_>) -> Option<Declaration> {
    for (s, d) in [
        ("ta xot1", Declaration::TaXot),
        ("ty mok1", Declaration::TyMok),
    ] {
        if c.eat(s) {
            return Some(d);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phonetic_hand_line_reads_the_score() {
        let mut c = Cursor::new("zau io hop1 om2.", 0);
        let mut d = Vec::new();
        let l = phonetic_hand_line(&mut c, Who::Unknown, &mut d).unwrap();
        assert_eq!(
            (l.hands[0].to_string(), l.score),
            ("王".to_string(), Some(3))
        );
        let mut c = Cursor::new("zau mun1 mak1 mok1 hue ua hop1 un1 nun1", 0);
        let l = phonetic_hand_line(&mut c, Who::Unknown, &mut d).unwrap();
        assert_eq!(
            (l.hands[0].to_string(), l.score),
            ("無抗行処".to_string(), Some(50))
        );
        assert!(d.is_empty());
    }
}
