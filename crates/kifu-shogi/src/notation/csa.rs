//! CSA move text: `+7776FU`, `-0034KA` — a sign, the origin (`00` for a drop), the
//! destination and the piece as it stands after the move (CSA standard file format V3.0,
//! section "指し手と消費時間"; the same text on the line in the CSA protocol, section
//! "指し手").

use std::fmt;
use std::str::FromStr;

use crate::{Color, IllegalMove, Move, PieceKind, Position, Square};

/// A move as CSA writes it: who moves, from where (`None` for a drop, written `00`), to
/// where, and the piece as it stands after the move.
///
/// ```
/// use kifu_shogi::{Color, PieceKind, Position};
/// use kifu_shogi::notation::csa::CsaMove;
///
/// let text: CsaMove = "-0034KA".parse().unwrap();
/// assert_eq!((text.color, text.from, text.piece), (Color::White, None, PieceKind::Bishop));
/// assert_eq!(text.to_string(), "-0034KA");
///
/// let position = Position::startpos();
/// let mv = CsaMove::parse("+7776FU").unwrap().to_move(&position).unwrap();
/// assert_eq!(CsaMove::from_move(&position, mv).to_string(), "+7776FU");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CsaMove {
    /// The side, from the sign: `+` Black, `-` White.
    pub color: Color,
    /// The origin, `None` for a drop (written `00`).
    pub from: Option<Square>,
    /// The destination.
    pub to: Square,
    /// The piece as it stands after the move: a promoted kind for a promotion.
    pub piece: PieceKind,
}

/// Why a text is not CSA move text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CsaMoveError {
    /// Not a sign, four digits and two letters (the text is given).
    #[error("`{0}` is not a move like +7776FU: sign, two squares, piece")]
    Malformed(String),
    /// A destination, or an origin other than `00`, that is not two digits 1–9 (the square's
    /// text is given).
    #[error("`{0}` is not a square (11 … 99)")]
    BadSquare(String),
    /// Two letters that are not a CSA piece code (given).
    #[error("`{0}` is not a piece (FU KY KE GI KI KA HI OU TO NY NK NG UM RY)")]
    BadPiece(String),
    /// A drop (`00` origin) of a promoted piece or the king (its code is given).
    #[error("a drop must name an unpromoted piece other than the king, not {0}")]
    BadDropPiece(&'static str),
}

/// Why well-formed CSA move text is no move in a position.
///
/// ```
/// use kifu_shogi::Position;
/// use kifu_shogi::notation::csa::{CsaMove, CsaMoveMismatch};
///
/// let pos = Position::startpos();
/// let text: CsaMove = "+7776KI".parse().unwrap();
/// let err = text.to_move(&pos).unwrap_err();
/// assert!(matches!(err, CsaMoveMismatch::PieceMismatch { actual: "FU", named: "KI", .. }));
/// assert_eq!(err.to_string(), "the piece on 77 is FU, not KI");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CsaMoveMismatch {
    /// `intended` is the move the text names for the side not to move.
    #[error("it is {turn}'s turn, but the move is signed for {sign}")]
    WrongSide {
        /// The side to move.
        turn: Color,
        /// The side the sign names.
        sign: Color,
        /// The move the text names, as if it were `sign`'s turn.
        intended: Move,
    },
    /// The origin square is empty.
    #[error("there is no piece on {}", csa_square(*.0))]
    NoPiece(Square),
    /// The piece code names neither the piece on the origin nor its promoted form.
    #[error("the piece on {} is {actual}, not {named}", csa_square(*.square))]
    PieceMismatch {
        /// The origin.
        square: Square,
        /// The CSA code of the piece that stands there.
        actual: &'static str,
        /// The CSA code the text gives.
        named: &'static str,
    },
    /// The move the text names breaks a rule.
    #[error("{0}")]
    Illegal(#[from] IllegalMove),
}

impl CsaMoveMismatch {
    /// The move the text would stand for if the rules allowed it, when that is still clear
    /// (a record that ends "illegal move" keeps it).
    pub fn intended(&self, text: &CsaMove) -> Option<Move> {
        match (self, text.from) {
            (CsaMoveMismatch::WrongSide { intended, .. }, _) => Some(*intended),
            (CsaMoveMismatch::NoPiece(_), Some(from)) => {
                Some(Move::normal(from, text.to, text.piece.is_promoted()))
            }
            (CsaMoveMismatch::PieceMismatch { .. }, Some(from)) => {
                Some(Move::normal(from, text.to, false))
            }
            _ => None,
        }
    }
}

