//! A line of a record as an animated GIF or APNG: one frame per position, each the picture
//! [`draw`](crate::draw) makes of it (so a frame matches the still of its ply), the last move
//! marked, the caption under the board, and a longer pause on the last frame.
//!
//! A GIF holds at most 256 colours. The pictures have few (the board, the pieces, two inks,
//! the marks and the anti-aliased edges between them), so one palette serves every frame: it
//! is learnt once with NeuQuant (the `color_quant` crate) from a few frames spread over the
//! line. Each frame after the first stores only the rectangle that changed, with the pixels
//! that did not change inside it transparent: a move changes a few squares, a hand and the
//! caption, so a 150-move game stays small.
//!
//! An APNG ([`apng`], the `png` crate's writer) keeps every colour: each frame after the
//! first is the rectangle that changed, its unchanged pixels transparent, drawn over what
//! was shown. WebP is not
//! written: the `image` crate's WebP encoder writes still lossless pictures only, and no
//! well-kept crate of pure Rust writes animated WebP (`webp-animation` binds libwebp's C).

use std::collections::HashMap;
use std::io::Write;

use color_quant::NeuQuant;
use kifu_record::{NodeId, Record};

use crate::{Options, Picture, RenderError, Step};

/// How long frames are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Each frame but the last, in milliseconds (GIF counts in hundredths of a second, APNG
    /// in milliseconds up to 65.535 s).
    pub delay_ms: u32,
    /// The last frame, before the animation starts again.
    pub last_delay_ms: u32,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            delay_ms: 1000,
            last_delay_ms: 4000,
        }
    }
}

/// What an animation holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Animation {
    /// Frames written, one per position.
    pub frames: usize,
    /// Width of every frame, in pixels.
    pub width: u16,
    /// Height of every frame, in pixels.
    pub height: u16,
    /// Characters of the pictures' text the embedded font lacks (left out, as in a PNG).
    pub missing: Vec<char>,
}

/// Palette entries NeuQuant learns; the last index of the 256 is the transparent one.
const COLOURS: usize = 255;
const TRANSPARENT: u8 = 255;
/// Frames the palette is learnt from, spread evenly over the line.
const SAMPLES: usize = 6;
/// NeuQuant looks at one pixel in this many: the frames are large and mostly flat colour.
const SAMPLE_FACTOR: i32 = 10;

