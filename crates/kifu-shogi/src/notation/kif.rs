//! KIF move words, as Kakinoki's KIF format writes one move: `７六歩(77)`, `同　角成(88)`,
//! `５五角打`, `２三銀不成(34)`. Reading takes full-width, ASCII or kanji numerals; writing
//! uses the forms of the Kakinoki KIF page. The lines around the moves (numbers, times,
//! headers) belong to the record files in `kifu-records`.
//!
//! A KIF move is the destination (a full-width file digit and a kanji rank, or `同`
//! followed by a full-width space for the previous move's square), the piece's name before
//! the move, `成` for a promotion or `打` for a drop, and the origin in parentheses (ASCII
//! file and rank digits). KIF names every move's origin, so unlike KI2 it needs no relative
//! words.
//!
//! ```
//! use kifu_shogi::Position;
//! use kifu_shogi::notation::kif::{self, Destination};
//!
//! let (read, used) = kif::parse("７六歩(77)   ( 0:16/00:00:16)");
//! let read = read.unwrap();
//! assert_eq!(read.to, Destination::Square(7, 6));
//! assert_eq!(used, "７六歩(77)".len());
//!
//! let pos = Position::startpos();
//! let mv = pos.parse_usi_move("7g7f").unwrap();
//! assert_eq!(kif::write(&pos, mv, None), "７六歩(77)");
//! ```

use std::fmt::Write as _;

use crate::{Move, PieceKind, Position, Square};

/// Where a KIF move goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Destination {
    /// File and rank, 1–9 each.
    Square(u8, u8),
    /// `同`: the square of the previous move.
    Same,
}

/// The word after the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// No word: a move that does not promote where promotion is no choice, or (in KI2) an
    /// unmarked drop.
    None,
    /// `成`
    Promote,
    /// `不成` (not part of Kakinoki's spec, but written by many programs) or `生`.
    NoPromote,
    /// `打`
    Drop,
}

/// A KIF move as written: `７六歩(77)`, `同　角成(88)`, `５五角打`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KifMove {
    /// The destination square, or `同` for the previous move's.
    pub to: Destination,
    /// The piece before the move.
    pub piece: PieceKind,
    /// `成`, `不成`, `打` or nothing.
    pub action: Action,
    /// The origin square `(77)`; none for drops (and for some writers' moves).
    pub from: Option<(u8, u8)>,
}

/// Why text is not a KIF move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KifMoveError {
    /// The text is empty where a move should be.
    #[error("a move is missing")]
    Missing,
    /// The text starts with neither a square nor `同`.
    #[error("a move starts with its square (`７六`) or `同`")]
    NoDestination,
    /// A file digit not followed by a rank.
    #[error("a destination is a file and a rank (`７六`)")]
    BadDestination,
    /// A file written as a kanji numeral (`二五歩`): KIF writes files as digits, ranks as kanji.
    #[error("the file of a square is written as a digit (`２五`), not a kanji")]
    KanjiFile,
    /// The destination is followed by no piece name.
    #[error("unknown piece name")]
    UnknownPiece,
    /// A word with parts of a move (an origin in parentheses) but not a move's shape (see
    /// [`move_shaped`]).
    #[error("a move is a square, a piece name and an origin (`７六歩(77)`)")]
    Malformed,
    /// `(` not followed by two digits and `)`.
    #[error("an origin square is two digits in parentheses: `(77)`")]
    BadOrigin,
}

/// A space between the words of a move: ASCII, tab or ideographic (U+3000).
pub fn is_space(c: char) -> bool {
    c == ' ' || c == '\u{3000}' || c == '\t'
}

/// Bytes of leading spaces (ASCII, tab, U+3000) — a byte loop, as this runs several times
/// for every move line.
pub fn space_len(s: &str) -> usize {
    space_len_of(s.as_bytes())
}

/// [`space_len`] of UTF-8 bytes.
#[inline]
pub fn space_len_of(b: &[u8]) -> usize {
    let mut i = 0;
    loop {
        match b.get(i) {
            Some(b' ' | b'\t') => i += 1,
            Some(0xE3) if b.get(i + 1) == Some(&0x80) && b.get(i + 2) == Some(&0x80) => i += 3,
            _ => return i,
        }
    }
}

