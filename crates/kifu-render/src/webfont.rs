//! A small TrueType font holding just the characters of one HTML page, cut from the embedded
//! font, so that a replay page carries its own glyphs (a few kilobytes) instead of the whole
//! font (megabytes).
//!
//! The embedded font has TrueType outlines without composite glyphs or hinting (see
//! `font/make-subset`), so a glyph is copied as its bytes from `glyf`; the tables a browser
//! requires (OpenType 1.9, "Required tables") are rebuilt or copied: `cmap` (format 4), `glyf`,
//! `loca`, `hmtx`, `head`, `hhea`, `maxp`, `post` (format 3), `name` and `OS/2`. The general
//! font subsetters of the Rust ecosystem either drop `cmap` (they make fonts for PDFs) or bring
//! a large toolkit; this is the part of the job a page needs.

use std::collections::{BTreeMap, BTreeSet};

use ttf_parser::{GlyphId, Tag};

use crate::font::face;

/// A font with the glyphs of `chars` the embedded font holds (characters of the Basic
/// Multilingual Plane; others are left to the browser's fonts).
///
/// ```
/// let font = kifu_render::webfont::subset("☗歩と".chars());
/// let face = ttf_parser::Face::parse(&font, 0).unwrap();
/// assert_eq!(face.number_of_glyphs(), 4, ".notdef and three glyphs");
/// assert!(face.glyph_index('歩').is_some());
/// assert!(face.glyph_index('金').is_none());
/// ```
pub fn subset(chars: impl IntoIterator<Item = char>) -> Vec<u8> {
    let face = face();
    let raw = face.raw_face();
    let table = |tag: &[u8; 4]| raw.table(Tag::from_bytes(tag)).unwrap_or_default();
    let head = table(b"head");
    let long_offsets = read_u16(head, 50) == 1;
    let (loca, glyf) = (table(b"loca"), table(b"glyf"));
    let glyph_bytes = |id: GlyphId| -> &[u8] {
        let i = usize::from(id.0);
        let (start, end) = if long_offsets {
            (
                read_u32(loca, 4 * i) as usize,
                read_u32(loca, 4 * i + 4) as usize,
            )
        } else {
            (
                2 * usize::from(read_u16(loca, 2 * i)),
                2 * usize::from(read_u16(loca, 2 * i + 2)),
            )
        };
        glyf.get(start..end).unwrap_or_default()
    };

    // New glyph ids: .notdef first, then each glyph once, in the order of its first character.
    let chars: BTreeSet<char> = chars
        .into_iter()
        .filter(|&c| u32::from(c) < 0xFFFF)
        .collect();
    let mut old_ids = vec![GlyphId(0)];
    let mut new_id_of: BTreeMap<u16, u16> = BTreeMap::new();
    let mut mapping: Vec<(u16, u16)> = Vec::new();
    for c in chars {
        let Some(old) = face.glyph_index(c) else {
            continue;
        };
        let new = *new_id_of.entry(old.0).or_insert_with(|| {
            old_ids.push(old);
            (old_ids.len() - 1) as u16
        });
        mapping.push((u32::from(c) as u16, new));
    }
    let count = old_ids.len() as u16;

    let mut new_glyf = Vec::new();
    let mut new_loca = Vec::new();
    let mut hmtx = Vec::new();
    for &id in &old_ids {
        push_u32(&mut new_loca, new_glyf.len() as u32);
        new_glyf.extend_from_slice(glyph_bytes(id));
        while new_glyf.len() % 4 != 0 {
            new_glyf.push(0);
        }
        push_u16(&mut hmtx, face.glyph_hor_advance(id).unwrap_or(0));
        push_u16(
            &mut hmtx,
            face.glyph_hor_side_bearing(id).unwrap_or(0) as u16,
        );
    }
    push_u32(&mut new_loca, new_glyf.len() as u32);

    let mut new_head = head.to_vec();
    new_head.resize(54, 0);
    new_head[8..12].copy_from_slice(&[0; 4]);
    new_head[50..52].copy_from_slice(&1u16.to_be_bytes());
    let mut hhea = table(b"hhea").to_vec();
    hhea.resize(36, 0);
    hhea[34..36].copy_from_slice(&count.to_be_bytes());
    let mut maxp = table(b"maxp").to_vec();
    maxp.resize(32, 0);
    maxp[4..6].copy_from_slice(&count.to_be_bytes());
    // Format 3: no glyph names (the glyph ids changed).
    let mut post = table(b"post").get(..32).unwrap_or_default().to_vec();
    post.resize(32, 0);
    post[0..4].copy_from_slice(&0x0003_0000u32.to_be_bytes());

    let mut tables: Vec<([u8; 4], Vec<u8>)> = vec![
        (*b"OS/2", table(b"OS/2").to_vec()),
        (*b"cmap", cmap(&mapping)),
        (*b"glyf", new_glyf),
        (*b"head", new_head),
        (*b"hhea", hhea),
        (*b"hmtx", hmtx),
        (*b"loca", new_loca),
        (*b"maxp", maxp),
        (*b"name", table(b"name").to_vec()),
        (*b"post", post),
    ];
    tables.sort_by_key(|(tag, _)| *tag);
    let font = assemble(&tables);
    finish_head(font, &tables)
}