/// Writes the positions after `nodes` (a line of `record`, each node a child of the one
/// before, such as a slice of [`main_line`](crate::main_line)) to `out` as an animated GIF
/// that loops.
///
/// ```
/// use kifu_record::{Record, Span};
/// use kifu_shogi::{Move, Shogi, Square};
///
/// let mut record: Record<Shogi> = Record::new(Default::default());
/// let sq = |f, r| Square::new(f, r).unwrap();
/// record.moves.add_move(record.moves.root(), Move::normal(sq(7, 7), sq(7, 6), false), Span::default());
/// let nodes = kifu_render::main_line(&record);
/// let mut gif = Vec::new();
/// let made = kifu_render::animate::gif(&record, &nodes, &Default::default(), &Default::default(), &mut gif).unwrap();
/// assert_eq!(made.frames, 2);
/// assert_eq!(&gif[..6], b"GIF89a");
/// ```
pub fn gif<G: Picture, W: Write>(
    record: &Record<G>,
    nodes: &[NodeId],
    options: &Options,
    timing: &Timing,
    out: W,
) -> Result<Animation, RenderError> {
    let (&first, rest) = nodes.split_first().ok_or(RenderError::NoFrames)?;
    let mut missing: Vec<char> = Vec::new();
    let mut render = |step: &Step<G>| -> Result<resvg::tiny_skia::Pixmap, RenderError> {
        let drawing = step.draw(record, options);
        for c in drawing.missing {
            if !missing.contains(&c) {
                missing.push(c);
            }
        }
        crate::pixmap(&drawing.svg)
    };

    // The steps are cheap (a position each); the pictures are not, so the sampled frames
    // are kept and used again when their turn comes.
    let mut steps = Vec::with_capacity(nodes.len());
    let mut step = Step::at(record, first);
    for &node in rest {
        let next = step.clone().then(record, node);
        steps.push(step);
        step = next;
    }
    steps.push(step);
    let sampled: Vec<usize> = {
        let n = steps.len();
        let mut picks: Vec<usize> = (0..SAMPLES)
            .map(|k| k * (n - 1) / (SAMPLES - 1).max(1))
            .collect();
        picks.dedup();
        picks
    };
    let mut kept: HashMap<usize, Vec<u8>> = HashMap::new();
    let mut training = Vec::new();
    let (mut width, mut height) = (0, 0);
    for &i in &sampled {
        let pixmap = render(&steps[i])?;
        if i == 0 {
            (width, height) = (pixmap.width(), pixmap.height());
        }
        training.extend_from_slice(pixmap.data());
        kept.insert(i, pixmap.take());
    }
    let quantiser = NeuQuant::new(SAMPLE_FACTOR, COLOURS, &training);
    drop(training);
    let mut palette = quantiser.color_map_rgb();
    palette.extend_from_slice(&[0, 0, 0]);

    let gif_size = |v: u32| u16::try_from(v).map_err(|_| RenderError::Size { width, height });
    let (w16, h16) = (gif_size(width)?, gif_size(height)?);
    let fail = |e: gif::EncodingError| RenderError::Gif(e.to_string());
    let mut encoder = gif::Encoder::new(out, w16, h16, &palette).map_err(fail)?;
    encoder.set_repeat(gif::Repeat::Infinite).map_err(fail)?;

    let mut colours = ColourIndex::new(&quantiser);
    let mut shown_rgba: Vec<u8> = Vec::new();
    let mut shown: Vec<u8> = Vec::new();
    let last = steps.len() - 1;
    for (i, step) in steps.iter().enumerate() {
        let rgba = match kept.remove(&i) {
            Some(pixels) => pixels,
            None => render(step)?.take(),
        };
        if rgba.len() != (width * height * 4) as usize {
            return Err(RenderError::Size { width, height });
        }
        let delay_ms = if i == last {
            timing.last_delay_ms
        } else {
            timing.delay_ms
        };
        let mut frame = if i == 0 {
            shown = rgba.chunks_exact(4).map(|p| colours.of(p)).collect();
            gif::Frame {
                width: w16,
                height: h16,
                buffer: std::borrow::Cow::Borrowed(&shown),
                ..gif::Frame::default()
            }
        } else {
            changes(&rgba, &shown_rgba, &mut shown, width as usize, &mut colours)
        };
        frame.delay = u16::try_from(delay_ms.div_ceil(10)).unwrap_or(u16::MAX);
        frame.dispose = gif::DisposalMethod::Keep;
        encoder.write_frame(&frame).map_err(fail)?;
        drop(frame);
        shown_rgba = rgba;
    }
    encoder
        .into_inner()
        .map_err(|e| RenderError::Gif(e.to_string()))?;
    Ok(Animation {
        frames: steps.len(),
        width: w16,
        height: h16,
        missing,
    })
}

/// The palette index of each colour met, found once per colour: a picture has a few thousand
/// distinct colours, and NeuQuant's nearest-colour search is the slow part.
struct ColourIndex<'q> {
    quantiser: &'q NeuQuant,
    known: HashMap<[u8; 4], u8>,
}

