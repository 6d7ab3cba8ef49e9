//! KIF lines, with no knowledge of the rules; the move words on them are read by the shared
//! KIF move notation ([`kifu_shogi::notation::kif`]).

use kifu_record::EndingKind;
use kifu_shogi::{Color, ShogiEnding};

use crate::shogi::side_of;
use kifu_shogi::notation::kif::{
    self, KifMove, KifMoveError, digit, is_space, space_len, space_len_of,
};

/// What a numbered line holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// A move word (`７六歩(77)`), read by the KIF move notation but not yet replayed.
    Move(KifMove),
    /// A termination word (`投了`, `中断`, … or an unknown word kept verbatim).
    Ending(EndingKind<ShogiEnding>),
}

/// Why a numbered line holds neither a move nor a termination word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BodyError {
    /// The line has a number and nothing after it.
    #[error("a move or a termination word is missing")]
    Missing,
    /// The text after the number is not a KIF move.
    #[error(transparent)]
    Move(#[from] KifMoveError),
}

/// Time spent and the mover's total, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Times {
    /// The time this move took (`0:03` of `( 0:03/00:00:03)`).
    pub spent_ms: u64,
    /// The mover's total so far, when the line gives one (`00:00:03`).
    pub total_ms: Option<u64>,
}

/// A numbered line split into its parts; offsets are byte offsets into the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    /// The move number the line starts with.
    pub ply: u32,
    /// Where the move or ending text starts and ends in the line.
    pub body_at: (usize, usize),
    /// The move or ending, or why the line holds neither.
    pub body: Result<Body, BodyError>,
    /// The parenthesised times, if the line has them, or why they cannot be read.
    pub times: Option<Result<Times, &'static str>>,
    /// A trailing `+`: "an alternative to this move is written later".
    pub has_variation: bool,
    /// Text after the move that is neither a time nor `+`, if any.
    pub trailing: Option<(usize, usize)>,
}

/// Parses `   1 ７六歩(77)   ( 0:16/00:00:16)+`; `None` if the line does not start with a
/// ply number.
pub fn move_line(line: &str) -> Option<MoveLine> {
    let lead = space_len(line);
    let rest = &line[lead..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let ply = rest[..digits].parse().unwrap_or(u32::MAX);
    let after_ply = &rest[digits..];
    let gap = space_len(after_ply);
    if gap == 0 && !after_ply.is_empty() {
        return None;
    }
    let body_start = lead + digits + gap;
    let text = &line[body_start..];
    let (body, body_len) = body(text);
    let mut out = MoveLine {
        ply,
        body_at: (body_start, body_start + body_len),
        body,
        times: None,
        has_variation: false,
        trailing: None,
    };
    let mut pos = body_start + body_len;
    loop {
        let rest = &line[pos..];
        let skipped = space_len(rest);
        pos += skipped;
        let rest = &line[pos..];
        if rest.is_empty() {
            break;
        }
        if rest.starts_with('(') && out.times.is_none() {
            let (inner, end) = match rest.bytes().position(|b| b == b')') {
                Some(i) => (&rest[1..i], i + 1),
                None => (&rest[1..], rest.len()),
            };
            out.times = Some(times(inner.as_bytes()));
            pos += end;
        } else if rest.starts_with('+') && !out.has_variation {
            out.has_variation = true;
            pos += 1;
        } else {
            out.trailing = Some((pos, line.len()));
            break;
        }
    }
    Some(out)
}

/// A numbered line of the shape nearly every KIF move line has: a ply number, a move of
/// the shape [`kif::parse_well_formed`] reads, and a time in parentheses or none, with
/// nothing else but spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlainMoveLine {
    /// The move number the line starts with.
    pub(crate) ply: u32,
    /// Where the move text starts and ends in the line (bytes).
    pub(crate) body_at: (usize, usize),
    /// The move.
    pub(crate) mv: KifMove,
    /// The times, if the line has them.
    pub(crate) times: Option<Times>,
}

