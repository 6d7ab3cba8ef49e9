//! The start position of a CSA record, built from `PI`, `P1`–`P9` and `P+`/`P-` lines.
//!
//! As the format describes it, every piece starts in the piece box and position lines move
//! pieces from the box to the board or a hand; `00AL` moves whatever is left to one hand.

use kifu_record::{Diagnostic, DiagnosticKind, Side, Span};

use crate::shogi::{StartPosition, color_of};
use kifu_shogi::notation::csa::piece_code;
use kifu_shogi::{Hand, Handicap, Piece, PieceKind, Position, Square};

/// How many of each unpromoted kind a set has (歩 香 桂 銀 金 角 飛 玉).
const FULL_SET: [u8; 8] = [18, 4, 4, 4, 4, 2, 2, 2];

pub(super) fn even_position() -> &'static Position {
    kifu_shogi::named_position(Handicap::Even)
}

/// The board of the even-game start and what stays in the box once it is set up.
static EVEN_SETUP: std::sync::LazyLock<([Option<Piece>; 81], [u8; 8])> =
    std::sync::LazyLock::new(|| {
        let mut board = [None; 81];
        let mut in_box = FULL_SET;
        let even = even_position();
        for sq in Square::all() {
            if let Some(p) = even.piece_at(sq) {
                board[sq.index()] = Some(p);
                in_box[box_index(p.kind)] -= 1;
            }
        }
        (board, in_box)
    });

#[derive(Clone)]
pub(super) struct Setup {
    board: [Option<Piece>; 81],
    hands: [Hand; 2],
    /// Pieces of each unpromoted kind still in the box.
    in_box: [u8; 8],
    /// Any position line seen.
    pub(super) started: bool,
    /// `PI` with nothing removed so far.
    plain_even: bool,
    all_taken: bool,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            board: [None; 81],
            hands: [Hand::EMPTY; 2],
            in_box: FULL_SET,
            started: false,
            plain_even: false,
            all_taken: false,
        }
    }
}

fn box_index(kind: PieceKind) -> usize {
    kind.unpromote().index()
}

fn code_span(span: Span, offset: usize, len: usize) -> Span {
    let start = span.start as usize + offset;
    Span::new(start, (start + len).min(span.end as usize))
}

impl Setup {
    fn take_from_box(&mut self, kind: PieceKind) -> bool {
        let slot = &mut self.in_box[box_index(kind)];
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        true
    }

