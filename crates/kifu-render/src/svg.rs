//! Scenes drawn as SVG: the layout of board, hands and text, the reusable pieces (`<defs>`),
//! and the picture of one position. The HTML viewer draws with the same layout, definitions
//! and board frame, and places pieces and marks the same way in its script.

use std::collections::BTreeSet;
use std::fmt::Write;

use serde_json::json;

use crate::font::{self, EM_CENTRE_ABOVE_BASELINE, UNITS_PER_EM};
use crate::scene::{Board, Ink, Mark, Owner, Scene, Shape, Terrain, Token};

/// Where everything goes, in pixels.
/// Where everything of a picture goes, in SVG user units: the board, the two hands and the
/// text lines, worked out once from the board's size and the hands' contents.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Side of a square.
    pub cell: f32,
    /// Columns of the board.
    pub files: usize,
    /// Rows of the board.
    pub ranks: usize,
    /// Left edge of the board.
    pub board_x: f32,
    /// Top edge of the board.
    pub board_y: f32,
    /// Left edge of the top side's hand (left of the board).
    pub hand_left_x: f32,
    /// Left edge of the bottom side's hand (right of the board).
    pub hand_right_x: f32,
    /// Columns of a hand.
    pub hand_columns: usize,
    /// Entries in one column of a hand.
    pub hand_rows: usize,
    /// Side of a held piece.
    pub hand_cell: f32,
    /// Width of the whole picture.
    pub width: f32,
    /// Height of the whole picture.
    pub height: f32,
    /// Baseline of the top player's line.
    pub top_line_y: f32,
    /// Baseline of the bottom player's line; the notes follow it.
    pub bottom_line_y: f32,
}

const PAD: f32 = 10.0;
const LINE: f32 = 22.0;
const TEXT_SIZE: f32 = 16.0;
/// The dot before the line of the player to move.
const TURN_MARKER_RADIUS: f32 = 5.0;

impl Layout {
    /// The layout of `board` with room for `lines` lines of text under it (the caption and
    /// the notes).
    pub fn new(board: &Board, lines: usize) -> Layout {
        let cell = if board.files > 9 { 40.0 } else { 48.0 };
        let label = cell * 0.55;
        let hand_cell = cell * 0.8;
        let hand_w = board.hand_columns as f32 * (hand_cell + 12.0);
        let gap = if board.hand_columns > 0 { PAD } else { 0.0 };
        let hand_left_x = PAD;
        // The turn marker is drawn left of the players' lines, at the board's left edge: a
        // board without hands (chu) leaves room for it.
        let board_x = (PAD + hand_w + gap).max(PAD + 2.0 * TURN_MARKER_RADIUS + 6.0);
        let board_y = PAD + LINE + label;
        let board_right = board_x + board.files as f32 * cell;
        let hand_right_x = board_right + label + gap;
        let width = hand_right_x + hand_w + PAD;
        let bottom_line_y = board_y + board.ranks as f32 * cell + LINE;
        let height = bottom_line_y + lines as f32 * LINE + PAD;
        Layout {
            cell,
            files: board.files,
            ranks: board.ranks,
            board_x,
            board_y,
            hand_left_x,
            hand_right_x,
            hand_columns: board.hand_columns,
            hand_rows: ((board.ranks as f32 * cell) / (hand_cell + 6.0)).floor() as usize,
            hand_cell,
            width,
            height,
            top_line_y: PAD + LINE - 6.0,
            bottom_line_y,
        }
    }

    /// The top left corner of square `index` (row by row from the top left of the bottom
    /// side's view), on a board flipped or not.
    pub fn cell_origin(&self, index: usize, flip: bool) -> (f32, f32) {
        let (mut col, mut row) = (index % self.files, index / self.files);
        if flip {
            col = self.files - 1 - col;
            row = self.ranks - 1 - row;
        }
        (
            self.board_x + col as f32 * self.cell,
            self.board_y + row as f32 * self.cell,
        )
    }

