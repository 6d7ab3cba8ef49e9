//! What a picture shows, in words every game shares: a board of squares with tokens on them,
//! the pieces each side holds, the marked squares and a few lines of text. Each game turns its
//! position into a [`Scene`] ([`crate::Picture`]); the SVG, PNG and HTML writers draw scenes
//! and know no game.

/// Which way a token faces and whose hand it is in: the side drawn at the bottom of an
/// unflipped board (`Bottom`), the side at the top, or nobody's (cetkaik's 皇).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    /// The side drawn at the bottom: its tokens face up the board.
    Bottom,
    /// The side drawn at the top: its tokens face down.
    Top,
    /// Nobody's (cetkaik's 皇), drawn upright.
    Neutral,
}

/// The colour a token's name is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ink {
    /// An ordinary piece.
    Black,
    /// A promoted piece (shogi, chu) or a red piece (cetkaik).
    Red,
    /// The neutral 皇 of cetkaik.
    Gold,
}

/// The outline of a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A shogi piece: a pentagon pointing at the opponent.
    Pentagon,
    /// A cetkaik piece: a square tile.
    Tile,
    /// A round disc (cetkaik's 皇).
    Disc,
}

/// One piece as drawn: its name (one to three characters), owner, ink and shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token {
    /// The name written on it (one to three characters).
    pub name: &'static str,
    /// Which way it faces and whose hand it goes to.
    pub owner: Owner,
    /// The colour of its name.
    pub ink: Ink,
    /// Its outline.
    pub shape: Shape,
}

/// A square marked because of the last move or the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Where the last move started.
    From,
    /// A square the last move passed through (a lion's first step, a cetkaik step).
    Via,
    /// Where the last move ended.
    To,
    /// Chu's counter-strike square: a lion may not be recaptured here by a non-lion.
    CounterStrike,
}

/// A square the board itself marks, whatever the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// Cetkaik's 皇水 (tam2 nua2), the water cross.
    Water,
    /// Cetkaik's 皇処 (tam2 hue), the X through the centre.
    TamHue,
    /// Cetkaik's 皇山 (tam2 zo1), where 皇 starts.
    Palace,
}

/// A game's board: its size, coordinates and marked squares.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    /// Squares across.
    pub files: usize,
    /// Squares down.
    pub ranks: usize,
    /// The label above each column, left to right as the bottom side sees the board.
    pub file_labels: Vec<String>,
    /// The label beside each row, top to bottom.
    pub rank_labels: Vec<String>,
    /// Squares the board marks (by index, row by row from the top left).
    pub terrain: Vec<(usize, Terrain)>,
    /// Whether the picture has room for what each side holds (shogi's hands, cetkaik's
    /// captured pieces) and how many columns of it.
    pub hand_columns: usize,
    /// The board's star points (星, hoshi), each where two grid lines cross, as (the line
    /// across from the left edge, the line down from the top edge): shogi's four, chu's four.
    pub hoshi: Vec<(usize, usize)>,
    /// Lines of notes the picture always has room for, so that every position of a game is
    /// drawn at one size (cetkaik's season line and stick throw): an animation's frames and
    /// the stills of its plies must match.
    pub note_lines: usize,
}

/// A position as the picture shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// What stands on each square, row by row from the top left (bottom side's view).
    pub cells: Vec<Option<Token>>,
    /// What each side holds, `[bottom, top]`, each kind once with its count.
    pub hands: [Vec<(Token, u8)>; 2],
    /// The squares the last move and the rules mark.
    pub marks: Vec<(usize, Mark)>,
    /// Whose turn it is.
    pub to_move: Owner,
    /// Lines of game state beside the board (cetkaik's season, scores, sticks).
    pub notes: Vec<String>,
}

impl Scene {
    /// An empty scene for `board`.
    pub fn empty(board: &Board) -> Scene {
        Scene {
            cells: vec![None; board.files * board.ranks],
            hands: [Vec::new(), Vec::new()],
            marks: Vec::new(),
            to_move: Owner::Bottom,
            notes: Vec::new(),
        }
    }
}
