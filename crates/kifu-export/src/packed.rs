//! The two 256-bit Huffman codings of a shogi position that training data uses:
//! Apery's `HuffmanCodedPos` (the `hcp` of cshogi's and dlshogi's `hcpe`/`hcpe3` files) and
//! YaneuraOu's `PackedSfen` (the `sfen` of its `PackedSfenValue`, `psv`, files).
//!
//! Both write, least significant bit first: the side to move (1 bit), the squares of the
//! black and the white king (7 bits each, square index `(file − 1) · 9 + (rank − 1)`), then
//! every other square from 1一 to 9九 (an empty square is a single 0 bit, a piece a prefix
//! code with its colour and promotion), then the pieces in hand, Black's and then White's, in
//! the order 歩 香 桂 銀 金 角 飛. Both codes are laid out so that 40 pieces always take
//! exactly 256 bits: a piece in hand is one bit shorter than on the board, which the empty
//! square it left makes up for. A position with fewer than 40 pieces (a handicap game)
//! fills the rest with pieces "in the box" (駒箱), written after the hands as cshogi 1.1.0
//! writes them. The two codings differ only in their code tables.

use kifu_shogi::{Color, Hand, Piece, PieceKind, Position, Square};

/// A code of at most 8 bits, least significant bit written first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Code {
    bits: u8,
    len: u8,
}

const fn code(bits: u8, len: u8) -> Code {
    Code { bits, len }
}

/// The kinds that can be held in hand, in the order both codings write hands.
const HAND_ORDER: [PieceKind; 7] = PieceKind::HAND;

/// How many of each hand kind a set holds (歩 18, 香桂銀金 4, 角飛 2).
const SET: [u8; 7] = [18, 4, 4, 4, 4, 2, 2];

/// One coding's tables, as the codings are written down.
struct Tables {
    name: &'static str,
    /// By [`board_slot`]: unpromoted kind × colour, then promoted kind × colour.
    board: [[[Code; 2]; 2]; 7],
    /// By hand kind and colour.
    hand: [[Code; 2]; 7],
    /// A piece of each hand kind that is in neither player's hand nor on the board.
    boxed: [Code; 7],
}

/// One coding: its [`Tables`] and, worked out from them at compile time, the code of every
/// board piece by kind index and colour, so that packing a square is one lookup.
struct Coding {
    name: &'static str,
    board: [[[Code; 2]; 2]; 7],
    hand: [[Code; 2]; 7],
    boxed: [Code; 7],
    /// By [`content`]: an empty square's code, then each piece's; a king's code is empty
    /// (its square goes out before the board).
    squares: [Code; CONTENTS],
}

/// Slots for what a square can hold: empty, or a piece of one kind index and one colour
/// (`1 + 2 · 15` of them: the largest `PieceKind::index`, the dragon's, is 14), rounded up to a power of two so that a masked index needs no
/// bounds check.
const CONTENTS: usize = 32;

/// The index of what a square holds: 0 for empty, else `1 + 2 · kind index + colour index`.
#[inline]
fn content(square: Option<Piece>) -> usize {
    match square {
        None => 0,
        Some(p) => (1 + 2 * p.kind.index() + p.color.index()) & (CONTENTS - 1),
    }
}

const fn coding(t: Tables) -> Coding {
    let mut squares = [code(0, 0); CONTENTS];
    squares[0] = EMPTY;
    let mut i = 0;
    while i < PieceKind::ALL.len() {
        let kind = PieceKind::ALL[i];
        if let Some((base, promoted)) = board_slot(kind) {
            squares[1 + 2 * kind.index()] = t.board[base][promoted][0];
            squares[2 + 2 * kind.index()] = t.board[base][promoted][1];
        }
        i += 1;
    }
    Coding {
        name: t.name,
        board: t.board,
        hand: t.hand,
        boxed: t.boxed,
        squares,
    }
}

const EMPTY: Code = code(0, 1);