/// The square as CSA writes it: file then rank, `77`.
fn csa_square(square: Square) -> String {
    format!("{}{}", square.file(), square.rank())
}

/// The piece a two-letter CSA code names (`FU` … `RY`); record readers call this for every
/// move and every piece of a position, so it is a `match` on the two bytes.
///
/// ```
/// use kifu_shogi::PieceKind;
/// use kifu_shogi::notation::csa::piece_code;
///
/// assert_eq!(piece_code("UM"), Some(PieceKind::Horse));
/// assert_eq!(piece_code("um"), None);
/// ```
pub fn piece_code(code: &str) -> Option<PieceKind> {
    PieceKind::from_csa(code)
}

/// True when each of the four bytes of `word` is an ASCII digit 1–9, tested for all four
/// at once: a byte below 0x80 gains its top bit from adding 0x4f exactly when it is at least
/// `1` (0x31), and from adding 0x46 exactly when it is past `9` (0x39); no byte below 0x80
/// carries into the next, and a byte from 0x80 up fails on its own top bit.
#[inline(always)]
fn all_digits_one_to_nine(word: u32) -> bool {
    const TOP: u32 = 0x8080_8080;
    let from_one = word.wrapping_add(0x4f4f_4f4f);
    let past_nine = word.wrapping_add(0x4646_4646);
    from_one & !past_nine & !word & TOP == TOP
}

/// The square of two ASCII digits 1–9 (file, rank).
#[inline]
fn digit_square(file: u8, rank: u8) -> Option<Square> {
    let (f, r) = (file.wrapping_sub(b'1'), rank.wrapping_sub(b'1'));
    (f < 9 && r < 9).then(|| Square::from_index_unchecked(u32::from(f) * 9 + u32::from(r)))
}

fn square(b: &[u8]) -> Option<Square> {
    match b {
        [f @ b'0'..=b'9', r @ b'0'..=b'9'] => Square::new(f - b'0', r - b'0'),
        _ => None,
    }
}

impl CsaMove {
    /// Reads move text (syntax only: whether the move can be played is
    /// [`CsaMove::to_move`]'s question). Allocates only to report an error. Inlined, so that a
    /// record reader's loop reads well-formed text without a call.
    #[inline]
    pub fn parse(text: &str) -> Result<CsaMove, CsaMoveError> {
        match CsaMove::parse_well_formed(text.as_bytes()) {
            Some(mv) => Ok(mv),
            None => CsaMove::parse_with_reason(text),
        }
    }

    /// The move of seven bytes that are one (`+7776FU`), read in one pass; `None` for
    /// anything else, whose reason [`CsaMove::parse`] gives. For a reader's fast path over
    /// its every move line: no `Result` carrying an error to build or look through.
    ///
    /// ```
    /// use kifu_shogi::notation::csa::CsaMove;
    ///
    /// assert_eq!(CsaMove::parse_well_formed(b"+7776FU"), CsaMove::parse("+7776FU").ok());
    /// assert_eq!(CsaMove::parse_well_formed(b"+7776XX"), None);
    /// ```
    #[inline]
    pub fn parse_well_formed(b: &[u8]) -> Option<CsaMove> {
        let &[sign, from_file, from_rank, to_file, to_rank, p1, p2] = b else {
            return None;
        };
        let color = match sign {
            b'+' => Color::Black,
            b'-' => Color::White,
            _ => return None,
        };
        let piece = PieceKind::from_csa_bytes(p1, p2)?;
        let to = digit_square(to_file, to_rank)?;
        let from = if from_file == b'0' && from_rank == b'0' {
            if !piece.is_hand_kind() {
                return None;
            }
            None
        } else {
            Some(digit_square(from_file, from_rank)?)
        };
        Some(CsaMove {
            color,
            from,
            to,
            piece,
        })
    }

