//! Reading one move in CSL notation (or lishogi's Western notation) against the legal moves of
//! a position.

use super::error::NotationError;
use super::lexer::{Tok, Token, lex, numeric_squares};
use super::names::PieceName;
use super::reading::{Class, Reading, Tier, lishogi_tier, preferred_class, western_tiers};
use super::western_full::western_explicit;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// Which notation a move is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// The CSL notation, Western or Japanese or mixed, with lishogi's forms as lenient extensions
    /// (`+X` promoted pieces, full origin squares, `--`, `同`, `居喰い`, `X・Y獅`, 右左上引寄直).
    #[default]
    Csl,
    /// lishogi's Western "engine" notation (`Ln-7i-6h`, `D8c-7c`, `+P-12j`): CSL's grammar, but
    /// codes name unpromoted pieces only (`+X` the promoted ones) and `Px` is a pawn capturing.
    LishogiEngine,
    /// lishogi's Western notation with numeric squares where 10, 11, 12 are `a`, `b`, `c`
    /// (`Ln-79-68`, `P-c9+`).
    LishogiWestern,
}

/// A move read from text, with remarks about tolerated mistakes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedMove {
    /// The move.
    pub mv: Move,
    /// Mistakes tolerated in reading it, for the user.
    pub warnings: Vec<String>,
}

/// A place named in the text: a square, or digits that are an origin file and/or numeric squares.
#[derive(Clone, Debug)]
struct Place {
    squares: Vec<Square>,
    file: Option<u8>,
    /// Written right after the piece letters, with no separator (an origin: `R8-5d`, `D8c-7c`).
    attached: bool,
    /// After `・` (second square of a Japanese double move).
    after_dot: bool,
    /// The capture sign `x` or the hyphen written just before it, if any.
    mark: Option<char>,
}