    /// The top left corner of entry `k` of a hand: the top hand (`at_top`) fills the left
    /// column from the top down, the bottom hand the right column from the bottom up.
    pub fn hand_origin(&self, at_top: bool, k: usize) -> (f32, f32) {
        let rows = self.hand_rows.max(1);
        let (column, row) = (k / rows, k % rows);
        let step = self.hand_cell + 6.0;
        let column_w = self.hand_cell + 12.0;
        if at_top {
            (
                self.hand_left_x + column as f32 * column_w,
                self.board_y + row as f32 * step,
            )
        } else {
            (
                self.hand_right_x + (self.hand_columns.max(1) - 1 - column) as f32 * column_w,
                self.board_y + self.ranks as f32 * self.cell - (row + 1) as f32 * step + 6.0,
            )
        }
    }

    /// The layout as JSON, for the HTML viewer's script.
    pub fn to_json(&self) -> serde_json::Value {
        // Two decimals, as the SVG writes them (f32 → f64 would print 70.4000015258789).
        let round = |x: f32| (f64::from(x) * 100.0).round() / 100.0;
        json!({
            "cell": round(self.cell), "files": self.files, "ranks": self.ranks,
            "boardX": round(self.board_x), "boardY": round(self.board_y),
            "handLeftX": round(self.hand_left_x), "handRightX": round(self.hand_right_x),
            "handColumns": self.hand_columns, "handRows": self.hand_rows,
            "handCell": round(self.hand_cell),
        })
    }
}

/// Collects what a drawing uses: the glyphs to define as paths and the tokens to define as
/// groups, each once.
#[derive(Debug, Default)]
pub struct Defs {
    glyphs: BTreeSet<char>,
    tokens: Vec<Token>,
    /// Characters of the text drawn that the embedded font lacks, in order of first use.
    missing: Vec<char>,
}

/// A `<use>` of a glyph, `#g` and the code point in hex.
fn glyph_id(c: char) -> String {
    format!("g{:x}", c as u32)
}

fn num(x: f32) -> String {
    let rounded = (x * 100.0).round() / 100.0;
    if rounded == rounded.trunc() {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded}")
    }
}

/// Escapes text for XML content and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Where a line of text is anchored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The text starts at the point.
    Start,
    /// The text is centred on the point.
    Middle,
    /// The text ends at the point.
    End,
}

impl Defs {
    /// The number of `token`'s definition (`#t0`, `#t1` …), defining it on first use.
    pub fn token(&mut self, token: Token) -> usize {
        if let Some(i) = self.tokens.iter().position(|t| *t == token) {
            return i;
        }
        self.glyphs.extend(token.name.chars());
        self.tokens.push(token);
        self.tokens.len() - 1
    }

    /// The tokens defined so far, in the order of their numbers.
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// Notes that `text` will be drawn with [`Defs::text`] (its glyphs get defined).
    pub fn use_chars(&mut self, text: &str) {
        self.glyphs
            .extend(text.chars().filter(|&c| font::glyph(c).is_some()));
    }

    /// The characters drawn so far that the embedded font lacks, in order of first use.
    pub fn missing(&self) -> &[char] {
        &self.missing
    }

    /// `text` drawn with the embedded font's glyphs, its baseline at `y`. Characters the font
    /// lacks (rare: it holds all of JIS X 0208) fall back to an SVG `<text>` in the viewer's
    /// serif font, which the PNG renderer (no system fonts) cannot draw; they are listed in
    /// [`Defs::missing`] so that the caller can say so.
    pub fn text(
        &mut self,
        text: &str,
        x: f32,
        y: f32,
        size: f32,
        anchor: Anchor,
        fill: &str,
    ) -> String {
        let scale = size / UNITS_PER_EM;
        let width = font::width(text) * scale;
        let mut pen = match anchor {
            Anchor::Start => x,
            Anchor::Middle => x - width / 2.0,
            Anchor::End => x - width,
        };
        let mut out = format!("<g fill=\"{fill}\">");
        let mut fallback = String::new();
        let mut fallback_x = pen;
        let flush = |out: &mut String, fallback: &mut String, at: f32| {
            if !fallback.is_empty() {
                let _ = write!(
                    out,
                    "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-family=\"serif\">{}</text>",
                    num(at),
                    num(y),
                    num(size),
                    escape(fallback)
                );
                fallback.clear();
            }
        };
        for c in text.chars() {
            match font::glyph(c) {
                Some(glyph) => {
                    flush(&mut out, &mut fallback, fallback_x);
                    if !glyph.path.is_empty() {
                        self.glyphs.insert(c);
                        let _ = write!(
                            out,
                            "<use href=\"#{}\" transform=\"translate({} {}) scale({})\"/>",
                            glyph_id(c),
                            num(pen),
                            num(y),
                            scale
                        );
                    }
                    pen += glyph.advance * scale;
                }
                None => {
                    if !self.missing.contains(&c) {
                        self.missing.push(c);
                    }
                    if fallback.is_empty() {
                        fallback_x = pen;
                    }
                    fallback.push(c);
                    pen += size;
                }
            }
        }
        flush(&mut out, &mut fallback, fallback_x);
        out.push_str("</g>");
        out
    }