    /// The move seven bytes of a well-formed CSA move (`+7776FU`) name in `position`, when
    /// they name one the side to move can be asked about: the same as
    /// `CsaMove::parse_well_formed(b)?.to_move_unchecked(position).ok()`, read in one pass
    /// with no [`CsaMove`] or error built in between. `None` for anything else, whose reason
    /// the two steps give. For a record reader's loop over its move lines, where building
    /// and taking apart the two intermediate values cost as much as the rest of the line.
    ///
    /// ```
    /// use kifu_shogi::Position;
    /// use kifu_shogi::notation::csa::CsaMove;
    ///
    /// let position = Position::startpos();
    /// let mv = CsaMove::parse("+7776FU").unwrap().to_move_unchecked(&position).ok();
    /// assert_eq!(CsaMove::resolve_well_formed(b"+7776FU", &position), mv);
    /// assert_eq!(CsaMove::resolve_well_formed(b"-3334FU", &position), None); // 先手 to move
    /// ```
    #[inline(always)]
    pub fn resolve_well_formed(b: &[u8; 7], position: &Position) -> Option<Move> {
        CsaMove::resolve_well_formed_ply(b, position).map(|(mv, _)| mv)
    }

    /// [`CsaMove::resolve_well_formed`], with whether the move can never be undone once it
    /// is made ([`Position::is_irreversible`]): a replay that counts the plies since the
    /// last such move learns it from the squares read here, with no second look at the
    /// board.
    ///
    /// ```
    /// use kifu_shogi::Position;
    /// use kifu_shogi::notation::csa::CsaMove;
    ///
    /// let position = Position::startpos();
    /// let (pawn, irreversible) = CsaMove::resolve_well_formed_ply(b"+7776FU", &position).unwrap();
    /// assert!(irreversible && position.is_irreversible(pawn));
    /// let (king, irreversible) = CsaMove::resolve_well_formed_ply(b"+5958OU", &position).unwrap();
    /// assert!(!irreversible && !position.is_irreversible(king));
    /// ```
    #[inline(always)]
    pub fn resolve_well_formed_ply(b: &[u8; 7], position: &Position) -> Option<(Move, bool)> {
        let sign = match position.turn() {
            Color::Black => b'+',
            Color::White => b'-',
        };
        if b[0] != sign {
            return None;
        }
        let piece = PieceKind::from_csa_bytes(b[5], b[6])?;
        // The four digits in one word: a drop's `00` is checked apart and stands in as `11`
        // for the check that every digit is 1–9, done for all four at once.
        let (_, after_sign) = b.split_first_chunk::<1>()?;
        let squares = u32::from_le_bytes(*after_sign.first_chunk::<4>()?);
        let drop = squares & 0xffff == u32::from_le_bytes([b'0', b'0', 0, 0]);
        let digits = if drop {
            squares & 0xffff_0000 | u32::from_le_bytes([b'1', b'1', 0, 0])
        } else {
            squares
        };
        if !all_digits_one_to_nine(digits) {
            return None;
        }
        // Both squares' indices (file × 9 + rank, counted from 0) at once: the files in
        // bytes 0 and 2 of one word, the ranks in another, each index below 81 so that
        // neither carries into the other's byte.
        let from_one = digits - u32::from_le_bytes([b'1'; 4]);
        let indices = (from_one & 0x00ff_00ff) * 9 + (from_one >> 8 & 0x00ff_00ff);
        let to = Square::from_index_unchecked(indices >> 16);
        if drop {
            return piece.is_hand_kind().then(|| (Move::drop(piece, to), true));
        }
        let from = Square::from_index_unchecked(indices & 0xff);
        let on_board = position.piece_at(from)?.kind;
        let promote = if on_board == piece {
            false
        } else if on_board.promote() == Some(piece) {
            true
        } else {
            return None;
        };
        let irreversible =
            promote || on_board == PieceKind::Pawn || position.piece_at(to).is_some();
        Some((Move::normal(from, to, promote), irreversible))
    }