/// Everything the text says about the move.
#[derive(Clone, Debug, Default)]
struct Pattern {
    tiers: Vec<Tier>,
    /// The letter group, for rule 2's upper-case preference.
    letters: Option<String>,
    places: Vec<Place>,
    igui: bool,
    pass: bool,
    same: bool,
    promote: Option<bool>,
    relative: Vec<char>,
    /// Origin squares given in parentheses.
    origin: Option<Vec<Square>>,
    /// `Px` right before a square: a pawn capturing, or CSL's phoenix alias. Holds the reading
    /// not taken, to warn when it also gives a legal move.
    px_other: Option<(Tier, &'static str)>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Route {
    file: Option<u8>,
    rank: Option<u8>,
    origin: Option<Square>,
    mid: Option<Square>,
    dest: Option<Square>,
    victim: Option<Square>,
}

/// Reads one move. `previous` is the destination of the previous move (for `同`).
pub fn parse_move(
    pos: &Position,
    text: &str,
    dialect: Dialect,
    previous: Option<Square>,
) -> Result<ParsedMove, NotationError> {
    let pattern = match dialect {
        Dialect::Csl => csl_pattern(pos, text, false)?,
        Dialect::LishogiEngine => csl_pattern(pos, text, true)?,
        Dialect::LishogiWestern => super::lishogi::pattern(text).map(|p| p.into_pattern())?,
    };
    let mut parsed = resolve(pos, &pattern, previous)?;
    if let Some((tier, other)) = &pattern.px_other {
        let alternative = Pattern {
            tiers: vec![tier.clone()],
            px_other: None,
            ..pattern.clone()
        };
        if let Ok(alt) = resolve(pos, &alternative, previous)
            && position_key(pos, alt.mv) != position_key(pos, parsed.mv)
        {
            let taken = pos
                .piece_at(parsed.mv.from())
                .map_or("piece", |p| p.kind.name());
            parsed.warnings.push(format!(
                "`Px` read as the {taken}; it could also be read as {other} ({})",
                western_explicit(pos, alt.mv)
            ));
        }
    }
    Ok(parsed)
}

/// Orders the readings of `Px` written right before a square (`Px7f`). lishogi writes a pawn
/// capture so, while the CSL move-notation post lists `Px` as an alias of the phoenix. With an
/// enemy piece on the square the `x` is read as the capture mark (a pawn capturing); on an empty
/// or own square a capture mark makes no sense, so the phoenix alias is read first.
fn order_px_readings(pos: &Position, p: &mut Pattern) {
    let phoenix = p.tiers.iter().position(|t| {
        t.readings.iter().any(|r| {
            r.name
                .is_some_and(|n| n.kind == crate::piece::Kind::Phoenix)
        })
    });
    let pawn = p.tiers.iter().position(|t| {
        t.readings
            .iter()
            .any(|r| r.name.is_some_and(|n| n.kind == crate::piece::Kind::Pawn))
    });
    let (Some(phoenix), Some(pawn)) = (phoenix, pawn) else {
        return;
    };
    let enemy_on_square = p.places.first().is_some_and(|pl| {
        pl.squares.len() == 1
            && pos
                .piece_at(pl.squares[0])
                .is_some_and(|pc| pc.color != pos.turn())
    });
    let (first, second) = if enemy_on_square {
        if let Some(place) = p.places.first_mut() {
            place.mark = Some('x');
        }
        (pawn, phoenix)
    } else {
        (phoenix, pawn)
    };
    let other = p.tiers[second].clone();
    let rest = std::mem::take(&mut p.tiers);
    let mut ordered = vec![rest[first].clone(), other.clone()];
    ordered.extend(
        rest.into_iter()
            .enumerate()
            .filter(|(i, _)| *i != first && *i != second)
            .map(|(_, t)| t),
    );
    p.tiers = ordered;
    p.px_other = Some((
        other,
        if enemy_on_square {
            "CSL's phoenix alias `Px`"
        } else {
            "a pawn with the capture mark `x`"
        },
    ));
}

fn syntax(message: impl Into<String>, start: usize, end: usize) -> NotationError {
    NotationError::Syntax {
        message: message.into(),
        start,
        end,
    }
}

fn csl_pattern(pos: &Position, text: &str, lishogi_codes: bool) -> Result<Pattern, NotationError> {
    let toks: Vec<Token> = lex(text).map_err(|(s, e)| {
        let bad = &text[s..e];
        let looks_like_square =
            bad.starts_with(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c));
        let message = if looks_like_square {
            format!("`{bad}` is not a square of the 12×12 board (files 1–12, ranks a–l or 一–十二)")
        } else {
            format!("cannot read `{bad}`")
        };
        syntax(message, s, e)
    })?;
    if toks.is_empty() {
        return Err(syntax("empty move", 0, text.len()));
    }
    let mut p = Pattern::default();
    let mut plus_prefix = false;
    let mut piece_seen = false;
    let mut last_was_piece = false;
    let mut after_dot = false;
    let mut mark: Option<char> = None;
    let mut px_split = false;
    for (i, t) in toks.iter().enumerate() {
        let next = toks.get(i + 1).map(|t| &t.tok);
        let was_piece = std::mem::replace(&mut last_was_piece, false);
        match &t.tok {
            Tok::Plus
                if !piece_seen && matches!(next, Some(Tok::Letters(_))) && p.places.is_empty() =>
            {
                plus_prefix = true;
            }
            Tok::Plus | Tok::Promote => p.promote = Some(true),
            Tok::Equals | Tok::Decline => p.promote = Some(false),
            Tok::Letters(w) if w == "x" || w == "X" => mark = Some('x'),
            Tok::Letters(w) if !piece_seen => {
                piece_seen = true;
                last_was_piece = true;
                let split = matches!(next, Some(Tok::Square(_) | Tok::Digits(_) | Tok::Bang));
                if split && w.ends_with('x') && w != "Px" {
                    mark = Some('x');
                }
                px_split = split && w == "Px" && !plus_prefix && !lishogi_codes;
                if plus_prefix || lishogi_codes {
                    let code = if split && w.ends_with('x') {
                        &w[..w.len() - 1]
                    } else {
                        w.as_str()
                    };
                    let tier = lishogi_tier(code, plus_prefix).ok_or_else(|| {
                        syntax(
                            format!("unknown lishogi piece code `{code}`"),
                            t.start,
                            t.end,
                        )
                    })?;
                    p.tiers.push(tier);
                } else {
                    p.tiers = western_tiers(w, split, pos);
                    if p.tiers.is_empty() {
                        return Err(syntax(format!("unknown piece `{w}`"), t.start, t.end));
                    }
                    p.letters = Some(w.clone());
                }
            }
            Tok::Piece(name) if !piece_seen => {
                piece_seen = true;
                last_was_piece = true;
                p.tiers.push(Tier {
                    readings: vec![Reading {
                        name: Some(*name),
                        origin_rank: None,
                        class: Class::Exact,
                        note: None,
                    }],
                    binding: true,
                });
            }
            Tok::Letters(_) | Tok::Piece(_) => {
                return Err(syntax("a second piece name", t.start, t.end));
            }
            Tok::Dash => mark = Some('-'),
            Tok::Bang => p.igui = true,
            Tok::Dot => after_dot = true,
            Tok::Square(sq) => {
                p.places.push(Place {
                    squares: vec![*sq],
                    file: None,
                    attached: was_piece,
                    after_dot: std::mem::take(&mut after_dot),
                    mark: mark.take(),
                });
            }
            Tok::Digits(d) => {
                let file = d
                    .parse::<u8>()
                    .ok()
                    .filter(|f| (1..=12).contains(f) && !d.starts_with('0'));
                let squares = numeric_squares(d);
                if file.is_none() && squares.is_empty() {
                    return Err(syntax(
                        format!("`{d}` is not a square or file of the 12×12 board"),
                        t.start,
                        t.end,
                    ));
                }
                p.places.push(Place {
                    squares,
                    file,
                    attached: was_piece,
                    after_dot: std::mem::take(&mut after_dot),
                    mark: mark.take(),
                });
            }
            Tok::Same => p.same = true,
            Tok::Relative(c) => p.relative.push(*c),
            Tok::Igui => p.igui = true,
            Tok::Pass => p.pass = true,
            Tok::Origin(squares) => p.origin = Some(squares.clone()),
        }
    }
    if !piece_seen {
        p.tiers.push(Tier {
            readings: vec![Reading {
                name: None,
                origin_rank: None,
                class: Class::AnyPiece,
                note: None,
            }],
            binding: true,
        });
    }
    if p.places.is_empty() && !p.same && !p.pass {
        return Err(syntax("no square", 0, text.len()));
    }
    if px_split && p.places.len() == 1 {
        order_px_readings(pos, &mut p);
    }
    Ok(p)
}

