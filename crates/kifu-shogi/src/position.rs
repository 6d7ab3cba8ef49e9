use std::fmt;

use crate::attacks;
use crate::hand::FULL_SET;
use crate::piece::KIND_SLOTS;
use crate::zobrist::KEYS;
use crate::{Bitboard, Color, Hand, Move, Piece, PieceKind, Square};

/// What `undo` needs to restore, plus what repetition detection reads back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StateInfo {
    pub mv: Move,
    pub moved: PieceKind,
    pub captured: Option<Piece>,
    /// Hash of the position before the move.
    pub hash: u64,
    /// Checkers of the position before the move (its side to move was in check if non-empty).
    pub checkers: Bitboard,
}

/// The room a position's move history had, with no moves in it: what
/// [`Position::take_history_room`] takes and [`Position::give_history_room`] gives.
#[derive(Debug, Default)]
pub struct HistoryRoom(Vec<StateInfo>);

/// A shogi position: board, hands, side to move and move number, with the moves
/// played on it since it was set up (for `undo` and 千日手).
///
/// Bitboards per colour and per kind are kept beside the square array so that
/// move generation never scans the board.
///
/// Set one up with [`Position::startpos`], [`Handicap::position`](crate::Handicap::position),
/// [`Position::from_sfen`] or [`Position::from_parts`]; list its moves with
/// [`Position::legal_moves`]; check one move with [`Position::check_move`]; play with
/// [`Position::play`] (checked) or [`Position::play_unchecked`], and take back with
/// [`Position::undo`]. [`Display`](fmt::Display) and [`FromStr`](std::str::FromStr) use SFEN.
///
/// ```
/// use kifu_shogi::{IllegalMove, Move, Outcome, Position};
///
/// let mut pos = Position::startpos();
/// assert_eq!(pos.legal_moves().len(), 30);
///
/// // ▲７六歩 △３四歩 ▲２二角成: the bishop takes and promotes.
/// for usi in ["7g7f", "3c3d", "8h2b+"] {
///     let mv: Move = usi.parse().unwrap();
///     pos.play(mv).unwrap();
/// }
/// assert_eq!(pos.to_sfen(), "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4");
///
/// // A rejected move leaves the position as it was.
/// let mv: Move = "6a7a".parse().unwrap(); // onto White's own silver
/// assert!(matches!(pos.play(mv), Err(IllegalMove::OwnPieceOnTarget { .. })));
/// assert_eq!(pos.moves_played().count(), 3);
///
/// assert_eq!(pos.undo().map(|mv| mv.to_string()).as_deref(), Some("8h2b+"));
/// assert_eq!(pos.outcome(), None);
/// ```
pub struct Position {
    board: [Option<Piece>; 81],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; KIND_SLOTS],
    hands: [Hand; 2],
    side: Color,
    move_number: u32,
    hash: u64,
    checkers: Bitboard,
    /// Each side's king square, as `pieces(color, King).first()` gives it, refreshed whenever
    /// a king moves, is taken or is put back (`refresh_kings`): checking and playing a move
    /// each ask for a king, and a scan of a 128-bit bitboard costs a score of instructions
    /// where this is one load.
    kings: [Option<Square>; 2],
    pub(crate) history: Vec<StateInfo>,
}

/// Why a set of pieces is not a position kifu can play on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has two or more kings. (A side with no king is allowed: tsume problems and
    /// some handicap studies have none.)
    #[error("{color} has more than one king")]
    SeveralKings {
        /// The side with several kings.
        color: Color,
    },
    /// A pawn or lance on its last rank, or a knight on its last two, where it could never
    /// move again.
    #[error("{piece} on {square} could never move again")]
    DeadPiece {
        /// The stranded piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// 二歩: two unpromoted pawns of one side on one file.
    #[error("二歩: {color} has two unpromoted pawns on file {file}")]
    DoublePawn {
        /// The side with the doubled pawns.
        color: Color,
        /// The file, 1–9.
        file: u8,
    },
    /// More pieces of a kind on the board and in the hands than a set holds (18 pawns, 4 each
    /// of lance, knight, silver and gold, 2 each of bishop, rook and king), promoted pieces
    /// counted as their base kind.
    #[error("{count} {kind} in play, but a set has only {max}")]
    TooManyPieces {
        /// The unpromoted kind.
        kind: PieceKind,
        /// How many are in play.
        count: u32,
        /// How many a set holds.
        max: u8,
    },
    /// The side not to move is in check: its king could be captured.
    #[error("{color}'s king is in check although it is {mover}'s turn")]
    OpponentInCheck {
        /// The side in check.
        color: Color,
        /// The side to move.
        mover: Color,
    },
}