    #[cold]
    fn parse_with_reason(text: &str) -> Result<CsaMove, CsaMoveError> {
        let b = text.as_bytes();
        let malformed = || CsaMoveError::Malformed(text.to_owned());
        if b.len() != 7 || !text.is_ascii() {
            return Err(malformed());
        }
        let color = match b[0] {
            b'+' => Color::Black,
            b'-' => Color::White,
            _ => return Err(malformed()),
        };
        if !b[5].is_ascii_uppercase() || !b[6].is_ascii_uppercase() {
            return Err(malformed());
        }
        let piece =
            piece_code(&text[5..7]).ok_or_else(|| CsaMoveError::BadPiece(text[5..7].to_owned()))?;
        let to = square(&b[3..5]).ok_or_else(|| CsaMoveError::BadSquare(text[3..5].to_owned()))?;
        let from = if &b[1..3] == b"00" {
            if !piece.is_hand_kind() {
                return Err(CsaMoveError::BadDropPiece(piece.csa()));
            }
            None
        } else {
            Some(square(&b[1..3]).ok_or_else(|| CsaMoveError::BadSquare(text[1..3].to_owned()))?)
        };
        Ok(CsaMove {
            color,
            from,
            to,
            piece,
        })
    }

    /// The text of a legal `mv` in `position` (the piece after the move is read off the
    /// board).
    pub fn from_move(position: &Position, mv: Move) -> CsaMove {
        let piece = match (mv.from(), mv.drop_kind()) {
            (_, Some(kind)) => kind,
            (Some(from), None) => {
                let kind = position.piece_at(from).map_or(PieceKind::King, |p| p.kind);
                if mv.is_promotion() {
                    kind.promote().unwrap_or(kind)
                } else {
                    kind
                }
            }
            (None, None) => PieceKind::King,
        };
        CsaMove {
            color: position.turn(),
            from: mv.from(),
            to: mv.to(),
            piece,
        }
    }

    /// The move this text means in `position`, checked under the full rules. A promoted name
    /// on an unpromoted piece means promotion; any other mismatch of names is an error.
    pub fn to_move(&self, position: &Position) -> Result<Move, CsaMoveMismatch> {
        let mv = self.to_move_unchecked(position)?;
        position.check_move(mv)?;
        Ok(mv)
    }

    /// The move this text names in `position`, with the side and the piece checked but not
    /// the rules (a record reader replays it with the rules itself, and keeps an illegal
    /// move that a record's ending says was played). Inlined into the reader's loop, as
    /// [`CsaMove::parse`] is: a call cost as much as the work.
    ///
    /// A sign for the side not to move is reported before a piece that does not match: it
    /// says more (most often a move is missing before this one), and the square and piece
    /// the text names were written for another position.
    #[inline]
    pub fn to_move_unchecked(&self, position: &Position) -> Result<Move, CsaMoveMismatch> {
        let named = self.named_move(position);
        let turn = position.turn();
        if self.color != turn {
            let intended = match named {
                Ok(mv) => mv,
                Err(mismatch) => match mismatch.intended(self) {
                    Some(mv) => mv,
                    None => return Err(mismatch),
                },
            };
            return Err(CsaMoveMismatch::WrongSide {
                turn,
                sign: self.color,
                intended,
            });
        }
        named
    }

    /// The move the text names, with its piece checked against the board.
    #[inline]
    fn named_move(&self, position: &Position) -> Result<Move, CsaMoveMismatch> {
        Ok(match self.from {
            None => Move::drop(self.piece, self.to),
            Some(from) => {
                let on_board = position
                    .piece_at(from)
                    .ok_or(CsaMoveMismatch::NoPiece(from))?;
                let promote = if on_board.kind == self.piece {
                    false
                } else if on_board.kind.promote() == Some(self.piece) {
                    true
                } else {
                    return Err(CsaMoveMismatch::PieceMismatch {
                        square: from,
                        actual: on_board.kind.csa(),
                        named: self.piece.csa(),
                    });
                };
                Move::normal(from, self.to, promote)
            }
        })
    }
}

impl FromStr for CsaMove {
    type Err = CsaMoveError;

    fn from_str(text: &str) -> Result<CsaMove, CsaMoveError> {
        CsaMove::parse(text)
    }
}