/// A file or rank written as an ASCII or full-width digit, 1–9.
pub fn digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '１' as u32) as u8 + 1),
        _ => None,
    }
}

/// A rank, which may also be a kanji numeral (`七`), 1–9.
pub fn kanji_digit(c: char) -> Option<u8> {
    Some(match c {
        '一' => 1,
        '二' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return digit(c),
    })
}

/// Piece names in moves, longest first.
const PIECE_NAMES: [(&str, PieceKind); 19] = [
    ("成銀", PieceKind::ProSilver),
    ("成桂", PieceKind::ProKnight),
    ("成香", PieceKind::ProLance),
    ("玉", PieceKind::King),
    ("王", PieceKind::King),
    ("飛", PieceKind::Rook),
    ("龍", PieceKind::Dragon),
    ("竜", PieceKind::Dragon),
    ("角", PieceKind::Bishop),
    ("馬", PieceKind::Horse),
    ("金", PieceKind::Gold),
    ("銀", PieceKind::Silver),
    ("全", PieceKind::ProSilver),
    ("桂", PieceKind::Knight),
    ("圭", PieceKind::ProKnight),
    ("香", PieceKind::Lance),
    ("杏", PieceKind::ProLance),
    ("歩", PieceKind::Pawn),
    ("と", PieceKind::ProPawn),
];

/// The piece a name at the start of `s` denotes, and the name's length in bytes.
pub fn piece_name(s: &str) -> Option<(PieceKind, usize)> {
    let first = s.chars().next()?;
    if first == '成' {
        return PIECE_NAMES[..3]
            .iter()
            .find(|(name, _)| s.starts_with(name))
            .map(|&(name, kind)| (kind, name.len()));
    }
    let mut buf = [0u8; 4];
    let first = &*first.encode_utf8(&mut buf);
    PIECE_NAMES[3..]
        .iter()
        .find(|(name, _)| *name == first)
        .map(|&(name, kind)| (kind, name.len()))
}

/// Why a word that does not start like a move still looks like one (a kanji file such as
/// `二五歩`, a piece name, an origin `(26)`), if it does. Callers rule out their own words
/// (termination words) first.
pub fn move_shaped(word: &str) -> Option<KifMoveError> {
    let first = word.chars().next()?;
    if kanji_digit(first).is_some() {
        return Some(KifMoveError::KanjiFile);
    }
    if word.contains('(') || word.contains('（') {
        return Some(KifMoveError::Malformed);
    }
    let mut rest = word;
    while let Some(c) = rest.chars().next() {
        if piece_name(rest).is_some() && !matches!(c, '成' | 'と') || c == '打' {
            return Some(KifMoveError::NoDestination);
        }
        rest = &rest[c.len_utf8()..];
    }
    None
}

/// True if `s` starts with an origin square: two digits in parentheses.
fn is_origin(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next() == Some('(')
        && cs.next().and_then(digit).is_some()
        && cs.next().and_then(digit).is_some()
        && cs.next() == Some(')')
}

