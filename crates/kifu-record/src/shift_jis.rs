//! Shift_JIS text that decodes cleanly, decoded in one pass: the common case of every `.kif`,
//! `.ki2` and older `.csa` file.
//!
//! `encoding_rs` is the authority on Shift_JIS (the WHATWG Encoding Standard's decoder, which
//! is CP932 as Windows writes it) and stays the only one: this module asks it for each
//! two-byte character the first time that character is seen and keeps the answer, so what
//! it returns is by construction what `encoding_rs` returns. What it adds is speed on the
//! shape of records: short ASCII runs (`(77)   ( 0:16/00:00:16)`) between one to three
//! double-byte characters (`７六歩`). `encoding_rs` spends about 11 instructions a byte on
//! that mix (its fast ASCII path wants long runs, and full-width digits and symbols go
//! through a search of its symbol ranges); decoding Shift_JIS was a fifth of `kifu check`
//! over a directory of KIF files.
//!
//! Anything that is not clean Shift_JIS (a byte no character starts with, a lead byte
//! without its trail, a pair that maps to nothing) gives `None`, and the caller decodes with
//! `encoding_rs`, which reports it.

use std::borrow::Cow;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU32, Ordering};

/// A cell that holds no character: not yet asked of `encoding_rs`, or not one character
/// (nothing is kept for those: the first of them ends the decoding, see [`decode_clean`]).
const UNKNOWN: u32 = 0;
/// What [`ask_encoding_rs`] gives for a pair that does not decode to one character.
const INVALID: u32 = u32::MAX;

/// The character, packed by [`pack`], of each lead and trail byte pair that decodes to one,
/// at `lead << 8 | trail`, filled as pairs are met; [`UNKNOWN`] elsewhere, and always for a
/// first byte that is not a lead byte. Indexed by the two bytes as they are, the lookup needs
/// no test of the lead's and the trail's ranges and no bounds check: a byte that is not a
/// lead, a trail out of range and a lead at the end of the text all find `UNKNOWN` and go
/// the slow way ([`slow`]), which tells them apart. 256 KiB of zeroes, of which a record
/// touches a few pages. Atomics because several threads decode at once (`kifu check
/// --jobs`); two threads filling the same cell write the same value, so relaxed order is
/// enough, and a relaxed load is a plain load.
static PAIRS: [AtomicU32; 1 << 16] = [const { AtomicU32::new(UNKNOWN) }; 1 << 16];

/// A character of one to three bytes of UTF-8 as one word: the bytes in the low three bytes
/// (first byte lowest), their count in the high one, so that the decoder writes four bytes
/// and keeps the count, without a copy of variable length. Longer characters (none that
/// Shift_JIS maps to) are [`INVALID`], which sends the text to `encoding_rs`.
fn pack(c: char) -> u32 {
    let mut buf = [0u8; 4];
    let len = c.encode_utf8(&mut buf).len();
    if len > 3 {
        return INVALID;
    }
    u32::from_le_bytes(buf) | (len as u32) << 24
}

/// Whether `b` is a lead byte of a two-byte character: 0x81–0x9F and 0xE0–0xFC (the
/// WHATWG decoder's ranges; 0xF0–0xF9 are the user-defined area, mapped to private-use code
/// points).
fn is_lead(b: u8) -> bool {
    matches!(b, 0x81..=0x9F | 0xE0..=0xFC)
}

/// The character at a byte `b` that is not ASCII and whose pair with the next byte (`trail`,
/// `None` at the end of the text) is not in [`PAIRS`] yet, packed, and how many bytes it
/// takes; the pair is asked of `encoding_rs` and kept. `None` where the text is not clean.
#[cold]
fn slow(b: u8, trail: Option<u8>) -> Option<(u32, usize)> {
    if !is_lead(b) {
        return Some((single(b)?, 1));
    }
    let trail = trail?;
    let packed = ask_encoding_rs(b, trail);
    if packed == INVALID {
        return None;
    }
    PAIRS[usize::from(b) << 8 | usize::from(trail)].store(packed, Ordering::Relaxed);
    Some((packed, 2))
}

/// What `encoding_rs` decodes the two bytes to, packed, when they are one character;
/// [`INVALID`] otherwise (an error, or a trail byte it gives back as a character of its own).
#[cold]
fn ask_encoding_rs(lead: u8, trail: u8) -> u32 {
    let bytes = [lead, trail];
    let decoded =
        encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(&bytes);
    let mut chars = decoded.as_deref().unwrap_or("").chars();
    match (chars.next(), chars.next()) {
        // Never [`UNKNOWN`]: a packed character has its length in its high byte.
        (Some(c), None) => pack(c),
        _ => INVALID,
    }
}

/// A byte that is a character on its own and is not ASCII, packed: WHATWG maps 0x80 to
/// U+0080 and 0xA1–0xDF to the half-width katakana U+FF61–U+FF9F; other bytes are errors.
fn single(b: u8) -> Option<u32> {
    let c = match b {
        0x80 => '\u{80}',
        0xA1..=0xDF => char::from_u32(0xFF61 + u32::from(b - 0xA1))?,
        _ => return None,
    };
    Some(pack(c))
}

