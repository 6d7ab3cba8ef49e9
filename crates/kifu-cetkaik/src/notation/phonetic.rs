//! Notation ②: pekzep phonetic moves (`LE gua2 TE ZE ap1.`); hand lines
//! (`[hsjoihs] zau io hop1 om2.`) are read with the file, in `kifu-records`.
//!
//! Unattested readings (或, 此無, brackets of 皇 moves, 同色 hands) are written in kanji; this
//! reader accepts them that way.

use super::cursor::Cursor;
use super::kanji::square;
use super::written::{Abbrev, Count, MoveNote, StickNote, TamNote};
use crate::profession::{Color, Profession};
use crate::square::Square;
use kifu_record::{Diagnostic, DiagnosticKind, Span};

/// Pekzep number words and their kanji.
pub const NUMBER_WORDS: [(&str, char); 16] = [
    ("mun1", '無'),
    ("et2", '一'),
    ("ik2", '二'),
    ("om2", '三'),
    ("om1", '三'),
    ("ap1", '四'),
    ("un1", '五'),
    ("net2", '六'),
    ("nik2", '七'),
    ("nom2", '八'),
    ("nom1", '八'),
    ("nap1", '九'),
    ("nun1", '十'),
    ("kit1", '百'),
    ("ue1", '万'),
    ("ut2", '下'),
];

/// Reads one word of ASCII letters and digits.
pub fn word<'a>(c: &mut Cursor<'a>) -> &'a str {
    let start = c.pos;
    while c.eat_char(|ch| ch.is_ascii_alphanumeric()).is_some() {}
    &c.text[start..c.pos]
}

/// The next word, not read.
pub fn next_word<'a>(c: &Cursor<'a>) -> &'a str {
    let mut d = c.clone();
    d.skip_spaces();
    word(&mut d)
}

/// Skips one word and the spaces after it.
pub fn skip_word(c: &mut Cursor<'_>) {
    c.skip_spaces();
    word(c);
}

/// Whether the text at the cursor looks like a phonetic move (`TAI kauk2`).
pub fn looks_phonetic(c: &Cursor<'_>) -> bool {
    let Some((_, n)) = Square::parse_prefix(c.rest()) else {
        return false;
    };
    let after = &c.rest()[n..];
    after.starts_with(' ')
        && after
            .trim_start_matches(' ')
            .starts_with(|ch: char| ch.is_ascii_lowercase())
}

fn count_of(w: &str) -> Option<u8> {
    NUMBER_WORDS[..7]
        .iter()
        .position(|(s, _)| *s == w)
        .map(|i| if i >= 4 { i as u8 - 1 } else { i as u8 })
}