/// Reads the move at the start of `s` and says how many bytes it took; on an error the
/// count covers the text the mistake spans, so a reader can point at it.
pub fn parse(s: &str) -> (Result<KifMove, KifMoveError>, usize) {
    let mut chars = s.char_indices().peekable();
    let fail = |at: usize, why| (Err(why), at.max(1));
    let to = match chars.next() {
        Some((_, '同')) => {
            while chars.peek().is_some_and(|&(_, c)| is_space(c)) {
                chars.next();
            }
            Destination::Same
        }
        Some((_, c)) => {
            let Some(file) = digit(c) else {
                return fail(c.len_utf8(), KifMoveError::NoDestination);
            };
            match chars.next().and_then(|(_, r)| kanji_digit(r)) {
                Some(rank) => Destination::Square(file, rank),
                None => return fail(s.len(), KifMoveError::BadDestination),
            }
        }
        None => return fail(0, KifMoveError::Missing),
    };
    let at = chars.peek().map_or(s.len(), |&(i, _)| i);
    let Some((piece, len)) = piece_name(&s[at..]) else {
        let end = s[at..].find(is_space).map_or(s.len(), |i| at + i);
        return fail(end, KifMoveError::UnknownPiece);
    };
    let mut at = at + len;
    let action = if let Some(r) = s[at..].strip_prefix("不成") {
        at = s.len() - r.len();
        Action::NoPromote
    } else if let Some(r) = s[at..].strip_prefix('生') {
        at = s.len() - r.len();
        Action::NoPromote
    } else if let Some(r) = s[at..].strip_prefix('成') {
        at = s.len() - r.len();
        Action::Promote
    } else if let Some(r) = s[at..].strip_prefix('打') {
        at = s.len() - r.len();
        Action::Drop
    } else {
        Action::None
    };
    let mut from = None;
    // Some writers put a space (often a full-width one) before the origin: `同銀　(79)`.
    // Only an origin is taken here; a time in parentheses stays for the caller.
    let gap = space_len(&s[at..]);
    if gap > 0 && is_origin(&s[at + gap..]) {
        at += gap;
    }
    if let Some(r) = s[at..].strip_prefix('(') {
        let mut cs = r.chars();
        let (f, rk, close) = (cs.next(), cs.next(), cs.next());
        match (f.and_then(digit), rk.and_then(digit), close) {
            (Some(f), Some(r), Some(')')) => {
                from = Some((f, r));
                at = s.len() - cs.as_str().len();
            }
            _ => return fail(s.len(), KifMoveError::BadOrigin),
        }
    }
    (
        Ok(KifMove {
            to,
            piece,
            action,
            from,
        }),
        at,
    )
}

/// Reads the move at the start of `b`, the UTF-8 bytes of a KIF move, when it is of the
/// shape nearly every KIF writer uses — a full-width file and a kanji rank or `同` (with
/// one full-width space or none), a piece name, `成`, `不成`, `生`, `打` or nothing, and an
/// origin or none — and says how many bytes it took; `None` for anything else.
///
/// Where it gives a move it is the one [`parse`] gives, with the same length (a unit test
/// holds the two together); [`parse`] reads the other shapes and says what is wrong with
/// them. It exists because a reader meets this shape at every move of every KIF file:
/// comparing fixed three-byte sequences costs a fraction of decoding characters and
/// searching the piece-name table.
///
/// ```
/// use kifu_shogi::notation::kif::{self, Action, Destination};
///
/// let text = "同　角成(88)   ( 0:16/00:00:16)";
/// let (read, used) = kif::parse_well_formed(text.as_bytes()).unwrap();
/// assert_eq!((read.to, read.action, read.from), (Destination::Same, Action::Promote, Some((8, 8))));
/// assert_eq!((Ok(read), used), kif::parse(text));
/// assert_eq!(kif::parse_well_formed("▲７六歩".as_bytes()), None); // a KI2 mark: `parse` reads it
/// ```
///
/// Always inlined: a KIF reader calls it once a move line, and out of line the call, the
/// registers saved and the result passed through memory were a tenth of its cost.
#[inline(always)]
pub fn parse_well_formed(b: &[u8]) -> Option<(KifMove, usize)> {
    let (to, mut at) = match three(b, 0)? {
        SAME => {
            let at = if three(b, 3) == Some(WIDE_SPACE) {
                6
            } else {
                3
            };
            (Destination::Same, at)
        }
        [0xEF, 0xBC, file @ 0x91..=0x99] => (
            Destination::Square(file - 0x90, rank_kanji(three(b, 3)?)?),
            6,
        ),
        _ => return None,
    };
    let (piece, len) = piece_bytes(b, at)?;
    at += len;
    let (action, len) = action_bytes(b, at);
    at += len;
    // As `parse`: an origin after spaces belongs to the move, anything else in parentheses
    // after spaces (a time) does not, and a `(` right after the move must be an origin. The
    // spaces are looked at only when no `(` follows the move: nearly every origin does.
    if b.get(at) != Some(&b'(') {
        let gap = space_len_of(&b[at..]);
        if gap > 0 && origin_at(b, at + gap).is_some() {
            at += gap;
        }
    }
    let from = if b.get(at) == Some(&b'(') {
        let (from, len) = origin_at(b, at)?;
        at += len;
        Some(from)
    } else {
        None
    };
    Some((
        KifMove {
            to,
            piece,
            action,
            from,
        },
        at,
    ))
}