/// Decodes `bytes` as Shift_JIS when they hold no error: the text `encoding_rs` would give
/// (`decode_without_bom_handling` without errors), borrowed when it is all ASCII, else
/// `None`.
pub(crate) fn decode_clean(bytes: &[u8]) -> Option<Cow<'_, str>> {
    if bytes.is_ascii() {
        return std::str::from_utf8(bytes).ok().map(Cow::Borrowed);
    }
    let n = bytes.len();
    match decode_into(bytes, room(0, n)) {
        Decoding::Done(text) => Some(Cow::Owned(text)),
        Decoding::Unclean => None,
        // Half-width katakana (one byte, three of UTF-8) need more room than one and a half
        // bytes a byte; they are rare, and three bytes a byte is room for anything.
        Decoding::OutOfRoom => match decode_into(bytes, 3 * n + 16) {
            Decoding::Done(text) => Some(Cow::Owned(text)),
            // Never out of room again; `None` would only send the bytes to `encoding_rs`.
            Decoding::Unclean | Decoding::OutOfRoom => None,
        },
    }
}

/// What [`decode_into`] made of the bytes.
enum Decoding {
    /// The text, which is what `encoding_rs` gives.
    Done(String),
    /// The bytes are not clean Shift_JIS: `encoding_rs` decodes and reports them.
    Unclean,
    /// The room given was too small (half-width katakana): decode again with more.
    OutOfRoom,
}

/// The length of UTF-8 that [`decode_into`] needs room for when `written` bytes of it are
/// out and `left` bytes of Shift_JIS remain, at one and a half bytes each (a pair gives at
/// most three), with sixteen to spare for the widest write (sixteen bytes of which only the
/// ASCII ones are kept).
fn room(written: usize, left: usize) -> usize {
    written + left + left.div_ceil(2) + 16
}

/// Decodes clean Shift_JIS into a string of `capacity` bytes at most, written in place.
///
/// The text is written at `len` into the vector's spare capacity and the vector's length set
/// once at the end: a write is one store and a bounds test on a length kept in a register,
/// where `extend_from_slice` and `truncate` (the capacity test, the length in memory) were a
/// fifth of the decoding, and a zeroed buffer cost more than that to zero.
///
/// Room: the capacity stays at least [`room`]`(len, n - i)`. An ASCII step (bytes in, as
/// many out) and a pair (two in, at most three out) keep that true by themselves; a byte
/// that is a character alone (half-width katakana, 0x80) goes the cold way, which checks it
/// and gives up with [`Decoding::OutOfRoom`] rather than outgrow the vector, so every write
/// fits and the slices' bounds tests never fail (they would panic, never write past the end).
fn decode_into(bytes: &[u8], capacity: usize) -> Decoding {
    let n = bytes.len();
    let mut out: Vec<u8> = Vec::with_capacity(capacity);
    let spare = out.spare_capacity_mut();
    let mut len = 0;
    let mut i = 0;
    while i < n {
        if i + 16 <= n {
            // ASCII sixteen bytes at a time: copy them all, keep those before the first that
            // is not ASCII (a record's ASCII runs are short: `(77)   ( 0:16/00:00:16)\r\n`
            // and the next move's number, about thirty bytes between two moves).
            let chunk: [u8; 16] = bytes[i..i + 16].try_into().expect("sixteen bytes");
            let high = u128::from_le_bytes(chunk) & 0x8080_8080_8080_8080_8080_8080_8080_8080;
            put(spare, len, chunk);
            if high == 0 {
                i += 16;
                len += 16;
                continue;
            }
            let ascii = (high.trailing_zeros() / 8) as usize;
            i += ascii;
            len += ascii;
        } else if i + 8 <= n {
            // The same eight bytes at a time near the end.
            let chunk: [u8; 8] = bytes[i..i + 8].try_into().expect("eight bytes");
            let high = u64::from_le_bytes(chunk) & 0x8080_8080_8080_8080;
            put(spare, len, chunk);
            if high == 0 {
                i += 8;
                len += 8;
                continue;
            }
            let ascii = (high.trailing_zeros() / 8) as usize;
            i += ascii;
            len += ascii;
        } else if bytes[i] < 0x80 {
            put(spare, len, [bytes[i]]);
            len += 1;
            i += 1;
            continue;
        }
        // `bytes[i]` is not ASCII; double-byte characters come in runs (`７六歩`, `先手`),
        // read here one after another without going back to the ASCII step.
        while let Some(&b) = bytes.get(i).filter(|b| !b.is_ascii()) {
            let trail = bytes.get(i + 1).copied();
            // A zero trail at the end never finds a character: no pair ends in 0x00.
            let cell = &PAIRS[usize::from(b) << 8 | usize::from(trail.unwrap_or(0))];
            let packed = match cell.load(Ordering::Relaxed) {
                UNKNOWN => {
                    let Some((packed, taken)) = slow(b, trail) else {
                        return Decoding::Unclean;
                    };
                    i += taken;
                    if room(len + (packed >> 24) as usize, n - i) > spare.len() {
                        return Decoding::OutOfRoom;
                    }
                    packed
                }
                packed => {
                    i += 2;
                    packed
                }
            };
            put(spare, len, packed.to_le_bytes());
            len += (packed >> 24) as usize;
        }
    }
    // SAFETY: the first `len` bytes of the spare capacity are written: every step writes
    // `put(spare, len, …)` and then moves `len` on by at most as many bytes as it wrote.
    unsafe { out.set_len(len) };
    debug_assert!(std::str::from_utf8(&out).is_ok());
    // SAFETY: `out` holds ASCII bytes (each checked above) and whole characters as
    // `char::encode_utf8` wrote them (`pack`), nothing else: it is UTF-8. Checking it again
    // with `String::from_utf8` cost more than half as much as the decoding itself.
    Decoding::Done(unsafe { String::from_utf8_unchecked(out) })
}