/// Apery's `HuffmanCodedPos`, as cshogi reads and writes it (`Board.to_hcp`, `set_hcp`).
/// Board codes: a 1 (occupied), the kind, then the colour and the promotion flag.
const HCP: Coding = coding(Tables {
    name: "hcp",
    //        [unpromoted: black, white], [promoted: black, white]
    board: [
        [
            [code(0b1, 4), code(0b101, 4)],
            [code(0b1001, 4), code(0b1101, 4)],
        ],
        [
            [code(0b11, 6), code(0b10011, 6)],
            [code(0b100011, 6), code(0b110011, 6)],
        ],
        [
            [code(0b111, 6), code(0b10111, 6)],
            [code(0b100111, 6), code(0b110111, 6)],
        ],
        [
            [code(0b1011, 6), code(0b11011, 6)],
            [code(0b101011, 6), code(0b111011, 6)],
        ],
        [[code(0b1111, 6), code(0b101111, 6)], [EMPTY, EMPTY]],
        [
            [code(0b11111, 8), code(0b1011111, 8)],
            [code(0b10011111, 8), code(0b11011111, 8)],
        ],
        [
            [code(0b111111, 8), code(0b1111111, 8)],
            [code(0b10111111, 8), code(0b11111111, 8)],
        ],
    ],
    hand: [
        [code(0b0, 3), code(0b100, 3)],
        [code(0b1, 5), code(0b10001, 5)],
        [code(0b11, 5), code(0b10011, 5)],
        [code(0b101, 5), code(0b10101, 5)],
        [code(0b111, 5), code(0b10111, 5)],
        [code(0b11111, 7), code(0b1011111, 7)],
        [code(0b111111, 7), code(0b1111111, 7)],
    ],
    boxed: [
        code(0b010, 3),
        code(0b1001, 5),
        code(0b1011, 5),
        code(0b1101, 5),
        code(0b11101, 5),
        code(0b1111, 7),
        code(0b101111, 7),
    ],
});

/// YaneuraOu's `PackedSfen`, as cshogi reads and writes it (`Board.to_psfen`, `set_psfen`).
/// Board codes: the kind, then the promotion flag (not for 金) and the colour.
const PSFEN: Coding = coding(Tables {
    name: "packed sfen",
    board: [
        [
            [code(0b1, 4), code(0b1001, 4)],
            [code(0b101, 4), code(0b1101, 4)],
        ],
        [
            [code(0b11, 6), code(0b100011, 6)],
            [code(0b10011, 6), code(0b110011, 6)],
        ],
        [
            [code(0b1011, 6), code(0b101011, 6)],
            [code(0b11011, 6), code(0b111011, 6)],
        ],
        [
            [code(0b111, 6), code(0b100111, 6)],
            [code(0b10111, 6), code(0b110111, 6)],
        ],
        [[code(0b1111, 6), code(0b101111, 6)], [EMPTY, EMPTY]],
        [
            [code(0b11111, 8), code(0b10011111, 8)],
            [code(0b1011111, 8), code(0b11011111, 8)],
        ],
        [
            [code(0b111111, 8), code(0b10111111, 8)],
            [code(0b1111111, 8), code(0b11111111, 8)],
        ],
    ],
    hand: [
        [code(0b0, 3), code(0b100, 3)],
        [code(0b1, 5), code(0b10001, 5)],
        [code(0b101, 5), code(0b10101, 5)],
        [code(0b11, 5), code(0b10011, 5)],
        [code(0b111, 5), code(0b10111, 5)],
        [code(0b1111, 7), code(0b1001111, 7)],
        [code(0b11111, 7), code(0b1011111, 7)],
    ],
    boxed: [
        code(0b010, 3),
        code(0b1001, 5),
        code(0b1101, 5),
        code(0b1011, 5),
        code(0b11011, 5),
        code(0b101111, 7),
        code(0b111111, 7),
    ],
});

/// Why a position cannot be packed into 256 bits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PackError {
    /// Both codings store the two kings' squares; a position without one cannot be written.
    #[error("{0} has no king, which the 256-bit position codes cannot hold")]
    NoKing(Color),
    /// More pieces of a kind than a set holds.
    #[error("more than {max} {kind:?} (a set holds {max})")]
    TooMany {
        /// The kind (unpromoted) there are too many of.
        kind: PieceKind,
        /// How many of it a set holds.
        max: u8,
    },
}

/// Why 32 bytes are not a packed position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnpackError {
    /// The bits ran out, or a code matched no piece.
    #[error("not a {coding} position: {reason}")]
    Malformed {
        /// The coding read (`hcp`, `packed sfen`).
        coding: &'static str,
        /// What went wrong.
        reason: &'static str,
    },
    /// The pieces decoded are no position kifu can play on.
    #[error("not a {coding} position: {source}")]
    Position {
        /// The coding read (`hcp`, `packed sfen`).
        coding: &'static str,
        /// Why the pieces are no position.
        source: kifu_shogi::PositionError,
    },
}

