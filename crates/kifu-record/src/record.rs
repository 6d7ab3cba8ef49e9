//! A whole game record: header, start and move tree, for any [`Game`].

use std::fmt;

use crate::{Diagnostic, Ending, Game, Header, MoveTree, NodeId, NodeItem, Outcome, Span};

/// The moves of a record of game `G`.
pub type GameTree<G> = MoveTree<<G as Game>::Move, <G as Game>::Ending>;

/// One game as read from a file or built by a program.
///
/// The same type serves every game of the family; `G` supplies the start, the moves and the
/// game's own endings (see [`Game`]).
pub struct Record<G: Game> {
    /// The game information, in the order it was written.
    pub header: Header,
    /// How the game starts (a named setup or a position).
    pub start: G::Start,
    /// Where the start position was written (`PI`, a board diagram …); empty if implied.
    pub start_span: Span,
    /// The moves: main line, variations and endings, with times and comments.
    pub moves: GameTree<G>,
}

impl<G: Game> Record<G> {
    /// An empty record of a game starting from `start`.
    pub fn new(start: G::Start) -> Record<G> {
        Record {
            header: Header::new(),
            start,
            start_span: Span::default(),
            moves: MoveTree::new(),
        }
    }

    /// True when the record holds nothing of a game: no move, no ending, no written start
    /// and no known header field (comments alone do not make a game). Readers report such a
    /// text as "no record" instead of passing it as an empty but valid game.
    pub fn is_empty(&self) -> bool {
        holds_no_game(
            self.moves.len(),
            self.start_span,
            self.header.has_known_field(),
        )
    }

    /// Moves on the main line (endings are not counted).
    pub fn main_line_plies(&self) -> usize {
        self.moves
            .main_line()
            .filter(|&id| matches!(self.moves[id].item, crate::NodeItem::Move(_)))
            .count()
    }

    /// The ending of the main line, if it has one.
    pub fn ending(&self) -> Option<Ending<G::Ending>> {
        self.moves.ending()
    }

    /// The position after `node`, replayed from the start. A move kept although the rules
    /// forbid it (`illegal`, as in a record ending in 反則勝ち) is not played, nor is any move
    /// the rules refuse.
    pub fn position_at(&self, node: NodeId) -> G::Position {
        let mut position = G::start_position(&self.start);
        for id in self.moves.path_to(node) {
            if let NodeItem::Move(mv) = &self.moves[id].item
                && !self.moves[id].illegal
            {
                let _ = G::play(&mut position, mv);
            }
        }
        position
    }

    /// The main-line node after `ply` moves (0 = the start), or the last move if the line is
    /// shorter.
    pub fn main_line_node(&self, ply: u32) -> NodeId {
        let tree = &self.moves;
        tree.main_line()
            .take_while(|&id| tree[id].ply() <= ply && tree[id].mv().is_some())
            .last()
            .unwrap_or(tree.root())
    }