impl super::lishogi::LishogiPattern {
    fn into_pattern(self) -> Pattern {
        let mut places: Vec<Place> = Vec::new();
        if let Some(o) = self.origin {
            places.push(Place {
                squares: vec![o],
                file: None,
                attached: true,
                after_dot: false,
                mark: None,
            });
        }
        for sq in self.squares {
            places.push(Place {
                squares: vec![sq],
                file: None,
                attached: false,
                after_dot: false,
                mark: None,
            });
        }
        Pattern {
            tiers: self.tier.into_iter().collect(),
            letters: None,
            places,
            igui: self.igui,
            pass: self.pass,
            same: false,
            promote: self.promote,
            relative: Vec::new(),
            origin: None,
            px_other: None,
        }
    }
}

/// The ways the places can be read, in order of preference.
fn routes(p: &Pattern, previous: Option<Square>) -> Result<Vec<Vec<Route>>, NotationError> {
    let origins = |pl: &Place| -> Vec<Route> {
        let mut v: Vec<Route> = pl
            .squares
            .iter()
            .map(|&s| Route {
                origin: Some(s),
                ..Route::default()
            })
            .collect();
        if let Some(f) = pl.file {
            v.push(Route {
                file: Some(f),
                ..Route::default()
            });
        }
        v
    };
    let cross = |base: Vec<Route>, pl: &Place, f: fn(&mut Route, Square)| -> Vec<Route> {
        base.iter()
            .flat_map(|r| {
                pl.squares.iter().map(move |&s| {
                    let mut r = *r;
                    f(&mut r, s);
                    r
                })
            })
            .collect()
    };
    let set_dest: fn(&mut Route, Square) = |r, s| r.dest = Some(s);
    let set_mid: fn(&mut Route, Square) = |r, s| r.mid = Some(s);
    let set_victim: fn(&mut Route, Square) = |r, s| r.victim = Some(s);
    let pl = &p.places;
    let none = vec![Route::default()];
    if p.pass {
        return Ok(vec![if pl.is_empty() { none } else { origins(&pl[0]) }]);
    }
    if p.same {
        let prev = previous.ok_or_else(|| NotationError::NoMove {
            message: "同 (same square) without a previous move".into(),
        })?;
        let base = if pl.is_empty() { none } else { origins(&pl[0]) };
        return Ok(vec![
            base.into_iter()
                .map(|r| Route {
                    dest: Some(prev),
                    ..r
                })
                .collect(),
        ]);
    }
    if p.igui {
        return Ok(match pl.len() {
            1 => vec![cross(none, &pl[0], set_victim)],
            2 => vec![cross(origins(&pl[0]), &pl[1], set_victim)],
            _ => return Err(syntax("igui names one or two squares", 0, 0)),
        });
    }
    Ok(match pl.len() {
        1 => vec![cross(none, &pl[0], set_dest)],
        2 => {
            let with_origin = cross(origins(&pl[0]), &pl[1], set_dest);
            let double = cross(cross(none, &pl[0], set_mid), &pl[1], set_dest);
            if pl[1].after_dot || !pl[0].attached {
                vec![double, with_origin]
            } else {
                vec![with_origin, double]
            }
        }
        3 => vec![cross(
            cross(origins(&pl[0]), &pl[1], set_mid),
            &pl[2],
            set_dest,
        )],
        n => return Err(syntax(format!("{n} squares in one move"), 0, 0)),
    })
}

