//! lishogi's Western notation (`Ln-79-68`, `P-c9+`, `D83-73`, `Lnx!24`, `--`): codes name the
//! unpromoted piece, `+` a piece promoted from it; squares are file and rank as one character
//! each, with 10, 11 and 12 written `a`, `b`, `c`.

use super::error::NotationError;
use super::reading::{Class, Reading, Tier, lishogi_tier};
use crate::square::Square;

pub(crate) struct LishogiPattern {
    pub tier: Option<Tier>,
    pub origin: Option<Square>,
    pub squares: Vec<Square>,
    pub igui: bool,
    pub pass: bool,
    pub promote: Option<bool>,
}

fn digit(c: u8) -> Option<u8> {
    match c {
        b'1'..=b'9' => Some(c - b'0'),
        b'a'..=b'c' => Some(c - b'a' + 10),
        _ => None,
    }
}

fn square(b: &[u8]) -> Option<Square> {
    let f = digit(*b.first()?)?;
    let r = digit(*b.get(1)?)?;
    Square::new(f, r - 1)
}

fn error(text: &str, at: usize, message: &str) -> NotationError {
    NotationError::Syntax {
        message: format!("{message} in `{text}`"),
        start: at.min(text.len()),
        end: text.len(),
    }
}

pub(crate) fn pattern(text: &str) -> Result<LishogiPattern, NotationError> {
    let t = text.trim();
    let any = Tier {
        readings: vec![Reading {
            name: None,
            origin_rank: None,
            class: Class::AnyPiece,
            note: None,
        }],
        binding: true,
    };
    if t == "--" {
        return Ok(LishogiPattern {
            tier: Some(any),
            origin: None,
            squares: Vec::new(),
            igui: false,
            pass: true,
            promote: None,
        });
    }
    let b = t.as_bytes();
    let mut i = 0;
    let plus = b.first() == Some(&b'+');
    if plus {
        i += 1;
    }
    let code_len = super::names::LISHOGI_WESTERN
        .iter()
        .filter(|(c, _)| t[i..].starts_with(c))
        .map(|(c, _)| c.len())
        .max()
        .ok_or_else(|| error(t, i, "unknown piece"))?;
    let tier =
        lishogi_tier(&t[i..i + code_len], plus).ok_or_else(|| error(t, i, "unknown piece"))?;
    i += code_len;
    let mut origin = None;
    if let Some(sq) = square(&b[i..]) {
        origin = Some(sq);
        i += 2;
    }
    let mut squares = Vec::new();
    let mut igui = false;
    while i < b.len() && (b[i] == b'-' || b[i] == b'x') {
        i += 1;
        if b.get(i) == Some(&b'!') {
            igui = true;
            i += 1;
        }
        squares.push(square(&b[i..]).ok_or_else(|| error(t, i, "bad square"))?);
        i += 2;
    }
    let promote = match b.get(i) {
        Some(b'+') => Some(true),
        Some(b'=') => Some(false),
        _ => None,
    };
    if promote.is_some() {
        i += 1;
    }
    if i != b.len() || squares.is_empty() {
        return Err(error(t, i, "unreadable move"));
    }
    Ok(LishogiPattern {
        tier: Some(tier),
        origin,
        squares,
        igui,
        pass: false,
        promote,
    })
}