/// Reads `   1 ７六歩(77)   ( 0:16/00:00:16)` from its bytes when it has the plain shape
/// (see [`PlainMoveLine`]); `None` for any other line, which [`move_line`] reads. What it
/// gives is what [`move_line`] gives for that line (a unit test holds the two together):
/// a reader may take this for any line and fall back to `move_line` where it has `None`.
#[inline]
pub(crate) fn plain_move_line(line: &[u8]) -> Option<PlainMoveLine> {
    let mut at = 0;
    while line.get(at) == Some(&b' ') {
        at += 1;
    }
    let mut ply: u32 = 0;
    let digits_at = at;
    while let Some(&d @ b'0'..=b'9') = line.get(at) {
        // Nine digits always fit a u32; longer numbers go the general way.
        if at - digits_at == 9 {
            return None;
        }
        ply = ply * 10 + u32::from(d - b'0');
        at += 1;
    }
    if at == digits_at {
        return None;
    }
    let gap = space_len_of(&line[at..]);
    if gap == 0 {
        return None;
    }
    let body_start = at + gap;
    let (mv, len) = kif::parse_well_formed(&line[body_start..])?;
    let body_end = body_start + len;
    at = body_end + space_len_of(&line[body_end..]);
    let mut times = None;
    if line.get(at) == Some(&b'(') {
        // The usual line ends with its time: a time of the usual shape holds no `)`, so the
        // line's last byte is the first `)` after the `(`, as the general reader finds it.
        let last = line.len() - 1;
        if line[last] == b')'
            && let Some(plain) = plain_times(&line[at + 1..last])
        {
            return Some(PlainMoveLine {
                ply,
                body_at: (body_start, body_end),
                mv,
                times: Some(plain),
            });
        }
        let close = at + memchr::memchr(b')', &line[at..])?;
        let inner = &line[at + 1..close];
        times = Some(plain_times(inner).or_else(|| self::times(inner).ok())?);
        at = close + 1;
        at += space_len_of(&line[at..]);
    }
    (at == line.len()).then_some(PlainMoveLine {
        ply,
        body_at: (body_start, body_end),
        mv,
        times,
    })
}

/// Reads a move line laid out as Kakinoki's program writes it, from the text at the line's
/// start through its end of line: the ply right-aligned in four columns and a space, a move
/// [`kif::parse_well_formed`] reads, then the end of the line, or spaces and the time
/// `( m:ss/hh:mm:ss)` with the minutes in two columns (`   1 ７六歩(77)   ( 0:16/00:00:16)`).
/// Gives what [`plain_move_line`] gives for that line, and how many bytes the line takes with
/// its `\n` or `\r\n` (a unit test holds the two together); `None` for any other line or line
/// end, which the caller splits off and reads as before.
///
/// Nearly every line of a KIF file is one of these: read at known offsets, it needs no search
/// for the line's end, no loop over the number's digits and no search for the time's `)`.
/// Reading past the line's end is harmless: every pattern compared starts with a byte that is
/// not `\n`, and a text is UTF-8, so a match starting in the line ends in it.
#[inline(always)]
pub(crate) fn fixed_move_line(text: &[u8]) -> Option<(PlainMoveLine, usize)> {
    const BODY: usize = 5;
    let head: &[u8; BODY] = text.get(..BODY)?.try_into().ok()?;
    if head[4] != b' ' {
        return None;
    }
    // `   1`, `  12`, ` 123`, `1234`: spaces, then digits to the fourth column.
    let mut ply = 0;
    let mut digits = 0;
    for &b in &head[..4] {
        match b {
            b' ' if digits == 0 => {}
            b'0'..=b'9' => {
                ply = ply * 10 + u32::from(b - b'0');
                digits += 1;
            }
            _ => return None,
        }
    }
    if digits == 0 {
        return None;
    }
    let (mv, len) = kif::parse_well_formed(&text[BODY..])?;
    let body_end = BODY + len;
    let mut at = body_end;
    while text.get(at) == Some(&b' ') {
        at += 1;
    }
    let mut times = None;
    if at > body_end {
        let time: &[u8; 16] = text.get(at..at + 16)?.try_into().ok()?;
        times = Some(fixed_times(time)?);
        at += 16;
    }
    let next = match text.get(at) {
        None => at,
        Some(b'\n') => at + 1,
        Some(b'\r') if text.get(at + 1) == Some(&b'\n') => at + 2,
        Some(_) => return None,
    };
    Some((
        PlainMoveLine {
            ply,
            body_at: (BODY, body_end),
            mv,
            times,
        },
        next,
    ))
}