/// The slot of a board piece in [`Coding::board`]: its unpromoted hand kind (0..7) and
/// whether it is promoted; `None` for a king.
const fn board_slot(kind: PieceKind) -> Option<(usize, usize)> {
    if matches!(kind, PieceKind::King) {
        return None;
    }
    let base = kind.unpromote();
    Some((base.index(), kind.is_promoted() as usize))
}

/// Writes codes least significant bit first into 32 bytes: a 64-bit accumulator from which
/// whole 32-bit words go out. The words are kept apart from the accumulator's fields, so
/// that the compiler keeps those in registers across a position's hundred codes.
struct BitWriter {
    words: [u32; 8],
    acc: u64,
    filled: u32,
    at: usize,
}

impl BitWriter {
    fn new() -> BitWriter {
        BitWriter {
            words: [0; 8],
            acc: 0,
            filled: 0,
            at: 0,
        }
    }

    /// Adds `len` (at most 32) bits.
    #[inline]
    fn put(&mut self, bits: u64, len: u32) {
        self.acc |= bits << self.filled;
        self.filled += len;
        if self.filled >= 32 {
            self.flush_word();
        }
    }

    /// Sends the accumulator's low word out. Past the eighth word nothing is written (the
    /// index is masked, not checked): 40 pieces take exactly 256 bits, and more pieces of a
    /// kind than a set holds are refused before the box is written.
    #[inline]
    fn flush_word(&mut self) {
        self.words[self.at & 7] = self.acc as u32;
        self.at += 1;
        self.acc >>= 32;
        self.filled -= 32;
    }

    /// Adds `n` 0 bits: the accumulator's unused bits are 0 already, so only the count
    /// moves, and every whole word it passes goes out.
    #[inline]
    fn zeros(&mut self, n: usize) {
        self.filled += n as u32;
        while self.filled >= 32 {
            self.flush_word();
        }
    }

    #[inline]
    fn code(&mut self, c: Code) {
        self.put(u64::from(c.bits), u32::from(c.len));
    }

    fn finish(mut self) -> [u8; 32] {
        if self.filled > 0 && self.at < 8 {
            self.words[self.at] = self.acc as u32;
        }
        let mut out = [0u8; 32];
        for (bytes, word) in out.chunks_exact_mut(4).zip(self.words) {
            bytes.copy_from_slice(&word.to_le_bytes());
        }
        out
    }
}

fn pack(coding: &Coding, position: &Position) -> Result<[u8; 32], PackError> {
    let king = |color| position.king_square(color).ok_or(PackError::NoKing(color));
    let (black_king, white_king) = (king(Color::Black)?, king(Color::White)?);
    let mut w = BitWriter::new();
    w.put(
        u64::from(position.turn() == Color::White)
            | (black_king.index() as u64) << 1
            | (white_king.index() as u64) << 8,
        15,
    );
    // This runs for every position exported, so it visits only the occupied squares (about
    // half the board), each a lookup and an append; the empty squares between two pieces
    // are a run of 0 bits, one a square. What each square holds is counted on the way
    // (cheaper than a popcount of each kind's bitboard without a popcount instruction).
    let board = position.squares();
    let mut seen = [0u8; CONTENTS];
    let mut next = 0;
    let occupied = position.occupied().0;
    // The two 64-bit halves one after the other: cheaper than 128-bit arithmetic. Bits come
    // out lowest first, so squares in index order and `next <= i`.
    for (half, base) in [(occupied as u64, 0), ((occupied >> 64) as u64, 64)] {
        let mut bits = half;
        while bits != 0 {
            let i = base + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            w.zeros(i - next);
            next = i + 1;
            let c = board.get(i).map_or(0, |piece| content(*piece));
            seen[c] += 1;
            w.code(coding.squares[c]);
        }
    }
    w.zeros(Square::NUM - next);
    // Pieces of each hand kind accounted for, on the board (by unpromoted kind) and then in
    // either hand; the rest of a set is in the box.
    let mut used = [0u8; 7];
    for kind in PieceKind::ALL {
        if let Some((base, _)) = board_slot(kind) {
            used[base] += seen[1 + 2 * kind.index()] + seen[2 + 2 * kind.index()];
        }
    }
    for color in Color::ALL {
        let hand = position.hand(color);
        for (slot, kind) in HAND_ORDER.into_iter().enumerate() {
            let count = hand.count(kind);
            used[slot] = used[slot].saturating_add(count);
            for _ in 0..count {
                w.code(coding.hand[slot][color.index()]);
            }
        }
    }
    for (slot, kind) in HAND_ORDER.into_iter().enumerate() {
        let Some(missing) = SET[slot].checked_sub(used[slot]) else {
            return Err(PackError::TooMany {
                kind,
                max: SET[slot],
            });
        };
        for _ in 0..missing {
            w.code(coding.boxed[slot]);
        }
    }
    Ok(w.finish())
}