    /// The positions of the main line: the start, then the position after each move, each
    /// with the node that led to it. Stops at the first move the rules refuse.
    ///
    /// ```
    /// # use kifu_record::{Game, NoEnding, Outcome, Record, Side, Span};
    /// # #[derive(Debug)] struct Count;
    /// # #[derive(Debug, thiserror::Error)] #[error("only +1")] struct Bad;
    /// # impl Game for Count {
    /// #     const NAME: &'static str = "count";
    /// #     type Position = u32; type Move = u32; type Start = u32; type Ending = NoEnding;
    /// #     type IllegalMove = Bad;
    /// #     fn start_position(s: &u32) -> u32 { *s }
    /// #     fn turn(p: &u32) -> Side { if p % 2 == 0 { Side::First } else { Side::Second } }
    /// #     fn check_move(_: &u32, m: &u32) -> Result<(), Bad> { if *m == 1 { Ok(()) } else { Err(Bad) } }
    /// #     fn play_unchecked(p: &mut u32, m: &u32) { *p += m }
    /// #     fn outcome(_: &u32) -> Option<Outcome> { None }
    /// #     fn move_text(_: &u32, m: &u32) -> String { m.to_string() }
    /// #     fn position_text(p: &u32) -> String { p.to_string() }
    /// # }
    /// let mut record: Record<Count> = Record::new(10);
    /// let first = record.moves.add_move(record.moves.root(), 1, Span::default());
    /// record.moves.add_move(first, 1, Span::default());
    /// let positions: Vec<u32> = record.positions().map(|(_, p)| p).collect();
    /// assert_eq!(positions, [10, 11, 12]);
    /// ```
    pub fn positions(&self) -> Positions<'_, G> {
        Positions {
            record: self,
            next: Some(self.moves.root()),
            position: None,
        }
    }

    /// Replays the main line without copying a position per move: `visit` sees each move's
    /// node, the position before it and the move, and then the move is played. Stops at the
    /// first move kept although illegal or refused by the rules, and returns the last node
    /// played (the root if none) with the position after it. Exporters and viewers that look
    /// at every ply of thousands of games use this rather than [`Record::positions`], which
    /// hands out an owned position per ply.
    ///
    /// ```
    /// # use kifu_record::{Game, NoEnding, Outcome, Record, Side, Span};
    /// # #[derive(Debug)] struct Count;
    /// # #[derive(Debug, thiserror::Error)] #[error("only +1")] struct Bad;
    /// # impl Game for Count {
    /// #     const NAME: &'static str = "count";
    /// #     type Position = u32; type Move = u32; type Start = u32; type Ending = NoEnding;
    /// #     type IllegalMove = Bad;
    /// #     fn start_position(s: &u32) -> u32 { *s }
    /// #     fn turn(p: &u32) -> Side { if p % 2 == 0 { Side::First } else { Side::Second } }
    /// #     fn check_move(_: &u32, m: &u32) -> Result<(), Bad> { if *m == 1 { Ok(()) } else { Err(Bad) } }
    /// #     fn play_unchecked(p: &mut u32, m: &u32) { *p += m }
    /// #     fn outcome(_: &u32) -> Option<Outcome> { None }
    /// #     fn move_text(_: &u32, m: &u32) -> String { m.to_string() }
    /// #     fn position_text(p: &u32) -> String { p.to_string() }
    /// # }
    /// let mut record: Record<Count> = Record::new(10);
    /// let first = record.moves.add_move(record.moves.root(), 1, Span::default());
    /// let second = record.moves.add_move(first, 1, Span::default());
    /// record.moves.add_move(second, 5, Span::default()); // refused by the rules
    /// let mut before = Vec::new();
    /// let (last, position) = record.walk_main_line(|_, position, _| before.push(*position));
    /// assert_eq!(before, [10, 11]);
    /// assert_eq!((last, position), (second, 12));
    /// ```
    pub fn walk_main_line(
        &self,
        mut visit: impl FnMut(NodeId, &G::Position, &G::Move),
    ) -> (NodeId, G::Position) {
        let tree = &self.moves;
        let mut position = G::start_position(&self.start);
        // The main line is at most every node but the root.
        G::reserve_moves(&mut position, tree.len().saturating_sub(1));
        let mut last = tree.root();
        let mut next = tree.main_child(last);
        while let Some(id) = next {
            let NodeItem::Move(mv) = &tree[id].item else {
                break;
            };
            if tree[id].illegal || G::check_move(&position, mv).is_err() {
                break;
            }
            visit(id, &position, mv);
            G::play_unchecked(&mut position, mv);
            last = id;
            next = tree.main_child(id);
        }
        (last, position)
    }

    /// Replays the whole move tree, variations included, depth first with the main line of
    /// each branch before its alternatives: `visit` sees each playable move's node, the
    /// position before it and the move. A position is copied only where the tree branches. A
    /// move kept although illegal, or refused by the rules, is not visited and neither is
    /// anything after it.
    ///
    /// ```
    /// # use kifu_record::{Game, NoEnding, Outcome, Record, Side, Span};
    /// # #[derive(Debug)] struct Count;
    /// # #[derive(Debug, thiserror::Error)] #[error("only +1")] struct Bad;
    /// # impl Game for Count {
    /// #     const NAME: &'static str = "count";
    /// #     type Position = u32; type Move = u32; type Start = u32; type Ending = NoEnding;
    /// #     type IllegalMove = Bad;
    /// #     fn start_position(s: &u32) -> u32 { *s }
    /// #     fn turn(p: &u32) -> Side { if p % 2 == 0 { Side::First } else { Side::Second } }
    /// #     fn check_move(_: &u32, m: &u32) -> Result<(), Bad> { if *m <= 2 { Ok(()) } else { Err(Bad) } }
    /// #     fn play_unchecked(p: &mut u32, m: &u32) { *p += m }
    /// #     fn outcome(_: &u32) -> Option<Outcome> { None }
    /// #     fn move_text(_: &u32, m: &u32) -> String { m.to_string() }
    /// #     fn position_text(p: &u32) -> String { p.to_string() }
    /// # }
    /// let mut record: Record<Count> = Record::new(0);
    /// let root = record.moves.root();
    /// let first = record.moves.add_move(root, 1, Span::default());
    /// record.moves.add_move(first, 1, Span::default());
    /// record.moves.add_move(root, 2, Span::default()); // a variation of the first move
    /// let mut seen = Vec::new();
    /// record.walk_tree(|_, before, mv| seen.push((*before, *mv)));
    /// assert_eq!(seen, [(0, 1), (1, 1), (0, 2)]);
    /// ```
    pub fn walk_tree(&self, mut visit: impl FnMut(NodeId, &G::Position, &G::Move)) {
        let tree = &self.moves;
        // Moves still to visit, each with the position before it.
        let mut pending: Vec<(NodeId, G::Position)> = Vec::new();
        let mut next = descend::<G>(
            tree,
            tree.root(),
            G::start_position(&self.start),
            &mut pending,
        );
        while let Some((id, mut position)) = next.take().or_else(|| pending.pop()) {
            let NodeItem::Move(mv) = &tree[id].item else {
                continue;
            };
            if tree[id].illegal || G::check_move(&position, mv).is_err() {
                continue;
            }
            visit(id, &position, mv);
            G::play_unchecked(&mut position, mv);
            next = descend::<G>(tree, id, position, &mut pending);
        }
    }

    /// The result the record states: by its ending if it has one, else by the position at
    /// the end of the main line (a checkmate nobody wrote down still decides the game).
    pub fn outcome(&self) -> Outcome {
        let end = self.moves.main_line_end();
        let last_move = match &self.moves[end].item {
            NodeItem::End(_) => self.moves.parent(end).unwrap_or(self.moves.root()),
            _ => end,
        };
        let position = self.position_at(last_move);
        match self.moves[end].ending() {
            Some(ending) => ending.kind.outcome(G::turn(&position)),
            None => G::outcome(&position).unwrap_or(Outcome::None),
        }
    }
}

