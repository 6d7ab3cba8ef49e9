//! Moves in kanji notations ⓪ and ①: `CAI巫CAMA橋一`, `ME弓MIMY或ME`, `黒弓MY`, `ZO皇[TU]ZIZE`.

use super::cursor::Cursor;
use super::written::{Abbrev, Count, MoveNote, StickNote, TamNote};
use crate::profession::{Color, Profession};
use crate::square::Square;
use crate::sticks::{Throw, Throws};
use kifu_record::{Diagnostic, DiagnosticKind, Span};

/// Reads a square at the cursor or reports what is there.
pub fn square(c: &mut Cursor<'_>, diags: &mut Vec<Diagnostic>, what: &str) -> Option<Square> {
    match Square::parse_prefix(c.rest()) {
        Some((sq, n)) => {
            c.pos += n;
            Some(sq)
        }
        None => {
            let start = c.pos;
            c.skip_to_separator();
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                Span::new(
                    start,
                    c.pos
                        .max(start + c.rest().chars().next().map_or(0, char::len_utf8)),
                ),
                format!(
                    "expected {what} (a column K L N T Z X C M P and a row A E I U O Y AI AU IA)"
                ),
            ));
            None
        }
    }
}

fn count_value(ch: char) -> Option<u8> {
    match ch {
        '無' => Some(0),
        '一' => Some(1),
        '二' => Some(2),
        '三' => Some(3),
        '四' => Some(4),
        '五' => Some(5),
        _ => None,
    }
}

/// A move starting with a square, the cursor on it. `explicit` is set when ⓪ marks appear.
pub fn board_move(
    c: &mut Cursor<'_>,
    diags: &mut Vec<Diagnostic>,
    explicit: &mut bool,
) -> Option<MoveNote> {
    let src = square(c, diags, "the square a move starts from")?;
    let at = c.pos;
    let piece = c.bump();
    match piece {
        Some('皇') => tam_move(c, diags, src),
        Some(ch) if ch == '片' || Profession::from_kanji(ch).is_some() => {
            let prof = Profession::from_kanji(ch);
            let first = square(c, diags, "a destination square")?;
            let mut second = None;
            if Square::parse_prefix(c.rest()).is_some() {
                second = square(c, diags, "a destination square");
            }
            let (step, dst) = match second {
                Some(d) => (Some(first), d),
                None => (None, first),
            };
            let sticks = suffix(c, diags, explicit);
            Some(MoveNote::Piece {
                src,
                prof,
                step,
                dst,
                sticks,
            })
        }
        _ => {
            c.pos = at;
            let bad: String = c.rest().chars().take(1).collect();
            c.skip_to_separator();
            diags.push(Diagnostic::error(
                DiagnosticKind::Unknown,
                Span::new(at, at + bad.len()),
                format!(
                    "unknown profession `{bad}` (expected one of 船兵弓車虎馬筆巫将王, 片 or 皇)"
                ),
            ));
            None
        }
    }
}

fn tam_move(c: &mut Cursor<'_>, diags: &mut Vec<Diagnostic>, src: Square) -> Option<MoveNote> {
    // Up to three parts, each a square or `[square]` / `[或]`.
    #[derive(Clone, Copy)]
    enum Part {
        Sq(Square),
        Bracket(Option<Square>),
    }
    let start = c.pos;
    let mut parts = Vec::new();
    while parts.len() < 3 {
        if c.eat("[") {
            let inner = if c.eat("或") {
                None
            } else {
                Some(square(c, diags, "皇's intermediate square")?)
            };
            if !c.eat("]") {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    c.span_from(start),
                    "unterminated `[` in a 皇 move",
                ));
                return None;
            }
            parts.push(Part::Bracket(inner));
        } else if Square::parse_prefix(c.rest()).is_some() {
            parts.push(Part::Sq(square(c, diags, "a square")?));
        } else {
            break;
        }
    }
    let note = match parts.as_slice() {
        [Part::Sq(s)] => TamNote::NoStep {
            first: None,
            second: *s,
        },
        [Part::Bracket(f), Part::Sq(s)] => TamNote::NoStep {
            first: *f,
            second: *s,
        },
        [Part::Sq(a), Part::Sq(s)] => TamNote::TwoSquares { a: *a, second: *s },
        [Part::Sq(st), Part::Bracket(f), Part::Sq(s)] => TamNote::StepFormer {
            step: *st,
            first: *f,
            second: *s,
        },
        [Part::Bracket(f), Part::Sq(st), Part::Sq(s)] => TamNote::StepLatter {
            first: *f,
            step: *st,
            second: *s,
        },
        _ => {
            diags.push(Diagnostic::error(DiagnosticKind::Syntax,
                c.span_from(start),
                "a 皇 move is `src皇dst`, `src皇[first]dst`, `src皇step[first]dst` or `src皇[first]step dst`",
            ));
            return None;
        }
    };
    Some(MoveNote::Tam { src, note })
}