impl<'q> ColourIndex<'q> {
    fn new(quantiser: &'q NeuQuant) -> ColourIndex<'q> {
        ColourIndex {
            quantiser,
            known: HashMap::new(),
        }
    }

    fn of(&mut self, pixel: &[u8]) -> u8 {
        let key = [pixel[0], pixel[1], pixel[2], pixel[3]];
        *self
            .known
            .entry(key)
            .or_insert_with(|| self.quantiser.index_of(&key) as u8)
    }
}

/// The frame that turns what is shown (`shown`, palette indices; `shown_rgba`, the pixels
/// they came from) into `rgba`: the rectangle around every pixel whose colour changed, the
/// unchanged pixels in it transparent. `shown` is updated to the new picture. A frame with
/// nothing changed is one transparent pixel (the ply still gets its frame and its delay).
fn changes(
    rgba: &[u8],
    shown_rgba: &[u8],
    shown: &mut [u8],
    width: usize,
    colours: &mut ColourIndex<'_>,
) -> gif::Frame<'static> {
    let mut changed: Vec<(usize, u8)> = Vec::new();
    for (p, (new, old)) in rgba
        .chunks_exact(4)
        .zip(shown_rgba.chunks_exact(4))
        .enumerate()
    {
        if new != old {
            let index = colours.of(new);
            if index != shown[p] {
                changed.push((p, index));
            }
        }
    }
    let Some(&(first, _)) = changed.first() else {
        return gif::Frame {
            width: 1,
            height: 1,
            buffer: std::borrow::Cow::Owned(vec![TRANSPARENT]),
            transparent: Some(TRANSPARENT),
            ..gif::Frame::default()
        };
    };
    let (mut left, mut right) = (first % width, first % width);
    let top = first / width;
    let bottom = changed.last().map_or(top, |&(p, _)| p / width);
    for &(p, _) in &changed {
        left = left.min(p % width);
        right = right.max(p % width);
    }
    let (w, h) = (right - left + 1, bottom - top + 1);
    let mut buffer = vec![TRANSPARENT; w * h];
    for (p, index) in changed {
        let (x, y) = (p % width, p / width);
        buffer[(y - top) * w + (x - left)] = index;
        shown[p] = index;
    }
    gif::Frame {
        left: left as u16,
        top: top as u16,
        width: w as u16,
        height: h as u16,
        buffer: std::borrow::Cow::Owned(buffer),
        transparent: Some(TRANSPARENT),
        ..gif::Frame::default()
    }
}

/// Which kind of animated picture to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A GIF: 255 colours learnt from the pictures, small, shown everywhere.
    Gif,
    /// An animated PNG: every colour kept; shown by every current browser.
    Apng,
}

impl Kind {
    /// The kind an output's file extension names (`gif`, `apng` or `png`), if any.
    pub fn from_extension(extension: &str) -> Option<Kind> {
        match extension.to_ascii_lowercase().as_str() {
            "gif" => Some(Kind::Gif),
            "apng" | "png" => Some(Kind::Apng),
            _ => None,
        }
    }
}

/// Writes the positions after `nodes` as an animation of `kind` ([`gif()`] or [`apng`]).
pub fn write<G: Picture, W: Write>(
    kind: Kind,
    record: &Record<G>,
    nodes: &[NodeId],
    options: &Options,
    timing: &Timing,
    out: W,
) -> Result<Animation, RenderError> {
    match kind {
        Kind::Gif => gif(record, nodes, options, timing, out),
        Kind::Apng => apng(record, nodes, options, timing, out),
    }
}

