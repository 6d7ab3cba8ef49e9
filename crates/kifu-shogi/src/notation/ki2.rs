//! KI2 move words, the JSA notation: `▲７六歩`, `△同　銀`, `▲５八金右`, `▲１三角成`,
//! `▲５五角打`. The relative words (右 左 直 上 寄 引 打) are resolved against a [`Position`]
//! when reading and chosen minimally, as the JSA rules say, when writing. The KI2 file (its
//! header, several moves to a line, `まで`) belongs to `kifu-records`.
//!
//! The rules are the Japan Shogi Association's page on writing game records (日本将棋連盟,
//! "棋譜の表記方法"): the destination, the piece, then — only when several pieces of that kind
//! could move there — a word for where the piece stands (右 左 直) and one for how it moves
//! (上 寄 引), the fewest that single it out; then 成 for a promotion, 不成 when a promotion
//! was possible and declined, and 打 for a drop only when a piece on the board could also
//! reach the square.
//!
//! ```
//! use kifu_shogi::Position;
//! use kifu_shogi::notation::ki2;
//!
//! let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/3GGG2K b - 1").unwrap();
//! let (written, _) = ki2::parse("▲５八金直").unwrap();
//! let mv = ki2::resolve(&pos, None, &written).unwrap();
//! assert_eq!(mv.usi(), "5i5h");
//! assert_eq!(ki2::write(&pos, mv, None), "５八金直");
//! ```

use super::kif::{Action, Destination, FILES, RANKS, kanji_digit, piece_name};
use crate::{Color, Move, Piece, PieceKind, Position, Square};

/// Why text is not a KI2 move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Ki2ParseError {
    /// After the optional side mark comes neither a square nor `同`.
    #[error("a move starts with a square (`７六`) or `同`")]
    NoDestination,
    /// The destination is followed by no piece name.
    #[error("unknown piece name")]
    UnknownPiece,
}

/// Why a KI2 move names no legal move of the position, or more than one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Ki2ResolveError {
    /// The `▲`/`△` mark names the side not to move.
    #[error("it is {turn}'s turn, but the move is marked for the other side")]
    WrongSide {
        /// The side to move.
        turn: Color,
    },
    /// The destination's file or rank is not 1–9.
    #[error("the destination is off the board")]
    OffBoard,
    /// `同` (the previous move's square) at the start of a game.
    #[error("`同` but there is no previous move")]
    NoPreviousMove,
    /// `打`, but the drop is not legal (nothing in hand, an occupied square, 二歩, …).
    #[error("{} cannot be dropped on {}{}", .piece.kif_name(), .to.file(), .to.rank())]
    CannotDrop {
        /// The kind to drop.
        piece: PieceKind,
        /// The destination.
        to: Square,
    },
    /// No piece of the kind can legally move there as written (promoting or not), and no
    /// drop fits.
    #[error("no {} can move to {}{}", .piece.kif_name(), .to.file(), .to.rank())]
    NoPiece {
        /// The kind named.
        piece: PieceKind,
        /// The destination.
        to: Square,
    },
    /// Pieces of the kind can move there, but none fits the relative and movement words.
    #[error("no piece matches the relative words")]
    NoMatch,
    /// Several pieces of the kind fit what is written: a word the JSA rules require is
    /// missing.
    #[error(
        "{count} pieces of that kind can move there; a relative word (右 左 直 上 寄 引) is needed"
    )]
    Ambiguous {
        /// How many moves fit.
        count: usize,
    },
}

/// `右` / `左` / `直`: which of several pieces moved, seen from the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relative {
    /// `右`: the piece on the mover's right (for Black the lower file, for White the higher).
    Right,
    /// `左`: the piece on the mover's left.
    Left,
    /// `直`: the piece that moves straight forward (golds, silvers and the gold-moving
    /// promoted pieces only).
    Straight,
}

/// `上` / `寄` / `引`: how the piece moved, seen from the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Movement {
    /// `上` (also read as `行`): the piece moves forward, towards the opponent.
    Up,
    /// `寄`: the piece moves along its rank.
    Sideways,
    /// `引`: the piece moves backward.
    Down,
}