    /// The `<defs>` element: every glyph and token used.
    pub fn to_svg(&mut self) -> String {
        // Tokens first: drawing them adds their glyphs.
        let mut tokens = String::new();
        for (i, token) in self.tokens.clone().iter().enumerate() {
            let _ = write!(tokens, "<g id=\"t{i}\">{}</g>", self.token_body(token));
        }
        let mut out = String::from("<defs>");
        for &c in &self.glyphs {
            if let Some(glyph) = font::glyph(c)
                && !glyph.path.is_empty()
            {
                let _ = write!(out, "<path id=\"{}\" d=\"{}\"/>", glyph_id(c), glyph.path);
            }
        }
        out.push_str(&tokens);
        out.push_str("</defs>");
        out
    }

    /// A token drawn in a 100 × 100 box, facing up.
    fn token_body(&mut self, token: &Token) -> String {
        let mut out = String::new();
        out.push_str(match token.shape {
            Shape::Pentagon => {
                "<polygon points=\"50,4 83,17 92,96 8,96 17,17\" fill=\"#f6dc9b\" \
                 stroke=\"#6b4a12\" stroke-width=\"2.5\"/>"
            }
            Shape::Tile => {
                "<rect x=\"7\" y=\"7\" width=\"86\" height=\"86\" rx=\"10\" fill=\"#f4ead2\" \
                 stroke=\"#5b4a2a\" stroke-width=\"2.5\"/>"
            }
            Shape::Disc => {
                "<circle cx=\"50\" cy=\"50\" r=\"43\" fill=\"#f1cf52\" stroke=\"#8a6a00\" \
                 stroke-width=\"2.5\"/>"
            }
        });
        let fill = match token.ink {
            Ink::Black => "#111111",
            Ink::Red => "#c8102e",
            Ink::Gold => "#5a3d00",
        };
        let chars: Vec<char> = token.name.chars().collect();
        // One name character large, two or three stacked down the piece.
        let (size, centres): (f32, Vec<f32>) = match chars.len() {
            1 => (60.0, vec![56.0]),
            2 => (40.0, vec![36.0, 74.0]),
            _ => (29.0, vec![30.0, 57.0, 84.0]),
        };
        for (c, centre) in chars.iter().zip(centres) {
            let scale = size / UNITS_PER_EM;
            let advance = font::glyph(*c).map_or(UNITS_PER_EM, |g| g.advance);
            self.glyphs.insert(*c);
            let _ = write!(
                out,
                "<use href=\"#{}\" fill=\"{fill}\" transform=\"translate({} {}) scale({})\"/>",
                glyph_id(*c),
                num(50.0 - advance * scale / 2.0),
                num(centre + EM_CENTRE_ABOVE_BASELINE * scale),
                scale
            );
        }
        out
    }
}

/// A `<use>` placing token `id` with its top left corner at (x, y), `size` pixels wide,
/// turned round when it faces down.
pub fn place_token(id: usize, x: f32, y: f32, size: f32, turned: bool) -> String {
    let turn = if turned { " rotate(180 50 50)" } else { "" };
    format!(
        "<use href=\"#t{id}\" transform=\"translate({} {}) scale({}){turn}\"/>",
        num(x),
        num(y),
        num(size / 100.0)
    )
}

/// Whether a token of `owner` is drawn turned round.
pub fn turned(owner: Owner, flip: bool) -> bool {
    match owner {
        Owner::Neutral => false,
        Owner::Top => !flip,
        Owner::Bottom => flip,
    }
}