/// `同`
pub(super) const SAME: [u8; 3] = [0xE5, 0x90, 0x8C];
/// `成`
pub(super) const PROMOTE: [u8; 3] = [0xE6, 0x88, 0x90];

/// The action written at `at` after a move's piece in UTF-8 (不成 or 生, 成, 打, or none) and
/// its length in bytes: KIF and KI2 write it alike.
#[inline(always)]
pub(super) fn action_bytes(b: &[u8], at: usize) -> (Action, usize) {
    match three(b, at) {
        Some([0xE4, 0xB8, 0x8D]) if three(b, at + 3) == Some(PROMOTE) => (Action::NoPromote, 6),
        Some([0xE7, 0x94, 0x9F]) => (Action::NoPromote, 3),
        Some(PROMOTE) => (Action::Promote, 3),
        Some([0xE6, 0x89, 0x93]) => (Action::Drop, 3),
        _ => (Action::None, 0),
    }
}
/// U+3000, the ideographic space.
pub(super) const WIDE_SPACE: [u8; 3] = [0xE3, 0x80, 0x80];

/// The three bytes at `at`, if there are three.
#[inline(always)]
pub(super) fn three(b: &[u8], at: usize) -> Option<[u8; 3]> {
    b.get(at..at + 3)?.try_into().ok()
}

/// The rank a kanji numeral's UTF-8 bytes denote (`一` … `九`).
#[inline]
pub(super) fn rank_kanji(c: [u8; 3]) -> Option<u8> {
    let key = key_of(c);
    let (k, rank) = RANK_TABLE[slot(key, RANK_HASH)];
    (k == key).then_some(rank)
}

/// Three bytes of UTF-8 as one number, the first byte lowest, for the tables below.
#[inline(always)]
const fn key_of(c: [u8; 3]) -> u32 {
    c[0] as u32 | (c[1] as u32) << 8 | (c[2] as u32) << 16
}

/// The slot of a key in a table of 16 (a multiplicative hash: the high four bits of the
/// product). The multipliers were found by trying random odd numbers until the names of the
/// table fell into distinct slots; the tables' construction fails to compile if they do not.
#[inline(always)]
const fn slot(key: u32, multiplier: u32) -> usize {
    (key.wrapping_mul(multiplier) >> 28) as usize
}

/// A key no three bytes have (they fill the low 24 bits only): an empty slot.
const NO_KEY: u32 = u32::MAX;

const RANK_HASH: u32 = 0xb842_cb21;
/// Each kanji rank numeral at its slot: looking one up is a multiplication and one
/// comparison, where matching the bytes against each numeral in turn was a chain of them.
const RANK_TABLE: [(u32, u8); 16] = {
    let mut table = [(NO_KEY, 0); 16];
    let mut i = 0;
    while i < RANKS.len() {
        let mut buf = [0; 4];
        let bytes = RANKS[i].encode_utf8(&mut buf).as_bytes();
        let key = key_of([bytes[0], bytes[1], bytes[2]]);
        let at = slot(key, RANK_HASH);
        assert!(table[at].0 == NO_KEY, "two ranks in one slot");
        table[at] = (key, i as u8 + 1);
        i += 1;
    }
    table
};

const PIECE_HASH: u32 = 0x57f4_c8cd;
/// Each one-character piece name ([`PIECE_NAMES`] after the three of two characters) at its
/// slot, as [`RANK_TABLE`] holds the ranks: all sixteen slots are taken.
const PIECE_TABLE: [(u32, PieceKind); 16] = {
    let mut table = [(NO_KEY, PieceKind::Pawn); 16];
    let mut i = 3;
    while i < PIECE_NAMES.len() {
        let bytes = PIECE_NAMES[i].0.as_bytes();
        assert!(bytes.len() == 3, "a one-character name is three bytes");
        let key = key_of([bytes[0], bytes[1], bytes[2]]);
        let at = slot(key, PIECE_HASH);
        assert!(table[at].0 == NO_KEY, "two piece names in one slot");
        table[at] = (key, PIECE_NAMES[i].1);
        i += 1;
    }
    table
};

