//! The board, the pieces in hand (hop1zuo1) and whose turn it is.

use crate::piece::{Piece, Side};
use crate::profession::{Color, Profession};
use crate::rules::Rules;
use crate::square::Square;
use std::fmt;

/// Captured pieces of one side, counted by colour and profession.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Hop1zuo1([[u8; 10]; 2]);

impl Hop1zuo1 {
    /// How many pieces of this colour and profession are held.
    pub fn count(&self, color: Color, prof: Profession) -> u8 {
        self.0[color.index()][prof.index()]
    }

    /// How many pieces of this profession are held, of either colour.
    pub fn count_prof(&self, prof: Profession) -> u8 {
        self.count(Color::Black, prof) + self.count(Color::Red, prof)
    }

    /// Adds one piece.
    pub fn add(&mut self, color: Color, prof: Profession) {
        self.0[color.index()][prof.index()] += 1;
    }

    /// Removes one; false if there was none.
    pub fn remove(&mut self, color: Color, prof: Profession) -> bool {
        let n = &mut self.0[color.index()][prof.index()];
        if *n == 0 {
            return false;
        }
        *n -= 1;
        true
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.0.iter().flatten().all(|&n| n == 0)
    }

    /// Every (colour, profession) held, with multiplicity.
    pub fn pieces(&self) -> impl Iterator<Item = (Color, Profession)> + '_ {
        Color::ALL.into_iter().flat_map(move |c| {
            Profession::ALL
                .into_iter()
                .flat_map(move |p| std::iter::repeat_n((c, p), self.count(c, p) as usize))
        })
    }
}

/// A cetkaik position: the 9×9 board, each side's pieces in hand (hop1zuo1) and the side to move.
///
/// ```
/// use kifu_cetkaik::{Piece, Position, Side};
///
/// let pos = Position::startpos(Side::IASide);
/// assert_eq!(pos.turn(), Side::IASide);
/// assert_eq!(pos.get("ZO".parse().unwrap()), Some(Piece::Tam));
/// assert!(pos.hop1zuo1(Side::ASide).is_empty());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    board: [Option<Piece>; 81],
    tam: Option<Square>,
    hop1zuo1: [Hop1zuo1; 2],
    pub(crate) turn: Side,
    /// The last move (by the opponent of `turn`) moved 皇.
    pub(crate) tam_moved_last: bool,
}

impl Position {
    /// A board without pieces and empty hands, `turn` to move.
    pub fn empty(turn: Side) -> Position {
        Position {
            board: [None; 81],
            tam: None,
            hop1zuo1: [Hop1zuo1::default(); 2],
            turn,
            tam_moved_last: false,
        }
    }

    /// The starting position of every season; `first` moves first.
    pub fn startpos(first: Side) -> Position {
        // Rows A E I (A side) and AI AU IA (IA side) as drawn in the reference diagram.
        const ROWS: [(u8, Side, &str); 6] = [
            (0, Side::ASide, "黒筆黒馬黒車黒将赤王赤将赤車赤馬赤筆"),
            (1, Side::ASide, "赤巫赤弓・・赤虎・・黒虎・・黒弓黒巫"),
            (2, Side::ASide, "黒兵赤兵黒兵赤兵赤船赤兵黒兵赤兵黒兵"),
            (6, Side::IASide, "黒兵赤兵黒兵赤兵黒船赤兵黒兵赤兵黒兵"),
            (7, Side::IASide, "黒巫黒弓・・黒虎・・赤虎・・赤弓赤巫"),
            (8, Side::IASide, "赤筆赤馬赤車赤将黒王黒将黒車黒馬黒筆"),
        ];
        let mut p = Position::empty(first);
        for (row, side, cells) in ROWS {
            let chars: Vec<char> = cells.chars().collect();
            for (col, pair) in chars.chunks(2).enumerate() {
                let sq = Square::new(col as u8, row).expect("on board");
                if let (Some(color), Some(prof)) =
                    (Color::from_kanji(pair[0]), Profession::from_kanji(pair[1]))
                {
                    p.put(sq, Some(Piece::Owned { color, prof, side }));
                }
            }
        }
        p.put(Square::new(4, 4).expect("on board"), Some(Piece::Tam));
        p
    }

    /// The piece on `sq`.
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Puts `piece` on `sq` (or empties it), keeping track of where 皇 is.
    pub fn put(&mut self, sq: Square, piece: Option<Piece>) {
        if self.tam == Some(sq) {
            self.tam = None;
        }
        if piece == Some(Piece::Tam) {
            self.tam = Some(sq);
        }
        self.board[sq.index()] = piece;
    }