/// A `cmap` with one format 4 subtable (Windows, Unicode BMP): a segment for each run of
/// consecutive characters with consecutive glyph ids, then the closing 0xFFFF segment.
fn cmap(mapping: &[(u16, u16)]) -> Vec<u8> {
    let mut segments: Vec<(u16, u16, u16)> = Vec::new(); // start, end, first glyph
    for &(code, gid) in mapping {
        match segments.last_mut() {
            Some((start, end, first))
                if u32::from(*end) + 1 == u32::from(code)
                    && u32::from(*first) + u32::from(code - *start) == u32::from(gid) =>
            {
                *end = code;
            }
            _ => segments.push((code, code, gid)),
        }
    }
    segments.push((0xFFFF, 0xFFFF, 0));
    let seg_count = segments.len() as u16;
    let mut sub = Vec::new();
    push_u16(&mut sub, 4); // format
    push_u16(&mut sub, 16 + 8 * seg_count); // length
    push_u16(&mut sub, 0); // language
    push_u16(&mut sub, seg_count * 2);
    let (search_range, entry_selector) = binary_search_fields(seg_count, 2);
    push_u16(&mut sub, search_range);
    push_u16(&mut sub, entry_selector);
    push_u16(&mut sub, seg_count * 2 - search_range);
    for &(_, end, _) in &segments {
        push_u16(&mut sub, end);
    }
    push_u16(&mut sub, 0); // reserved pad
    for &(start, _, _) in &segments {
        push_u16(&mut sub, start);
    }
    for &(start, end, first) in &segments {
        // The last segment maps 0xFFFF to glyph 0: delta 1.
        let delta = if end == 0xFFFF {
            1
        } else {
            first.wrapping_sub(start)
        };
        push_u16(&mut sub, delta);
    }
    for _ in &segments {
        push_u16(&mut sub, 0); // idRangeOffset: glyph = code + delta
    }
    let mut out = Vec::new();
    push_u16(&mut out, 0); // version
    push_u16(&mut out, 1); // one subtable
    push_u16(&mut out, 3); // Windows
    push_u16(&mut out, 1); // Unicode BMP
    push_u32(&mut out, 12);
    out.extend_from_slice(&sub);
    out
}

/// `searchRange` and `entrySelector` of a binary-search header over `n` entries of `size`
/// bytes: the largest power of two not above `n`, times `size`, and its log 2.
fn binary_search_fields(n: u16, size: u16) -> (u16, u16) {
    let mut power = 1u16;
    let mut log = 0u16;
    while power * 2 <= n {
        power *= 2;
        log += 1;
    }
    (power * size, log)
}