/// A KI2 move as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ki2Move {
    /// From the `▲`/`△` mark, if any.
    pub color: Option<Color>,
    /// The destination square, or `同` for the previous move's.
    pub to: Destination,
    /// The piece before the move.
    pub piece: PieceKind,
    /// `右` / `左` / `直`, if written.
    pub relative: Option<Relative>,
    /// `上` / `寄` / `引`, if written.
    pub movement: Option<Movement>,
    /// `成`, `不成` (or `生`), `打`, or nothing.
    pub action: Action,
}

/// Reads one move at the start of `s`; returns it and the bytes it took.
pub fn parse(s: &str) -> Result<(Ki2Move, usize), Ki2ParseError> {
    let mut rest = s;
    let mut color = None;
    if let Some(c) = rest.chars().next() {
        color = match c {
            '▲' | '☗' | '▼' => Some(Color::Black),
            '△' | '☖' | '▽' => Some(Color::White),
            _ => None,
        };
        if color.is_some() {
            rest = &rest[c.len_utf8()..];
        }
    }
    let to = if let Some(r) = rest.strip_prefix('同') {
        rest = r.trim_start_matches(['\u{3000}', ' ']);
        Destination::Same
    } else {
        let mut cs = rest.chars();
        match (
            cs.next().and_then(kanji_digit),
            cs.next().and_then(kanji_digit),
        ) {
            (Some(f), Some(r)) => {
                rest = cs.as_str();
                // Printed media sometimes write `７六同歩`.
                rest = rest.strip_prefix('同').unwrap_or(rest);
                Destination::Square(f, r)
            }
            _ => return Err(Ki2ParseError::NoDestination),
        }
    };
    let (piece, len) = piece_name(rest).ok_or(Ki2ParseError::UnknownPiece)?;
    rest = &rest[len..];
    let relative = [
        ('右', Relative::Right),
        ('左', Relative::Left),
        ('直', Relative::Straight),
    ]
    .into_iter()
    .find_map(|(c, r)| rest.strip_prefix(c).map(|after| (r, after)))
    .map(|(r, after)| {
        rest = after;
        r
    });
    let movement = [
        ('上', Movement::Up),
        ('行', Movement::Up),
        ('寄', Movement::Sideways),
        ('引', Movement::Down),
    ]
    .into_iter()
    .find_map(|(c, m)| rest.strip_prefix(c).map(|after| (m, after)))
    .map(|(m, after)| {
        rest = after;
        m
    });
    let action = if let Some(r) = rest.strip_prefix("不成") {
        rest = r;
        Action::NoPromote
    } else if let Some(r) = rest.strip_prefix('生') {
        rest = r;
        Action::NoPromote
    } else if let Some(r) = rest.strip_prefix('成') {
        rest = r;
        Action::Promote
    } else if let Some(r) = rest.strip_prefix('打') {
        rest = r;
        Action::Drop
    } else {
        Action::None
    };
    let m = Ki2Move {
        color,
        to,
        piece,
        relative,
        movement,
        action,
    };
    Ok((m, s.len() - rest.len()))
}

/// Reads the move at the start of `b`, the UTF-8 bytes of a KI2 move, when it has the shape
/// of nearly every KI2 move — `▲` or `△` (or no mark), a full-width file and a kanji rank or
/// `同` (with one full-width space or none), a piece name, and `成`, `不成`, `生`, `打` or
/// nothing — and says how many bytes it took; `None` for anything else (relative words
/// among it), which [`parse`] reads. Where it gives a move it is the one `parse` gives, with
/// the same length (a unit test holds the two together).
///
/// ```
/// use kifu_shogi::notation::ki2;
///
/// let text = "▲同　銀成    △３四歩";
/// assert_eq!(ki2::parse_well_formed(text.as_bytes()), ki2::parse(text).ok());
/// assert_eq!(ki2::parse_well_formed("▲５八金右".as_bytes()), None); // `parse` reads it
/// ```
#[inline]
pub fn parse_well_formed(b: &[u8]) -> Option<(Ki2Move, usize)> {
    use super::kif::{SAME, WIDE_SPACE, action_bytes, piece_bytes, rank_kanji, three};
    let (color, mut at) = match three(b, 0)? {
        [0xE2, 0x96, 0xB2] => (Some(Color::Black), 3),
        [0xE2, 0x96, 0xB3] => (Some(Color::White), 3),
        _ => (None, 0),
    };
    let to = match three(b, at)? {
        SAME => {
            at += if three(b, at + 3) == Some(WIDE_SPACE) {
                6
            } else {
                3
            };
            Destination::Same
        }
        [0xEF, 0xBC, file @ 0x91..=0x99] => {
            let rank = rank_kanji(three(b, at + 3)?)?;
            at += 6;
            Destination::Square(file - 0x90, rank)
        }
        _ => return None,
    };
    let (piece, len) = piece_bytes(b, at)?;
    at += len;
    let action = match three(b, at) {
        // 右 左 直 上 行 寄 引: the relative and movement words.
        Some(
            [0xE5, 0x8F, 0xB3]
            | [0xE5, 0xB7, 0xA6]
            | [0xE7, 0x9B, 0xB4]
            | [0xE4, 0xB8, 0x8A]
            | [0xE8, 0xA1, 0x8C]
            | [0xE5, 0xAF, 0x84]
            | [0xE5, 0xBC, 0x95],
        ) => return None,
        _ => {
            let (action, len) = action_bytes(b, at);
            at += len;
            action
        }
    };
    Some((
        Ki2Move {
            color,
            to,
            piece,
            relative: None,
            movement: None,
            action,
        },
        at,
    ))
}