/// The first child of `parent` with the position after `parent`, having put the other
/// children on `pending` (last first, so they come off in the order they were written) each
/// with a copy of that position.
fn descend<G: Game>(
    tree: &GameTree<G>,
    parent: NodeId,
    position: G::Position,
    pending: &mut Vec<(NodeId, G::Position)>,
) -> Option<(NodeId, G::Position)> {
    let first = tree.main_child(parent)?;
    let alternatives: Vec<NodeId> = tree.variations(parent).collect();
    for &alternative in alternatives.iter().rev() {
        pending.push((alternative, position.clone()));
    }
    Some((first, position))
}

/// The main line's positions, from [`Record::positions`].
pub struct Positions<'r, G: Game> {
    record: &'r Record<G>,
    next: Option<NodeId>,
    position: Option<G::Position>,
}

impl<G: Game> Iterator for Positions<'_, G> {
    type Item = (NodeId, G::Position);

    fn next(&mut self) -> Option<(NodeId, G::Position)> {
        let tree = &self.record.moves;
        let id = self.next.take()?;
        let position = match self.position.take() {
            None => G::start_position(&self.record.start),
            Some(mut position) => {
                let NodeItem::Move(mv) = &tree[id].item else {
                    return None;
                };
                if tree[id].illegal || G::play(&mut position, mv).is_err() {
                    return None;
                }
                position
            }
        };
        self.next = tree.main_child(id).filter(|&c| tree[c].mv().is_some());
        self.position = Some(position.clone());
        Some((id, position))
    }
}