/// The font file: the table directory, then each table padded to four bytes.
fn assemble(tables: &[([u8; 4], Vec<u8>)]) -> Vec<u8> {
    let n = tables.len() as u16;
    let mut out = Vec::new();
    push_u32(&mut out, 0x0001_0000);
    push_u16(&mut out, n);
    let (search_range, entry_selector) = binary_search_fields(n, 16);
    push_u16(&mut out, search_range);
    push_u16(&mut out, entry_selector);
    push_u16(&mut out, n * 16 - search_range);
    let mut offset = 12 + 16 * tables.len();
    for (tag, data) in tables {
        out.extend_from_slice(tag);
        push_u32(&mut out, checksum(data));
        push_u32(&mut out, offset as u32);
        push_u32(&mut out, data.len() as u32);
        offset += data.len().div_ceil(4) * 4;
    }
    for (_, data) in tables {
        out.extend_from_slice(data);
        while out.len() % 4 != 0 {
            out.push(0);
        }
    }
    out
}

/// Writes `head.checkSumAdjustment`, which makes the whole file sum to 0xB1B0AFBA.
fn finish_head(mut font: Vec<u8>, tables: &[([u8; 4], Vec<u8>)]) -> Vec<u8> {
    let mut offset = 12 + 16 * tables.len();
    for (tag, data) in tables {
        if tag == b"head" {
            let adjustment = 0xB1B0_AFBAu32.wrapping_sub(checksum(&font));
            font[offset + 8..offset + 12].copy_from_slice(&adjustment.to_be_bytes());
            break;
        }
        offset += data.len().div_ceil(4) * 4;
    }
    font
}

/// The OpenType table checksum: the sum of big-endian 32-bit words, zero-padded.
fn checksum(data: &[u8]) -> u32 {
    data.chunks(4).fold(0u32, |sum, chunk| {
        let mut word = [0u8; 4];
        word[..chunk.len()].copy_from_slice(chunk);
        sum.wrapping_add(u32::from_be_bytes(word))
    })
}

fn read_u16(data: &[u8], at: usize) -> u16 {
    data.get(at..at + 2)
        .map_or(0, |b| u16::from_be_bytes([b[0], b[1]]))
}

fn read_u32(data: &[u8], at: usize) -> u32 {
    data.get(at..at + 4)
        .map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

fn push_u16(out: &mut Vec<u8>, value: u16) {
    out.extend_from_slice(&value.to_be_bytes());
}

fn push_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subset_draws_what_the_whole_font_draws() {
        let text = "☗ 羽生善治 vs 藤井聡太 12手目 ▲７六歩 Ångström";
        let font = subset(text.chars());
        let small = ttf_parser::Face::parse(&font, 0).expect("the subset parses");
        let whole = face();
        for c in text.chars() {
            let (Some(a), Some(b)) = (whole.glyph_index(c), small.glyph_index(c)) else {
                panic!("{c} lost");
            };
            assert_eq!(
                whole.glyph_hor_advance(a),
                small.glyph_hor_advance(b),
                "{c}"
            );
            assert_eq!(
                whole.glyph_bounding_box(a),
                small.glyph_bounding_box(b),
                "{c}"
            );
        }
        assert!(small.glyph_index('金').is_none());
        assert!(font.len() < 20_000, "{} bytes", font.len());
    }

    #[test]
    fn the_file_sums_to_the_magic_number() {
        let font = subset("将棋".chars());
        assert_eq!(checksum(&font), 0xB1B0_AFBA);
        assert_eq!(font.len() % 4, 0);
    }

    #[test]
    fn runs_of_characters_share_a_segment() {
        let table = cmap(&[(0x41, 1), (0x42, 2), (0x43, 3), (0x61, 4)]);
        // Header 4 + record 8 + subtable 16 + three segments (A–C, a, 0xFFFF) of 8 bytes.
        assert_eq!(table.len(), 4 + 8 + 16 + 3 * 8);
    }
}