impl Position {
    /// An empty board, Black to move, move number 1.
    pub fn empty() -> Position {
        Position {
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; KIND_SLOTS],
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            move_number: 1,
            hash: 0,
            checkers: Bitboard::EMPTY,
            kings: [None; 2],
            history: Vec::with_capacity(256),
        }
    }

    /// The even-game start (平手).
    pub fn startpos() -> Position {
        // Written out rather than asked of `Handicap::Even`: the handicap table is built on
        // `Position`, and this file does not import it back.
        Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
            .expect("the even-game start is a valid position")
    }

    /// Builds a position from its parts and checks that it is one play can start from.
    pub fn from_parts(
        pieces: impl IntoIterator<Item = (Square, Piece)>,
        hands: [Hand; 2],
        side_to_move: Color,
        move_number: u32,
    ) -> Result<Position, PositionError> {
        let pos = Position::assemble(pieces, hands, side_to_move, move_number);
        match pos.problems().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(pos),
        }
    }

    /// Like [`Position::from_parts`], but accepts what real records contain and play
    /// survives — 二歩 on the board, a piece that can never move again — returning those
    /// as warnings. Too many kings or pieces, or a king that could be taken, still fail.
    pub fn from_parts_lenient(
        pieces: impl IntoIterator<Item = (Square, Piece)>,
        hands: [Hand; 2],
        side_to_move: Color,
        move_number: u32,
    ) -> Result<(Position, Vec<PositionError>), PositionError> {
        let pos = Position::assemble(pieces, hands, side_to_move, move_number);
        let (tolerated, fatal): (Vec<_>, Vec<_>) = pos.problems().into_iter().partition(|e| {
            matches!(
                e,
                PositionError::DoublePawn { .. } | PositionError::DeadPiece { .. }
            )
        });
        match fatal.into_iter().next() {
            Some(e) => Err(e),
            None => Ok((pos, tolerated)),
        }
    }

    fn assemble(
        pieces: impl IntoIterator<Item = (Square, Piece)>,
        hands: [Hand; 2],
        side_to_move: Color,
        move_number: u32,
    ) -> Position {
        let mut pos = Position::empty();
        for (sq, piece) in pieces {
            if pos.board[sq.index()].is_some() {
                pos.remove(sq);
            }
            pos.put(piece, sq);
        }
        pos.hands = hands;
        for c in Color::ALL {
            for k in PieceKind::HAND {
                let n = usize::from(hands[c.index()].count(k)).min(18);
                pos.hash ^= KEYS.hand[c.index()][k.index()][n];
            }
        }
        pos.side = side_to_move;
        if side_to_move == Color::White {
            pos.hash ^= KEYS.white_to_move;
        }
        pos.move_number = move_number.max(1);
        pos.refresh_kings();
        pos.checkers = pos.compute_checkers();
        pos
    }

    /// Everything that keeps this from being a position play can start from, in board order.
    fn problems(&self) -> Vec<PositionError> {
        let mut problems = Vec::new();
        let mut counts = [0u32; 8];
        for c in Color::ALL {
            if (self.pieces(c, PieceKind::King)).has_several() {
                problems.push(PositionError::SeveralKings { color: c });
            }
            for (k, n) in self.hands[c.index()].iter() {
                counts[k.index()] += u32::from(n);
            }
            let mut pawn_files = 0u16;
            let mut doubled_files = 0u16;
            for sq in self.by_color[c.index()] {
                let Some(piece) = self.board[sq.index()] else {
                    continue;
                };
                counts[piece.kind.unpromote().index()] += 1;
                if must_promote(piece.kind, c, sq) {
                    problems.push(PositionError::DeadPiece { piece, square: sq });
                }
                if piece.kind == PieceKind::Pawn {
                    let bit = 1 << sq.file();
                    if pawn_files & bit != 0 && doubled_files & bit == 0 {
                        doubled_files |= bit;
                        problems.push(PositionError::DoublePawn {
                            color: c,
                            file: sq.file(),
                        });
                    }
                    pawn_files |= bit;
                }
            }
        }
        for (i, &count) in counts.iter().enumerate() {
            let max = if i == PieceKind::King.index() {
                2
            } else {
                FULL_SET[i]
            };
            if count > u32::from(max) {
                let kind = PieceKind::from_index(i).expect("index < 8");
                problems.push(PositionError::TooManyPieces { kind, count, max });
            }
        }
        let waiting = self.side.flip();
        if let Some(k) = self.king_square(waiting)
            && self
                .attackers_to(k, self.side, self.occupied())
                .is_nonempty()
        {
            problems.push(PositionError::OpponentInCheck {
                color: waiting,
                mover: self.side,
            });
        }
        problems
    }

    /// Reads the king squares from the bitboards again, after a king moved, was taken or
    /// was put back.
    fn refresh_kings(&mut self) {
        for c in Color::ALL {
            self.kings[c.index()] = self.pieces(c, PieceKind::King).first();
        }
    }

    /// Whether a move that moved `moved` and took `captured` moved or removed a king, so that
    /// the king squares must be refreshed.
    #[inline]
    fn touches_king(moved: PieceKind, captured: Option<Piece>) -> bool {
        moved == PieceKind::King || captured.is_some_and(|p| p.kind == PieceKind::King)
    }

    #[inline]
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color.index()] ^= b;
        self.by_kind[piece.kind.index()] ^= b;
        self.hash ^= KEYS.board[piece.color.index()][piece.kind.index()][sq.index()];
    }

    #[inline]
    pub(crate) fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.board[sq.index()].take()?;
        let b = Bitboard::from_square(sq);
        self.by_color[piece.color.index()] ^= b;
        self.by_kind[piece.kind.index()] ^= b;
        self.hash ^= KEYS.board[piece.color.index()][piece.kind.index()][sq.index()];
        Some(piece)
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Every square's piece, in square index order (1一, 1二, … 1九, 2一, … 9九): for a
    /// pass over the whole board without a lookup a square.
    #[inline]
    pub fn squares(&self) -> &[Option<Piece>; 81] {
        &self.board
    }

    /// The pieces `color` holds in hand.
    #[inline]
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.side
    }

    /// The SFEN move number: the ply number of the next move (1 at the start).
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Zobrist hash of board, hands and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn color_pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of the pieces of `kind`, of both sides.
    #[inline]
    pub fn kind_pieces(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// Everything that moves like a gold: 金 と 杏 圭 全.
    #[inline]
    pub(crate) fn gold_movers(&self) -> Bitboard {
        let k = &self.by_kind;
        k[PieceKind::Gold.index()]
            | k[PieceKind::ProPawn.index()]
            | k[PieceKind::ProLance.index()]
            | k[PieceKind::ProKnight.index()]
            | k[PieceKind::ProSilver.index()]
    }

    /// Where `color`'s king stands; `None` if it has none (tsume problems, some studies).
    #[inline]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// Pieces of the side to move's opponent that attack the side to move's king.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.is_nonempty()
    }

    /// The moves played since this position was set up, oldest first.
    pub fn moves_played(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|s| s.mv)
    }

    /// The [`Position::hash`] of the position before each move played since this position
    /// was set up, oldest first: with [`Position::hash`] itself, the hash of every position
    /// of the line, kept as the moves were played (an index of a game's positions needs no
    /// second replay).
    ///
    /// ```
    /// use kifu_shogi::Position;
    ///
    /// let mut pos = Position::startpos();
    /// let start = pos.hash();
    /// pos.play(pos.parse_usi_move("7g7f").unwrap()).unwrap();
    /// assert_eq!(pos.hashes_played().collect::<Vec<_>>(), [start]);
    /// ```
    pub fn hashes_played(&self) -> impl ExactSizeIterator<Item = u64> + '_ {
        self.history.iter().map(|s| s.hash)
    }

    /// The piece a move would move (the dropped piece for a drop), before promotion.
    pub fn moved_piece(&self, mv: Move) -> Option<Piece> {
        match mv.from() {
            Some(from) => self.piece_at(from),
            None => mv.drop_kind().map(|k| Piece::new(self.side, k)),
        }
    }

    /// The squares a piece of this kind and colour on `sq` attacks, given this position's occupancy.
    #[inline]
    pub fn attacks_from(&self, piece: Piece, sq: Square) -> Bitboard {
        attacks_of(piece.kind, piece.color, sq, self.occupied())
    }

    /// Pieces of `by` attacking `sq` when the board's occupancy is `occupied`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let opp = by.flip();
        let k = &self.by_kind;
        let them = self.by_color[by.index()];
        let mut a = (attacks::pawn(opp, sq) & k[PieceKind::Pawn.index()])
            | (attacks::knight(opp, sq) & k[PieceKind::Knight.index()])
            | (attacks::silver(opp, sq) & k[PieceKind::Silver.index()])
            | (attacks::gold(opp, sq) & self.gold_movers())
            | (attacks::king(sq)
                & (k[PieceKind::King.index()]
                    | k[PieceKind::Horse.index()]
                    | k[PieceKind::Dragon.index()]));
        let lances = k[PieceKind::Lance.index()] & them;
        if (attacks::lance_pseudo(opp, sq) & lances).is_nonempty() {
            a |= attacks::lance(opp, sq, occupied) & lances;
        }
        let rooks = (k[PieceKind::Rook.index()] | k[PieceKind::Dragon.index()]) & them;
        if (attacks::rook_pseudo(sq) & rooks).is_nonempty() {
            a |= attacks::rook(sq, occupied) & rooks;
        }
        let bishops = (k[PieceKind::Bishop.index()] | k[PieceKind::Horse.index()]) & them;
        if (attacks::bishop_pseudo(sq) & bishops).is_nonempty() {
            a |= attacks::bishop(sq, occupied) & bishops;
        }
        a & them
    }

    /// Whether any piece of `by` attacks `sq`: [`Position::attackers_to`] as a yes or no. It
    /// looks only at the few enemy pieces that could: those next to `sq` (one relation
    /// look-up each), the knights a jump away, and the sliders on a line through `sq` (one ray
    /// scan each), where `attackers_to` builds every kind's attack set. A legal king move, the
    /// common caller, is one where the answer is no, so every candidate gets looked at.
    #[inline]
    pub(crate) fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let k = &self.by_kind;
        let them = self.by_color[by.index()];
        let near = attacks::king(sq);
        for from in near & them {
            if let Some(piece) = self.board[from.index()]
                && attacks::attacks_if_clear(piece.kind, by, from, sq)
            {
                return true;
            }
        }
        if (attacks::knight(by.flip(), sq) & k[PieceKind::Knight.index()] & them).is_nonempty() {
            return true;
        }
        let rooks = k[PieceKind::Rook.index()] | k[PieceKind::Dragon.index()];
        let bishops = k[PieceKind::Bishop.index()] | k[PieceKind::Horse.index()];
        let lances = k[PieceKind::Lance.index()];
        let sliders = ((attacks::rook_pseudo(sq) & rooks)
            | (attacks::bishop_pseudo(sq) & bishops)
            | (attacks::lance_pseudo(by.flip(), sq) & lances))
            & them
            & !near;
        for from in sliders {
            if let Some(dir) = attacks::direction(sq, from)
                && attacks::first_occupied(sq, dir, occupied | Bitboard::from_square(from))
                    == Some(from)
            {
                return true;
            }
        }
        false
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.king_square(self.side) {
            Some(k) => self.attackers_to(k, self.side.flip(), self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Pieces of `color` that stand alone between its king and an enemy slider.
    pub(crate) fn pinned(&self, color: Color, king: Square, occupied: Bitboard) -> Bitboard {
        let k = &self.by_kind;
        let them = self.by_color[color.flip().index()];
        let snipers = ((attacks::rook_pseudo(king)
            & (k[PieceKind::Rook.index()] | k[PieceKind::Dragon.index()]))
            | (attacks::bishop_pseudo(king)
                & (k[PieceKind::Bishop.index()] | k[PieceKind::Horse.index()]))
            | (attacks::lance_pseudo(color, king) & k[PieceKind::Lance.index()]))
            & them;
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(king, s) & occupied;
            if b.is_nonempty() && !b.has_several() {
                pinned |= b;
            }
        }
        pinned & self.by_color[color.index()]
    }

    /// Whether `color`'s piece on `from`, which lies in direction `dir` from its `king`, is
    /// pinned: it is the first piece from the king that way, and the next one is an enemy
    /// slider that would attack the king without it. [`Position::pinned`] for one piece, with
    /// one ray instead of every enemy slider's. Inlined into `check_move`, its one caller
    /// on every move: the call cost a third of its work.
    #[inline(always)]
    pub(crate) fn is_pinned_along(
        &self,
        color: Color,
        king: Square,
        dir: usize,
        from: Square,
    ) -> bool {
        let on_ray = attacks::ray(king, dir) & self.occupied();
        if attacks::nearest(dir, on_ray) != Some(from) {
            return false;
        }
        let Some(sq) = attacks::nearest(dir, on_ray ^ Bitboard::from_square(from)) else {
            return false;
        };
        match self.board[sq.index()] {
            Some(sniper) => {
                sniper.color != color
                    && attacks::attacks_if_clear(sniper.kind, sniper.color, sq, king)
            }
            None => false,
        }
    }

    /// Plays a move, which must be legal (see [`Position::check_move`] or
    /// [`Position::legal_moves`]). An illegal move leaves the position in an
    /// unspecified but memory-safe state; use [`Position::play`] for
    /// moves from outside.
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.side;
        let to = mv.to();
        let hash = self.hash;
        // What undo needs is gathered as the move is made and saved at the end, so that fewer
        // values stay live across the board update.
        let (moved, placed, captured) = if let Some(kind) = mv.drop_kind() {
            let hand = &mut self.hands[us.index()];
            let before = hand.count(kind);
            if before == 0 {
                return;
            }
            let after = hand.remove(kind);
            self.hash ^= KEYS.hand[us.index()][kind.index()][usize::from(before)]
                ^ KEYS.hand[us.index()][kind.index()][usize::from(after)];
            let captured = self.remove(to);
            self.put(Piece::new(us, kind), to);
            (kind, kind, captured)
        } else {
            let from = Square::from_index_unchecked(mv.raw_from() as u32);
            let Some(piece) = self.remove(from) else {
                return;
            };
            let captured = self.remove(to);
            if let Some(captured) = captured {
                let kind = captured.kind.unpromote();
                if kind.is_hand_kind() {
                    let hand = &mut self.hands[us.index()];
                    let before = hand.count(kind);
                    let after = hand.add(kind).min(18);
                    self.hash ^= KEYS.hand[us.index()][kind.index()][usize::from(before).min(18)]
                        ^ KEYS.hand[us.index()][kind.index()][usize::from(after)];
                }
            }
            let kind = if mv.is_promotion() {
                piece.kind.promote().unwrap_or(piece.kind)
            } else {
                piece.kind
            };
            self.put(Piece::new(us, kind), to);
            (piece.kind, kind, captured)
        };
        self.side = us.flip();
        self.hash ^= KEYS.white_to_move;
        self.move_number = self.move_number.saturating_add(1);
        if Position::touches_king(moved, captured) {
            self.refresh_kings();
        }
        let checkers = self.checkers_after(mv, us, placed);
        self.history.push(StateInfo {
            mv,
            moved,
            captured,
            hash,
            checkers: self.checkers,
        });
        self.checkers = checkers;
    }

    /// The checkers of the side now to move after `us` played `mv`, which left `placed` on its
    /// destination: only the piece that moved
    /// can give check directly, and only a slider behind the square it left can give check by
    /// discovery (the mover's opponent was not in check before the move). Each is one table
    /// look-up and at most one ray scan, where [`Position::attackers_to`] would look at every
    /// kind of piece; record replays and perft make a move per node.
    #[inline]
    fn checkers_after(&self, mv: Move, us: Color, placed: PieceKind) -> Bitboard {
        let Some(king) = self.king_square(us.flip()) else {
            return Bitboard::EMPTY;
        };
        let to = mv.to();
        let mut checkers = Bitboard::EMPTY;
        if attacks::attacks_square(placed, us, to, king, self.occupied()) {
            checkers = Bitboard::from_square(to);
        }
        if let Some(from) = mv.from()
            && let Some(dir) = attacks::direction(king, from)
            && let Some(sq) = attacks::first_occupied(king, dir, self.occupied())
            && let Some(piece) = self.board[sq.index()]
            && piece.color == us
            && attacks::attacks_if_clear(piece.kind, us, sq, king)
        {
            checkers |= Bitboard::from_square(sq);
        }
        checkers
    }

    /// Takes back the last move played; `None` when there is none.
    pub fn undo(&mut self) -> Option<Move> {
        let state = self.history.pop()?;
        let us = self.side.flip();
        let mv = state.mv;
        let to = mv.to();
        self.remove(to);
        match mv.from() {
            None => {
                self.hands[us.index()].add(state.moved);
            }
            Some(from) => {
                self.put(Piece::new(us, state.moved), from);
                if let Some(captured) = state.captured {
                    let kind = captured.kind.unpromote();
                    if kind.is_hand_kind() {
                        self.hands[us.index()].remove(kind);
                    }
                }
            }
        }
        if let Some(captured) = state.captured {
            self.put(captured, to);
        }
        if Position::touches_king(state.moved, state.captured) {
            self.refresh_kings();
        }
        self.side = us;
        self.move_number = self.move_number.saturating_sub(1).max(1);
        self.hash = state.hash;
        self.checkers = state.checkers;
        Some(mv)
    }

    /// Checks a move and plays it if it is legal; an illegal move leaves the position as it
    /// was and says which rule it breaks.
    pub fn play(&mut self, mv: Move) -> Result<(), crate::IllegalMove> {
        self.check_move(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Makes room for `moves` more moves in the history, so that a replay of a game does not
    /// regrow it move by move.
    pub fn reserve(&mut self, moves: usize) {
        self.history.reserve(moves);
    }

    /// Takes the room this position's move history has, leaving it none, for another
    /// position to be given ([`Position::give_history_room`]). The moves in it are
    /// forgotten: this position has no history afterwards, as if set up here.
    ///
    /// A reader that replays record after record on fresh start positions keeps the room
    /// (a game's moves, 8 KB) between them, where allocating and freeing it cost hundreds
    /// of instructions a record and keeping the whole position meant copying it twice.
    ///
    /// ```
    /// use kifu_shogi::Position;
    ///
    /// let mut played = Position::startpos();
    /// played.reserve(256);
    /// played.play("7g7f".parse().unwrap()).unwrap();
    /// let room = played.take_history_room();
    /// assert_eq!(played.moves_played().count(), 0);
    ///
    /// let mut next = Position::startpos();
    /// next.give_history_room(room);
    /// next.play("2g2f".parse().unwrap()).unwrap();
    /// assert_eq!(next.moves_played().count(), 1);
    /// assert!(next.history_room() >= 256);
    /// ```
    pub fn take_history_room(&mut self) -> HistoryRoom {
        let mut history = std::mem::take(&mut self.history);
        history.clear();
        HistoryRoom(history)
    }

    /// Gives this position the room another's history had ([`Position::take_history_room`]),
    /// when it is more than its own; the moves it has played stay.
    pub fn give_history_room(&mut self, room: HistoryRoom) {
        let HistoryRoom(mut history) = room;
        if history.capacity() > self.history.capacity() {
            history.append(&mut self.history);
            self.history = history;
        }
    }

    /// How many moves the history holds without growing.
    pub fn history_room(&self) -> usize {
        self.history.capacity()
    }

    /// The same position with the move history forgotten (it becomes the set-up position).
    pub fn without_history(&self) -> Position {
        let mut p = self.clone();
        p.history.clear();
        p
    }

    /// A KIF-style board diagram (BOD) with hands and side to move.
    pub fn diagram(&self) -> String {
        use std::fmt::Write;
        const FILES: &str = "  ９ ８ ７ ６ ５ ４ ３ ２ １";
        const RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
        let mut s = String::new();
        let _ = writeln!(s, "後手の持駒：{}", self.hand(Color::White));
        let _ = writeln!(s, "{FILES}");
        s.push_str("+---------------------------+\n");
        for rank in 1..=9 {
            s.push('|');
            for file in (1..=9).rev() {
                let sq = Square::new(file, rank).expect("1..=9");
                match self.piece_at(sq) {
                    None => s.push_str(" ・"),
                    Some(p) => {
                        s.push(if p.color == Color::Black { ' ' } else { 'v' });
                        s.push_str(p.kind.kanji());
                    }
                }
            }
            let _ = writeln!(s, "|{}", RANKS[rank as usize - 1]);
        }
        s.push_str("+---------------------------+\n");
        let _ = writeln!(s, "先手の持駒：{}", self.hand(Color::Black));
        let _ = writeln!(s, "{}番", self.side.japanese());
        s
    }
}

impl Clone for Position {
    /// The copy holds the history it has and no more: a start position is copied into every
    /// record read, and room for a game's moves (12 KB) is the replay's to ask for, with
    /// [`Position::reserve`].
    fn clone(&self) -> Position {
        let history = self.history.clone();
        Position {
            board: self.board,
            by_color: self.by_color,
            by_kind: self.by_kind,
            hands: self.hands,
            side: self.side,
            move_number: self.move_number,
            hash: self.hash,
            checkers: self.checkers,
            kings: self.kings,
            history,
        }
    }

    /// Copies `source` into this position keeping the room its history has: a replay that
    /// reserved room for a game's moves and then learns its start position keeps that room.
    fn clone_from(&mut self, source: &Position) {
        self.board = source.board;
        self.by_color = source.by_color;
        self.by_kind = source.by_kind;
        self.hands = source.hands;
        self.side = source.side;
        self.move_number = source.move_number;
        self.hash = source.hash;
        self.checkers = source.checkers;
        self.kings = source.kings;
        self.history.clone_from(&source.history);
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

impl PartialEq for Position {
    /// Same board, hands, side to move and move number; history is not compared.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.hands == other.hands
            && self.side == other.side
            && self.move_number == other.move_number
    }
}

impl Eq for Position {}

/// Squares a piece attacks (moves to or captures on) given the occupancy.
#[inline]
pub(crate) fn attacks_of(
    kind: PieceKind,
    color: Color,
    sq: Square,
    occupied: Bitboard,
) -> Bitboard {
    match kind {
        PieceKind::Pawn => attacks::pawn(color, sq),
        PieceKind::Lance => attacks::lance(color, sq, occupied),
        PieceKind::Knight => attacks::knight(color, sq),
        PieceKind::Silver => attacks::silver(color, sq),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => attacks::gold(color, sq),
        PieceKind::Bishop => attacks::bishop(sq, occupied),
        PieceKind::Rook => attacks::rook(sq, occupied),
        PieceKind::King => attacks::king(sq),
        PieceKind::Horse => attacks::bishop(sq, occupied) | attacks::king(sq),
        PieceKind::Dragon => attacks::rook(sq, occupied) | attacks::king(sq),
    }
}

/// A pawn or lance on its last rank, or a knight on its last two, could never move again.
#[inline]
pub(crate) fn must_promote(kind: PieceKind, color: Color, to: Square) -> bool {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => to.relative_rank(color) == 1,
        PieceKind::Knight => to.relative_rank(color) <= 2,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `is_attacked` says yes exactly when `attackers_to` finds someone, on every square of
    /// positions from random play, with the board's occupancy and with a king lifted off it.
    #[test]
    fn is_attacked_agrees_with_attackers_to() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(11);
        let starts = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        ];
        let mut positions = 0;
        for _ in 0..40 {
            let mut pos = Position::from_sfen(starts[rng.random_range(0..2)]).unwrap();
            for _ in 0..150 {
                for by in Color::ALL {
                    let kings = pos.pieces(by.flip(), PieceKind::King);
                    for occupied in [pos.occupied(), pos.occupied() ^ kings] {
                        for sq in Square::all() {
                            assert_eq!(
                                pos.is_attacked(sq, by, occupied),
                                pos.attackers_to(sq, by, occupied).is_nonempty(),
                                "{sq} by {by:?} in {}",
                                pos.to_sfen()
                            );
                        }
                    }
                }
                positions += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(positions > 1_000, "{positions}");
    }

    #[test]
    fn lenient_construction_tolerates_double_pawns_only_as_warnings() {
        let sq = |s: &str| Square::parse(s).unwrap();
        let pieces = [
            (sq("5i"), Piece::new(Color::Black, PieceKind::King)),
            (sq("1a"), Piece::new(Color::White, PieceKind::King)),
            (sq("2a"), Piece::new(Color::White, PieceKind::Pawn)),
            (sq("2c"), Piece::new(Color::White, PieceKind::Pawn)),
        ];
        let strict = Position::from_parts(pieces, [Hand::EMPTY; 2], Color::Black, 1);
        assert_eq!(
            strict,
            Err(PositionError::DoublePawn {
                color: Color::White,
                file: 2
            })
        );
        let (pos, warnings) =
            Position::from_parts_lenient(pieces, [Hand::EMPTY; 2], Color::Black, 1).unwrap();
        assert_eq!(
            warnings,
            vec![PositionError::DoublePawn {
                color: Color::White,
                file: 2
            }]
        );
        assert!(pos.has_legal_moves());
        let kings = [
            (sq("5i"), Piece::new(Color::Black, PieceKind::King)),
            (sq("4i"), Piece::new(Color::Black, PieceKind::King)),
        ];
        assert!(Position::from_parts_lenient(kings, [Hand::EMPTY; 2], Color::Black, 1).is_err());
    }
}