/// How far forward a move goes, in the mover's frame (positive = towards the opponent).
fn forward(color: Color, from: Square, to: Square) -> i8 {
    let d = from.rank() as i8 - to.rank() as i8;
    if color == Color::Black { d } else { -d }
}

fn movement_of(color: Color, from: Square, to: Square) -> Movement {
    match forward(color, from, to) {
        f if f > 0 => Movement::Up,
        0 => Movement::Sideways,
        _ => Movement::Down,
    }
}

/// Rightness of a square for the mover: larger is further right (Black's right is file 1).
fn rightness(color: Color, sq: Square) -> i8 {
    let file = sq.file() as i8;
    if color == Color::Black { -file } else { file }
}

fn is_straight(color: Color, piece: PieceKind, from: Square, to: Square) -> bool {
    from.file() == to.file()
        && forward(color, from, to) == 1
        && !matches!(piece, PieceKind::Horse | PieceKind::Dragon)
}

/// Keeps the squares a relative word selects.
fn select_relative(
    color: Color,
    piece: PieceKind,
    to: Square,
    from: &mut Vec<Square>,
    r: Relative,
) {
    match r {
        Relative::Straight => from.retain(|&f| is_straight(color, piece, f, to)),
        Relative::Right | Relative::Left => {
            let key = |sq: Square| {
                if r == Relative::Right {
                    rightness(color, sq)
                } else {
                    -rightness(color, sq)
                }
            };
            if let Some(best) = from.iter().map(|&s| key(s)).max() {
                from.retain(|&s| key(s) == best);
            }
        }
    }
}

/// The legal move a KI2 move denotes, or why there is none (or several). `prev_to` is the
/// destination of the previous move, which `同` stands for.
///
/// ```
/// use kifu_shogi::Position;
/// use kifu_shogi::notation::ki2::{self, Ki2ResolveError};
///
/// // Three golds on 6i, 5i and 4i can all go to 5h.
/// let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/3GGG2K b - 1").unwrap();
/// let (bare, _) = ki2::parse("５八金").unwrap();
/// assert_eq!(ki2::resolve(&pos, None, &bare), Err(Ki2ResolveError::Ambiguous { count: 3 }));
/// let (left, _) = ki2::parse("５八金左").unwrap();
/// assert_eq!(ki2::resolve(&pos, None, &left).unwrap().usi(), "6i5h");
/// ```
pub fn resolve(
    pos: &Position,
    prev_to: Option<Square>,
    m: &Ki2Move,
) -> Result<Move, Ki2ResolveError> {
    let color = pos.turn();
    if let Some(c) = m.color
        && c != color
    {
        return Err(Ki2ResolveError::WrongSide { turn: color });
    }
    let to = match m.to {
        Destination::Square(f, r) => Square::new(f, r).ok_or(Ki2ResolveError::OffBoard)?,
        Destination::Same => prev_to.ok_or(Ki2ResolveError::NoPreviousMove)?,
    };
    let promote = m.action == Action::Promote;
    let mut board: Vec<(Square, Move)> = Vec::new();
    let mut drop = None;
    for mv in pos.legal_moves().iter().copied() {
        if mv.to() != to {
            continue;
        }
        match mv.from() {
            None if mv.drop_kind() == Some(m.piece) => drop = Some(mv),
            Some(from)
                if pos.piece_at(from).map(|p| p.kind) == Some(m.piece)
                    && mv.is_promotion() == promote =>
            {
                board.push((from, mv));
            }
            _ => {}
        }
    }
    if m.action == Action::Drop {
        return drop.ok_or(Ki2ResolveError::CannotDrop { piece: m.piece, to });
    }
    if board.is_empty() {
        if let Some(d) = drop
            && m.relative.is_none()
            && m.movement.is_none()
        {
            return Ok(d);
        }
        return Err(Ki2ResolveError::NoPiece { piece: m.piece, to });
    }
    let mut from: Vec<Square> = board.iter().map(|b| b.0).collect();
    if let Some(mv) = m.movement {
        from.retain(|&f| movement_of(color, f, to) == mv);
    }
    if let Some(r) = m.relative {
        select_relative(color, m.piece, to, &mut from, r);
    }
    match from.as_slice() {
        [one] => Ok(board.iter().find(|b| b.0 == *one).expect("from the list").1),
        [] => Err(Ki2ResolveError::NoMatch),
        _ => Err(Ki2ResolveError::Ambiguous { count: from.len() }),
    }
}