    fn check_order(&mut self, span: Span, diags: &mut Vec<Diagnostic>) {
        if self.all_taken {
            diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                span,
                "a position line after `00AL`, which should be the last one",
            ));
        }
        self.started = true;
    }

    /// `PI` followed by removed pieces (`82HI22KA`).
    pub(super) fn even(&mut self, removed: &str, span: Span, diags: &mut Vec<Diagnostic>) {
        if self.started {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                span,
                "`PI` must not be combined with other position lines",
            ));
            return;
        }
        self.check_order(span, diags);
        // Nothing was placed before (`started` was false): the board and the box become the
        // even game's, worked out once rather than square by square for every record.
        let (board, in_box) = &*EVEN_SETUP;
        self.board = *board;
        self.in_box = *in_box;
        self.remove(removed, span, diags);
    }

    /// A setup whose first position line is `PI…`: what [`Setup::default`] and then
    /// [`Setup::even`] give, made from the even game's board at once. Emptying the 81
    /// squares first was 81 single-byte stores for every record (the empty square's `None`
    /// is one byte of two), 1 instruction a ply of `kifu check` (issue 36).
    pub(super) fn starting_even(removed: &str, span: Span, diags: &mut Vec<Diagnostic>) -> Setup {
        let (board, in_box) = &*EVEN_SETUP;
        let mut setup = Setup {
            board: *board,
            hands: [Hand::EMPTY; 2],
            in_box: *in_box,
            // What `check_order` sets; a fresh setup has no `00AL` to warn of.
            started: true,
            plain_even: false,
            all_taken: false,
        };
        setup.remove(removed, span, diags);
        setup
    }

    /// Takes the pieces `PI` names after it (`82HI22KA`) off the even game's board.
    fn remove(&mut self, removed: &str, span: Span, diags: &mut Vec<Diagnostic>) {
        self.plain_even = removed.is_empty();
        let bytes = removed.as_bytes();
        for (i, chunk) in bytes.chunks(4).enumerate() {
            let at = code_span(span, 2 + i * 4, 4);
            let parsed = (chunk.len() == 4)
                .then(|| std::str::from_utf8(chunk).ok().filter(|c| c.is_ascii()))
                .flatten()
                .and_then(|c| Some((parse_square(&c[..2])?, piece_code(&c[2..])?)));
            let Some((sq, kind)) = parsed else {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    at,
                    "a removed piece is a square and a piece code (`82HI`)",
                ));
                continue;
            };
            match self.board[sq.index()] {
                Some(p) if p.kind == kind => {
                    self.board[sq.index()] = None;
                    self.in_box[box_index(kind)] += 1;
                }
                _ => diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    at,
                    format!("there is no {} on {} to remove", kind.csa(), csa_square(sq)),
                )),
            }
        }
    }

    /// `P1` … `P9`.
    pub(super) fn rank(&mut self, rank: u8, cells: &str, span: Span, diags: &mut Vec<Diagnostic>) {
        self.check_order(span, diags);
        let Some(cells_read) = read_cells(cells) else {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                span,
                "a rank line is nine cells of ` * ` or a sign and a piece code",
            ));
            return;
        };
        if cells_read.1 {
            diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                span,
                "rank cells are not three characters wide; read them one by one",
            ));
        }
        for (i, cell) in cells_read.0.into_iter().enumerate() {
            let Some((side, kind)) = cell else { continue };
            let file = 9 - i as u8;
            let sq = Square::new(file, rank).expect("file and rank in 1..=9");
            let at = code_span(span, 2 + i * 3, 3);
            self.place(sq, Piece::new(color_of(side), kind), at, diags);
        }
    }

    fn place(&mut self, sq: Square, piece: Piece, at: Span, diags: &mut Vec<Diagnostic>) {
        if self.board[sq.index()].is_some() {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                at,
                format!("{} is already occupied", csa_square(sq)),
            ));
            return;
        }
        if !self.take_from_box(piece.kind) {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                at,
                format!(
                    "no {} is left in the piece box",
                    piece.kind.unpromote().csa()
                ),
            ));
            return;
        }
        self.board[sq.index()] = Some(piece);
    }

    /// `P+…` / `P-…`: square and code pairs; `00` is the hand, `00AL` all remaining pieces.
    pub(super) fn pieces(
        &mut self,
        side: Side,
        body: &str,
        span: Span,
        diags: &mut Vec<Diagnostic>,
    ) {
        self.check_order(span, diags);
        let color = color_of(side);
        for (i, chunk) in body.as_bytes().chunks(4).enumerate() {
            let at = code_span(span, 2 + i * 4, 4);
            // ASCII only: splitting a square from a code must fall on a character boundary.
            let text = std::str::from_utf8(chunk)
                .ok()
                .filter(|c| c.len() == 4 && c.is_ascii());
            let Some(text) = text else {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    at,
                    "a piece is a square and a piece code (`99KY`, `00FU`, `00AL`)",
                ));
                continue;
            };
            let (square, code) = text.split_at(2);
            let in_hand = match square {
                "00" => true,
                "OO" => {
                    diags.push(Diagnostic::warning(
                        DiagnosticKind::Syntax,
                        at,
                        "`OO` (letters) read as `00`, the hand",
                    ));
                    true
                }
                _ => false,
            };
            if in_hand && code == "AL" {
                self.all_taken = true;
                for kind in PieceKind::HAND {
                    let left = std::mem::take(&mut self.in_box[box_index(kind)]);
                    let hand = &mut self.hands[color.index()];
                    hand.set(kind, hand.count(kind) + left);
                }
                continue;
            }
            let Some(kind) = piece_code(code) else {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Unknown,
                    at,
                    format!("unknown piece code `{code}`"),
                ));
                continue;
            };
            if in_hand {
                if !kind.is_hand_kind() {
                    diags.push(Diagnostic::error(
                        DiagnosticKind::Syntax,
                        at,
                        format!("{} cannot be held in hand", kind.csa()),
                    ));
                } else if !self.take_from_box(kind) {
                    diags.push(Diagnostic::error(
                        DiagnosticKind::Syntax,
                        at,
                        format!("no {} is left in the piece box", kind.csa()),
                    ));
                } else {
                    let hand = &mut self.hands[color.index()];
                    hand.set(kind, hand.count(kind) + 1);
                }
                continue;
            }
            match parse_square(square) {
                Some(sq) => self.place(sq, Piece::new(color, kind), at, diags),
                None => diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    at,
                    format!("`{square}` is not a square"),
                )),
            }
        }
    }

    /// The position with `side` to move, or the even start if it is not one play can
    /// start from (after reporting why).
    /// True when the start is `PI` alone with 先手 to move: the even-game start.
    pub(super) fn is_plain_even(&self, side: Side) -> bool {
        self.plain_even && side == Side::First
    }

    pub(super) fn finish(
        &self,
        side: Side,
        span: Span,
        diags: &mut Vec<Diagnostic>,
    ) -> StartPosition {
        if self.is_plain_even(side) {
            return StartPosition {
                position: even_position().clone(),
                handicap: Some(Handicap::Even),
            };
        }
        let pieces = Square::all().filter_map(|sq| self.board[sq.index()].map(|p| (sq, p)));
        match Position::from_parts_lenient(pieces, self.hands, color_of(side), 1) {
            Ok((position, tolerated)) => {
                for e in tolerated {
                    diags.push(Diagnostic::warning(
                        DiagnosticKind::Syntax,
                        span,
                        format!("unusual start position: {e}"),
                    ));
                }
                StartPosition::custom(position)
            }
            Err(e) => {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    span,
                    format!("the start position cannot be played: {e}"),
                ));
                StartPosition::even()
            }
        }
    }
}

