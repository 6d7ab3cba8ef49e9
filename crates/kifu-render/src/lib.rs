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

pub mod animate;
pub mod caption;
pub mod explorer;
pub mod font;
mod games;
pub mod html;
pub mod live;
pub mod scene;
pub mod svg;
pub mod webfont;

pub use games::{Picture, SuggestedMove};
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
    /// Write a caption line under the board: the move number, the last move, its player and
    /// the evaluation ([`caption::caption`]).
    pub caption: bool,
    /// The language of the picture's words: its labels, captions and (shogi's) pieces.
    pub lang: Lang,
}

/// The one language a picture speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// Japanese: kanji pieces, 一…九 ranks, `80手目 △６三銀`, as Japanese programs draw.
    #[default]
    Ja,
    /// English: Western piece letters (shogi's, chu's CSL abbreviations), ranks a…i (a…l for
    /// chu), `Move 80 ☖ S7b-6c`.
    En,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            flip: false,
            scale: 1.0,
            caption: false,
            lang: Lang::Ja,
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
    /// GIF encoding failed, or the output could not be written.
    #[error("GIF encoding failed: {0}")]
    Gif(String),
    /// An animation was asked for with no positions in it.
    #[error("an animation needs at least one position")]
    NoFrames,
}

/// A player's line: the side's mark and name (`☗先手` when the record names nobody).
pub(crate) fn player_line<G: kifu_record::Game>(record: &Record<G>, side: Side) -> String {
    player_line_in(record, side, Lang::Ja)
}

/// [`player_line`] in `lang` (`☗ Black` when the record names nobody, in English).
pub(crate) fn player_line_in<G: kifu_record::Game>(
    record: &Record<G>,
    side: Side,
    lang: Lang,
) -> String {
    let (mark, field, default) = match (side, lang) {
        (Side::First, Lang::Ja) => ("☗", HeaderField::FirstPlayer, "先手"),
        (Side::Second, Lang::Ja) => ("☖", HeaderField::SecondPlayer, "後手"),
        (Side::First, Lang::En) => ("☗", HeaderField::FirstPlayer, "Black"),
        (Side::Second, Lang::En) => ("☖", HeaderField::SecondPlayer, "White"),
    };
    let name = record
        .header
        .get(field)
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .unwrap_or(default);
    format!("{mark} {name}")
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
    Step::at(record, node).draw(record, options)
}

/// A position of a record as a picture shows it: the node, the position after it, and the
/// move that led there with the position before it (for the last-move marks and the caption).
/// An animation walks a line step by step instead of replaying each position from the start.
#[derive(Debug)]
pub struct Step<G: kifu_record::Game> {
    /// The node drawn.
    pub node: NodeId,
    /// The position after it.
    pub position: G::Position,
    /// The move that led to it (when it was played) and the position before that move.
    pub played: Option<(G::Position, G::Move)>,
    /// The move played before that one (for shogi's `同`).
    pub previous: Option<G::Move>,
}

// By hand: a derived `Clone` would ask the game type itself to be `Clone`.
impl<G: kifu_record::Game> Clone for Step<G> {
    fn clone(&self) -> Step<G> {
        Step {
            node: self.node,
            position: self.position.clone(),
            played: self.played.clone(),
            previous: self.previous.clone(),
        }
    }
}

impl<G: Picture> Step<G> {
    /// The start of `record`.
    pub fn start(record: &Record<G>) -> Step<G> {
        Step {
            node: record.moves.root(),
            position: G::start_position(&record.start),
            played: None,
            previous: None,
        }
    }

    /// The position after `node`, replayed from the start. A move kept although illegal, or
    /// refused by the rules, is not played (as [`Record::position_at`] does).
    pub fn at(record: &Record<G>, node: NodeId) -> Step<G> {
        let mut step = Step::start(record);
        for id in record.moves.path_to(node) {
            step = step.then(record, id);
        }
        step
    }

    /// The position after `child`, a child of this step's node.
    pub fn then(self, record: &Record<G>, child: NodeId) -> Step<G> {
        let n = &record.moves[child];
        let previous = self.played.map(|(_, mv)| mv);
        let mut position = self.position;
        let played = match n.mv() {
            Some(mv) if !n.illegal && G::check_move(&position, mv).is_ok() => {
                let before = position.clone();
                G::play_unchecked(&mut position, mv);
                Some((before, mv.clone()))
            }
            _ => None,
        };
        Step {
            node: child,
            position,
            played,
            previous,
        }
    }

    /// The picture of this step.
    pub fn draw(&self, record: &Record<G>, options: &Options) -> Drawing {
        let last = self.played.as_ref().map(|(_, mv)| mv);
        let mut scene = G::scene(&self.position, last);
        let mut board = G::board();
        if options.lang == Lang::En {
            G::in_english(&mut board, &mut scene);
        }
        let bottom = G::bottom_player(&self.position);
        let lang = options.lang;
        let captions = svg::Captions {
            top: player_line_in(record, bottom.opponent(), lang),
            bottom: player_line_in(record, bottom, lang),
            move_label: caption::move_label_in(record.moves[self.node].ply(), lang),
            caption: options.caption.then(|| {
                let mut line = caption::caption_in(
                    record,
                    self.node,
                    self.played.as_ref().map(|(before, mv)| (before, mv)),
                    self.previous.as_ref(),
                    lang,
                );
                for extra in G::caption_extras(&self.position, last, lang) {
                    line.push(' ');
                    line.push_str(&extra);
                }
                line
            }),
        };
        svg::picture(&board, &scene, &captions, options.flip, options.scale)
    }
}

/// Visits the positions after `nodes` (a line: each node a child of the one before, such as
/// [`main_line`] or a slice of it) one at a time, each played from the one before rather than
/// replayed from the start: batch stills of every ply cost one replay of the line.
pub fn walk_line<G: Picture, E>(
    record: &Record<G>,
    nodes: &[NodeId],
    mut visit: impl FnMut(&Step<G>) -> Result<(), E>,
) -> Result<(), E> {
    let Some((&first, rest)) = nodes.split_first() else {
        return Ok(());
    };
    let mut step = Step::at(record, first);
    visit(&step)?;
    for &node in rest {
        step = step.then(record, node);
        visit(&step)?;
    }
    Ok(())
}

/// The nodes of the main line: the start, then each move's node up to the first move the
/// rules refuse. Index `n` is the position after `n` moves.
pub fn main_line<G: kifu_record::Game>(record: &Record<G>) -> Vec<NodeId> {
    let mut nodes = vec![record.moves.root()];
    record.walk_main_line(|id, _, _| nodes.push(id));
    nodes
}

/// An SVG picture rendered to pixels, in-process (no browser, no system fonts).
pub(crate) fn pixmap(svg: &str) -> Result<resvg::tiny_skia::Pixmap, RenderError> {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| RenderError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or(RenderError::Size { width, height })?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// An SVG picture of this crate rendered to PNG, in-process (no browser, no system fonts).
pub fn png(svg: &str) -> Result<Vec<u8>, RenderError> {
    pixmap(svg)?
        .encode_png()
        .map_err(|e| RenderError::Png(e.to_string()))
}