/// Writes `N` bytes at `at` of a vector's spare capacity.
#[inline(always)]
fn put<const N: usize>(spare: &mut [MaybeUninit<u8>], at: usize, bytes: [u8; N]) {
    let to: &mut [MaybeUninit<u8>; N] = (&mut spare[at..at + N]).try_into().expect("N bytes");
    *to = bytes.map(MaybeUninit::new);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `encoding_rs`'s answer: the text when the bytes decode without error.
    fn reference(bytes: &[u8]) -> Option<Cow<'_, str>> {
        encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(bytes)
    }

    #[test]
    fn every_byte_and_every_pair_decodes_as_encoding_rs_decodes_it() {
        for a in 0..=255u8 {
            assert_eq!(decode_clean(&[a]), reference(&[a]), "{a:#04x}");
            for b in 0..=255u8 {
                let bytes = [a, b];
                assert_eq!(decode_clean(&bytes), reference(&bytes), "{bytes:02x?}");
                // After ASCII bytes and before one, at every offset of the 16- and 8-byte steps.
                for pad in 0..34 {
                    let mut long = vec![b'x'; pad];
                    long.extend_from_slice(&bytes);
                    long.push(b'y');
                    assert_eq!(decode_clean(&long), reference(&long), "{long:02x?}");
                }
            }
        }
    }

    /// Random byte strings drawn mostly from the bytes records are made of, with
    /// occasional anything: the same text, or `None` exactly where `encoding_rs` errs.
    #[test]
    fn random_mixtures_decode_as_encoding_rs_decodes_them() {
        let alphabet: Vec<u8> = b" (0123456789):/\r\n+-"
            .iter()
            .copied()
            .chain([
                0x82, 0x83, 0x88, 0x8C, 0x93, 0x94, 0x95, 0x98, 0xE0, 0xEA, 0xF0,
            ])
            .chain([
                0x4F, 0x58, 0x60, 0x9F, 0xA0, 0xB1, 0xFC, 0x7F, 0x80, 0xA1, 0xDF, 0xFD,
            ])
            .collect();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut clean = 0;
        for _ in 0..20_000 {
            let len = (next() % 40) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    let r = next();
                    if r % 50 == 0 {
                        (r >> 8) as u8
                    } else {
                        alphabet[(r >> 8) as usize % alphabet.len()]
                    }
                })
                .collect();
            let expected = reference(&bytes);
            clean += usize::from(expected.is_some());
            assert_eq!(decode_clean(&bytes), expected, "{bytes:02x?}");
        }
        assert!(
            clean > 1_000,
            "too few clean samples to mean anything: {clean}"
        );
    }

    #[test]
    fn a_kif_line_and_its_header() {
        let text = "先手：羽生\r\n   1 ７六歩(77)   ( 0:16/00:00:16)\r\n▲☆ｱｲｳ§×α\n";
        let (bytes, _, lost) = encoding_rs::SHIFT_JIS.encode(text);
        assert!(!lost);
        assert_eq!(decode_clean(&bytes).as_deref(), Some(text));
        // A lead byte at the very end has no trail.
        assert_eq!(decode_clean(&bytes[..bytes.len() - 2]), None);
    }

    /// Half-width katakana take three bytes of UTF-8 for one of Shift_JIS: the output grows
    /// past the room first made, alone and between ASCII runs.
    #[test]
    fn half_width_katakana_outgrow_the_first_room() {
        for text in [
            "ｱ".repeat(1_000),
            "ｱｲｳｴｵ0123456789abcdef".repeat(300),
            format!("{}７六歩", "ｶ".repeat(40)),
        ] {
            let (bytes, _, lost) = encoding_rs::SHIFT_JIS.encode(&text);
            assert!(!lost);
            assert_eq!(decode_clean(&bytes).as_deref(), Some(text.as_str()));
        }
    }
}