/// Writes the positions after `nodes` (a line of `record`, as for [`gif()`]) to `out` as an
/// animated PNG that loops: the first frame whole, each later one the rectangle of pixels
/// that changed (the others in it transparent), drawn over the frame before.
///
/// ```
/// use kifu_record::{Record, Span};
/// use kifu_shogi::{Move, Shogi, Square};
///
/// let mut record: Record<Shogi> = Record::new(Default::default());
/// let sq = |f, r| Square::new(f, r).unwrap();
/// record.moves.add_move(record.moves.root(), Move::normal(sq(7, 7), sq(7, 6), false), Span::default());
/// let nodes = kifu_render::main_line(&record);
/// let mut apng = Vec::new();
/// let made = kifu_render::animate::apng(&record, &nodes, &Default::default(), &Default::default(), &mut apng).unwrap();
/// assert_eq!(made.frames, 2);
/// assert_eq!(&apng[1..4], b"PNG");
/// ```
pub fn apng<G: Picture, W: Write>(
    record: &Record<G>,
    nodes: &[NodeId],
    options: &Options,
    timing: &Timing,
    out: W,
) -> Result<Animation, RenderError> {
    let (&first, rest) = nodes.split_first().ok_or(RenderError::NoFrames)?;
    let fail = |e: png::EncodingError| RenderError::Png(e.to_string());
    let mut missing: Vec<char> = Vec::new();
    let mut step = Step::at(record, first);
    let mut writer: Option<png::Writer<W>> = None;
    let mut out = Some(out);
    let mut shown: Vec<u8> = Vec::new();
    let (mut width, mut height) = (0u32, 0u32);
    let frames = nodes.len();
    for i in 0..frames {
        if i > 0 {
            step = step.then(record, rest[i - 1]);
        }
        let drawing = step.draw(record, options);
        for c in drawing.missing {
            if !missing.contains(&c) {
                missing.push(c);
            }
        }
        // Opaque pictures (the background fills them), so premultiplied is straight RGBA.
        let pixmap = crate::pixmap(&drawing.svg)?;
        let rgba = if i == 0 {
            (width, height) = (pixmap.width(), pixmap.height());
            let mut encoder = png::Encoder::new(out.take().expect("one writer"), width, height);
            encoder.set_color(png::ColorType::Rgba);
            encoder.set_depth(png::BitDepth::Eight);
            // Flat colour and long transparent runs: the best compression pays.
            encoder.set_compression(png::Compression::Best);
            encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
            let plays_forever = 0;
            encoder
                .set_animated(frames as u32, plays_forever)
                .map_err(fail)?;
            writer = Some(encoder.write_header().map_err(fail)?);
            pixmap.take()
        } else {
            if (pixmap.width(), pixmap.height()) != (width, height) {
                return Err(RenderError::Size { width, height });
            }
            pixmap.take()
        };
        let writer = writer.as_mut().expect("written after the first frame");
        let delay_ms = if i == frames - 1 {
            timing.last_delay_ms
        } else {
            timing.delay_ms
        };
        writer
            .set_frame_delay(u16::try_from(delay_ms).unwrap_or(u16::MAX), 1000)
            .map_err(fail)?;
        writer.set_dispose_op(png::DisposeOp::None).map_err(fail)?;
        // Over: a later frame's unchanged pixels are transparent and leave the frame before
        // showing, as the GIF's do (the first frame is opaque, so Over draws it whole).
        writer.set_blend_op(png::BlendOp::Over).map_err(fail)?;
        if i == 0 {
            writer.write_image_data(&rgba).map_err(fail)?;
        } else {
            let (x, y, w, h) =
                changed_rectangle(&rgba, &shown, width as usize).unwrap_or((0, 0, 1, 1));
            let mut part = Vec::with_capacity(w * h * 4);
            for row in y..y + h {
                let start = (row * width as usize + x) * 4;
                let (new, old) = (&rgba[start..start + w * 4], &shown[start..start + w * 4]);
                for (a, b) in new.chunks_exact(4).zip(old.chunks_exact(4)) {
                    part.extend_from_slice(if a == b { &[0, 0, 0, 0] } else { a });
                }
            }
            // Moved to the corner first: the rectangle is checked against the picture's
            // size at the position it has when its size is set.
            writer.set_frame_position(0, 0).map_err(fail)?;
            writer
                .set_frame_dimension(w as u32, h as u32)
                .map_err(fail)?;
            writer
                .set_frame_position(x as u32, y as u32)
                .map_err(fail)?;
            writer.write_image_data(&part).map_err(fail)?;
        }
        shown = rgba;
    }
    writer.expect("one frame at least").finish().map_err(fail)?;
    let size = |v: u32| u16::try_from(v).unwrap_or(u16::MAX);
    Ok(Animation {
        frames,
        width: size(width),
        height: size(height),
        missing,
    })
}

/// The smallest rectangle (x, y, width, height) holding every pixel of `new` that differs
/// from `old`; `None` when none does.
fn changed_rectangle(new: &[u8], old: &[u8], width: usize) -> Option<(usize, usize, usize, usize)> {
    let mut bounds: Option<(usize, usize, usize, usize)> = None;
    for (p, (a, b)) in new.chunks_exact(4).zip(old.chunks_exact(4)).enumerate() {
        if a != b {
            let (x, y) = (p % width, p / width);
            bounds = Some(match bounds {
                None => (x, y, x, y),
                Some((l, t, r, b)) => (l.min(x), t.min(y), r.max(x), b.max(y)),
            });
        }
    }
    bounds.map(|(l, t, r, b)| (l, t, r - l + 1, b - t + 1))
}
