//! Pictures of shogi, chu shogi and cetkaik positions: SVG, PNG and a self-contained HTML
//! replay viewer, written once for the three games.
//!
//! Each game implements [`Picture`]: what its board looks like and how a position is drawn on
//! it (a [`Scene`]). Everything else — layout, pieces, glyphs, PNG, the viewer — works on
//! scenes and knows no game. Japanese glyphs come from an embedded subset of Noto Serif CJK JP
//! (SIL Open Font License 1.1) and are drawn as paths, so a picture looks the same everywhere.
//!
//! ```
//! use kifu_record::Record;
//! use kifu_render::{Options, svg};
//! use kifu_shogi::Shogi;
//!
//! let record: Record<Shogi> = Record::new(Default::default());
//! let picture = svg(&record, record.moves.root(), &Options::default());
//! assert!(picture.starts_with("<svg"));
//! let png = kifu_render::png(&picture).unwrap();
//! assert_eq!(&png[1..4], b"PNG");
//! ```

#![warn(missing_docs)]

pub mod font;
mod games;
pub mod html;
pub mod scene;
pub mod svg;
pub mod webfont;

pub use games::Picture;
pub use scene::{Board, Ink, Mark, Owner, Scene, Shape, Terrain, Token};
pub use svg::Drawing;

use kifu_record::{HeaderField, NodeId, Record, Side};

/// How to draw a picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Turn the board round: the second player at the bottom.
    pub flip: bool,
    /// Pixels per layout unit (1 gives a board of 48-pixel squares, 40 for chu).
    pub scale: f32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            flip: false,
            scale: 1.0,
        }
    }
}

/// Why a picture could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The SVG did not parse (a bug of this crate; please report it).
    #[error("the SVG picture does not parse: {0}")]
    Svg(String),
    /// The picture is too large or empty.
    #[error("cannot make a {width}×{height} pixel image")]
    Size {
        /// The width asked for, in pixels.
        width: u32,
        /// The height asked for, in pixels.
        height: u32,
    },
    /// PNG encoding failed.
    #[error("PNG encoding failed: {0}")]
    Png(String),
}

/// The move that led to `node`, when it was played (not kept although illegal).
fn last_move<G: Picture>(record: &Record<G>, node: NodeId) -> Option<&G::Move> {
    let n = &record.moves[node];
    if n.illegal { None } else { n.mv() }
}

/// A player's line: the side's mark and name (`☗先手` when the record names nobody).
pub(crate) fn player_line<G: kifu_record::Game>(record: &Record<G>, side: Side) -> String {
    let (mark, field, default) = match side {
        Side::First => ("☗", HeaderField::FirstPlayer, "先手"),
        Side::Second => ("☖", HeaderField::SecondPlayer, "後手"),
    };
    let name = record
        .header
        .get(field)
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .unwrap_or(default);
    format!("{mark} {name}")
}

/// The move number as written at the top right.
fn move_label(ply: u32) -> String {
    if ply == 0 {
        "start".to_string()
    } else {
        format!("{ply}手目")
    }
}

/// The position after `node` as an SVG picture: board, pieces, hands, the last move marked,
/// coordinates, the players' names and the move number.
pub fn svg<G: Picture>(record: &Record<G>, node: NodeId, options: &Options) -> String {
    draw(record, node, options).svg
}

/// [`svg`](fn@svg), with the characters of the players' names and notes that the embedded font lacks
/// (drawn in the viewer's serif font in the SVG, left out of a PNG): say so to the user.
///
/// ```
/// use kifu_record::{HeaderField, Record};
/// use kifu_shogi::Shogi;
///
/// let mut record: Record<Shogi> = Record::new(Default::default());
/// record.header.set(HeaderField::FirstPlayer, "先手", "𠮷田");
/// let drawing = kifu_render::draw(&record, record.moves.root(), &Default::default());
/// assert_eq!(drawing.missing, vec!['𠮷']);
/// ```
pub fn draw<G: Picture>(record: &Record<G>, node: NodeId, options: &Options) -> Drawing {
    let position = record.position_at(node);
    let scene = G::scene(&position, last_move(record, node));
    let bottom = G::bottom_player(&position);
    let captions = svg::Captions {
        top: player_line(record, bottom.opponent()),
        bottom: player_line(record, bottom),
        move_label: move_label(record.moves[node].ply()),
    };
    svg::picture(&G::board(), &scene, &captions, options.flip, options.scale)
}

/// An SVG picture of this crate rendered to PNG, in-process (no browser, no system fonts).
pub fn png(svg: &str) -> Result<Vec<u8>, RenderError> {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| RenderError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or(RenderError::Size { width, height })?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| RenderError::Png(e.to_string()))
}