/// Stick marks after a move: ⓪ `無撃裁`, `橋X[此無]`, `水X`; otherwise ① counts.
fn suffix(c: &mut Cursor<'_>, diags: &mut Vec<Diagnostic>, explicit: &mut bool) -> StickNote {
    if c.eat("無撃裁") {
        *explicit = true;
        return StickNote::Explicit(Throws::default());
    }
    if c.rest().starts_with('橋') || c.rest().starts_with('水') {
        *explicit = true;
        let mut t = Throws::default();
        if c.eat("橋") {
            let (throw, void) = explicit_count(c, diags, "橋");
            t.bridge = Some(match (throw, void) {
                (Throw::UnknownSuccess, true) => Throw::UnknownFailure,
                (x, _) => x,
            });
            t.bridge_void = void;
        }
        if c.eat("水") {
            let at = c.pos;
            let (throw, void) = explicit_count(c, diags, "水");
            let water = match (throw, void) {
                (Throw::UnknownSuccess, true) => Throw::UnknownFailure,
                (Throw::Count(n), false) if n < 3 => {
                    diags.push(Diagnostic::error(
                        DiagnosticKind::Syntax,
                        c.span_from(at),
                        format!(
                            "a water throw of {n} fails; ⓪ writes it `水{}此無`",
                            count_kanji(n)
                        ),
                    ));
                    Throw::Count(n)
                }
                (Throw::Count(n), true) if n >= 3 => {
                    diags.push(Diagnostic::error(
                        DiagnosticKind::Syntax,
                        c.span_from(at),
                        format!("a water throw of {n} succeeds, so `此無` is wrong"),
                    ));
                    Throw::Count(n)
                }
                (x, _) => x,
            };
            t.water = Some(water);
        }
        return StickNote::Explicit(t);
    }
    // ①: counts, 此無, a square where the piece stayed.
    let mut a = Abbrev::default();
    loop {
        if c.eat("此無") {
            a.void = true;
        } else if c.eat("或") {
            a.counts.push(Count::Unknown);
        } else if let Some(ch) = c.peek().filter(|&ch| count_value(ch).is_some()) {
            c.bump();
            let n = count_value(ch).unwrap_or(0);
            if ch == '無' && !c.rest().starts_with("此無") {
                a.counts.push(Count::Failed);
            } else {
                a.counts.push(Count::Known(n));
            }
        } else if !a.counts.is_empty() && Square::parse_prefix(c.rest()).is_some() {
            a.stayed = square(c, diags, "the square the piece stayed on");
        } else {
            break;
        }
    }
    StickNote::Abbreviated(a)
}

fn count_kanji(n: u8) -> char {
    ['無', '一', '二', '三', '四', '五'][n.min(5) as usize]
}

fn explicit_count(c: &mut Cursor<'_>, diags: &mut Vec<Diagnostic>, mark: &str) -> (Throw, bool) {
    let at = c.pos;
    let throw = if c.eat("或") {
        Throw::UnknownSuccess
    } else if let Some(n) = c.peek().and_then(count_value) {
        c.bump();
        Throw::Count(n)
    } else {
        diags.push(Diagnostic::error(
            DiagnosticKind::Syntax,
            Span::new(at, at),
            format!("`{mark}` must be followed by 或, 無, 一, 二, 三, 四 or 五"),
        ));
        Throw::UnknownSuccess
    };
    let void = c.eat("此無");
    (throw, void)
}

