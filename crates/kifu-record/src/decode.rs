//! Turning a file's bytes into text.
//!
//! Records in the wild are UTF-8 or Shift_JIS (CP932), occasionally EUC-JP, with or without a
//! BOM, and their extension does not always tell the truth (81Dojo and lishogi write UTF-8
//! `.kif` files). The order of evidence is: a BOM, an explicit encoding line on the first line
//! (`'CSA encoding=…`, `#KIF version=2.0 encoding=…`), strict UTF-8, then the encoding the
//! extension implies, then the other Japanese encodings. Valid UTF-8 input is borrowed, not
//! copied.

use std::borrow::Cow;
use std::path::Path;

use crate::{Diagnostic, Span};

/// The encodings records come in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    /// UTF-8 (with or without a byte-order mark).
    Utf8,
    /// Shift_JIS as Windows writes it (CP932, WHATWG `Shift_JIS`).
    ShiftJis,
    /// EUC-JP.
    EucJp,
    /// UTF-16, little-endian (recognised by its byte-order mark, or by its NULs).
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
}

impl TextEncoding {
    fn encoding_rs(self) -> &'static encoding_rs::Encoding {
        match self {
            TextEncoding::Utf8 => encoding_rs::UTF_8,
            TextEncoding::ShiftJis => encoding_rs::SHIFT_JIS,
            TextEncoding::EucJp => encoding_rs::EUC_JP,
            TextEncoding::Utf16Le => encoding_rs::UTF_16LE,
            TextEncoding::Utf16Be => encoding_rs::UTF_16BE,
        }
    }

    /// The encoding named in an encoding line (`UTF-8`, `SHIFT_JIS`, `cp932`, `EUC-JP` …).
    pub fn from_label(label: &str) -> Option<TextEncoding> {
        let enc = encoding_rs::Encoding::for_label(label.trim().as_bytes())?;
        Some(if enc == encoding_rs::UTF_8 {
            TextEncoding::Utf8
        } else if enc == encoding_rs::SHIFT_JIS {
            TextEncoding::ShiftJis
        } else if enc == encoding_rs::EUC_JP {
            TextEncoding::EucJp
        } else if enc == encoding_rs::UTF_16LE {
            TextEncoding::Utf16Le
        } else if enc == encoding_rs::UTF_16BE {
            TextEncoding::Utf16Be
        } else {
            return None;
        })
    }

    /// The encoding a file name's extension implies: Shift_JIS for `.kif`, `.ki2`, `.csa`
    /// (the formats' defaults), UTF-8 for everything else (`.kifu`, `.ki2u`, `.jkf`, `.usi` …).
    pub fn for_path(path: &Path) -> TextEncoding {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        match ext.as_str() {
            "kif" | "ki2" | "csa" | "bod" => TextEncoding::ShiftJis,
            _ => TextEncoding::Utf8,
        }
    }

    /// The encoding's name as WHATWG labels it (`UTF-8`, `Shift_JIS`, `EUC-JP` …).
    pub fn name(self) -> &'static str {
        self.encoding_rs().name()
    }
}

/// How the encoding was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodingSource {
    /// A byte-order mark.
    ByteOrderMark,
    /// An encoding line on the first line.
    Declared,
    /// Strictly valid in this encoding (or plain ASCII, valid in all).
    Detected,
    /// Nothing decoded cleanly; the expected encoding was used with replacement characters.
    Fallback,
}

/// Decoded text and how it was decoded.
#[derive(Clone, Debug)]
pub struct Decoded<'a> {
    /// The text without a BOM. Borrowed when the input was valid UTF-8.
    pub text: Cow<'a, str>,
    /// The encoding the text was decoded from.
    pub encoding: TextEncoding,
    /// What decided the encoding.
    pub source: EncodingSource,
    /// Warnings (a declaration the bytes contradict, undecodable bytes), spans into `text`.
    pub diagnostics: Vec<Diagnostic>,
}