    /// Where 皇 stands.
    pub fn tam(&self) -> Option<Square> {
        self.tam
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// Makes `side` the side to move.
    pub fn set_turn(&mut self, side: Side) {
        self.turn = side;
    }

    /// Whether the last move, by the player not to move, moved 皇.
    pub fn tam_moved_last(&self) -> bool {
        self.tam_moved_last
    }

    /// The pieces `side` holds in hand.
    pub fn hop1zuo1(&self, side: Side) -> &Hop1zuo1 {
        &self.hop1zuo1[side.index()]
    }

    /// The pieces `side` holds in hand, to change.
    pub fn hop1zuo1_mut(&mut self, side: Side) -> &mut Hop1zuo1 {
        &mut self.hop1zuo1[side.index()]
    }

    /// Tam2 hue: inherent squares and the eight around 皇 (and 皇's own square if the rule says so).
    pub fn is_tam_hue(&self, sq: Square, rules: &Rules) -> bool {
        if sq.is_inherent_tam_hue() {
            return true;
        }
        match self.tam {
            Some(t) if rules.tam_hue_around_tam => {
                sq.is_adjacent(t) || (rules.tam_itself_is_tam_hue && t == sq)
            }
            _ => false,
        }
    }

    /// Pieces of `side` on the board.
    pub fn pieces_of(&self, side: Side) -> impl Iterator<Item = (Square, Color, Profession)> + '_ {
        Square::all().filter_map(move |sq| match self.get(sq) {
            Some(Piece::Owned {
                color,
                prof,
                side: s,
            }) if s == side => Some((sq, color, prof)),
            _ => None,
        })
    }
}

impl fmt::Display for Position {
    /// A plain-text diagram: one row per line, `黒筆`-style cells, `皇` for tam, `・` for empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "    K   L   N   T   Z   X   C   M   P")?;
        for row in 0..9u8 {
            let name = Square::new(0, row).expect("on board").row_name();
            write!(f, "{name:<3}")?;
            for col in 0..9u8 {
                let sq = Square::new(col, row).expect("on board");
                let cell = match self.get(sq) {
                    None => "  ・".to_string(),
                    Some(Piece::Tam) => "  皇".to_string(),
                    Some(Piece::Owned { color, prof, side }) => {
                        let arrow = if side == Side::ASide { 'v' } else { '^' };
                        format!("{arrow}{}{}", color.kanji(), prof.kanji())
                    }
                };
                write!(f, "{cell}")?;
            }
            writeln!(f)?;
        }
        for side in Side::BOTH {
            let held: String = self
                .hop1zuo1(side)
                .pieces()
                .map(|(c, p)| format!("{}{}", c.kanji(), p.kanji()))
                .collect();
            writeln!(
                f,
                "{side}: {}",
                if held.is_empty() { "-".into() } else { held }
            )?;
        }
        write!(f, "to move: {}", self.turn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(p: &Position, s: &str) -> Option<(Color, Profession, Side)> {
        match p.get(s.parse().unwrap()) {
            Some(Piece::Owned { color, prof, side }) => Some((color, prof, side)),
            _ => None,
        }
    }

    #[test]
    fn initial_position_matches_the_reference_diagram() {
        use Color::*;
        use Profession::*;
        use Side::*;
        let p = Position::startpos(IASide);
        assert_eq!(at(&p, "KA"), Some((Black, Officer, ASide)));
        assert_eq!(at(&p, "ZA"), Some((Red, King, ASide)));
        assert_eq!(at(&p, "KE"), Some((Red, Shaman, ASide)));
        assert_eq!(at(&p, "XE"), Some((Black, Tiger, ASide)));
        assert_eq!(at(&p, "ZI"), Some((Red, Vessel, ASide)));
        assert_eq!(at(&p, "KI"), Some((Black, Pawn, ASide)));
        assert_eq!(at(&p, "LI"), Some((Red, Pawn, ASide)));
        assert_eq!(at(&p, "ZAI"), Some((Black, Vessel, IASide)));
        assert_eq!(at(&p, "KAI"), Some((Black, Pawn, IASide)));
        assert_eq!(at(&p, "LAI"), Some((Red, Pawn, IASide)));
        assert_eq!(at(&p, "KAU"), Some((Black, Shaman, IASide)));
        assert_eq!(at(&p, "LAU"), Some((Black, Archer, IASide)));
        assert_eq!(at(&p, "TAU"), Some((Black, Tiger, IASide)));
        assert_eq!(at(&p, "XAU"), Some((Red, Tiger, IASide)));
        assert_eq!(at(&p, "PAU"), Some((Red, Shaman, IASide)));
        assert_eq!(at(&p, "KIA"), Some((Red, Officer, IASide)));
        assert_eq!(at(&p, "ZIA"), Some((Black, King, IASide)));
        assert_eq!(at(&p, "PIA"), Some((Black, Officer, IASide)));
        assert_eq!(p.get("ZO".parse().unwrap()), Some(Piece::Tam));
        let count = Square::all().filter(|&s| p.get(s).is_some()).count();
        assert_eq!(count, 49);
        // Each colour has the full set.
        for c in Color::ALL {
            for prof in Profession::ALL {
                let n = Square::all()
                    .filter(|&s| matches!(p.get(s), Some(Piece::Owned { color, prof: q, .. }) if color == c && q == prof))
                    .count();
                assert_eq!(n, prof.count_per_color() as usize, "{c}{prof}");
            }
        }
    }
}