impl<G: Game> Clone for Record<G> {
    fn clone(&self) -> Self {
        Record {
            header: self.header.clone(),
            start: self.start.clone(),
            start_span: self.start_span,
            moves: self.moves.clone(),
        }
    }
}

impl<G: Game> fmt::Debug for Record<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Record")
            .field("game", &G::NAME)
            .field("header", &self.header)
            .field("start", &self.start)
            .field("start_span", &self.start_span)
            .field("moves", &self.moves)
            .finish()
    }
}

impl<G: Game> PartialEq for Record<G> {
    fn eq(&self, other: &Self) -> bool {
        self.header == other.header
            && self.start == other.start
            && self.start_span == other.start_span
            && self.moves == other.moves
    }
}

/// One record of a source read on its own, with the problems found in it (spans into the
/// whole decoded text): what streaming readers hand out, so that a caller can check or
/// convert a record and drop it before the next is read.
pub struct RecordRead<G: Game> {
    /// The record.
    pub record: Record<G>,
    /// The problems found in it, with spans into the whole decoded text.
    pub diagnostics: Vec<Diagnostic>,
}

impl<G: Game> RecordRead<G> {
    /// True when a problem makes this record invalid.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The record as read, with an error added if it holds no game at all (see
    /// [`Record::is_empty`]). `at` is where the record started in the text.
    pub fn checked(
        record: Record<G>,
        mut diagnostics: Vec<Diagnostic>,
        at: usize,
    ) -> RecordRead<G> {
        if record.is_empty() {
            diagnostics.push(no_record(at));
        }
        RecordRead {
            record,
            diagnostics,
        }
    }
}

/// [`Record::is_empty`] from the parts of a record: how many nodes its move tree holds (the
/// start included), where its start was written and whether its header has a field kifu
/// knows ([`Header::has_known_field`]). For readers that check a record without building it.
pub fn holds_no_game(nodes: usize, start_span: Span, known_header_field: bool) -> bool {
    nodes <= 1 && start_span.is_empty() && !known_header_field
}

/// The error for a record that holds no game, where it starts.
fn no_record(at: usize) -> Diagnostic {
    Diagnostic::error(
        crate::DiagnosticKind::NoRecord,
        Span::point(at),
        "no game record here: no moves, no start position and no header",
    )
}

/// What reading and replaying one record found, without the record: its moves and its
/// problems. [`RecordFormat::check`](crate::RecordFormat::check) hands these out for callers
/// that validate and then drop each record (`kifu check`), so a format can skip building
/// the move tree. The diagnostics are exactly those [`RecordRead::diagnostics`] would hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordCheck {
    /// Moves on the record's main line (an ending is not a move).
    pub plies: usize,
    /// The problems found in it, with spans into the whole decoded text.
    pub diagnostics: Vec<Diagnostic>,
}

impl RecordCheck {
    /// What [`RecordRead::checked`] says of a record that was not built: `nodes` is how many
    /// nodes its move tree would hold (the start included), `start_span` its own, and
    /// `known_header_field` whether its header has a field kifu knows. A record holding no
    /// game gets the same error.
    pub fn checked(
        plies: usize,
        nodes: usize,
        start_span: Span,
        known_header_field: bool,
        mut diagnostics: Vec<Diagnostic>,
        at: usize,
    ) -> RecordCheck {
        if holds_no_game(nodes, start_span, known_header_field) {
            diagnostics.push(no_record(at));
        }
        RecordCheck { plies, diagnostics }
    }