/// The piece named at `at` (as [`piece_name`] reads it) and the name's length in bytes.
#[inline(always)]
pub(super) fn piece_bytes(b: &[u8], at: usize) -> Option<(PieceKind, usize)> {
    match three(b, at)? {
        PROMOTE => {
            // 成銀, 成桂, 成香: the only names of two characters.
            let kind = match three(b, at + 3)? {
                [0xE9, 0x8A, 0x80] => PieceKind::ProSilver,
                [0xE6, 0xA1, 0x82] => PieceKind::ProKnight,
                [0xE9, 0xA6, 0x99] => PieceKind::ProLance,
                _ => return None,
            };
            Some((kind, 6))
        }
        name => Some((piece_kanji(name)?, 3)),
    }
}

/// The piece a one-character name's UTF-8 bytes denote (the names of [`PIECE_NAMES`]
/// after the three two-character ones). Always inlined, as [`digit_at`] is: left out of line
/// in the KIF reader's move-line path, the calls and the registers saved around them were
/// about 60 instructions a move line.
#[inline(always)]
fn piece_kanji(c: [u8; 3]) -> Option<PieceKind> {
    let key = key_of(c);
    let (k, kind) = PIECE_TABLE[slot(key, PIECE_HASH)];
    (k == key).then_some(kind)
}

/// A file or rank digit at `at`, ASCII or full-width, and its length in bytes (as [`digit`]).
#[inline(always)]
fn digit_at(b: &[u8], at: usize) -> Option<(u8, usize)> {
    match *b.get(at)? {
        d @ b'1'..=b'9' => Some((d - b'0', 1)),
        0xEF => match three(b, at)? {
            [_, 0xBC, d @ 0x91..=0x99] => Some((d - 0x90, 3)),
            _ => None,
        },
        _ => None,
    }
}

/// The origin square at `at` (`(77)`, as [`is_origin`] sees one) and its length in bytes.
#[inline(always)]
fn origin_at(b: &[u8], at: usize) -> Option<((u8, u8), usize)> {
    if b.get(at) != Some(&b'(') {
        return None;
    }
    let (file, file_len) = digit_at(b, at + 1)?;
    let (rank, rank_len) = digit_at(b, at + 1 + file_len)?;
    let close = at + 1 + file_len + rank_len;
    (b.get(close) == Some(&b')')).then_some(((file, rank), close + 1 - at))
}

