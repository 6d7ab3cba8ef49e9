//! The readings of a Western letter group under the tolerance rules of the CSL move-notation post:
//! the longest acceptable reading from the left, origin-rank letters, the two-word allowance,
//! upper case first, extra letters as typos.

use super::names::{LISHOGI_WESTERN, PieceName, WESTERN, second_word_initial};
use crate::piece::Color;
use crate::position::Position;

/// How a letter group was read; rule 2 of the post prefers one class over another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// The letters are an abbreviation as listed, in its case.
    Exact,
    /// An abbreviation written in other case (`gb`, `ln`).
    Abbreviation,
    /// Abbreviation plus the origin rank (`Gd`, `Gb`).
    PieceAndRank,
    /// Abbreviation plus the second word's initial (`SG`, silver general).
    SecondWord,
    /// Abbreviation followed by letters that cannot be accounted for.
    Typo,
    /// No piece named (USI-like input, `同`, igui or pass without a piece).
    AnyPiece,
}

/// One reading: which pieces it names and from which rank.
#[derive(Clone, Debug)]
pub(crate) struct Reading {
    /// `None`: any piece.
    pub name: Option<PieceName>,
    pub origin_rank: Option<u8>,
    pub class: Class,
    /// Something the user should hear about if this reading is chosen.
    pub note: Option<String>,
}

/// Readings tried together; a binding tier that matches nothing ends the search (the post's
/// `Gd` rule: a gold on rank d is meant even if only another gold can move).
#[derive(Clone, Debug)]
pub(crate) struct Tier {
    pub readings: Vec<Reading>,
    pub binding: bool,
}

fn reading(name: PieceName, class: Class) -> Reading {
    Reading {
        name: Some(name),
        origin_rank: None,
        class,
        note: None,
    }
}

/// Readings of lishogi's `+X` (a piece promoted from `X`) or, with `plus == false`, of a lishogi
/// Western code naming an unpromoted piece.
pub(crate) fn lishogi_tier(code: &str, plus: bool) -> Option<Tier> {
    let (_, kind) = LISHOGI_WESTERN.iter().find(|(c, _)| *c == code)?;
    let name = if plus {
        PieceName {
            kind: kind.promoted()?,
            promoted_from: Some(*kind),
            unpromoted_only: false,
        }
    } else {
        PieceName {
            kind: *kind,
            promoted_from: None,
            unpromoted_only: true,
        }
    };
    Some(Tier {
        readings: vec![reading(name, Class::Exact)],
        binding: true,
    })
}

fn has_piece_on_rank(pos: &Position, us: Color, name: PieceName, rank: u8) -> bool {
    pos.pieces()
        .any(|(sq, p)| p.color == us && sq.rank() == rank && name.matches(p))
}

/// The tiers for a Western letter group `w`. `capture_split` says the group is followed by a
/// square, so a final `x` may be the capture sign rather than a letter (`Lnx4e`, but `Px4e`
/// could be the phoenix).
pub(crate) fn western_tiers(w: &str, capture_split: bool, pos: &Position) -> Vec<Tier> {
    let us = pos.turn();
    let mut tiers = Vec::new();
    let stripped = (capture_split && w.len() > 1 && w.ends_with('x')).then(|| &w[..w.len() - 1]);

    let exact = |s: &str| -> Option<Tier> {
        let readings: Vec<Reading> = WESTERN
            .iter()
            .filter(|(a, _)| *a == s)
            .map(|(_, n)| reading(*n, Class::Exact))
            .collect();
        (!readings.is_empty()).then(|| Tier {
            binding: s == "Ph",
            readings,
        })
    };
    let full = |s: &str| -> Option<Tier> {
        let mut readings = Vec::new();
        for (a, n) in WESTERN {
            if a.eq_ignore_ascii_case(s) && *a != s {
                readings.push(reading(*n, Class::Abbreviation));
            }
            if a.len() + 1 == s.len()
                && s.is_char_boundary(a.len())
                && s[..a.len()].eq_ignore_ascii_case(a)
            {
                let c = s.as_bytes()[a.len()].to_ascii_lowercase();
                if (b'a'..=b'l').contains(&c) {
                    let rank = c - b'a';
                    if has_piece_on_rank(pos, us, *n, rank) {
                        readings.push(Reading {
                            name: Some(*n),
                            origin_rank: Some(rank),
                            class: Class::PieceAndRank,
                            note: None,
                        });
                    } else {
                        readings.push(Reading {
                            name: Some(*n),
                            origin_rank: None,
                            class: Class::PieceAndRank,
                            note: Some(format!(
                                "no {} on rank {}: `{s}` read as `{a}`",
                                n.kind.name(),
                                c as char
                            )),
                        });
                    }
                }
                if second_word_initial(n.kind) == Some(c as char) {
                    readings.push(reading(*n, Class::SecondWord));
                }
            }
        }
        let binding = readings.len() == 1 && readings[0].origin_rank.is_some();
        (!readings.is_empty()).then_some(Tier { readings, binding })
    };
    let typo = |s: &str| -> Option<Tier> {
        let best = WESTERN
            .iter()
            .filter(|(a, _)| {
                a.len() < s.len()
                    && s.is_char_boundary(a.len())
                    && s[..a.len()].eq_ignore_ascii_case(a)
            })
            .map(|(a, _)| a.len())
            .max()?;
        let readings = WESTERN
            .iter()
            .filter(|(a, _)| a.len() == best && s[..best].eq_ignore_ascii_case(a))
            .map(|(a, n)| Reading {
                name: Some(*n),
                origin_rank: None,
                class: Class::Typo,
                note: Some(format!(
                    "`{}` in `{s}` ignored as a typo (read as `{a}`)",
                    &s[best..]
                )),
            })
            .collect();
        Some(Tier {
            readings,
            binding: false,
        })
    };

    tiers.extend(exact(w));
    if let Some(st) = stripped {
        tiers.extend(exact(st));
        tiers.extend(full(st));
    }
    tiers.extend(full(w));
    if let Some(st) = stripped {
        tiers.extend(typo(st));
    }
    tiers.extend(typo(w));
    tiers
}

/// Rule 2 of the post between readings that both give a legal move: `GB` (upper case) means the
/// abbreviation, `Gb` (capital then small) the piece on that rank; other mixes stay ambiguous.
pub(crate) fn preferred_class(w: &str) -> Option<&'static [Class]> {
    let mut chars = w.chars();
    let first = chars.next()?;
    let rest: String = chars.collect();
    if rest.is_empty() {
        return None;
    }
    if first.is_ascii_uppercase() && rest.chars().all(|c| c.is_ascii_lowercase()) {
        Some(&[Class::PieceAndRank])
    } else if w.chars().all(|c| c.is_ascii_uppercase()) {
        Some(&[Class::Exact, Class::Abbreviation, Class::SecondWord])
    } else {
        None
    }
}