/// The move [`resolve`] finds for `m` when `m` has no relative or movement word (右 左 直
/// 上 寄 引) and names exactly one legal move; `None` otherwise, where `resolve` gives the
/// answer (the move the words pick, or why there is none).
///
/// It looks only at the pieces of the kind named that can reach the square, and has the
/// rules check each, instead of generating every legal move of the position as `resolve`
/// does: the plain `▲７六歩` is nearly every move of a KI2 file. A test holds it to
/// `resolve` over every destination, piece and action in many positions.
///
/// ```
/// use kifu_shogi::Position;
/// use kifu_shogi::notation::ki2;
///
/// let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/3GGG2K b - 1").unwrap();
/// let (ahead, _) = ki2::parse("▲４八金").unwrap();
/// assert_eq!(ki2::resolve_plain(&pos, None, &ahead), ki2::resolve(&pos, None, &ahead).ok());
/// let (three_can, _) = ki2::parse("▲５八金").unwrap();
/// assert_eq!(ki2::resolve_plain(&pos, None, &three_can), None); // ambiguous: `resolve` says so
/// ```
#[inline]
pub fn resolve_plain(pos: &Position, prev_to: Option<Square>, m: &Ki2Move) -> Option<Move> {
    if m.relative.is_some() || m.movement.is_some() {
        return None;
    }
    let color = pos.turn();
    if m.color.is_some_and(|c| c != color) {
        return None;
    }
    let to = match m.to {
        Destination::Square(f, r) => Square::new(f, r)?,
        Destination::Same => prev_to?,
    };
    let drop = || {
        let mv = m.piece.is_hand_kind().then(|| Move::drop(m.piece, to))?;
        pos.check_move(mv).is_ok().then_some(mv)
    };
    if m.action == Action::Drop {
        return drop();
    }
    let promote = m.action == Action::Promote;
    // The squares a piece of the kind reaches `to` from are those the same piece of the
    // other side reaches from `to`.
    let reach =
        pos.attacks_from(Piece::new(color.flip(), m.piece), to) & pos.pieces(color, m.piece);
    let mut found = None;
    for from in reach {
        let mv = Move::normal(from, to, promote);
        if pos.check_move(mv).is_ok() {
            if found.is_some() {
                return None;
            }
            found = Some(mv);
        }
    }
    // No piece on the board can make the move: a drop, which KI2 writes without `打` then.
    found.or_else(drop)
}