/// `( 0:16/00:00:16)` with its parentheses, the minutes in two columns (a space or a digit,
/// then a digit); `None` for anything else. It gives what [`times`] gives for its inside.
///
/// Read as two words of eight bytes: the separators compared under a mask, the ten digits
/// tested and turned into numbers a word at a time, each two-digit number made from its
/// neighbouring bytes with one multiplication. Byte by byte, this was about 85 instructions
/// a line, the largest part of reading it.
#[inline(always)]
fn fixed_times(t: &[u8; 16]) -> Option<Times> {
    /// `(`, `:` and `/` of `( m:ss/h` (the first eight bytes, first byte lowest).
    const SEP_LO: (u64, u64) = (0x00FF_0000_FF00_00FF, 0x002F_0000_3A00_0028);
    /// `:`, `:` and `)` of `h:mm:ss)`.
    const SEP_HI: (u64, u64) = (0xFF00_00FF_0000_FF00, 0x2900_003A_0000_3A00);
    /// Each digit's byte in each word holds `0` … `9` (0x30–0x39) when its high half is 3
    /// and adding 6 leaves it 3 (no carry leaves a byte whose high half is 3).
    fn digits(word: u64, mask: u64) -> Option<u64> {
        let high = mask & 0xF0F0_F0F0_F0F0_F0F0;
        let threes = mask & 0x3030_3030_3030_3030;
        let sixes = mask & 0x0606_0606_0606_0606;
        let d = word & mask;
        (d & high == threes && (d + sixes) & high == threes).then(|| d - threes)
    }
    let lo = u64::from_le_bytes(t[..8].try_into().expect("eight bytes"));
    let hi = u64::from_le_bytes(t[8..].try_into().expect("eight bytes"));
    if lo & SEP_LO.0 != SEP_LO.1 || hi & SEP_HI.0 != SEP_HI.1 {
        return None;
    }
    // A space for the tens of minutes reads as `0`: 0x20 with bit 4 set is 0x30.
    let lo = lo | u64::from(t[1] == b' ') << 12;
    let lo = digits(lo, !SEP_LO.0)?;
    let hi = digits(hi, !SEP_HI.0)?;
    // Byte k of `pairs` is ten times digit k plus digit k + 1 (at most 99: no carry).
    let (pairs_lo, pairs_hi) = (lo * 10 + (lo >> 8), hi * 10 + (hi >> 8));
    let byte = |word: u64, k: u32| (word >> (8 * k)) & 0xFF;
    let spent = byte(pairs_lo, 1) * 60 + byte(pairs_lo, 4);
    let hours = byte(lo, 7) * 10 + byte(hi, 0);
    let total = hours * 3600 + byte(pairs_hi, 2) * 60 + byte(pairs_hi, 5);
    Some(Times {
        spent_ms: spent * 1000,
        total_ms: Some(total * 1000),
    })
}