/// Decodes a record whose expected encoding is `expected` (see [`TextEncoding::for_path`]).
///
/// ```
/// use kifu_record::{decode, TextEncoding};
/// let sjis = b"\x90\xe6\x8e\xe8\x81\x46\x8d\x95"; // 先手：黒 in Shift_JIS
/// let d = decode(sjis, TextEncoding::ShiftJis);
/// assert_eq!(d.text, "先手：黒");
/// let utf8_kif = "先手：黒".as_bytes(); // a UTF-8 file named .kif
/// assert_eq!(decode(utf8_kif, TextEncoding::ShiftJis).encoding, TextEncoding::Utf8);
/// ```
pub fn decode(bytes: &[u8], expected: TextEncoding) -> Decoded<'_> {
    if let Some((enc, bom_len)) = encoding_rs::Encoding::for_bom(bytes) {
        let encoding = TextEncoding::from_label(enc.name()).unwrap_or(TextEncoding::Utf8);
        return decode_as(&bytes[bom_len..], encoding, EncodingSource::ByteOrderMark);
    }
    if let Some(declared) = declared_encoding(bytes) {
        let d = decode_as(bytes, declared, EncodingSource::Declared);
        if !d.diagnostics.is_empty() {
            // The declaration lies; trust the bytes if they decode cleanly otherwise.
            if let Some(mut detected) = detect(bytes, expected) {
                let line = first_line_len(&detected.text);
                detected.diagnostics.push(Diagnostic::warning(
                    crate::DiagnosticKind::Encoding,
                    Span::new(0, line),
                    format!(
                        "the file declares {} but is {}; read as {}",
                        declared.name(),
                        detected.encoding.name(),
                        detected.encoding.name()
                    ),
                ));
                return detected;
            }
        }
        return d;
    }
    if let Some(utf16) = bomless_utf16(bytes) {
        let d = decode_as(bytes, utf16, EncodingSource::Detected);
        if d.diagnostics.is_empty() {
            return d;
        }
        // Decoded as Shift_JIS or UTF-8 these bytes would be one character in two a NUL:
        // refuse rather than hand on text that has lost the content.
        let mut d = decode_as(bytes, expected, EncodingSource::Fallback);
        d.diagnostics = vec![Diagnostic::error(
            crate::DiagnosticKind::Encoding,
            Span::new(0, first_line_len(&d.text)),
            format!(
                "the bytes look like {} without a byte-order mark but do not decode as it; \
                 save the file as UTF-8 or Shift_JIS",
                utf16.name()
            ),
        )];
        return d;
    }
    if let Some(d) = detect(bytes, expected) {
        return d;
    }
    decode_as(bytes, expected, EncodingSource::Fallback)
}

/// UTF-16 without a byte-order mark (Windows' "Unicode" without BOM): records are mostly
/// ASCII digits, spaces and line ends, which UTF-16 writes with a zero byte beside them,
/// always at the same parity. Text in any encoding kifu reads otherwise has no NUL bytes, so
/// NULs on one side only are strong evidence.
fn bomless_utf16(bytes: &[u8]) -> Option<TextEncoding> {
    if bytes.len() < 4 || !bytes.len().is_multiple_of(2) {
        return None;
    }
    // The first lines decide (a header, a line of moves); this runs for every file read.
    let sample = &bytes[..bytes.len().min(4096)];
    // No NUL, no UTF-16. Looked for with the memchr crate's vector search:
    // `<[u8]>::contains` reads the sample a word at a time, and this runs for every file.
    memchr::memchr(0, sample)?;
    let (mut even, mut odd) = (0usize, 0usize);
    for pair in sample.chunks_exact(2) {
        even += usize::from(pair[0] == 0);
        odd += usize::from(pair[1] == 0);
    }
    let units = sample.len() / 2;
    let looks = |zeros: usize, other: usize| zeros * 10 >= units && other * 20 <= zeros;
    if looks(odd, even) {
        Some(TextEncoding::Utf16Le)
    } else if looks(even, odd) {
        Some(TextEncoding::Utf16Be)
    } else {
        None
    }
}