/// The fill of a marked square.
pub fn mark_style(mark: Mark) -> &'static str {
    match mark {
        Mark::From => "fill=\"#f2a900\" fill-opacity=\"0.28\"",
        Mark::Via => "fill=\"#f27900\" fill-opacity=\"0.35\"",
        Mark::To => "fill=\"#f25c00\" fill-opacity=\"0.45\"",
        Mark::CounterStrike => {
            "fill=\"none\" stroke=\"#c8102e\" stroke-width=\"3\" stroke-dasharray=\"6 4\""
        }
    }
}

/// The board without pieces: background, fixed marks, grid and coordinates.
pub fn frame(board: &Board, layout: &Layout, defs: &mut Defs, flip: bool) -> String {
    let mut out = String::new();
    let (w, h) = (
        layout.files as f32 * layout.cell,
        layout.ranks as f32 * layout.cell,
    );
    let _ = write!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#eccb86\"/>",
        num(layout.board_x),
        num(layout.board_y),
        num(w),
        num(h)
    );
    let c = layout.cell;
    for &(index, terrain) in &board.terrain {
        let (x, y) = layout.cell_origin(index, flip);
        let _ = match terrain {
            Terrain::Water => write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#7fbfe6\" fill-opacity=\"0.55\"/>",
                num(x),
                num(y),
                num(c),
                num(c)
            ),
            Terrain::TamHue => write!(
                out,
                "<path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"#8a5a2b\" stroke-width=\"1.5\" stroke-opacity=\"0.6\"/>",
                num(x + 4.0),
                num(y + 4.0),
                num(x + c - 4.0),
                num(y + c - 4.0),
                num(x + c - 4.0),
                num(y + 4.0),
                num(x + 4.0),
                num(y + c - 4.0)
            ),
            Terrain::Palace => write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#8a2b2b\" stroke-width=\"3\"/>",
                num(x + 3.0),
                num(y + 3.0),
                num(c - 6.0),
                num(c - 6.0)
            ),
        };
    }
    // The komadai: a box each side's pieces in hand stand in, beside the board.
    if layout.hand_columns > 0 {
        let hand_w = layout.hand_columns as f32 * (layout.hand_cell + 12.0);
        for x in [layout.hand_left_x, layout.hand_right_x] {
            let _ = write!(
                out,
                "<rect class=\"komadai\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" \
                 fill=\"#e6c27a\" stroke=\"#6b4a12\" stroke-width=\"1.5\"/>",
                num(x - 4.0),
                num(layout.board_y - 4.0),
                // Room for the counts beside the pieces.
                num(hand_w + 2.0),
                num(h + 8.0)
            );
        }
    }
    let mut grid = String::new();
    for i in 0..=layout.files {
        let x = layout.board_x + i as f32 * c;
        let _ = write!(
            grid,
            "M{} {}V{}",
            num(x),
            num(layout.board_y),
            num(layout.board_y + h)
        );
    }
    for i in 0..=layout.ranks {
        let y = layout.board_y + i as f32 * c;
        let _ = write!(
            grid,
            "M{} {}H{}",
            num(layout.board_x),
            num(y),
            num(layout.board_x + w)
        );
    }
    let _ = write!(
        out,
        "<path d=\"{grid}\" stroke=\"#3b2a10\" stroke-width=\"1\" fill=\"none\"/>\
         <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#3b2a10\" stroke-width=\"2.5\"/>",
        num(layout.board_x),
        num(layout.board_y),
        num(w),
        num(h)
    );
    for &(across, down) in &board.hoshi {
        // Symmetric on every board that has them, but turned with the board all the same.
        let (across, down) = if flip {
            (layout.files - across, layout.ranks - down)
        } else {
            (across, down)
        };
        let _ = write!(
            out,
            "<circle class=\"hoshi\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#3b2a10\"/>",
            num(layout.board_x + across as f32 * c),
            num(layout.board_y + down as f32 * c),
            num(c * 0.06)
        );
    }
    let label_size = c * 0.32;
    for (i, label) in board.file_labels.iter().enumerate() {
        let col = if flip { layout.files - 1 - i } else { i };
        let x = layout.board_x + (col as f32 + 0.5) * c;
        out.push_str(&defs.text(
            label,
            x,
            layout.board_y - c * 0.15,
            label_size,
            Anchor::Middle,
            "#3b2a10",
        ));
    }
    for (i, label) in board.rank_labels.iter().enumerate() {
        let row = if flip { layout.ranks - 1 - i } else { i };
        let y = layout.board_y + (row as f32 + 0.5) * c + label_size * 0.38;
        let size = if label.chars().count() > 1 && label.chars().all(|ch| !ch.is_ascii()) {
            label_size * 0.75
        } else {
            label_size
        };
        out.push_str(&defs.text(
            label,
            layout.board_x + w + c * 0.27,
            y,
            size,
            Anchor::Middle,
            "#3b2a10",
        ));
    }
    out
}

