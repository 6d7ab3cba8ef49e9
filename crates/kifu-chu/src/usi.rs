//! lishogi USI moves: `7i7h`, `7i7h+`, and three-square lion-type moves `from mid to`.

use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// A text that is not a lishogi USI move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a USI move (such as `7i7h`, `7i7h+` or `7j7i6h`)")]
pub struct ParseMoveError(pub String);

impl std::str::FromStr for Move {
    type Err = ParseMoveError;

    /// Reads a lishogi USI move's syntax (not its legality).
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        parse_usi(s).ok_or_else(|| ParseMoveError(s.to_owned()))
    }
}

/// Parses a USI move's syntax (not its legality).
///
/// ```
/// use kifu_chu::{Position, parse_usi};
///
/// let double = parse_usi("7j7i6h").unwrap(); // a lion's two steps
/// assert_eq!(double.to_string(), "7j7i6h");
/// assert!(parse_usi("7j").is_none());
/// // Legality is the position's question.
/// assert_eq!(Position::startpos().parse_usi_move("7j7h"), parse_usi("7j7h"));
/// assert_eq!(Position::startpos().parse_usi_move("7j7a"), None);
/// ```
pub fn parse_usi(s: &str) -> Option<Move> {
    let (a, n1) = Square::parse_prefix(s)?;
    let (b, n2) = Square::parse_prefix(&s[n1..])?;
    let rest = &s[n1 + n2..];
    if rest.is_empty() {
        return Some(Move::new(a, b, false));
    }
    if rest == "+" {
        return Some(Move::new(a, b, true));
    }
    let (c, n3) = Square::parse_prefix(rest)?;
    (n3 == rest.len()).then(|| Move::double(a, b, c))
}

impl Position {
    /// Parses a USI move and checks it is legal here.
    pub fn parse_usi_move(&self, s: &str) -> Option<Move> {
        let m = parse_usi(s)?;
        self.is_legal(m).then_some(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_forms() {
        for s in [
            "7i7h", "7i7h+", "7j7i6h", "7g6f7g", "6f6g6f", "12l12k", "10d10c+",
        ] {
            assert_eq!(parse_usi(s).unwrap().to_string(), s);
        }
        for s in ["", "7i", "7i7h=", "13a1a", "7i7h+6h", "7j7i6h6g", "7i7hx"] {
            assert!(parse_usi(s).is_none(), "{s}");
        }
    }
}
