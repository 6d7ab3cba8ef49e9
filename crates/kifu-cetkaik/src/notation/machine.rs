//! Notation ③: cerke_noter's machine-readable strings (`"mauAmaimy1"`, `"miaHxaito4=tymor"`).

use super::written::{Abbrev, Count, MoveNote, StickNote, TamNote};
use crate::match_state::Declaration;
use crate::profession::{Color, Profession};
use crate::square::Square;

/// One decoded MRF string.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MrfMove {
    /// The move as written.
    pub note: MoveNote,
    /// `=tymor` (再行) or `=taxt` (終季) after the move.
    pub declaration: Option<Declaration>,
    /// The free-text final-hands field (`FHCV/HT`), kept as written.
    pub final_hands: Option<String>,
}

/// Why a string is no MRF move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MrfError {
    /// Neither a square nor a drop colour (`B`, `R`) opens the string.
    #[error("`{0}` does not start with a square or B/R")]
    NoStart(String),
    /// The string ends before the piece letter.
    #[error("`{0}` has no piece letter")]
    NoPieceLetter(String),
    /// A character that is no square and no stick count (0 to 5).
    #[error("unexpected `{found}` in `{text}`")]
    Unexpected {
        /// The character.
        found: char,
        /// The whole string.
        text: String,
    },
    /// A letter that names no profession.
    #[error("unknown piece letter `{0}`")]
    UnknownPieceLetter(char),
    /// A drop with other than one square.
    #[error("a drop has one square: `{0}`")]
    DropSquares(String),
    /// A 皇 move with other than one or two squares.
    #[error("a 皇 move has one or two squares: `{0}`")]
    TamSquares(String),
    /// A move with other than one or two squares after its start.
    #[error("a move has one or two squares: `{0}`")]
    MoveSquares(String),
}

fn lower_square(s: &str) -> Option<(Square, usize)> {
    let n = s
        .bytes()
        .take(3)
        .take_while(|b| b.is_ascii_lowercase())
        .count();
    let upper = s[..n].to_ascii_uppercase();
    Square::parse_prefix(&upper)
}

/// Decodes the content of one MRF string.
///
/// ```
/// use kifu_cetkaik::Declaration;
/// use kifu_cetkaik::notation::machine::parse_mrf;
///
/// let m = parse_mrf("miaHxaito4=tymor").unwrap();
/// assert_eq!(m.declaration, Some(Declaration::TyMok));
/// let err = parse_mrf("meAxeze9").unwrap_err();
/// assert_eq!(err.to_string(), "unexpected `9` in `meAxeze9`");
/// ```
pub fn parse_mrf(s: &str) -> Result<MrfMove, MrfError> {
    let (body, tail) = match s.split_once('=') {
        Some((b, t)) => (b, Some(t)),
        None => (s, None),
    };
    let mut declaration = None;
    let mut final_hands = None;
    if let Some(t) = tail {
        let (d, rest) = match t.split_once('=') {
            Some((d, r)) => (d, Some(r)),
            None => (t, None),
        };
        match d {
            "tymor" => declaration = Some(Declaration::TyMok),
            "taxt" => declaration = Some(Declaration::TaXot),
            other => final_hands = Some(other.to_string()),
        }
        if let Some(r) = rest {
            final_hands = Some(r.to_string());
        }
    }
    let mut rest = body;
    let drop_color = match rest.chars().next() {
        Some('B') => Some(Color::Black),
        Some('R') => Some(Color::Red),
        _ => None,
    };
    let src = if drop_color.is_some() {
        rest = &rest[1..];
        None
    } else {
        let (sq, n) = lower_square(rest).ok_or_else(|| MrfError::NoStart(s.to_owned()))?;
        rest = &rest[n..];
        Some(sq)
    };
    let letter = rest
        .chars()
        .next()
        .ok_or_else(|| MrfError::NoPieceLetter(s.to_owned()))?;
    rest = &rest[letter.len_utf8()..];
    let mut squares = Vec::new();
    while let Some((sq, n)) = lower_square(rest) {
        squares.push(sq);
        rest = &rest[n..];
    }
    let mut counts = Vec::new();
    for ch in rest.chars() {
        match ch.to_digit(10) {
            Some(d) if d <= 5 => counts.push(Count::Known(d as u8)),
            _ => {
                return Err(MrfError::Unexpected {
                    found: ch,
                    text: s.to_owned(),
                });
            }
        }
    }
    let note = match (src, letter) {
        (None, l) => {
            let prof = Profession::from_mrf_letter(l).ok_or(MrfError::UnknownPieceLetter(l))?;
            let [dst] = squares[..] else {
                return Err(MrfError::DropSquares(s.to_owned()));
            };
            MoveNote::Drop {
                color: drop_color,
                prof,
                dst,
            }
        }
        (Some(src), 'M') => {
            let note = match squares[..] {
                [second] => TamNote::NoStep {
                    first: None,
                    second,
                },
                [a, second] => TamNote::TwoSquares { a, second },
                _ => return Err(MrfError::TamSquares(s.to_owned())),
            };
            MoveNote::Tam { src, note }
        }
        (Some(src), l) => {
            let prof = Profession::from_mrf_letter(l).ok_or(MrfError::UnknownPieceLetter(l))?;
            let (step, dst) = match squares[..] {
                [d] => (None, d),
                [st, d] => (Some(st), d),
                _ => return Err(MrfError::MoveSquares(s.to_owned())),
            };
            MoveNote::Piece {
                src,
                prof: Some(prof),
                step,
                dst,
                sticks: StickNote::Abbreviated(Abbrev {
                    counts,
                    ..Abbrev::default()
                }),
            }
        }
    };
    Ok(MrfMove {
        note,
        declaration,
        final_hands,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_example_six_strings_decode() {
        for s in [
            "meAxeze3",
            "mauAmaimy1",
            "zoMnine",
            "ziaKxiacau",
            "caCcizo4",
            "zaiVzo",
            "ziVzo",
            "caiPcy",
            "BVzi",
            "myAmima2",
            "paOma",
            "pauScaucai",
            "zoVto",
            "miaHxaito4=tymor",
            "tiPto3",
            "caiScixe1=taxt=FHCV/HT",
        ] {
            parse_mrf(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        }
        let m = parse_mrf("caiScixe1=taxt=FHCV/HT").unwrap();
        assert_eq!(m.declaration, Some(Declaration::TaXot));
        assert_eq!(m.final_hands.as_deref(), Some("FHCV/HT"));
        let MoveNote::Piece { src, step, dst, .. } = parse_mrf("kiAkeka").unwrap().note else {
            panic!()
        };
        assert_eq!(
            (
                src.to_string(),
                step.map(|s| s.to_string()),
                dst.to_string()
            ),
            ("KI".into(), Some("KE".into()), "KA".into())
        );
        assert!(parse_mrf("zzAke").is_err());
        assert_eq!(
            parse_mrf("meAxeze9").unwrap_err().to_string(),
            "unexpected `9` in `meAxeze9`"
        );
    }
}