/// The time of nearly every KIF move line, ` 0:16/00:00:16` (spaces, minutes of one to three
/// digits, seconds, a slash and the total as `hh:mm:ss`), read with fixed offsets from the
/// end; `None` for any other shape, which [`times`] reads. It gives what `times` gives.
/// Always inlined into [`plain_move_line`], its one caller on the hot path: out of line, the
/// call, the registers saved and the result passed through memory were a fifth of its cost.
#[inline(always)]
fn plain_times(s: &[u8]) -> Option<Times> {
    // `:ss/hh:mm:ss` at the end, the minutes before it after spaces.
    let split = s.len().checked_sub(12)?;
    let (head, tail) = s.split_at(split);
    let tail: &[u8; 12] = tail.try_into().ok()?;
    if tail[0] != b':' || tail[3] != b'/' || tail[6] != b':' || tail[9] != b':' {
        return None;
    }
    let mut d = [0u64; 8];
    for (value, &b) in d.iter_mut().zip(&[
        tail[1], tail[2], tail[4], tail[5], tail[7], tail[8], tail[10], tail[11],
    ]) {
        if !b.is_ascii_digit() {
            return None;
        }
        *value = u64::from(b - b'0');
    }
    let lead = head.iter().take_while(|&&b| b == b' ').count();
    let minute_digits = &head[lead..];
    if minute_digits.is_empty() || minute_digits.len() > 3 {
        return None;
    }
    let mut minutes = 0;
    for &b in minute_digits {
        if !b.is_ascii_digit() {
            return None;
        }
        minutes = minutes * 10 + u64::from(b - b'0');
    }
    let seconds = d[0] * 10 + d[1];
    let total = (d[2] * 10 + d[3]) * 3600 + (d[4] * 10 + d[5]) * 60 + d[6] * 10 + d[7];
    Some(Times {
        spent_ms: (minutes * 60 + seconds) * 1000,
        total_ms: Some(total * 1000),
    })
}

/// `( 0:16/00:00:16)` without the parentheses; also `0:4/0:0:4`, `00:31 / 00:00:31`, no total.
/// Read byte by byte: this runs for every move of every KIF file.
fn times(s: &[u8]) -> Result<Times, &'static str> {
    const BAD: &str = "a time is `(m:ss/h:mm:ss)`";
    // numbers before and after the slash
    let mut parts = [[0u64; 3]; 2];
    let mut counts = [0usize; 2];
    let mut side = 0;
    let mut in_number = false;
    let mut after_colon = false;
    for &b in s {
        match b {
            b'0'..=b'9' => {
                if !in_number {
                    if counts[side] == 3 {
                        return Err(BAD);
                    }
                    counts[side] += 1;
                    in_number = true;
                    after_colon = false;
                }
                let n = &mut parts[side][counts[side] - 1];
                *n = *n * 10 + u64::from(b - b'0');
                // Any time kifu writes (u64 milliseconds) reads back; the bound keeps the sums
                // below from overflowing.
                if *n > 1_000_000_000_000 {
                    return Err(BAD);
                }
            }
            b':' if in_number => {
                in_number = false;
                after_colon = true;
            }
            b'/' if side == 0 && !after_colon => {
                side = 1;
                in_number = false;
            }
            b' ' if !after_colon => in_number = false,
            _ => return Err(BAD),
        }
    }
    let value = |p: [u64; 3], n: usize| match n {
        2 => Some(p[0] * 60 + p[1]),
        3 => Some(p[0] * 3600 + p[1] * 60 + p[2]),
        _ => None,
    };
    if counts[0] != 2 || after_colon {
        return Err(BAD);
    }
    let spent = value(parts[0], 2).ok_or(BAD)?;
    let total_ms = match (side, counts[1]) {
        (0, _) => None,
        (_, n) => Some(value(parts[1], n).ok_or(BAD)? * 1000),
    };
    Ok(Times {
        spent_ms: spent * 1000,
        total_ms,
    })
}