impl fmt::Display for CsaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (ff, fr) = self.from.map_or((0, 0), |s| (s.file(), s.rank()));
        write!(
            f,
            "{}{ff}{fr}{}{}{}",
            self.color.csa_sign(),
            self.to.file(),
            self.to.rank(),
            self.piece.csa()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_code_reads_back() {
        for kind in PieceKind::ALL {
            assert_eq!(piece_code(kind.csa()), Some(kind));
        }
        assert_eq!(piece_code("XX"), None);
        assert_eq!(piece_code("F"), None);
    }

    #[test]
    fn malformed_text_is_an_error_not_a_panic() {
        for text in [
            "", "+77", "+7776F", "+7776fu", "+0076", "+7706FU", "+1076FU", "+7776FUU", "*7776FU",
            "+7776歩", "+77a6FU",
        ] {
            assert!(CsaMove::parse(text).is_err(), "{text}");
        }
        assert_eq!(
            CsaMove::parse("+0055TO"),
            Err(CsaMoveError::BadDropPiece("TO"))
        );
    }

    #[test]
    fn mismatches_name_the_square_as_csa_writes_it() {
        let position = Position::startpos();
        let err = CsaMove::parse("+7776KY")
            .unwrap()
            .to_move(&position)
            .unwrap_err();
        assert_eq!(err.to_string(), "the piece on 77 is FU, not KY");
        let err = CsaMove::parse("+5554FU")
            .unwrap()
            .to_move(&position)
            .unwrap_err();
        assert_eq!(err.to_string(), "there is no piece on 55");
    }

    /// The one-pass resolver agrees with parsing and resolving in two steps on every text
    /// of the shape: every sign, origin, destination and code (real ones and near misses)
    /// in positions with pieces in hand, promoted pieces and both sides to move.
    #[test]
    fn resolving_in_one_pass_agrees_with_the_two_steps() {
        // The start, a problem with promoted pieces and most pieces in hand, and the
        // positions of a game played by always taking the last legal move generated (it
        // captures, promotes and drops), both sides to move.
        let mut positions = vec![
            Position::startpos(),
            Position::from_sfen("4k4/9/4+P4/9/9/9/6+r2/9/4K4 w RBGSNLPbgsnl2p 1").unwrap(),
        ];
        let mut game = Position::startpos();
        for ply in 0..120 {
            let Some(&mv) = game.legal_moves().last() else {
                break;
            };
            game.play(mv).unwrap();
            if ply % 7 == 0 {
                positions.push(game.clone());
            }
        }
        let codes = [
            "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
            "XX", "fu", "F\n",
        ];
        let digits = b"0123456789a/:\xb1\xff";
        for position in &positions {
            for sign in [b'+', b'-', b'*'] {
                for code in codes {
                    let code = code.as_bytes();
                    for &ff in digits {
                        for &fr in digits {
                            for (tf, tr) in [
                                (b'5', b'5'),
                                (b'7', b'6'),
                                (b'1', b'1'),
                                (b'0', b'9'),
                                (b'9', b'a'),
                                (b'9', b'9'),
                                (b'/', b'1'),
                                (b':', b'5'),
                                (0xb1, b'1'),
                                (b'1', 0xb9),
                                (0xff, 0x80),
                            ] {
                                let text = [sign, ff, fr, tf, tr, code[0], code[1]];
                                let two_steps = CsaMove::parse_well_formed(&text)
                                    .and_then(|m| m.to_move_unchecked(position).ok());
                                let ply = CsaMove::resolve_well_formed_ply(&text, position);
                                assert_eq!(
                                    ply.map(|(mv, _)| mv),
                                    two_steps,
                                    "{}",
                                    String::from_utf8_lossy(&text)
                                );
                                if let Some((mv, irreversible)) = ply {
                                    assert_eq!(irreversible, position.is_irreversible(mv));
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_sign_for_the_side_not_to_move_comes_before_the_piece() {
        let sq = |file, rank| Square::new(file, rank).unwrap();
        let mut position = Position::startpos();
        position
            .play(Move::normal(sq(7, 7), sq(7, 6), false))
            .unwrap();
        // White to move, and every sign says Black: the piece named matches (a promotion),
        // does not match (88 holds a bishop), or the square is empty.
        for (text, intended) in [
            ("+8822UM", Move::normal(sq(8, 8), sq(2, 2), true)),
            ("+8822HI", Move::normal(sq(8, 8), sq(2, 2), false)),
            ("+5554FU", Move::normal(sq(5, 5), sq(5, 4), false)),
        ] {
            let err = CsaMove::parse(text)
                .unwrap()
                .to_move_unchecked(&position)
                .unwrap_err();
            assert_eq!(
                err.to_string(),
                "it is 後手's turn, but the move is signed for 先手",
                "{text}"
            );
            assert!(
                matches!(err, CsaMoveMismatch::WrongSide { intended: i, .. } if i == intended),
                "{text}"
            );
        }
    }
}
