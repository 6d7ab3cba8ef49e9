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
    let b = s.as_bytes();
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