/// The bytes as text when they are UTF-8: `str::from_utf8(bytes).ok()`.
///
/// The standard library's check walks a UTF-8 record's three-byte characters one at a time
/// and cost more than decoding the same record from Shift_JIS (issue 36); `simdutf8` checks
/// sixteen or thirty-two bytes at a time and gives the same answer. But it reads the whole
/// text before it says no, and most texts that are not UTF-8 (Shift_JIS records) show it in
/// their first line: the first bytes are asked of the standard library first, where an
/// invalid sequence settles it (a character cut off at the end of them does not).
fn utf8(bytes: &[u8]) -> Option<&str> {
    const HEAD: usize = 256;
    if let Err(e) = std::str::from_utf8(&bytes[..bytes.len().min(HEAD)])
        && e.error_len().is_some()
    {
        return None;
    }
    simdutf8::basic::from_utf8(bytes).ok()
}

fn detect(bytes: &[u8], expected: TextEncoding) -> Option<Decoded<'_>> {
    if let Some(text) = utf8(bytes) {
        return Some(Decoded {
            text: Cow::Borrowed(text),
            encoding: TextEncoding::Utf8,
            source: EncodingSource::Detected,
            diagnostics: Vec::new(),
        });
    }
    // The expected encoding first, then the others once each (no list made for every file).
    let others = [TextEncoding::ShiftJis, TextEncoding::EucJp];
    let candidates = std::iter::once(expected).chain(others.into_iter().filter(|&e| e != expected));
    candidates.into_iter().find_map(|e| {
        if e == TextEncoding::Utf8 {
            return None;
        }
        let text = clean(bytes, e)?;
        Some(Decoded {
            text,
            encoding: e,
            source: EncodingSource::Detected,
            diagnostics: Vec::new(),
        })
    })
}

/// The text of `bytes` in `encoding` when they decode without error. Shift_JIS, what nearly
/// every record that is not UTF-8 is in, takes [`crate::shift_jis`]'s one pass, which gives
/// what `encoding_rs` gives.
fn clean(bytes: &[u8], encoding: TextEncoding) -> Option<Cow<'_, str>> {
    if encoding == TextEncoding::ShiftJis {
        return crate::shift_jis::decode_clean(bytes);
    }
    let (text, had_errors) = encoding.encoding_rs().decode_without_bom_handling(bytes);
    (!had_errors).then_some(text)
}

fn decode_as(bytes: &[u8], encoding: TextEncoding, source: EncodingSource) -> Decoded<'_> {
    if let Some(text) = clean(bytes, encoding) {
        return Decoded {
            text,
            encoding,
            source,
            diagnostics: Vec::new(),
        };
    }
    let (text, had_errors) = encoding.encoding_rs().decode_without_bom_handling(bytes);
    let mut diagnostics = Vec::new();
    if had_errors {
        // Content was lost: whatever the replaced bytes said (a move, a name) is gone, so
        // the text cannot pass as a faithful reading of the file.
        let at = text.find('\u{FFFD}').unwrap_or(0);
        let count = text.matches('\u{FFFD}').count();
        diagnostics.push(Diagnostic::error(
            crate::DiagnosticKind::Encoding,
            Span::new(at, at + '\u{FFFD}'.len_utf8()),
            format!(
                "{count} byte sequence(s) are not valid {}; replaced with U+FFFD",
                encoding.name()
            ),
        ));
    }
    Decoded {
        text,
        encoding,
        source,
        diagnostics,
    }
}

fn first_line_len(text: &str) -> usize {
    text.find('\n').unwrap_or(text.len())
}

/// The encoding named on the first line: `'CSA encoding=UTF-8` (CSA V3.0) or
/// `#KIF version=2.0 encoding=Shift_JIS` (Kifu for Windows V7, Kifu for iPhone, 81Dojo).
/// The line is ASCII in every encoding concerned, so it is read before decoding.
pub fn declared_encoding(bytes: &[u8]) -> Option<TextEncoding> {
    let end = bytes
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .unwrap_or(bytes.len())
        .min(200);
    let line = std::str::from_utf8(&bytes[..end]).ok()?;
    let rest = line
        .strip_prefix("'CSA")
        .or_else(|| line.strip_prefix("#KIF"))
        .or_else(|| line.strip_prefix("'encoding="))?;
    let label = if line.starts_with("'encoding=") {
        rest
    } else {
        rest.split_whitespace()
            .find_map(|w| w.strip_prefix("encoding="))?
    };
    TextEncoding::from_label(label)
}