fn route_matches(pos: &Position, r: &Route, m: Move, pass: bool) -> bool {
    let from = m.from();
    if r.file.is_some_and(|f| f != from.file()) || r.rank.is_some_and(|k| k != from.rank()) {
        return false;
    }
    if r.origin.is_some_and(|o| o != from) {
        return false;
    }
    if pass {
        return m.returns_to_start() && m.mid().is_some_and(|s| pos.piece_at(s).is_none());
    }
    if let Some(v) = r.victim {
        return m.returns_to_start() && m.mid() == Some(v) && pos.piece_at(v).is_some();
    }
    if r.dest != Some(m.to()) {
        return false;
    }
    match (r.mid, m.mid()) {
        (Some(a), Some(b)) => a == b,
        (Some(_), None) => false,
        // A route through an empty square reaches what the single move reaches.
        (None, Some(b)) => pos.piece_at(b).is_none() && !m.returns_to_start(),
        (None, None) => true,
    }
}

fn relative_ok(pos: &Position, c: char, m: Move) -> bool {
    let black = pos.turn() == crate::piece::Color::Black;
    let (f, t) = (m.from(), m.to());
    let forward = if black {
        t.rank() < f.rank()
    } else {
        t.rank() > f.rank()
    };
    let backward = if black {
        t.rank() > f.rank()
    } else {
        t.rank() < f.rank()
    };
    match c {
        '上' => forward,
        '引' => backward,
        '寄' => t.rank() == f.rank(),
        '直' => forward && t.file() == f.file(),
        '跳' => f.distance(t) == 2,
        _ => true,
    }
}

/// Applies 右/左: keep the candidates whose origin is rightmost/leftmost as the mover sees it.
fn apply_side(pos: &Position, c: char, cands: &mut Vec<(Move, Class, Option<String>)>) {
    let black = pos.turn() == crate::piece::Color::Black;
    // Black's right is the low file numbers.
    let key = |m: &Move| {
        if black {
            m.from().file() as i32
        } else {
            -(m.from().file() as i32)
        }
    };
    let pick = match c {
        '右' => cands.iter().map(|(m, ..)| key(m)).min(),
        '左' => cands.iter().map(|(m, ..)| key(m)).max(),
        _ => return,
    };
    if let Some(k) = pick {
        cands.retain(|(m, ..)| key(m) == k);
    }
}

fn resolve(
    pos: &Position,
    p: &Pattern,
    previous: Option<Square>,
) -> Result<ParsedMove, NotationError> {
    let legal = pos.legal_moves();
    let levels = routes(p, previous)?;
    for tier in &p.tiers {
        for level in &levels {
            let mut cands: Vec<(Move, Class, Option<String>)> = Vec::new();
            for &m in legal.iter() {
                let piece = pos
                    .piece_at(m.from())
                    .expect("legal moves start on a piece");
                if p.promote.is_some_and(|pr| pr != m.is_promotion()) {
                    continue;
                }
                if p.origin.as_ref().is_some_and(|o| !o.contains(&m.from())) {
                    continue;
                }
                if !p.relative.iter().all(|&c| relative_ok(pos, c, m)) {
                    continue;
                }
                let reading = tier.readings.iter().find(|rd| {
                    rd.name.is_none_or(|n: PieceName| n.matches(piece))
                        && rd.origin_rank.is_none_or(|r| r == m.from().rank())
                        && level.iter().any(|r| route_matches(pos, r, m, p.pass))
                });
                if let Some(rd) = reading {
                    cands.push((m, rd.class, rd.note.clone()));
                }
            }
            for &c in &p.relative {
                apply_side(pos, c, &mut cands);
            }
            if cands.is_empty() {
                continue;
            }
            let mut chosen = choose(pos, p, cands)?;
            if let (Some(first), Some(letters)) = (p.tiers.first(), p.letters.as_deref())
                && !std::ptr::eq(first, tier)
                && first.readings.iter().all(|r| r.class == Class::Exact)
                && let Some(name) = first.readings.first().and_then(|r| r.name)
            {
                chosen.warnings.push(format!(
                    "no {} can make this move; `{letters}` read another way",
                    name.kind.name()
                ));
            }
            return Ok(chosen);
        }
        if tier.binding {
            break;
        }
    }
    let dests: Vec<Square> = levels.iter().flatten().filter_map(|r| r.dest).collect();
    let mut near: Vec<String> = legal
        .iter()
        .filter(|m| dests.contains(&m.to()) && m.mid().is_none())
        .map(|&m| western_explicit(pos, m))
        .collect();
    near.dedup();
    let message = if near.is_empty() {
        "no legal move matches".to_string()
    } else {
        format!(
            "no legal move matches; legal moves to that square: {}",
            near.join(", ")
        )
    };
    Err(NotationError::NoMove { message })
}