    /// True when a problem makes the record invalid.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

impl<G: Game> From<RecordRead<G>> for RecordCheck {
    fn from(read: RecordRead<G>) -> RecordCheck {
        RecordCheck {
            plies: read.record.main_line_plies(),
            diagnostics: read.diagnostics,
        }
    }
}

impl<G: Game> Clone for RecordRead<G> {
    fn clone(&self) -> Self {
        RecordRead {
            record: self.record.clone(),
            diagnostics: self.diagnostics.clone(),
        }
    }
}

impl<G: Game> fmt::Debug for RecordRead<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecordRead")
            .field("record", &self.record)
            .field("diagnostics", &self.diagnostics)
            .finish()
    }
}

/// Every record of a source with every problem found: what whole-text readers return.
pub struct Parsed<G: Game> {
    /// Every record of the source, in order.
    pub records: Vec<Record<G>>,
    /// Every problem found, with spans into the decoded text.
    pub diagnostics: Vec<Diagnostic>,
}

impl<G: Game> Parsed<G> {
    /// True when any problem makes the source invalid.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Gathers streamed records into one result.
    pub fn collect(records: impl IntoIterator<Item = RecordRead<G>>) -> Parsed<G> {
        let mut parsed = Parsed::default();
        for mut one in records {
            parsed.records.push(one.record);
            parsed.diagnostics.append(&mut one.diagnostics);
        }
        parsed
    }
}

impl<G: Game> Default for Parsed<G> {
    fn default() -> Self {
        Parsed {
            records: Vec::new(),
            diagnostics: Vec::new(),
        }
    }
}

impl<G: Game> Clone for Parsed<G> {
    fn clone(&self) -> Self {
        Parsed {
            records: self.records.clone(),
            diagnostics: self.diagnostics.clone(),
        }
    }
}

impl<G: Game> fmt::Debug for Parsed<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Parsed")
            .field("records", &self.records)
            .field("diagnostics", &self.diagnostics)
            .finish()
    }
}

/// What a writer returns: the text, and one line per thing the target format could not hold.
///
/// ```
/// use kifu_record::{TextEncoding, Written};
///
/// let written = Written { text: "先手：羽生 ♔\n".into(), warnings: Vec::new() };
/// let (bytes, warnings) = written.encode(TextEncoding::ShiftJis);
/// assert!(bytes.ends_with(b" ?\n")); // ♔ has no Shift_JIS code
/// assert!(warnings[0].contains("♔"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// The written text.
    pub text: String,
    /// One line per thing the target format could not hold.
    pub warnings: Vec<String>,
}

impl Written {
    /// Adds `part`, written after this, to this: its text after this text, its warnings after
    /// these (see [`RecordFormat::write_part`](crate::RecordFormat::write_part)).
    pub fn append(&mut self, part: Written) {
        self.text.push_str(&part.text);
        self.warnings.extend(part.warnings);
    }

    /// The text as bytes in `encoding`, with a warning added when a character cannot be
    /// written in it (it becomes `?`).
    pub fn encode(self, encoding: crate::TextEncoding) -> (Vec<u8>, Vec<String>) {
        let Written { text, mut warnings } = self;
        if encoding == crate::TextEncoding::Utf8 {
            // The text's own bytes, not a copy: a converted archive can be as large as its input.
            return (text.into_bytes(), warnings);
        }
        let (bytes, lost) = crate::encode(&text, encoding);
        if !lost.is_empty() {
            let chars: String = lost.iter().collect();
            warnings.push(format!(
                "characters {} cannot be written in {}; replaced with `?`",
                chars,
                encoding.name()
            ));
        }
        (bytes.into_owned(), warnings)
    }
}