/// Encodes text for writing; characters the encoding cannot hold become `?`, and the
/// distinct characters lost are returned so the caller can warn.
pub fn encode(text: &str, encoding: TextEncoding) -> (Cow<'_, [u8]>, Vec<char>) {
    if encoding == TextEncoding::Utf8 {
        return (Cow::Borrowed(text.as_bytes()), Vec::new());
    }
    let enc = encoding.encoding_rs();
    let (bytes, _, had_errors) = enc.encode(text);
    if !had_errors && enc.output_encoding() == enc {
        return (bytes, Vec::new());
    }
    let mut lost = Vec::new();
    let mut out = Vec::with_capacity(text.len());
    let mut buf = [0u8; 4];
    for c in text.chars() {
        let (b, _, err) = enc.encode(c.encode_utf8(&mut buf));
        if err || enc.output_encoding() != enc {
            out.push(b'?');
            if !lost.contains(&c) {
                lost.push(c);
            }
        } else {
            out.extend_from_slice(&b);
        }
    }
    (Cow::Owned(out), lost)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sjis(s: &str) -> Vec<u8> {
        encoding_rs::SHIFT_JIS.encode(s).0.into_owned()
    }

    /// The head asked of the standard library and the rest of `simdutf8` answer as
    /// `str::from_utf8` does: valid texts long and short, a character cut by the head's end,
    /// a bad byte in the head, across its end and after it, and Shift_JIS.
    #[test]
    fn the_utf8_check_answers_as_the_standard_library_does() {
        let mut texts: Vec<Vec<u8>> = Vec::new();
        for pad in 250..=258 {
            let ascii = "a".repeat(pad);
            texts.push(format!("{ascii}先手：黒\n").into_bytes());
            texts.push(format!("{}{ascii}", "７六歩".repeat(40)).into_bytes());
            for bad in [&[0xFFu8][..], &[0xE5, 0x85], &[0x82, 0xA0], &[0xE5, 0x41]] {
                let mut t = ascii.clone().into_bytes();
                t.extend_from_slice(bad);
                t.extend_from_slice("手数".as_bytes());
                texts.push(t);
            }
        }
        texts.push(Vec::new());
        texts.push(
            encode("先手：黒\n   1 ７六歩(77)\n", TextEncoding::ShiftJis)
                .0
                .into_owned(),
        );
        texts.push("手".repeat(1_000).into_bytes());
        for text in &texts {
            assert_eq!(utf8(text), std::str::from_utf8(text).ok(), "{text:02x?}");
        }
    }

    #[test]
    fn shift_jis_kif() {
        let bytes = sjis("先手：羽生\r\n");
        let d = decode(&bytes, TextEncoding::for_path(Path::new("a.KIF")));
        assert_eq!(d.text, "先手：羽生\r\n");
        assert_eq!(d.encoding, TextEncoding::ShiftJis);
        assert_eq!(d.source, EncodingSource::Detected);
        assert!(d.diagnostics.is_empty());
    }

    #[test]
    fn utf8_kif_is_detected_and_borrowed() {
        let text = "先手：羽生\n";
        let d = decode(text.as_bytes(), TextEncoding::ShiftJis);
        assert_eq!(d.encoding, TextEncoding::Utf8);
        assert!(matches!(d.text, Cow::Borrowed(_)));
    }

    #[test]
    fn bom_is_stripped() {
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice("#KIF\n".as_bytes());
        let d = decode(&bytes, TextEncoding::ShiftJis);
        assert_eq!(d.text, "#KIF\n");
        assert_eq!(d.source, EncodingSource::ByteOrderMark);
        let utf16 = [0xFF, 0xFE, b'P', 0, b'I', 0];
        let d = decode(&utf16, TextEncoding::Utf8);
        assert_eq!((d.text.as_ref(), d.encoding), ("PI", TextEncoding::Utf16Le));
    }

    #[test]
    fn encoding_lines() {
        assert_eq!(
            declared_encoding(b"'CSA encoding=SHIFT_JIS\r\nV3.0"),
            Some(TextEncoding::ShiftJis)
        );
        assert_eq!(
            declared_encoding(b"#KIF version=2.0 encoding=UTF-8\n"),
            Some(TextEncoding::Utf8)
        );
        assert_eq!(
            declared_encoding(b"'encoding=Shift_JIS\n"),
            Some(TextEncoding::ShiftJis)
        );
        assert_eq!(declared_encoding(b"V2.2\n'CSA encoding=UTF-8"), None);
        assert_eq!(declared_encoding(b"'CSA encoding=KLINGON"), None);
    }

    #[test]
    fn declared_encoding_wins_over_extension() {
        let mut bytes = b"'CSA encoding=SHIFT_JIS\nN+".to_vec();
        bytes.extend(sjis("羽生"));
        let d = decode(&bytes, TextEncoding::Utf8);
        assert_eq!(d.source, EncodingSource::Declared);
        assert_eq!(d.text, "'CSA encoding=SHIFT_JIS\nN+羽生");
    }

    #[test]
    fn a_lying_declaration_is_warned_about() {
        let bytes = "#KIF version=2.0 encoding=Shift_JIS\n先手：\u{2617}".as_bytes();
        // ☗ is not in CP932, so these UTF-8 bytes are not valid Shift_JIS.
        let d = decode(bytes, TextEncoding::ShiftJis);
        assert_eq!(d.encoding, TextEncoding::Utf8);
        assert_eq!(d.diagnostics.len(), 1);
        assert!(d.diagnostics[0].message.contains("declares Shift_JIS"));
    }

    #[test]
    fn euc_jp_and_junk() {
        let euc = encoding_rs::EUC_JP.encode("後手：谷川").0.into_owned();
        let d = decode(&euc, TextEncoding::ShiftJis);
        assert_eq!(d.text, "後手：谷川");
        // 0xFF is invalid in UTF-8, Shift_JIS and EUC-JP.
        let d = decode(b"PI\n\x80\xff\xff\n", TextEncoding::ShiftJis);
        assert_eq!(d.source, EncodingSource::Fallback);
        assert_eq!(d.diagnostics.len(), 1);
        assert!(d.text.starts_with("PI\n"));
        // WHATWG Shift_JIS maps 0x80 to U+0080; the first 0xFF is the first bad byte.
        assert_eq!(d.diagnostics[0].span.start, 5);
    }

    #[test]
    fn utf16_without_a_byte_order_mark_is_detected() {
        let text = "手合割：平手\r\n   1 ７六歩(77)   ( 0:16/00:00:16)\r\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let d = decode(&le, TextEncoding::ShiftJis);
        assert_eq!((d.text.as_ref(), d.encoding), (text, TextEncoding::Utf16Le));
        assert!(d.diagnostics.is_empty());
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let d = decode(&be, TextEncoding::Utf8);
        assert_eq!((d.text.as_ref(), d.encoding), (text, TextEncoding::Utf16Be));
        // An unpaired surrogate: refused, not read as something else.
        let mut bad = le.clone();
        bad.extend_from_slice(&[0x00, 0xD8, b'a', 0]);
        let d = decode(&bad, TextEncoding::ShiftJis);
        assert!(
            d.diagnostics.iter().any(|d| d.is_error()),
            "{:?}",
            d.diagnostics
        );
        assert!(d.diagnostics[0].message.contains("UTF-16LE"));
    }

    #[test]
    fn encode_reports_lost_characters() {
        let (bytes, lost) = encode("▲☗７六歩", TextEncoding::ShiftJis);
        assert_eq!(lost, ['☗']);
        let back = decode(&bytes, TextEncoding::ShiftJis);
        assert_eq!(back.text, "▲?７六歩");
        let (bytes, lost) = encode("abc", TextEncoding::Utf8);
        assert!(lost.is_empty());
        assert_eq!(&*bytes, b"abc");
    }
}
