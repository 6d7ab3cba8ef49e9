//! lishogi chu SFEN: board, side to move, counter-strike square (third field), move number.

use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::square::Square;

/// Why an SFEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid SFEN: {0}")]
pub struct SfenError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, SfenError> {
    Err(SfenError(msg.into()))
}

impl Position {
    /// Reads a lishogi chu SFEN (`sfen ` prefix allowed; missing move number means 1).
    pub fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
        let sfen = sfen.trim();
        let sfen = sfen.strip_prefix("sfen ").unwrap_or(sfen);
        let mut fields = sfen.split_ascii_whitespace();
        let board = fields.next().ok_or_else(|| SfenError("empty".into()))?;
        let mut pos = Position::empty();
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 12 {
            return err(format!("{} ranks instead of 12", ranks.len()));
        }
        for (rank, row) in ranks.iter().enumerate() {
            let mut file: i32 = 12;
            let b = row.as_bytes();
            let mut i = 0;
            while i < b.len() {
                let c = b[i];
                if c.is_ascii_digit() {
                    let mut n = (c - b'0') as i32;
                    if i + 1 < b.len() && b[i + 1].is_ascii_digit() {
                        n = n * 10 + (b[i + 1] - b'0') as i32;
                        i += 1;
                    }
                    if n == 0 {
                        return err(format!("rank {}: empty run of 0", rank + 1));
                    }
                    file -= n;
                    i += 1;
                    continue;
                }
                let promoted = c == b'+';
                if promoted {
                    i += 1;
                }
                let Some(&letter) = b.get(i) else {
                    return err(format!("rank {}: `+` without a piece", rank + 1));
                };
                let Some(kind) = Kind::from_sfen_letter(letter as char) else {
                    return err(format!("unknown piece letter `{}`", letter as char));
                };
                let color = if letter.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                let piece = if promoted {
                    match kind.promoted() {
                        Some(k) => Piece::new(color, k, true),
                        None => return err(format!("`+{}` cannot be promoted", letter as char)),
                    }
                } else {
                    Piece::new(color, kind, false)
                };
                if file < 1 {
                    return err(format!("rank {} has more than 12 files", rank + 1));
                }
                pos.set_piece(Square::new(file as u8, rank as u8).unwrap(), Some(piece));
                file -= 1;
                i += 1;
            }
            if file != 0 {
                return err(format!("rank {} does not have 12 files", rank + 1));
            }
        }
        match fields.next() {
            Some("b") | None => pos.turn = Color::Black,
            Some("w") => pos.turn = Color::White,
            Some(t) => return err(format!("side to move `{t}`")),
        }
        match fields.next() {
            Some("-") | None => {}
            Some(s) => match s.parse::<Square>() {
                Ok(sq) => pos.set_counter_strike(Some(sq)),
                Err(_) => return err(format!("counter-strike square `{s}`")),
            },
        }
        if let Some(n) = fields.next() {
            pos.move_number = n
                .parse()
                .map_err(|_| SfenError(format!("move number `{n}`")))?;
        }
        if let Some(extra) = fields.next() {
            return err(format!("unexpected `{extra}`"));
        }
        Ok(pos)
    }

    /// Writes lishogi chu SFEN.
    pub fn to_sfen(&self) -> String {
        let mut s = String::with_capacity(100);
        for rank in 0..12u8 {
            if rank > 0 {
                s.push('/');
            }
            let mut run = 0;
            for file in (1..=12u8).rev() {
                match self.piece_at(Square::new(file, rank).unwrap()) {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            s.push_str(&run.to_string());
                            run = 0;
                        }
                        s.push_str(&p.sfen());
                    }
                }
            }
            if run > 0 {
                s.push_str(&run.to_string());
            }
        }
        s.push(' ');
        s.push(if self.turn == Color::Black { 'b' } else { 'w' });
        s.push(' ');
        match self.counter_strike() {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        s.push(' ');
        s.push_str(&self.move_number.to_string());
        s
    }
}

impl std::str::FromStr for Position {
    type Err = SfenError;

    /// Reads lishogi chu SFEN, as [`Position::from_sfen`] (lishogi rules).
    fn from_str(s: &str) -> Result<Position, SfenError> {
        Position::from_sfen(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::START_SFEN;

    #[test]
    fn start_round_trips() {
        let pos = Position::from_sfen(START_SFEN).unwrap();
        assert_eq!(pos.to_sfen(), START_SFEN);
        assert_eq!(pos.pieces().count(), 92);
        let k = pos.piece_at("7l".parse().unwrap()).unwrap();
        assert_eq!((k.kind, k.color), (Kind::King, Color::Black));
        let n = pos.piece_at("6c".parse().unwrap()).unwrap();
        assert_eq!((n.kind, n.color), (Kind::Lion, Color::White));
    }

    #[test]
    fn counter_strike_field_and_promoted_pieces() {
        let s = "11k/12/12/12/12/4r7/12/12/9n2/4+o7/12/6B4K b 8j 1";
        let pos = Position::from_sfen(s).unwrap();
        assert_eq!(pos.counter_strike(), Some("8j".parse().unwrap()));
        let p = pos.piece_at("8j".parse().unwrap()).unwrap();
        assert_eq!((p.kind, p.promoted), (Kind::Lion, true));
        assert_eq!(pos.to_sfen(), s);
    }

    #[test]
    fn board_text_shows_every_square() {
        let text = Position::startpos().board_text();
        assert_eq!(text.lines().count(), 14);
        assert!(
            text.lines()
                .nth(1)
                .unwrap()
                .ends_with("  l  f  c  s  g  e  k  g  s  c  f  l"),
            "{text}"
        );
        assert!(text.ends_with("Black to move\n"));
    }

    #[test]
    fn bad_sfens_are_errors() {
        for s in [
            "",
            "12/12 b - 1",
            "13/12/12/12/12/12/12/12/12/12/12/12 b - 1",
            "+k11/12/12/12/12/12/12/12/12/12/12/12 b - 1",
            "12/12/12/12/12/12/12/12/12/12/12/12 x - 1",
            "12/12/12/12/12/12/12/12/12/12/12/12 b 13a 1",
            "z11/12/12/12/12/12/12/12/12/12/12/12 b",
        ] {
            assert!(Position::from_sfen(s).is_err(), "{s}");
        }
    }
}
