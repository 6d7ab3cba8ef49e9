//! A chu shogi position: the board, the side to move, the counter-strike square and the rules.

use crate::moves::Move;
use crate::piece::{Color, EMPTY, Piece, WALL, is_lion_code};
use crate::rules::RuleSet;
use crate::square::{CELLS, Square};

/// lishogi's SFEN of the starting position.
pub const START_SFEN: &str = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";

/// A position. Cheap to copy (about 260 bytes), so search and perft copy-make.
///
/// ```
/// use kifu_chu::{Color, Position, START_SFEN};
///
/// let pos = Position::from_sfen(START_SFEN).unwrap();
/// assert_eq!(pos.to_sfen(), START_SFEN);
/// assert_eq!(pos.turn(), Color::Black);
/// assert_eq!(pos.legal_moves().len(), Position::startpos().legal_moves().len());
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: [u8; CELLS],
    pub(crate) turn: Color,
    /// Square where a non-lion just captured a lion (mailbox index, 0 = none).
    pub(crate) counter_strike: u8,
    pub(crate) move_number: u32,
    pub(crate) rules: RuleSet,
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// The starting position under lishogi rules.
    pub fn startpos() -> Position {
        Position::from_sfen(START_SFEN).expect("start SFEN is valid")
    }

    /// An empty board, Black to move.
    pub fn empty() -> Position {
        let mut board = [WALL; CELLS];
        for sq in Square::all() {
            board[sq.index()] = EMPTY;
        }
        Position {
            board,
            turn: Color::Black,
            counter_strike: 0,
            move_number: 1,
            rules: RuleSet::LISHOGI,
        }
    }

    /// The rule set the position is played under.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Plays the position under `rules`.
    pub fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
    }

    /// The position played under `rules`.
    pub fn with_rules(mut self, rules: RuleSet) -> Position {
        self.rules = rules;
        self
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Makes `turn` the side to move.
    pub fn set_turn(&mut self, turn: Color) {
        self.turn = turn;
    }

    /// The SFEN move number.
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Sets the SFEN move number.
    pub fn set_move_number(&mut self, n: u32) {
        self.move_number = n;
    }

    /// The counter-strike square: where a non-lion captured a lion on the last move.
    pub fn counter_strike(&self) -> Option<Square> {
        (self.counter_strike != 0).then(|| Square::from_index(self.counter_strike))
    }

    /// Sets the counter-strike square (see [`Position::counter_strike`]).
    pub fn set_counter_strike(&mut self, sq: Option<Square>) {
        self.counter_strike = sq.map_or(0, |s| s.index() as u8);
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// Puts `piece` on `sq` (or empties it).
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece.map_or(EMPTY, Piece::code);
    }

    /// Squares holding pieces, with the pieces, in SFEN order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// Squares of `color`'s royals (king and crown prince).
    pub fn royals(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        self.pieces()
            .filter(move |(_, p)| p.color == color && p.kind.is_royal())
            .map(|(sq, _)| sq)
    }

    /// The piece a move would capture first (on `mid` for a two-step move) and second.
    pub fn captures_of(&self, m: Move) -> (Option<Piece>, Option<Piece>) {
        let at_to = if m.to_cell() == m.origin_cell() {
            None
        } else {
            Piece::from_code(self.board[m.to_cell()])
        };
        match m.mid() {
            Some(mid) => (self.piece_at(mid), at_to),
            None => (at_to, None),
        }
    }

    /// Plays a move without checking it (use [`Position::is_legal`] or generated moves).
    pub fn play_unchecked(&mut self, m: Move) {
        let from = m.origin_cell();
        let to = m.to_cell();
        let mover = self.board[from];
        self.board[from] = EMPTY;
        let captured_to = self.board[to];
        let captured_mid = if m.mid_cell() != 0 {
            let c = self.board[m.mid_cell()];
            self.board[m.mid_cell()] = EMPTY;
            c
        } else {
            EMPTY
        };
        let placed = if m.is_promotion() {
            match Piece::from_code(mover) {
                Some(p) => match p.kind.promoted() {
                    Some(k) => Piece::new(p.color, k, true).code(),
                    None => mover,
                },
                None => mover,
            }
        } else {
            mover
        };
        self.board[to] = placed;
        self.counter_strike = 0;
        if !is_lion_code(mover) {
            if is_lion_code(captured_to) {
                self.counter_strike = to as u8;
            } else if is_lion_code(captured_mid) && self.rules.counter_strike_from_first_step {
                self.counter_strike = m.mid_cell() as u8;
            }
        }
        self.turn = self.turn.opposite();
        self.move_number += 1;
    }
}

impl Position {
    /// A plain-text board: SFEN letters (upper case Black, `+` promoted), files 12 → 1 across,
    /// ranks `a`–`l` down, then the side to move and any counter-strike square.
    pub fn board_text(&self) -> String {
        let mut out = String::from("  ");
        for file in (1..=12u8).rev() {
            out.push_str(&format!("{file:>3}"));
        }
        out.push('\n');
        for rank in 0..12u8 {
            out.push_str(&format!("{} ", (b'a' + rank) as char));
            for file in (1..=12u8).rev() {
                let sq = Square::new(file, rank).expect("on the board");
                let cell = self.piece_at(sq).map_or(".".to_string(), |p| p.sfen());
                out.push_str(&format!("{cell:>3}"));
            }
            out.push('\n');
        }
        out.push_str(match self.turn {
            Color::Black => "Black to move",
            Color::White => "White to move",
        });
        if let Some(cs) = self.counter_strike() {
            out.push_str(&format!(", counter-strike on {cs}"));
        }
        out.push('\n');
        out
    }
}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {0}")]
pub struct IllegalMove(pub Move);

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}