/// Full-width file digits, as the Kakinoki KIF page writes squares.
pub const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
/// Kanji rank numerals.
pub const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The KIF text of a legal move: `７六歩(77)`, `同　角成(88)`, `５五角打`.
pub fn write(pos: &Position, mv: Move, prev_to: Option<Square>) -> String {
    let to = mv.to();
    let mut s = String::with_capacity(24);
    if prev_to == Some(to) {
        s.push_str("同　");
    } else {
        s.push(FILES[to.file() as usize - 1]);
        s.push(RANKS[to.rank() as usize - 1]);
    }
    match mv.from() {
        None => {
            s.push_str(mv.drop_kind().unwrap_or(PieceKind::Pawn).kif_name());
            s.push('打');
        }
        Some(from) => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            s.push_str(kind.kif_name());
            if mv.is_promotion() {
                s.push('成');
            }
            let _ = write!(s, "({}{})", from.file(), from.rank());
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> KifMove {
        parse(text).0.unwrap()
    }

    #[test]
    fn move_forms() {
        assert_eq!(mv("同　角成(88)").to, Destination::Same);
        assert_eq!(mv("同　角成(88)").action, Action::Promote);
        assert_eq!(mv("同歩(87)").piece, PieceKind::Pawn);
        let drop = mv("５五角打     ( 0:12/00:02:10)");
        assert_eq!((drop.action, drop.from), (Action::Drop, None));
        assert_eq!(mv("２三成銀(24)").piece, PieceKind::ProSilver);
        assert_eq!(mv("２三全(24)").piece, PieceKind::ProSilver);
        assert_eq!(mv("２三銀不成(34)").action, Action::NoPromote);
        assert_eq!(mv("76歩(77)").to, Destination::Square(7, 6));
        assert_eq!(mv("同銀　(79)").from, Some((7, 9)));
        assert_eq!(parse("７x歩(77)").0, Err(KifMoveError::BadDestination));
        assert_eq!(parse("７六ぬ(77)").0, Err(KifMoveError::UnknownPiece));
        assert_eq!(parse("７六歩(7)").0, Err(KifMoveError::BadOrigin));
        assert_eq!(parse("歩").0, Err(KifMoveError::NoDestination));
    }

    /// Every character of the CJK, kana, punctuation and full-width blocks means to the
    /// byte tables what it means to `kanji_digit` and `piece_name`.
    #[test]
    fn byte_tables_agree_with_the_character_tables() {
        let chars = ('\u{3000}'..='\u{9FFF}').chain('\u{FF00}'..='\u{FFEF}');
        for c in chars {
            let mut buf = [0u8; 4];
            let bytes: [u8; 3] = c.encode_utf8(&mut buf).as_bytes().try_into().unwrap();
            let as_rank = kanji_digit(c).filter(|_| digit(c).is_none());
            assert_eq!(rank_kanji(bytes), as_rank, "{c}");
            let name = c.to_string();
            let as_piece = piece_name(&name)
                .map(|(kind, _)| kind)
                .filter(|_| c != '成');
            assert_eq!(piece_kanji(bytes), as_piece, "{c}");
            assert_eq!(digit_at(&bytes, 0).map(|(d, _)| d), digit(c), "{c}");
        }
    }

    /// `parse_well_formed` reads what `parse` reads, to the byte, wherever it reads anything:
    /// over every combination of the usual and odd parts of a move and what follows it; and
    /// it does read the shapes KIF writers use.
    #[test]
    fn well_formed_moves_read_as_parse_reads_them() {
        let destinations = [
            "７六",
            "１一",
            "９九",
            "同",
            "同　",
            "同 ",
            "同　　",
            "76",
            "７7",
            "７x",
            "二五",
            "▲７六",
            "７",
            "",
        ];
        let pieces = PIECE_NAMES
            .iter()
            .map(|(name, _)| *name)
            .chain(["成", "成金", "ぬ", ""]);
        let actions = ["", "成", "不成", "生", "打", "不"];
        let origins = [
            "", "(77)", "(７７)", "(7)", "(00)", "(19)", "　(79)", " (79)", "(77", "（77）",
            "(7７)",
        ];
        let tails = [
            "",
            "   ( 0:16/00:00:16)",
            "+",
            " junk",
            "\t( 0:05)",
            "(0:01)",
        ];
        let mut read = 0;
        for piece in pieces {
            for to in destinations {
                for action in actions {
                    for origin in origins {
                        for tail in tails {
                            let text = format!("{to}{piece}{action}{origin}{tail}");
                            let Some((m, used)) = parse_well_formed(text.as_bytes()) else {
                                continue;
                            };
                            read += 1;
                            assert_eq!(parse(&text), (Ok(m), used), "{text}");
                        }
                    }
                }
            }
        }
        assert!(read > 10_000, "{read}");
        for text in [
            "７六歩(77)",
            "７六歩(77)   ( 0:16/00:00:16)",
            "同　角成(88)",
            "同角成(88)",
            "５五角打     ( 0:12/00:02:10)",
            "２三成銀(24)",
            "２三全(24)",
            "２三銀不成(34)",
            "２三銀生(34)",
            "１一杏(12)",
            "５八玉(59)",
            "同銀　(79)",
            "７六歩",
        ] {
            let (m, used) = parse_well_formed(text.as_bytes()).expect(text);
            assert_eq!(parse(text), (Ok(m), used), "{text}");
        }
    }

    #[test]
    fn writes_what_it_reads() {
        let mut pos = Position::startpos();
        for (usi, kif) in [
            ("7g7f", "７六歩(77)"),
            ("3c3d", "３四歩(33)"),
            ("8h2b+", "２二角成(88)"),
        ] {
            let m = pos.parse_usi_move(usi).unwrap();
            assert_eq!(write(&pos, m, None), kif);
            pos.play_unchecked(m);
        }
        let m = pos.parse_usi_move("3a2b").unwrap();
        assert_eq!(write(&pos, m, Some(m.to())), "同　銀(31)");
    }
}