/// Termination words (Kakinoki's, plus the de-facto ones other programs write).
pub fn ending_word(word: &str) -> Option<EndingKind<ShogiEnding>> {
    Some(match word {
        "中断" => EndingKind::Abort,
        "投了" => EndingKind::Resign,
        "持将棋" => EndingKind::Game(ShogiEnding::Impasse),
        "千日手" => EndingKind::Repetition,
        "詰み" | "詰" => EndingKind::Checkmate,
        "不詰" => EndingKind::NoCheckmate,
        "切れ負け" | "時間切れ" => EndingKind::TimeLoss,
        "反則勝ち" => EndingKind::IllegalMoveWin,
        "反則負け" => EndingKind::IllegalMoveLoss,
        "入玉勝ち" | "宣言勝ち" => EndingKind::Game(ShogiEnding::DeclareWin),
        "不戦勝" => EndingKind::DefaultWin,
        "不戦敗" => EndingKind::DefaultLoss,
        "封じ手" => EndingKind::Sealed,
        "最大手数" => EndingKind::MaxMoves,
        "トライ" => EndingKind::Game(ShogiEnding::Try),
        _ => return None,
    })
}

/// The move or ending at the start of `s`, and how many bytes it took.
fn body(s: &str) -> (Result<Body, BodyError>, usize) {
    let mut rest = s;
    // All the marks start with the byte 0xE2; most lines have none.
    for mark in ['▲', '△', '☗', '☖', '▼', '▽'] {
        if rest.as_bytes().first() != Some(&0xE2) {
            break;
        }
        if let Some(r) = rest.strip_prefix(mark) {
            rest = r;
            break;
        }
    }
    let first = rest.chars().next();
    let starts_move = first.is_some_and(|c| c == '同' || digit(c).is_some());
    if !starts_move {
        let mut word_len = rest.find(is_space).unwrap_or(rest.len());
        // A trailing `+` is the variation mark, written without a space when there is no time.
        if rest[..word_len].ends_with('+') && word_len > 1 {
            word_len -= 1;
        }
        let word = &rest[..word_len];
        let consumed = s.len() - rest.len() + word_len;
        if word.is_empty() {
            return (Err(BodyError::Missing), consumed);
        }
        // 将棋倶楽部24 writes a foul as `2 先手 反則負け`: that side's illegal-move loss.
        if let Some(side) = side_word(word) {
            let after = rest[word_len..].trim_start_matches(is_space);
            let next = after.find(is_space).unwrap_or(after.len());
            if &after[..next] == "反則負け" {
                let consumed = s.len() - after.len() + next;
                return (Ok(Body::Ending(EndingKind::IllegalAction(side))), consumed);
            }
        }
        if let Some(why) = move_shaped(word) {
            // Text shaped like a move is a move with a mistake, never an unknown ending.
            let whole = rest.len() - after_move_text(rest).len();
            return (Err(why.into()), s.len() - rest.len() + whole.max(word_len));
        }
        let kind = ending_word(word).unwrap_or_else(|| EndingKind::Unknown(word.to_owned()));
        return (Ok(Body::Ending(kind)), consumed);
    }
    let (parsed, used) = kif::parse(rest);
    (
        parsed.map(Body::Move).map_err(BodyError::from),
        s.len() - rest.len() + used,
    )
}