/// A phonetic move; the cursor is on its first square.
pub fn phonetic_move(c: &mut Cursor<'_>, diags: &mut Vec<Diagnostic>) -> Option<MoveNote> {
    let src = square(c, diags, "a square")?;
    c.skip_spaces();
    let at = c.pos;
    let w = word(c);
    let is_tam = w == "tam2";
    let prof = Profession::from_pekzep(w);
    if !is_tam && prof.is_none() {
        diags.push(Diagnostic::error(
            DiagnosticKind::Unknown,
            Span::new(at, c.pos),
            format!("unknown profession `{w}`"),
        ));
        return None;
    }
    let mut squares = Vec::new();
    let mut bracket: Option<(usize, Option<Square>)> = None;
    let mut a = Abbrev::default();
    loop {
        let save = c.pos;
        c.skip_spaces();
        if c.eat("[") {
            let inner = if c.eat("或") {
                None
            } else {
                square(c, diags, "a square")
            };
            c.eat("]");
            bracket = Some((squares.len(), inner));
        } else if a.counts.is_empty() && Square::parse_prefix(c.rest()).is_some() {
            squares.push(square(c, diags, "a square")?);
        } else if !a.counts.is_empty() && Square::parse_prefix(c.rest()).is_some() {
            a.stayed = square(c, diags, "a square");
        } else if c.eat("此無") {
            a.void = true;
        } else if c.eat("或") {
            a.counts.push(Count::Unknown);
        } else if let Some(n) = count_of(next_word(c)) {
            skip_word(c);
            a.counts.push(if n == 0 {
                Count::Failed
            } else {
                Count::Known(n)
            });
        } else {
            c.pos = save;
            break;
        }
    }
    // `mun1` followed by 此無 is a zero, like `無此無`.
    if a.void {
        for k in a.counts.iter_mut() {
            if *k == Count::Failed {
                *k = Count::Known(0);
            }
        }
    }
    if is_tam {
        let note = match (squares.as_slice(), bracket) {
            ([s], None) => TamNote::NoStep {
                first: None,
                second: *s,
            },
            ([s], Some((0, f))) => TamNote::NoStep {
                first: f,
                second: *s,
            },
            ([x, s], None) => TamNote::TwoSquares { a: *x, second: *s },
            ([x, s], Some((1, f))) => TamNote::StepFormer {
                step: *x,
                first: f,
                second: *s,
            },
            ([x, s], Some((0, f))) => TamNote::StepLatter {
                first: f,
                step: *x,
                second: *s,
            },
            _ => {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    c.span_from(at),
                    "malformed tam2 move",
                ));
                return None;
            }
        };
        return Some(MoveNote::Tam { src, note });
    }
    let (step, dst) = match squares.as_slice() {
        [d] => (None, *d),
        [s, d] => (Some(*s), *d),
        _ => {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                c.span_from(at),
                "a move has one or two squares after the piece",
            ));
            return None;
        }
    };
    Some(MoveNote::Piece {
        src,
        prof,
        step,
        dst,
        sticks: StickNote::Abbreviated(a),
    })
}

/// A phonetic drop: `huok2 gua2 MY`.
pub fn phonetic_drop(c: &mut Cursor<'_>, diags: &mut Vec<Diagnostic>) -> Option<MoveNote> {
    let start = c.pos;
    let col = word(c);
    let color = match col {
        "huok2" => Some(Color::Black),
        "kok1" => Some(Color::Red),
        _ => None,
    };
    c.skip_spaces();
    let p = word(c);
    let Some(prof) = Profession::from_pekzep(p) else {
        diags.push(Diagnostic::error(
            DiagnosticKind::Unknown,
            c.span_from(start),
            format!("unknown profession `{p}`"),
        ));
        return None;
    };
    c.skip_spaces();
    let dst = square(c, diags, "a square")?;
    Some(MoveNote::Drop { color, prof, dst })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> MoveNote {
        let mut c = Cursor::new(s, 0);
        let mut d = Vec::new();
        let m = phonetic_move(&mut c, &mut d).unwrap();
        assert!(d.is_empty(), "{d:?}");
        m
    }

    #[test]
    fn phonetic_moves() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert!(matches!(
            mv("TAI kauk2 TY."),
            MoveNote::Piece { step: None, .. }
        ));
        let MoveNote::Piece { step, sticks, .. } = mv("LE gua2 TE ZE ap1.") else {
            panic!()
        };
        assert_eq!(step, Some(sq("TE")));
        assert_eq!(
            sticks,
            StickNote::Abbreviated(Abbrev {
                counts: vec![Count::Known(4)],
                ..Abbrev::default()
            })
        );
        let MoveNote::Piece { sticks, .. } = mv("TAU dau2 ZAI mun1.") else {
            panic!()
        };
        assert_eq!(
            sticks,
            StickNote::Abbreviated(Abbrev {
                counts: vec![Count::Failed],
                ..Abbrev::default()
            })
        );
        assert_eq!(
            mv("ZO tam2 ZU XI."),
            MoveNote::Tam {
                src: sq("ZO"),
                note: TamNote::TwoSquares {
                    a: sq("ZU"),
                    second: sq("XI")
                }
            }
        );
    }
}