/// Reads bits least significant first from 32 bytes.
struct BitReader<'a> {
    data: &'a [u8; 32],
    at: usize,
}

impl BitReader<'_> {
    fn bit(&mut self) -> Option<u8> {
        if self.at >= 256 {
            return None;
        }
        let bit = (self.data[self.at / 8] >> (self.at % 8)) & 1;
        self.at += 1;
        Some(bit)
    }

    fn bits(&mut self, len: u32) -> Option<u32> {
        let mut value = 0;
        for i in 0..len {
            value |= u32::from(self.bit()?) << i;
        }
        Some(value)
    }

    /// Reads bits until they spell one of `codes`; the index of that code.
    fn one_of(&mut self, codes: &[(Code, u8)]) -> Option<u8> {
        let (mut bits, mut len) = (0u32, 0u8);
        while len < 8 {
            bits |= u32::from(self.bit()?) << len;
            len += 1;
            if let Some(&(_, tag)) = codes
                .iter()
                .find(|(c, _)| c.len == len && u32::from(c.bits) == bits)
            {
                return Some(tag);
            }
        }
        None
    }
}

/// A decoded code: a board piece, a hand piece, a boxed piece or an empty square.
#[derive(Clone, Copy)]
enum Decoded {
    Empty,
    Board(Piece),
    Hand(Color, PieceKind),
    Boxed,
}

fn unpack(coding: &'static Coding, data: &[u8; 32]) -> Result<Position, UnpackError> {
    let malformed = |reason| UnpackError::Malformed {
        coding: coding.name,
        reason,
    };
    // Every code with a tag indexing `decoded`.
    let mut board_codes: Vec<(Code, u8)> = Vec::with_capacity(29);
    let mut hand_codes: Vec<(Code, u8)> = Vec::with_capacity(21);
    let mut decoded: Vec<Decoded> = Vec::with_capacity(50);
    let mut push = |list: &mut Vec<(Code, u8)>, c: Code, d: Decoded| {
        list.push((c, decoded.len() as u8));
        decoded.push(d);
    };
    push(&mut board_codes, EMPTY, Decoded::Empty);
    for (slot, base) in HAND_ORDER.into_iter().enumerate() {
        for color in Color::ALL {
            push(
                &mut board_codes,
                coding.board[slot][0][color.index()],
                Decoded::Board(Piece::new(color, base)),
            );
            if let Some(promoted) = base.promote() {
                push(
                    &mut board_codes,
                    coding.board[slot][1][color.index()],
                    Decoded::Board(Piece::new(color, promoted)),
                );
            }
            push(
                &mut hand_codes,
                coding.hand[slot][color.index()],
                Decoded::Hand(color, base),
            );
        }
        push(&mut hand_codes, coding.boxed[slot], Decoded::Boxed);
    }

    let mut r = BitReader { data, at: 0 };
    let turn = if r.bit().ok_or_else(|| malformed("no side to move"))? == 0 {
        Color::Black
    } else {
        Color::White
    };
    let mut king_square = || {
        r.bits(7)
            .and_then(|i| Square::from_index(i as usize))
            .ok_or_else(|| malformed("a king's square is not one of the 81"))
    };
    let kings = [king_square()?, king_square()?];
    if kings[0] == kings[1] {
        return Err(malformed("both kings on one square"));
    }
    let mut pieces: Vec<(Square, Piece)> = Vec::with_capacity(40);
    pieces.push((kings[0], Piece::new(Color::Black, PieceKind::King)));
    pieces.push((kings[1], Piece::new(Color::White, PieceKind::King)));
    for index in 0..Square::NUM {
        let square = Square::from_index(index).expect("index below 81");
        if kings.contains(&square) {
            continue;
        }
        let tag = r
            .one_of(&board_codes)
            .ok_or_else(|| malformed("a square's code matches no piece"))?;
        if let Decoded::Board(piece) = decoded[usize::from(tag)] {
            pieces.push((square, piece));
        }
    }
    let mut hands = [Hand::EMPTY; 2];
    while r.at < 256 {
        let tag = r
            .one_of(&hand_codes)
            .ok_or_else(|| malformed("a piece in hand matches no code"))?;
        if let Decoded::Hand(color, kind) = decoded[usize::from(tag)] {
            let hand = &mut hands[color.index()];
            hand.set(kind, hand.count(kind) + 1);
        }
    }
    let (position, _) = Position::from_parts_lenient(pieces, hands, turn, 1).map_err(|source| {
        UnpackError::Position {
            coding: coding.name,
            source,
        }
    })?;
    Ok(position)
}