/// A drop: colour (`黒`, `赤`, or `或`/`無` for unknown), profession, square.
pub fn drop_move(c: &mut Cursor<'_>, diags: &mut Vec<Diagnostic>) -> Option<MoveNote> {
    let start = c.pos;
    let color = match c.bump() {
        Some(ch @ ('黒' | '赤')) => Color::from_kanji(ch),
        _ => None,
    };
    let at = c.pos;
    let prof = match c.bump() {
        Some('片') => {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                Span::new(at, c.pos),
                "`片` is not allowed in a drop",
            ));
            return None;
        }
        Some(ch) => match Profession::from_kanji(ch) {
            Some(p) => p,
            None => {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Unknown,
                    Span::new(at, c.pos),
                    format!("unknown profession `{ch}`"),
                ));
                return None;
            }
        },
        None => {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                c.span_from(start),
                "incomplete drop",
            ));
            return None;
        }
    };
    let dst = square(c, diags, "the square a piece is dropped on")?;
    Some(MoveNote::Drop { color, prof, dst })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> (MoveNote, bool, String) {
        let mut c = Cursor::new(s, 0);
        let mut d = Vec::new();
        let mut explicit = false;
        let m = board_move(&mut c, &mut d, &mut explicit).expect("move");
        assert!(d.is_empty(), "{s}: {d:?}");
        (m, explicit, c.rest().to_string())
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn full_notation_forms() {
        let (m, e, rest) = mv("CAI巫CAMA橋一手赤馬");
        assert!(e);
        assert_eq!(rest, "手赤馬");
        let MoveNote::Piece {
            src,
            step,
            dst,
            sticks,
            ..
        } = m
        else {
            panic!()
        };
        assert_eq!((src, step, dst), (sq("CAI"), Some(sq("CA")), sq("MA")));
        assert_eq!(
            sticks,
            StickNote::Explicit(Throws {
                bridge: Some(Throw::Count(1)),
                ..Throws::default()
            })
        );
        let (m, ..) = mv("LO弓NOCO橋四水一此無");
        let MoveNote::Piece { sticks, .. } = m else {
            panic!()
        };
        assert_eq!(
            sticks,
            StickNote::Explicit(Throws {
                bridge: Some(Throw::Count(4)),
                water: Some(Throw::Count(1)),
                bridge_void: false
            })
        );
        let (m, ..) = mv("ME弓MIMY橋或此無");
        let MoveNote::Piece { sticks, .. } = m else {
            panic!()
        };
        assert_eq!(
            sticks,
            StickNote::Explicit(Throws {
                bridge: Some(Throw::UnknownFailure),
                water: None,
                bridge_void: true
            })
        );
        let (m, ..) = mv("LY弓ZY水或此無");
        let MoveNote::Piece { sticks, .. } = m else {
            panic!()
        };
        assert_eq!(
            sticks,
            StickNote::Explicit(Throws {
                water: Some(Throw::UnknownFailure),
                ..Throws::default()
            })
        );
        let (m, ..) = mv("XU片XY無撃裁");
        assert!(matches!(m, MoveNote::Piece { prof: None, .. }));
    }

    #[test]
    fn abbreviated_forms() {
        let a = |s: &str| match mv(s).0 {
            MoveNote::Piece {
                sticks: StickNote::Abbreviated(a),
                ..
            } => a,
            other => panic!("{other:?}"),
        };
        assert_eq!(a("ME弓MIMU四").counts, [Count::Known(4)]);
        assert_eq!(a("ME弓MIMU").counts, []);
        let x = a("ME弓MIMY或ME");
        assert_eq!(
            (x.counts.as_slice(), x.stayed),
            (&[Count::Unknown][..], Some(sq("ME")))
        );
        assert_eq!(a("ME弓MIMY無").counts, [Count::Failed]);
        let x = a("ME弓MIMY無此無");
        assert_eq!(
            (x.counts.as_slice(), x.void),
            (&[Count::Known(0)][..], true)
        );
        assert!(a("LY弓ZY此無").void);
        assert_eq!(a("LY弓ZY一LY").stayed, Some(sq("LY")));
        assert_eq!(a("LO弓NOCO四五").counts, [Count::Known(4), Count::Known(5)]);
    }

    #[test]
    fn tam_forms() {
        let t = |s: &str| match mv(s).0 {
            MoveNote::Tam { note, .. } => note,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            t("KE皇KI"),
            TamNote::NoStep {
                first: None,
                second: sq("KI")
            }
        );
        assert_eq!(
            t("KE皇[或]KI"),
            TamNote::NoStep {
                first: None,
                second: sq("KI")
            }
        );
        assert_eq!(
            t("KE皇[LE]KI"),
            TamNote::NoStep {
                first: Some(sq("LE")),
                second: sq("KI")
            }
        );
        assert_eq!(
            t("PAU皇CAIMAU"),
            TamNote::TwoSquares {
                a: sq("CAI"),
                second: sq("MAU")
            }
        );
        assert_eq!(
            t("KE皇LI[KE]KA"),
            TamNote::StepFormer {
                step: sq("LI"),
                first: Some(sq("KE")),
                second: sq("KA")
            }
        );
        assert_eq!(
            t("PAU皇[MAU]CAIMAU"),
            TamNote::StepLatter {
                first: Some(sq("MAU")),
                step: sq("CAI"),
                second: sq("MAU")
            }
        );
    }

    #[test]
    fn bad_input_is_reported() {
        for s in ["QA兵KE", "KA犬KE", "KA兵Q", "KA皇[KE"] {
            let mut c = Cursor::new(s, 0);
            let mut d = Vec::new();
            let mut e = false;
            assert!(board_move(&mut c, &mut d, &mut e).is_none(), "{s}");
            assert!(!d.is_empty(), "{s}");
        }
    }
}