/// The fewest relative words that single out `mv` among the pieces of its kind that could
/// move to the same square, plus whether a drop needs `打`.
///
/// "Could move" counts every piece whose movement reaches the square, pinned pieces and
/// pieces that would leave the king in check included: that is what the JSA rules and every
/// reader of KI2 (tsshogi, Kifu for JS, python-shogi, cshogi) count, so a word left out because
/// the other piece was pinned makes the move ambiguous or misread for them (`▲５九銀左`,
/// `▲３二龍寄`, `△２二銀打`). kifu's reader accepts the words either way.
pub fn disambiguation(pos: &Position, mv: Move) -> (Option<Relative>, Option<Movement>, bool) {
    let color = pos.turn();
    let to = mv.to();
    let piece = match mv.from() {
        Some(f) => pos.piece_at(f).map(|p| p.kind),
        None => mv.drop_kind(),
    };
    let Some(piece) = piece else {
        return (None, None, false);
    };
    let mover = Piece::new(color, piece);
    let others: Vec<Square> = pos
        .pieces(color, piece)
        .filter(|&f| Some(f) != mv.from() && pos.attacks_from(mover, f).contains(to))
        .collect();
    let Some(from) = mv.from() else {
        return (None, None, !others.is_empty());
    };
    if others.is_empty() {
        return (None, None, false);
    }
    let all: Vec<Square> = std::iter::once(from)
        .chain(others.iter().copied())
        .collect();
    let unique = |rel: Option<Relative>, mov: Option<Movement>| {
        let mut left = all.clone();
        if let Some(m) = mov {
            left.retain(|&f| movement_of(color, f, to) == m);
        }
        if let Some(r) = rel {
            select_relative(color, piece, to, &mut left, r);
        }
        left == [from]
    };
    let mov = movement_of(color, from, to);
    if piece != PieceKind::Knight && unique(None, Some(mov)) {
        return (None, Some(mov), false);
    }
    let mut rels = vec![Relative::Right, Relative::Left];
    if is_straight(color, piece, from, to) {
        rels.insert(0, Relative::Straight);
    }
    for &r in &rels {
        if unique(Some(r), None) {
            return (Some(r), None, false);
        }
    }
    for &r in &rels {
        if unique(Some(r), Some(mov)) {
            return (Some(r), Some(mov), false);
        }
    }
    (None, Some(mov), false)
}

/// Whether the piece could also have moved there without (or with) promoting.
fn promotion_was_optional(pos: &Position, mv: Move) -> bool {
    let Some(from) = mv.from() else { return false };
    let other = Move::normal(from, mv.to(), !mv.is_promotion());
    pos.check_move(other).is_ok()
}