fn csa_square(sq: Square) -> String {
    format!("{}{}", sq.file(), sq.rank())
}

fn parse_square(s: &str) -> Option<Square> {
    let b = s.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
        return None;
    }
    Square::new(b[0] - b'0', b[1] - b'0')
}

type Cell = Option<(Side, PieceKind)>;

/// Nine cells of a rank line; the flag is set when they had to be re-tokenised because they
/// were not three characters wide (the spec's own example collapses the spaces).
fn read_cells(cells: &str) -> Option<([Cell; 9], bool)> {
    let b = cells.as_bytes();
    let fixed = (|| {
        // Nine 3-character cells; the reader trimmed the trailing space of a last ` * `.
        if !(26..=27).contains(&b.len()) {
            return None;
        }
        let mut out = [None; 9];
        for (i, slot) in out.iter_mut().enumerate() {
            let cell = |j: usize| b.get(i * 3 + j).copied().unwrap_or(b' ');
            *slot = cell_piece(cell(0), cell(1), cell(2))?;
        }
        Some(out)
    })();
    if let Some(out) = fixed {
        return Some((out, false));
    }
    // Tokens: `*` for an empty cell, a sign and a two-letter code for a piece.
    let mut out = [None; 9];
    let mut n = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' => i += 1,
            b'*' => {
                *out.get_mut(n)? = None;
                n += 1;
                i += 1;
            }
            b'+' | b'-' if i + 2 < b.len() => {
                *out.get_mut(n)? = cell_piece(b[i], b[i + 1], b[i + 2])?;
                n += 1;
                i += 3;
            }
            _ => return None,
        }
    }
    (n == 9).then_some((out, true))
}

