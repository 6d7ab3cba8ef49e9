//! The embedded font: a subset of Noto Serif CJK JP Bold (SIL Open Font License 1.1, see
//! `font/OFL.txt`) with TrueType outlines, made by `font/make-subset`. It holds ASCII, Latin-1,
//! Latin Extended-A, kana and every kanji of JIS X 0208 levels 1 and 2 (so players' names in
//! Japanese draw), and every character the three games' pieces and notations use.
//!
//! Glyphs are drawn as SVG paths taken from this font's outlines, never as `<text>`: a picture
//! then looks the same in every browser and in the PNG renderer, whatever fonts a machine has.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::{Mutex, OnceLock};

/// The font file, embedded in the binary.
pub static FONT_FILE: &[u8] = include_bytes!("../font/kifu-serif.ttf");

/// Font units per em of the embedded font.
pub const UNITS_PER_EM: f32 = 1000.0;

/// Where the ideographic em box's centre lies above the baseline, in font units (Noto CJK's
/// em box runs from 120 below the baseline to 880 above it).
pub const EM_CENTRE_ABOVE_BASELINE: f32 = 380.0;

pub(crate) fn face() -> &'static ttf_parser::Face<'static> {
    static FACE: OnceLock<ttf_parser::Face<'static>> = OnceLock::new();
    FACE.get_or_init(|| ttf_parser::Face::parse(FONT_FILE, 0).expect("the embedded font parses"))
}

/// One glyph as an SVG path in font units, baseline at y = 0, y growing downwards.
#[derive(Clone, Debug)]
pub struct Glyph {
    /// The path data (`M … Z`); empty for a space.
    pub path: String,
    /// How far the pen moves after the glyph, in font units.
    pub advance: f32,
}

/// The glyph of `c`, or `None` when the embedded font does not hold it.
pub fn glyph(c: char) -> Option<Glyph> {
    static CACHE: OnceLock<Mutex<HashMap<char, Option<Glyph>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(found) = cache.lock().ok().and_then(|m| m.get(&c).cloned()) {
        return found;
    }
    let made = outline(c);
    if let Ok(mut cache) = cache.lock() {
        cache.insert(c, made.clone());
    }
    made
}

fn outline(c: char) -> Option<Glyph> {
    let face = face();
    let id = face.glyph_index(c)?;
    let advance = f32::from(face.glyph_hor_advance(id).unwrap_or(1000));
    let mut path = PathWriter(String::new());
    // A glyph without an outline (the space) draws nothing but still advances.
    let _ = face.outline_glyph(id, &mut path);
    Some(Glyph {
        path: path.0,
        advance,
    })
}

/// Whether every character of `text` is in the embedded font.
pub fn covers(text: &str) -> bool {
    text.chars().all(|c| face().glyph_index(c).is_some())
}

/// The characters of `text` the embedded font lacks, each once, in order of appearance.
pub fn missing(text: &str) -> Vec<char> {
    let mut out: Vec<char> = Vec::new();
    for c in text.chars() {
        if face().glyph_index(c).is_none() && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The width of `text` in font units (characters the font lacks count as one em).
pub fn width(text: &str) -> f32 {
    text.chars()
        .map(|c| glyph(c).map_or(UNITS_PER_EM, |g| g.advance))
        .sum()
}

/// Writes outline commands as SVG path data with whole font units, y flipped.
struct PathWriter(String);

impl ttf_parser::OutlineBuilder for PathWriter {
    fn move_to(&mut self, x: f32, y: f32) {
        let _ = write!(self.0, "M{} {}", x.round(), (-y).round());
    }
    fn line_to(&mut self, x: f32, y: f32) {
        let _ = write!(self.0, "L{} {}", x.round(), (-y).round());
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let _ = write!(
            self.0,
            "Q{} {} {} {}",
            x1.round(),
            (-y1).round(),
            x.round(),
            (-y).round()
        );
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let _ = write!(
            self.0,
            "C{} {} {} {} {} {}",
            x1.round(),
            (-y1).round(),
            x2.round(),
            (-y2).round(),
            x.round(),
            (-y).round()
        );
    }
    fn close(&mut self) {
        self.0.push('Z');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_font_holds_kanji_and_ascii() {
        for c in ['歩', '龍', '獅', '皇', '筆', 'A', '9', '十'] {
            let g = glyph(c).unwrap_or_else(|| panic!("{c} missing"));
            assert!(g.path.starts_with('M'), "{c}");
        }
        assert_eq!(glyph(' ').map(|g| g.path.is_empty()), Some(true));
        assert!(covers("12手目"));
        // Names: kana, kanji of both JIS X 0208 levels, Latin letters with accents.
        assert!(covers(
            "羽生善治 藤井聡太 中原誠 大山康晴 升田幸三 ひふみん アユム Müller"
        ));
        assert!(covers("髙橋 山﨑"), "common variants outside JIS X 0208");
        assert!(!covers("𠮷"), "outside the Basic Multilingual Plane");
    }
}