/// The JSA notation of a legal move, without the side mark: `７六歩`, `同　銀`, `５八金右`,
/// `２二角成`, `５五角打`, `２三銀不成`.
pub fn write(pos: &Position, mv: Move, prev_to: Option<Square>) -> String {
    let to = mv.to();
    let piece = match mv.from() {
        Some(f) => pos.piece_at(f).map_or(PieceKind::Pawn, |p| p.kind),
        None => mv.drop_kind().unwrap_or(PieceKind::Pawn),
    };
    let (rel, mov, needs_drop_mark) = disambiguation(pos, mv);
    let mut tail = String::from(piece.kif_name());
    if let Some(r) = rel {
        tail.push(match r {
            Relative::Right => '右',
            Relative::Left => '左',
            Relative::Straight => '直',
        });
    }
    if let Some(m) = mov {
        tail.push(match m {
            Movement::Up => '上',
            Movement::Sideways => '寄',
            Movement::Down => '引',
        });
    }
    if mv.is_promotion() {
        tail.push('成');
    } else if promotion_was_optional(pos, mv) {
        tail.push_str("不成");
    }
    if needs_drop_mark {
        tail.push('打');
    }
    let mut s = String::with_capacity(24);
    if prev_to == Some(to) {
        s.push('同');
        if tail.chars().count() == 1 {
            s.push('\u{3000}');
        }
    } else {
        s.push(FILES[to.file() as usize - 1]);
        s.push(RANKS[to.rank() as usize - 1]);
    }
    s.push_str(&tail);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions with pieces in hand, promoted pieces, several pieces of a kind able to reach
    /// one square, pins and checks, both sides to move.
    fn positions() -> Vec<Position> {
        let mut positions: Vec<Position> = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "4k4/9/4+P4/9/9/9/6+r2/9/4K4 w RBGSNLPbgsnl2p 1",
            "4k4/9/9/9/9/9/9/9/3GGG2K b - 1",
            "4k4/9/9/3S1S3/9/3S1S3/9/9/4K4 b - 1",
            "4k4/4r4/9/9/9/9/4G4/3G5/4K4 b P 1",
            "k8/9/9/9/4+R4/9/9/9/4K3+R b - 1",
            "4k4/9/9/9/9/9/9/2+B3+B2/4K4 b - 1",
        ]
        .into_iter()
        .map(|sfen| Position::from_sfen(sfen).unwrap())
        .collect();
        // Two games, one always playing the last legal move generated (it captures, promotes
        // and drops), one a move from the middle of the list.
        for middle in [false, true] {
            let mut game = Position::startpos();
            for ply in 0..150 {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = if middle {
                    moves[(ply * 7) % moves.len()]
                } else {
                    moves[moves.len() - 1]
                };
                game.play(mv).unwrap();
                if ply % 9 == 0 {
                    positions.push(game.clone());
                }
            }
        }
        positions
    }

    /// `parse_well_formed` reads what `parse` reads, to the byte, wherever it reads anything,
    /// over every combination of the usual and odd parts of a KI2 move; and it does read the
    /// usual shapes.
    #[test]
    fn well_formed_moves_read_as_parse_reads_them() {
        let marks = ["▲", "△", "☗", "▽", ""];
        let destinations = [
            "７六",
            "１一",
            "９九",
            "同",
            "同　",
            "同 ",
            "同　　",
            "76",
            "七六",
            "７7",
            "７六同",
            "７",
            "",
        ];
        let pieces = [
            "歩", "香", "桂", "銀", "金", "角", "飛", "玉", "王", "と", "成香", "杏", "成桂", "圭",
            "成銀", "全", "馬", "龍", "竜", "成", "成金", "ぬ", "",
        ];
        let words = ["", "右", "左", "直", "上", "行", "寄", "引", "左上", "右引"];
        let actions = ["", "成", "不成", "生", "打", "不"];
        let tails = ["", "    △３四歩", "　", "+", "x"];
        let mut read = 0;
        for mark in marks {
            for to in destinations {
                for piece in pieces {
                    for word in words {
                        for action in actions {
                            for tail in tails {
                                let text = format!("{mark}{to}{piece}{word}{action}{tail}");
                                let Some(fast) = parse_well_formed(text.as_bytes()) else {
                                    continue;
                                };
                                read += 1;
                                assert_eq!(parse(&text), Ok(fast), "{text}");
                            }
                        }
                    }
                }
            }
        }
        assert!(read > 5_000, "{read}");
        for text in [
            "▲７六歩",
            "△同　銀",
            "△同銀",
            "▲５五角打",
            "▲２三成銀",
            "▲２二角成",
            "△８八銀不成",
            "７六歩",
        ] {
            assert!(parse_well_formed(text.as_bytes()).is_some(), "{text}");
        }
    }

    /// Every destination (and `同`), piece, action and side mark, in every position: where
    /// the move has no relative word, the plain resolver gives what `resolve` gives when it
    /// gives a move, and `None` when it gives an error.
    #[test]
    fn the_plain_resolver_agrees_with_resolve() {
        let kinds = [
            PieceKind::Pawn,
            PieceKind::Lance,
            PieceKind::Knight,
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::King,
            PieceKind::ProPawn,
            PieceKind::ProLance,
            PieceKind::ProKnight,
            PieceKind::ProSilver,
            PieceKind::Horse,
            PieceKind::Dragon,
        ];
        let actions = [
            Action::None,
            Action::Promote,
            Action::NoPromote,
            Action::Drop,
        ];
        let mut resolved = 0;
        for pos in positions() {
            let prev_to = pos.moves_played().last().map(|mv| mv.to());
            let mut destinations: Vec<Destination> = (1..=9)
                .flat_map(|f| (1..=9).map(move |r| Destination::Square(f, r)))
                .collect();
            destinations.push(Destination::Same);
            for to in destinations {
                for piece in kinds {
                    for action in actions {
                        for color in [None, Some(Color::Black), Some(Color::White)] {
                            let m = Ki2Move {
                                color,
                                to,
                                piece,
                                relative: None,
                                movement: None,
                                action,
                            };
                            let general = resolve(&pos, prev_to, &m).ok();
                            assert_eq!(
                                resolve_plain(&pos, prev_to, &m),
                                general,
                                "{m:?} in {pos:?}"
                            );
                            resolved += usize::from(general.is_some());
                            let worded = Ki2Move {
                                relative: Some(Relative::Right),
                                ..m
                            };
                            assert_eq!(resolve_plain(&pos, prev_to, &worded), None);
                        }
                    }
                }
            }
        }
        assert!(resolved > 1000, "{resolved}");
    }
}