// `None` = malformed; `Some(None)` = empty cell.
fn cell_piece(a: u8, b: u8, c: u8) -> Option<Cell> {
    let side = match a {
        b'+' => Side::First,
        b'-' => Side::Second,
        _ => return (b != b'+' && b != b'-').then_some(None),
    };
    let code = [b, c];
    let kind = piece_code(std::str::from_utf8(&code).ok()?)?;
    Some(Some((side, kind)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_shogi::Color;

    #[test]
    fn piece_codes_agree_with_the_engine() {
        for kind in PieceKind::ALL {
            assert_eq!(piece_code(kind.csa()), Some(kind));
        }
        assert_eq!(piece_code("XX"), None);
        assert_eq!(piece_code("fu"), None);
    }

    #[test]
    fn cells_fixed_and_collapsed() {
        let (cells, retok) = read_cells(" * -HI *  *  *  *  * -KA *").unwrap();
        assert!(!retok);
        assert_eq!(cells[1], Some((Side::Second, PieceKind::Rook)));
        assert_eq!(cells[7], Some((Side::Second, PieceKind::Bishop)));
        let (cells2, retok) = read_cells(" * -HI * * * * * -KA *").unwrap();
        assert!(retok);
        assert_eq!(cells, cells2);
        assert!(read_cells("-KY-KE").is_none());
        assert!(read_cells("-XX *  *  *  *  *  *  *  * ").is_none());
    }

    #[test]
    fn even_with_removed_pieces_is_a_handicap() {
        let mut d = vec![];
        let mut s = Setup::default();
        s.even("82HI22KA", Span::new(0, 10), &mut d);
        let start = s.finish(Side::Second, Span::default(), &mut d);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(start.handicap, Some(Handicap::TwoPieces));
    }

    #[test]
    fn tsume_with_all_remaining_to_hand() {
        let mut d = vec![];
        let mut s = Setup::default();
        s.pieces(Side::Second, "51OU", Span::new(0, 6), &mut d);
        s.pieces(Side::First, "53KI00KI", Span::new(7, 17), &mut d);
        s.pieces(Side::Second, "00AL", Span::new(18, 24), &mut d);
        let start = s.finish(Side::First, Span::default(), &mut d);
        assert!(d.is_empty(), "{d:?}");
        let p = &start.position;
        assert_eq!(p.hand(Color::Black).count(PieceKind::Gold), 1);
        assert_eq!(p.hand(Color::White).count(PieceKind::Gold), 2);
        assert_eq!(p.hand(Color::White).count(PieceKind::Pawn), 18);
        assert_eq!(p.hand(Color::White).count(PieceKind::King), 0);
        assert_eq!(start.handicap, None);
    }

    #[test]
    fn errors_point_at_the_pair() {
        let mut d = vec![];
        let mut s = Setup::default();
        s.pieces(Side::First, "55FU55KI00OU00XX", Span::new(100, 118), &mut d);
        let msgs: Vec<_> = d.iter().map(|d| (d.span, d.message.as_str())).collect();
        assert_eq!(
            msgs,
            [
                (Span::new(106, 110), "55 is already occupied"),
                (Span::new(110, 114), "OU cannot be held in hand"),
                (Span::new(114, 118), "unknown piece code `XX`"),
            ]
        );
        s.even("", Span::new(0, 2), &mut d);
        assert!(d.last().unwrap().message.contains("must not be combined"));
    }

    #[test]
    fn non_ascii_pairs_are_errors_not_panics() {
        // found by the fuzzer: `1` and a 3-byte character make 4 bytes but no square+code
        let mut d = vec![];
        Setup::default().pieces(Side::First, "1\u{fffd}00FU", Span::new(0, 12), &mut d);
        assert_eq!(d.len(), 1);
        let mut d = vec![];
        Setup::default().even("1\u{fffd}", Span::new(0, 6), &mut d);
        assert_eq!(d.len(), 1);
    }

    #[test]
    fn too_many_pieces_and_bad_positions() {
        let mut d = vec![];
        let mut s = Setup::default();
        for _ in 0..3 {
            s.pieces(Side::First, "00HI", Span::default(), &mut d);
        }
        assert_eq!(d.len(), 1);
        assert!(d[0].message.contains("no HI is left"));
        // A pawn that can never move is unusual but playable: a warning.
        let mut s = Setup::default();
        s.pieces(Side::First, "11FU", Span::default(), &mut d);
        s.pieces(Side::First, "59OU", Span::default(), &mut d);
        s.finish(Side::First, Span::default(), &mut d);
        assert!(
            !d[1].is_error() && d[1].message.contains("never move"),
            "{d:?}"
        );
        // Two kings of one side are not.
        let mut s = Setup::default();
        s.pieces(Side::First, "59OU", Span::default(), &mut d);
        s.pieces(Side::First, "49OU", Span::default(), &mut d);
        let start = s.finish(Side::First, Span::default(), &mut d);
        assert!(
            d[2].is_error() && d[2].message.contains("cannot be played"),
            "{d:?}"
        );
        assert_eq!(start, StartPosition::even());
    }
}