fn position_key(pos: &Position, m: Move) -> u64 {
    let mut after = pos.clone();
    after.play_unchecked(m);
    after.repetition_key()
}

/// Picks one move per resulting position; applies rule 2 and the unpromoted-first preference
/// when several positions remain.
fn choose(
    pos: &Position,
    p: &Pattern,
    mut cands: Vec<(Move, Class, Option<String>)>,
) -> Result<ParsedMove, NotationError> {
    let mut warnings = Vec::new();
    let groups = |cands: &[(Move, Class, Option<String>)]| {
        let mut keys: Vec<u64> = cands.iter().map(|(m, ..)| position_key(pos, *m)).collect();
        keys.sort_unstable();
        keys.dedup();
        keys.len()
    };
    if groups(&cands) > 1
        && let Some(pref) = p.letters.as_deref().and_then(preferred_class)
    {
        let kept: Vec<_> = cands
            .iter()
            .filter(|(_, c, _)| pref.contains(c))
            .cloned()
            .collect();
        if !kept.is_empty() {
            cands = kept;
        }
    }
    if groups(&cands) > 1 {
        let unpromoted: Vec<_> = cands
            .iter()
            .filter(|(m, ..)| pos.piece_at(m.from()).is_some_and(|pc| !pc.promoted))
            .cloned()
            .collect();
        if !unpromoted.is_empty() && unpromoted.len() < cands.len() && groups(&unpromoted) == 1 {
            warnings.push(
                "a promoted piece could make the same move; took the unpromoted one".to_string(),
            );
            cands = unpromoted;
        }
    }
    if groups(&cands) > 1 {
        let mut seen = Vec::new();
        let mut list = Vec::new();
        for (m, ..) in &cands {
            let k = position_key(pos, *m);
            if !seen.contains(&k) {
                seen.push(k);
                list.push((*m, western_explicit(pos, *m)));
            }
        }
        return Err(NotationError::Ambiguous { candidates: list });
    }
    let best = cands
        .iter()
        .find(|(m, ..)| m.mid().is_none())
        .or_else(|| cands.first())
        .cloned()
        .expect("non-empty");
    if let Some(n) = best.2 {
        warnings.push(n);
    }
    warnings.extend(capture_mark_warnings(pos, p, best.0));
    Ok(ParsedMove {
        mv: best.0,
        warnings,
    })
}

/// `x` where nothing is taken, or `-` where something is: accepted, but worth a warning.
fn capture_mark_warnings(pos: &Position, p: &Pattern, m: Move) -> Vec<String> {
    if p.igui || p.pass || p.same {
        return Vec::new();
    }
    let mut steps: Vec<(Square, Option<char>)> = Vec::new();
    let n = p.places.len();
    if let Some(last) = p.places.last() {
        steps.push((m.to(), last.mark));
    }
    if let (Some(mid), true) = (m.mid(), n >= 2) {
        steps.push((mid, p.places[n - 2].mark));
    }
    let mut out = Vec::new();
    for (sq, mark) in steps {
        let taken = sq != m.from() && pos.piece_at(sq).is_some();
        match mark {
            Some('x') if !taken => out.push(format!("`x` written but nothing is captured on {sq}")),
            Some('-') if taken => out.push(format!("captures on {sq} but is written with `-`")),
            _ => {}
        }
    }
    out
}