/// The ending a `まで…` line states, `mover` being the side to move after the moves.
pub(crate) fn summary_ending(line: &str, mover: Color) -> Option<EndingKind<ShogiEnding>> {
    let rest = line.trim_start_matches("まで").trim_start_matches('、');
    let after_count = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let result = after_count
        .strip_prefix("手で")
        .or_else(|| after_count.strip_prefix("手"))?;
    let result = result.trim_end();
    let side = |name: &str| -> Option<Color> {
        Some(match name {
            "先手" | "下手" => Color::Black,
            "後手" | "上手" => Color::White,
            "▲" | "☗" => Color::Black,
            "△" | "☖" => Color::White,
            _ => return None,
        })
    };
    let named = |suffix: &str| -> Option<Color> {
        let name = result.strip_suffix(suffix)?;
        let name = name.strip_prefix("時間切れにより").unwrap_or(name);
        side(name)
    };
    Some(match result {
        "中断" => EndingKind::Abort,
        "千日手" => EndingKind::Repetition,
        "持将棋" => EndingKind::Game(ShogiEnding::Impasse),
        "封じ手" => EndingKind::Sealed,
        "不詰" => EndingKind::NoCheckmate,
        "詰" | "詰み" => EndingKind::Checkmate,
        _ => {
            if let Some(c) = named("の反則勝ち") {
                if c == mover {
                    EndingKind::IllegalMoveWin
                } else {
                    EndingKind::IllegalAction(side_of(mover))
                }
            } else if let Some(c) = named("の反則負け") {
                if c == mover {
                    EndingKind::IllegalMoveLoss
                } else {
                    EndingKind::IllegalAction(side_of(c))
                }
            } else if let Some(c) = named("の入玉勝ち") {
                if c == mover {
                    EndingKind::Game(ShogiEnding::DeclareWin)
                } else {
                    return None;
                }
            } else if result.starts_with("時間切れにより") {
                let c = named("の勝ち")?;
                if c != mover {
                    EndingKind::TimeLoss
                } else {
                    return None;
                }
            } else if let Some(c) = named("の勝ち") {
                // The side to move wins without a stated reason: keep the words.
                if c != mover {
                    EndingKind::Resign
                } else {
                    EndingKind::Unknown(result.to_owned())
                }
            } else {
                // `まで13手で投了`, `まで30手で切れ負け`: the bare termination words.
                return ending_word(result);
            }
        }
    })
}

/// The side a player's title names (`先手`/`下手`, `後手`/`上手`).
fn side_word(word: &str) -> Option<kifu_record::Side> {
    match word {
        "先手" | "下手" => Some(kifu_record::Side::First),
        "後手" | "上手" => Some(kifu_record::Side::Second),
        _ => None,
    }
}

/// Why a word that is not a termination word looks like a move, if it does.
fn move_shaped(word: &str) -> Option<KifMoveError> {
    if ending_word(word).is_some() {
        return None;
    }
    kif::move_shaped(word)
}