/// The marks, pieces and hands of a scene (what changes from move to move).
pub fn pieces(scene: &Scene, layout: &Layout, defs: &mut Defs, flip: bool) -> String {
    let mut out = String::new();
    let c = layout.cell;
    for &(index, mark) in &scene.marks {
        let (x, y) = layout.cell_origin(index, flip);
        let inset = if mark == Mark::CounterStrike {
            3.0
        } else {
            0.0
        };
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {}/>",
            num(x + inset),
            num(y + inset),
            num(c - 2.0 * inset),
            num(c - 2.0 * inset),
            mark_style(mark)
        );
    }
    for (index, cell) in scene.cells.iter().enumerate() {
        if let Some(token) = cell {
            let (x, y) = layout.cell_origin(index, flip);
            let id = defs.token(*token);
            out.push_str(&place_token(
                id,
                x + 1.0,
                y + 1.0,
                c - 2.0,
                turned(token.owner, flip),
            ));
        }
    }
    out.push_str(&steps(scene, layout, flip));
    for (slot, hand) in scene.hands.iter().enumerate() {
        // hands[0] is the bottom side's; a flipped board shows it at the top.
        let at_top = (slot == 1) != flip;
        for (k, &(token, count)) in hand.iter().enumerate() {
            let (x, y) = layout.hand_origin(at_top, k);
            let id = defs.token(token);
            out.push_str(&place_token(
                id,
                x,
                y,
                layout.hand_cell,
                turned(token.owner, flip),
            ));
            if count > 1 {
                out.push_str(&defs.text(
                    &count.to_string(),
                    x + layout.hand_cell + 1.0,
                    y + layout.hand_cell,
                    13.0,
                    Anchor::Start,
                    "#111111",
                ));
            }
        }
    }
    out
}

/// A move that passes through squares (a lion's double move, a cetkaik step) drawn as its
/// steps: a line from the square it left through each square it passed to the square it
/// ended on, with an arrowhead, over the pieces. The marks alone cannot show a lion that
/// captured and went back (its start and end are one square). Nothing for other moves.
/// The viewer's script draws the same (its `steps`).
pub fn steps(scene: &Scene, layout: &Layout, flip: bool) -> String {
    if !scene.marks.iter().any(|m| m.1 == Mark::Via) {
        return String::new();
    }
    let half = layout.cell / 2.0;
    let points: Vec<(f32, f32)> = scene
        .marks
        .iter()
        .filter(|m| matches!(m.1, Mark::From | Mark::Via | Mark::To))
        .map(|&(index, _)| {
            let (x, y) = layout.cell_origin(index, flip);
            (x + half, y + half)
        })
        .collect();
    let (Some(&(x2, y2)), Some(&(x1, y1))) = (points.last(), points.iter().rev().nth(1)) else {
        return String::new();
    };
    let mut d = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        let _ = write!(
            d,
            "{}{} {}",
            if i == 0 { 'M' } else { 'L' },
            num(*x),
            num(*y)
        );
    }
    let length = ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt().max(1.0);
    let (dx, dy) = ((x2 - x1) / length, (y2 - y1) / length);
    let a = layout.cell * 0.3;
    let (bx, by) = (x2 - a * dx, y2 - a * dy);
    format!(
        "<g class=\"steps\" fill=\"#8a2be2\" stroke=\"#8a2be2\" stroke-opacity=\"0.75\" fill-opacity=\"0.75\">\
         <path d=\"{d}\" fill=\"none\" stroke-width=\"{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\
         <polygon points=\"{},{} {},{} {},{}\" stroke=\"none\"/></g>",
        num(layout.cell * 0.08),
        num(x2),
        num(y2),
        num(bx - dy * a * 0.5),
        num(by + dx * a * 0.5),
        num(bx + dy * a * 0.5),
        num(by - dx * a * 0.5),
    )
}