/// Packs a position as Apery's `HuffmanCodedPos` (cshogi's `hcp`), 32 bytes.
///
/// ```
/// use kifu_export::packed::{hcp, from_hcp};
/// use kifu_shogi::Position;
///
/// let start = Position::startpos();
/// let bytes = hcp(&start).unwrap();
/// assert_eq!(from_hcp(&bytes).unwrap().to_sfen(), start.to_sfen());
/// ```
pub fn hcp(position: &Position) -> Result<[u8; 32], PackError> {
    pack(&HCP, position)
}

/// The position in an Apery `HuffmanCodedPos`; its move number is 1 (the code has none).
pub fn from_hcp(data: &[u8; 32]) -> Result<Position, UnpackError> {
    unpack(&HCP, data)
}

/// Packs a position as YaneuraOu's `PackedSfen`, 32 bytes.
///
/// ```
/// use kifu_export::packed::{packed_sfen, from_packed_sfen};
/// use kifu_shogi::Position;
///
/// let start = Position::startpos();
/// let bytes = packed_sfen(&start).unwrap();
/// assert_eq!(from_packed_sfen(&bytes).unwrap().to_sfen(), start.to_sfen());
/// ```
pub fn packed_sfen(position: &Position) -> Result<[u8; 32], PackError> {
    pack(&PSFEN, position)
}

/// The position in a YaneuraOu `PackedSfen`; its move number is 1 (the code has none).
pub fn from_packed_sfen(data: &[u8; 32]) -> Result<Position, UnpackError> {
    unpack(&PSFEN, data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(sfen: &str) {
        let position = Position::from_sfen(sfen).unwrap();
        let expected = position.to_sfen();
        let back = from_hcp(&hcp(&position).unwrap()).unwrap();
        assert_eq!(
            strip_ply(&back.to_sfen()),
            strip_ply(&expected),
            "hcp {sfen}"
        );
        let back = from_packed_sfen(&packed_sfen(&position).unwrap()).unwrap();
        assert_eq!(
            strip_ply(&back.to_sfen()),
            strip_ply(&expected),
            "psfen {sfen}"
        );
    }

    fn strip_ply(sfen: &str) -> &str {
        sfen.rsplit_once(' ').unwrap().0
    }

    #[test]
    fn positions_round_trip() {
        round_trip("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        round_trip("4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnl17p 1");
        round_trip("lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
        round_trip("8k/9/9/9/9/9/9/9/K8 b - 1");
        round_trip("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
    }

    #[test]
    fn start_position_matches_cshogi_bytes() {
        // The first bits of cshogi 1.1.0's `to_hcp` of the start: Black to move (0), the
        // kings on 5i (44) and 5a (36), then 1a's white lance.
        let bytes = hcp(&Position::startpos()).unwrap();
        let bit = |i: usize| (bytes[i / 8] >> (i % 8)) & 1;
        let first: String = (0..21).map(|i| char::from(b'0' + bit(i))).collect();
        assert_eq!(first, "000110100010010110010");
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(from_hcp(&[0xff; 32]).is_err());
        assert!(from_packed_sfen(&[0xff; 32]).is_err());
        let _ = from_hcp(&[0; 32]);
    }
}