/// The text of a malformed move: up to the time in parentheses or the end of the line.
fn after_move_text(s: &str) -> &str {
    let mut at = 0;
    while at < s.len() {
        let rest = &s[at..];
        let gap = space_len(rest);
        if gap > 0 && (rest[gap..].starts_with('(') || rest[gap..].is_empty()) {
            return &s[at..];
        }
        at += rest.chars().next().map_or(1, char::len_utf8);
    }
    ""
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_shogi::PieceKind;
    use kifu_shogi::notation::kif::{Action, Destination};

    fn mv(line: &str) -> KifMove {
        match move_line(line).unwrap().body {
            Ok(Body::Move(m)) => m,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn kakinoki_layout() {
        let l = move_line("   1 ７六歩(77)   ( 0:16/00:00:16)+").unwrap();
        assert_eq!(l.ply, 1);
        assert_eq!(
            l.body,
            Ok(Body::Move(KifMove {
                to: Destination::Square(7, 6),
                piece: PieceKind::Pawn,
                action: Action::None,
                from: Some((7, 7))
            }))
        );
        assert_eq!(
            l.times,
            Some(Ok(Times {
                spent_ms: 16_000,
                total_ms: Some(16_000)
            }))
        );
        assert!(l.has_variation);
        assert_eq!(l.trailing, None);
        assert_eq!(
            &"   1 ７六歩(77)   ( 0:16/00:00:16)+"[l.body_at.0..l.body_at.1],
            "７六歩(77)"
        );
    }

    #[test]
    fn move_forms() {
        assert_eq!(mv("11 同　角成(88)").to, Destination::Same);
        assert_eq!(mv("11 同　角成(88)").action, Action::Promote);
        assert_eq!(mv("11 同歩(87)").piece, PieceKind::Pawn);
        let drop = mv("15 ５五角打     ( 0:12/00:02:10)");
        assert_eq!((drop.action, drop.from), (Action::Drop, None));
        assert_eq!(mv("3 ２三成銀(24)").piece, PieceKind::ProSilver);
        assert_eq!(mv("3 ２三全(24)").piece, PieceKind::ProSilver);
        assert_eq!(mv("3 ２三銀不成(34)").action, Action::NoPromote);
        assert_eq!(mv("3 ▲７六歩(77)").to, Destination::Square(7, 6));
        assert_eq!(mv("3 76歩(77)").to, Destination::Square(7, 6));
        assert_eq!(mv("3 ７六竜(79)").piece, PieceKind::Dragon);
        assert_eq!(mv("3 ５九王(58)").piece, PieceKind::King);
    }

    #[test]
    fn times_in_the_wild() {
        let t = |s: &str| move_line(s).unwrap().times.unwrap().unwrap();
        assert_eq!(t("1 ７六歩(77) (0:4/0:0:4)").total_ms, Some(4000));
        assert_eq!(t("1 ７六歩(77) (1:47/0:7:45)").spent_ms, 107_000);
        assert_eq!(
            t("1 ５二飛打      (00:31 / 00:00:31)").total_ms,
            Some(31_000)
        );
        assert_eq!(t("1 ７六歩(77) ( 0:05)").total_ms, None);
        assert_eq!(t("1 ７六歩(77) (75:00/01:15:00)").spent_ms, 4_500_000);
        assert!(
            move_line("1 ７六歩(77) (x)")
                .unwrap()
                .times
                .unwrap()
                .is_err()
        );
    }

    /// The fixed-offset reader of the usual time gives what the general one gives, over
    /// every usual time and near misses of each part.
    #[test]
    fn plain_times_read_as_times_reads_them() {
        let mut read = 0;
        for minutes in [
            "", "0", " 0", "  0", "7", "12", "123", "1234", " 1 2", "x", "０",
        ] {
            for seconds in ["16", "00", "59", "1", "1x", "123"] {
                for slash in ["/", " / ", "-", ""] {
                    for total in [
                        "00:00:16",
                        "12:34:56",
                        "0:0:4",
                        "00:00:1",
                        "00:00:1x",
                        "00:0016",
                        "00:00:16 ",
                    ] {
                        let text = format!("{minutes}:{seconds}{slash}{total}");
                        let Some(plain) = plain_times(text.as_bytes()) else {
                            continue;
                        };
                        read += 1;
                        assert_eq!(Ok(plain), times(text.as_bytes()), "{text}");
                    }
                }
            }
        }
        assert!(read >= 30, "{read}");
        assert_eq!(
            plain_times(b" 0:16/00:00:16"),
            Some(Times {
                spent_ms: 16_000,
                total_ms: Some(16_000)
            })
        );
        assert_eq!(plain_times(b"75:00/01:15:00").unwrap().spent_ms, 4_500_000);
    }

    /// The fixed-offset reader of the usual time with its parentheses gives what the general
    /// one gives for the inside, over usual times and near misses of each column.
    #[test]
    fn fixed_times_read_as_times_reads_them() {
        let mut read = 0;
        for minutes in [" 0", "12", "00", "0 ", "  ", " x", "x0", "1:"] {
            for rest in [
                ":16/00:00:16",
                ":59/12:34:56",
                ":0x/00:00:16",
                ":16-00:00:16",
                ":16/00:00/16",
                ":16/0 :00:16",
                "/16/00:00:16",
                ":16/00:00:1)",
            ] {
                for (open, close) in [("(", ")"), ("(", " "), ("[", ")")] {
                    let text = format!("{open}{minutes}{rest}{close}");
                    let bytes: &[u8; 16] = text.as_bytes().try_into().unwrap();
                    let Some(fixed) = fixed_times(bytes) else {
                        continue;
                    };
                    read += 1;
                    assert_eq!(Ok(fixed), times(&bytes[1..15]), "{text}");
                }
            }
        }
        assert_eq!(read, 6);
        // Every byte at every column of a usual time, and the largest values.
        for at in 0..16 {
            for b in 0..=255u8 {
                let mut bytes = *b"( 7:59/23:59:59)";
                bytes[at] = b;
                let fixed = fixed_times(&bytes);
                let general = (bytes[0] == b'(' && bytes[15] == b')')
                    .then(|| times(&bytes[1..15]).ok())
                    .flatten();
                if fixed.is_some() {
                    assert_eq!(fixed, general, "{bytes:?}");
                } else {
                    // The general reader takes more shapes; not these, which keep the layout.
                    let layout = bytes[1] == b' ' || bytes[1].is_ascii_digit();
                    let digits = [2, 4, 5, 7, 8, 10, 11, 13, 14]
                        .iter()
                        .all(|&i| bytes[i].is_ascii_digit());
                    let seps = bytes[3] == b':'
                        && bytes[6] == b'/'
                        && bytes[9] == b':'
                        && bytes[12] == b':';
                    assert!(
                        !(layout && digits && seps && bytes[0] == b'(' && bytes[15] == b')'),
                        "{bytes:?}"
                    );
                }
            }
        }
        assert_eq!(
            fixed_times(b"(99:59/99:59:59)"),
            Some(Times {
                spent_ms: 5_999_000,
                total_ms: Some(359_999_000)
            })
        );
    }

    #[test]
    fn endings() {
        let e = |s: &str| move_line(s).unwrap().body.unwrap();
        assert_eq!(
            e("  4 投了         ( 0:00/00:00:01)"),
            Body::Ending(EndingKind::Resign)
        );
        assert_eq!(e("  4 封じ手"), Body::Ending(EndingKind::Sealed));
        assert_eq!(e("  4 詰"), Body::Ending(EndingKind::Checkmate));
        assert_eq!(
            e("  4 ほげ ( 0:00/00:00:01)"),
            Body::Ending(EndingKind::Unknown("ほげ".into()))
        );
        assert_eq!(e("  4 詰み+"), Body::Ending(EndingKind::Checkmate));
        assert!(move_line("  4 詰み+").unwrap().has_variation);
        let l = move_line("  3 反則負け    ").unwrap();
        assert_eq!(l.body, Ok(Body::Ending(EndingKind::IllegalMoveLoss)));
        assert_eq!(l.times, None);
        // 将棋倶楽部24: the side that fouled, then the word; not an ending named `先手`.
        let first = kifu_record::Side::First;
        assert_eq!(
            e("  2 先手 反則負け"),
            Body::Ending(EndingKind::IllegalAction(first))
        );
        assert_eq!(
            e("  9 後手　反則負け   ( 0:00/00:00:01)"),
            Body::Ending(EndingKind::IllegalAction(kifu_record::Side::Second))
        );
    }

    #[test]
    fn not_move_lines_and_errors() {
        assert_eq!(move_line("手合割：平手"), None);
        assert_eq!(move_line("12abc"), None);
        assert!(move_line("1 ７x歩(77)").unwrap().body.is_err());
        assert!(move_line("1 ７六ぬ(77)").unwrap().body.is_err());
        assert!(move_line("1 ７六歩(7)").unwrap().body.is_err());
        let l = move_line("1 ７六歩(77) junk").unwrap();
        assert!(l.body.is_ok());
        assert!(l.trailing.is_some());
        assert!(move_line("1").unwrap().body.is_err());
        assert_eq!(move_line("99999999999 投了").unwrap().ply, u32::MAX);
    }
}