/// The text around the board: each player's line and the notes.
pub struct Captions {
    /// The top player's line.
    pub top: String,
    /// The bottom player's line.
    pub bottom: String,
    /// The move number, at the top right (`12手目`, `開始局面`).
    pub move_label: String,
    /// The line under the board naming the last move (`80手目 △６三銀`), when asked for.
    pub caption: Option<String>,
}

/// A picture as SVG, and the characters of its text the embedded font could not draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    /// The SVG document.
    pub svg: String,
    /// Characters drawn with the viewer's serif font instead (none in a PNG), each once.
    pub missing: Vec<char>,
}

/// A whole picture of `scene`.
pub fn picture(
    board: &Board,
    scene: &Scene,
    captions: &Captions,
    flip: bool,
    scale: f32,
) -> Drawing {
    let notes = scene.notes.len().max(board.note_lines);
    let caption_lines = usize::from(captions.caption.is_some());
    let layout = Layout::new(board, caption_lines + notes);
    let mut defs = Defs::default();
    let mut body = frame(board, &layout, &mut defs, flip);
    body.push_str(&pieces(scene, &layout, &mut defs, flip));
    let (upper, lower) = if flip {
        (&captions.bottom, &captions.top)
    } else {
        (&captions.top, &captions.bottom)
    };
    let upper_to_move = (scene.to_move == Owner::Top) != flip;
    for (text, y, to_move) in [
        (upper, layout.top_line_y, upper_to_move),
        (lower, layout.bottom_line_y, !upper_to_move),
    ] {
        let x = layout.board_x;
        if to_move {
            let _ = write!(
                body,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#c8102e\"/>",
                num(x - 2.0 * TURN_MARKER_RADIUS),
                num(y - 5.5),
                num(TURN_MARKER_RADIUS)
            );
        }
        body.push_str(&defs.text(text, x, y, TEXT_SIZE, Anchor::Start, "#111111"));
    }
    body.push_str(&defs.text(
        &captions.move_label,
        layout.board_x + layout.files as f32 * layout.cell,
        layout.top_line_y,
        TEXT_SIZE,
        Anchor::End,
        "#111111",
    ));
    if let Some(caption) = &captions.caption {
        body.push_str(&defs.text(
            caption,
            layout.board_x,
            layout.bottom_line_y + LINE,
            TEXT_SIZE,
            Anchor::Start,
            "#111111",
        ));
    }
    for (i, note) in scene.notes.iter().enumerate() {
        body.push_str(&defs.text(
            note,
            layout.board_x,
            layout.bottom_line_y + (caption_lines + i + 1) as f32 * LINE,
            TEXT_SIZE * 0.9,
            Anchor::Start,
            "#333333",
        ));
    }
    let (w, h) = (layout.width.ceil(), layout.height.ceil());
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\
         {}<rect width=\"100%\" height=\"100%\" fill=\"#fbf7ee\"/>{body}</svg>\n",
        num(w * scale),
        num(h * scale),
        num(w),
        num(h),
        defs.to_svg()
    );
    Drawing {
        svg,
        missing: defs.missing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Picture;
    use kifu_record::Game;

    fn shogi_start() -> (Board, Scene) {
        let start = kifu_shogi::Shogi::start_position(&Default::default());
        (
            kifu_shogi::Shogi::board(),
            kifu_shogi::Shogi::scene(&start, None),
        )
    }

    #[test]
    fn a_flipped_board_puts_the_first_square_last() {
        let (board, _) = shogi_start();
        let layout = Layout::new(&board, 0);
        assert_eq!(layout.cell_origin(0, true), layout.cell_origin(80, false));
        assert_eq!(
            layout.cell_origin(10, false).0,
            layout.board_x + layout.cell
        );
    }

    #[test]
    fn a_picture_defines_each_glyph_and_piece_once() {
        let (board, scene) = shogi_start();
        let captions = Captions {
            top: "☖ 後手".into(),
            bottom: "☗ 先手".into(),
            move_label: "開始局面".into(),
            caption: None,
        };
        let svg = picture(&board, &scene, &captions, false, 1.0).svg;
        assert_eq!(svg.matches("<path id=\"g6b69\"").count(), 1, "歩 once");
        // 8 kinds a side, each side's pieces one definition.
        assert_eq!(svg.matches("<g id=\"t").count(), 16);
        assert_eq!(svg.matches("href=\"#t").count(), 40);
        assert!(
            !svg.contains("<text"),
            "every character comes from the embedded font"
        );
    }

    #[test]
    fn names_in_japanese_are_drawn_and_what_the_font_lacks_is_reported() {
        let (board, scene) = shogi_start();
        let captions = Captions {
            top: "☖ 三浦弘行".into(),
            bottom: "☗ 𠮷田 髙橋".into(),
            move_label: "開始局面".into(),
            caption: None,
        };
        let drawing = picture(&board, &scene, &captions, false, 1.0);
        for c in "三浦弘行田髙橋".chars() {
            let id = format!("<path id=\"{}\"", glyph_id(c));
            assert!(drawing.svg.contains(&id), "{c} is drawn");
        }
        assert_eq!(drawing.missing, vec!['𠮷']);
        assert!(drawing.svg.contains("font-family=\"serif\">𠮷</text>"));
    }

    #[test]
    fn a_lion_double_move_is_drawn_as_two_steps_and_a_plain_move_is_not() {
        use kifu_chu::{Chu, Move, Square};
        let state = Chu::start_position(&kifu_chu::Position::startpos());
        let sq = |f, r| Square::new(f, r).unwrap();
        let board = Chu::board();
        let layout = Layout::new(&board, 0);
        let double = Chu::scene(&state, Some(&Move::double(sq(6, 8), sq(6, 7), sq(6, 6))));
        let drawn = steps(&double, &layout, false);
        assert_eq!(drawn.matches("class=\"steps\"").count(), 1);
        // Three points: start, the square passed, the end.
        let d = drawn
            .split("d=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        assert_eq!(
            (d.matches('M').count(), d.matches('L').count()),
            (1, 2),
            "{d}"
        );
        let mut defs = Defs::default();
        assert!(pieces(&double, &layout, &mut defs, false).contains("class=\"steps\""));
        let plain = Chu::scene(&state, Some(&Move::new(sq(6, 9), sq(6, 8), false)));
        assert_eq!(steps(&plain, &layout, false), "");
    }

    #[test]
    fn star_points_and_komadai_where_the_game_has_them() {
        use kifu_cetkaik::Cetkaik;
        use kifu_chu::Chu;
        use kifu_shogi::Shogi;
        let count = |board: &Board, class: &str| {
            let layout = Layout::new(board, 0);
            let mut defs = Defs::default();
            [false, true].map(|flip| {
                frame(board, &layout, &mut defs, flip)
                    .matches(&format!("class=\"{class}\""))
                    .count()
            })
        };
        assert_eq!(count(&Shogi::board(), "hoshi"), [4, 4]);
        assert_eq!(count(&Chu::board(), "hoshi"), [4, 4]);
        assert_eq!(count(&Cetkaik::board(), "hoshi"), [0, 0]);
        assert_eq!(count(&Shogi::board(), "komadai"), [2, 2]);
        assert_eq!(count(&Cetkaik::board(), "komadai"), [2, 2]);
        assert_eq!(count(&Chu::board(), "komadai"), [0, 0]);
        // Shogi's star points where the third lines from the edges cross.
        let board = Shogi::board();
        let layout = Layout::new(&board, 0);
        let frame = frame(&board, &layout, &mut Defs::default(), false);
        let at = format!(
            "cx=\"{}\" cy=\"{}\"",
            num(layout.board_x + 3.0 * layout.cell),
            num(layout.board_y + 6.0 * layout.cell)
        );
        assert!(frame.contains(&at), "{at}");
    }
}
