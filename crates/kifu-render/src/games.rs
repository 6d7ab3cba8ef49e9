//! The three games as pictures: each says what its board looks like and turns a position into
//! a [`Scene`].

use kifu_record::{Game, Side};

use crate::scene::{Board, Ink, Mark, Owner, Scene, Shape, Terrain, Token};

/// A game that can be drawn: its board and how a position looks on it.
///
/// ```
/// use kifu_record::Game;
/// use kifu_render::Picture;
/// use kifu_shogi::Shogi;
///
/// let start = Shogi::start_position(&Default::default());
/// let scene = Shogi::scene(&start, None);
/// assert_eq!(scene.cells.iter().flatten().count(), 40);
/// assert_eq!(Shogi::board().files, 9);
/// ```
pub trait Picture: Game {
    /// The attribute of the HTML viewer's board element that holds the position in the
    /// game's machine notation ([`Game::position_text`]).
    const POSITION_ATTRIBUTE: &'static str;

    /// The board: size, coordinates, fixed marks.
    fn board() -> Board;

    /// The position as drawn, with `last` (the move that led to it) marked.
    fn scene(position: &Self::Position, last: Option<&Self::Move>) -> Scene;

    /// The move `mv`, played from `before`, as a player reads it in a caption: the game's
    /// Japanese notation with the mover's mark (`▲７六歩`, `△同　銀`) where it has one.
    /// `previous` is the move before it (for shogi's `同`).
    fn move_caption(
        before: &Self::Position,
        mv: &Self::Move,
        previous: Option<&Self::Move>,
    ) -> String {
        let _ = previous;
        Self::move_text(before, mv)
    }

    /// The move `mv`, played from `before`, in the game's Western notation with the mover's
    /// mark (`☖ S7b-6c`): the English caption's. The machine notation by default.
    fn move_caption_western(before: &Self::Position, mv: &Self::Move) -> String {
        Self::move_text(before, mv)
    }

    /// Turns a board and a scene drawn in Japanese into English ([`crate::Lang::En`]): the
    /// labels, and the pieces' names where the game has Western letters. Nothing by default
    /// (cetkaik's labels are Latin letters already).
    fn in_english(_board: &mut Board, _scene: &mut Scene) {}

    /// What a caption in `lang` adds after the move and the mover, from the position after
    /// `last`: cetkaik's stick throws and the scores. Nothing by default.
    fn caption_extras(
        _after: &Self::Position,
        _last: Option<&Self::Move>,
        _lang: crate::Lang,
    ) -> Vec<String> {
        Vec::new()
    }

    /// Which player of the record sits at the bottom of an unflipped board.
    fn bottom_player(_position: &Self::Position) -> Side {
        Side::First
    }

    /// The first move of a principal variation as an engine comment writes it (`pv`, in
    /// any notation the game's comment dialects use), played from `position`, where the
    /// viewer draws it as an arrow; `None` when it is not a legal move there, or the game's
    /// comments carry no PV kifu reads (chu, cetkaik).
    fn suggested_move(_position: &Self::Position, _pv: &str) -> Option<SuggestedMove> {
        None
    }
}

/// An engine's move drawn on the board: its machine notation and its squares as indices of
/// [`Scene::cells`] (`from` is `None` for a drop).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuggestedMove {
    /// The move in the game's machine notation (USI for shogi: `7g7f`, `P*5e`).
    pub text: String,
    /// The square it leaves.
    pub from: Option<usize>,
    /// The square it goes to.
    pub to: usize,
}

/// The index in [`Scene::cells`] of a shogi square (rank by rank from the top, files from
/// 9 at the left).
fn shogi_cell(sq: kifu_shogi::Square) -> usize {
    (sq.rank() as usize - 1) * 9 + (9 - sq.file() as usize)
}

fn owner_of(bottom: bool) -> Owner {
    if bottom { Owner::Bottom } else { Owner::Top }
}

/// The mark of the side that moves: ▲ for the first player (先手), △ for the second.
fn side_mark(first: bool) -> char {
    if first { '▲' } else { '△' }
}

/// Arabic file numbers, `n` at the left down to 1.
fn numbers_right_to_left(n: usize) -> Vec<String> {
    (1..=n).rev().map(|f| f.to_string()).collect()
}

impl Picture for kifu_shogi::Shogi {
    const POSITION_ATTRIBUTE: &'static str = "data-sfen";

    fn board() -> Board {
        Board {
            files: 9,
            ranks: 9,
            file_labels: numbers_right_to_left(9),
            rank_labels: ["一", "二", "三", "四", "五", "六", "七", "八", "九"]
                .map(String::from)
                .to_vec(),
            terrain: Vec::new(),
            hand_columns: 1,
            // Where the third lines from each edge cross.
            hoshi: vec![(3, 3), (6, 3), (3, 6), (6, 6)],
            note_lines: 0,
        }
    }

    fn move_caption(
        before: &kifu_shogi::Position,
        mv: &kifu_shogi::Move,
        previous: Option<&kifu_shogi::Move>,
    ) -> String {
        let mark = side_mark(before.turn() == kifu_shogi::Color::Black);
        let text = kifu_shogi::notation::ki2::write(before, *mv, previous.map(|m| m.to()));
        format!("{mark}{text}")
    }

    /// Hodges' notation with the square left always written: `P7g-7f`, `Sx6c+` (a capture
    /// that promotes), `S7b-6c=` (declines), `P*5e`.
    fn move_caption_western(before: &kifu_shogi::Position, mv: &kifu_shogi::Move) -> String {
        let mark = if before.turn() == kifu_shogi::Color::Black {
            '☗'
        } else {
            '☖'
        };
        let square =
            |sq: kifu_shogi::Square| format!("{}{}", sq.file(), (b'a' + sq.rank() - 1) as char);
        let text = match mv.from() {
            None => format!(
                "{}*{}",
                western_letter(mv.drop_kind().map_or("", |k| k.kanji())),
                square(mv.to())
            ),
            Some(from) => {
                let kind = before.piece_at(from).map(|p| p.kind);
                let letter = western_letter(kind.map_or("", |k| k.kanji()));
                let captures = before.piece_at(mv.to()).is_some();
                let black = before.turn() == kifu_shogi::Color::Black;
                let in_zone = |sq: kifu_shogi::Square| {
                    if black {
                        sq.rank() <= 3
                    } else {
                        sq.rank() >= 7
                    }
                };
                let could_promote =
                    kind.is_some_and(|k| k.is_promotable()) && (in_zone(from) || in_zone(mv.to()));
                let suffix = if mv.is_promotion() {
                    "+"
                } else if could_promote {
                    "="
                } else {
                    ""
                };
                format!(
                    "{letter}{}{}{}{suffix}",
                    square(from),
                    if captures { 'x' } else { '-' },
                    square(mv.to())
                )
            }
        };
        format!("{mark} {text}")
    }

    fn suggested_move(position: &kifu_shogi::Position, pv: &str) -> Option<SuggestedMove> {
        let mv = *kifu_shogi::notation::pv::moves(position, pv).first()?;
        Some(SuggestedMove {
            text: mv.usi(),
            from: mv.from().map(shogi_cell),
            to: shogi_cell(mv.to()),
        })
    }

    fn in_english(board: &mut Board, scene: &mut Scene) {
        board.rank_labels = ('a'..='i').map(String::from).collect();
        for token in scene.cells.iter_mut().flatten() {
            token.name = western_letter(token.name);
        }
        for (token, _) in scene.hands.iter_mut().flatten() {
            token.name = western_letter(token.name);
        }
    }

    fn scene(position: &kifu_shogi::Position, last: Option<&kifu_shogi::Move>) -> Scene {
        use kifu_shogi::{Color, PieceKind, Square};
        let board = Self::board();
        let mut scene = Scene::empty(&board);
        let index = shogi_cell;
        let token = |color: Color, kind: PieceKind| Token {
            name: match (kind, color) {
                // The upper side's king is 王, the lower side's 玉, as on a real set.
                (PieceKind::King, Color::White) => "王",
                _ => kind.kanji(),
            },
            owner: owner_of(color == Color::Black),
            ink: if kind.is_promoted() {
                Ink::Red
            } else {
                Ink::Black
            },
            shape: Shape::Pentagon,
        };
        for sq in Square::all() {
            if let Some(piece) = position.piece_at(sq) {
                scene.cells[index(sq)] = Some(token(piece.color, piece.kind));
            }
        }
        for (slot, color) in [(0, Color::Black), (1, Color::White)] {
            let hand = position.hand(color);
            for kind in [
                PieceKind::Rook,
                PieceKind::Bishop,
                PieceKind::Gold,
                PieceKind::Silver,
                PieceKind::Knight,
                PieceKind::Lance,
                PieceKind::Pawn,
            ] {
                let count = hand.count(kind);
                if count > 0 {
                    scene.hands[slot].push((token(color, kind), count));
                }
            }
        }
        if let Some(mv) = last {
            if let Some(from) = mv.from() {
                scene.marks.push((index(from), Mark::From));
            }
            scene.marks.push((index(mv.to()), Mark::To));
        }
        scene.to_move = owner_of(position.turn() == Color::Black);
        scene
    }
}

impl Picture for kifu_chu::Chu {
    const POSITION_ATTRIBUTE: &'static str = "data-sfen";

    fn board() -> Board {
        Board {
            files: 12,
            ranks: 12,
            file_labels: numbers_right_to_left(12),
            rank_labels: (0..12)
                .map(|r| kifu_chu::notation::kanji_rank(r).to_string())
                .collect(),
            terrain: Vec::new(),
            hand_columns: 0,
            // Where the fourth lines from each edge cross: the board's thirds.
            hoshi: vec![(4, 4), (8, 4), (4, 8), (8, 8)],
            note_lines: 0,
        }
    }

    fn move_caption(
        before: &kifu_chu::GameState,
        mv: &kifu_chu::Move,
        _previous: Option<&kifu_chu::Move>,
    ) -> String {
        let position = before.position();
        let mark = side_mark(position.turn() == kifu_chu::Color::Black);
        format!("{mark}{}", kifu_chu::notation::japanese(position, *mv))
    }

    fn move_caption_western(before: &kifu_chu::GameState, mv: &kifu_chu::Move) -> String {
        let position = before.position();
        let mark = if position.turn() == kifu_chu::Color::Black {
            '☗'
        } else {
            '☖'
        };
        format!("{mark} {}", kifu_chu::notation::western(position, *mv))
    }

    /// The ranks as letters (a at the top, as the Western notation counts them) and the
    /// pieces by their CSL Western abbreviations.
    fn in_english(board: &mut Board, scene: &mut Scene) {
        board.rank_labels = ('a'..='l').map(String::from).collect();
        for token in scene.cells.iter_mut().flatten() {
            token.name = chu_western_names()
                .iter()
                .find(|(kanji, _)| *kanji == token.name)
                .map_or(token.name, |(_, western)| western);
        }
    }

    fn scene(game: &kifu_chu::GameState, last: Option<&kifu_chu::Move>) -> Scene {
        use kifu_chu::{Color, Square};
        let board = Self::board();
        let mut scene = Scene::empty(&board);
        let position = game.position();
        let index = |sq: Square| sq.rank() as usize * 12 + (12 - sq.file() as usize);
        for (sq, piece) in position.pieces() {
            scene.cells[index(sq)] = Some(Token {
                name: kifu_chu::notation::kif_name(piece),
                owner: owner_of(piece.color == Color::Black),
                ink: if piece.promoted { Ink::Red } else { Ink::Black },
                shape: Shape::Pentagon,
            });
        }
        if let Some(mv) = last {
            scene.marks.push((index(mv.from()), Mark::From));
            if let Some(mid) = mv.mid() {
                scene.marks.push((index(mid), Mark::Via));
            }
            scene.marks.push((index(mv.to()), Mark::To));
        }
        if let Some(sq) = position.counter_strike() {
            scene.marks.push((index(sq), Mark::CounterStrike));
        }
        scene.to_move = owner_of(position.turn() == Color::Black);
        scene
    }
}

/// A shogi piece's Western letter from its kanji (`歩` → `P`, `と` → `+P`, `龍` → `+R`); the
/// kings 玉 and 王 are both `K`. Any other name is kept.
fn western_letter(kanji: &'static str) -> &'static str {
    match kanji {
        "歩" => "P",
        "香" => "L",
        "桂" => "N",
        "銀" => "S",
        "金" => "G",
        "角" => "B",
        "飛" => "R",
        "玉" | "王" => "K",
        "と" => "+P",
        "杏" => "+L",
        "圭" => "+N",
        "全" => "+S",
        "馬" => "+B",
        "龍" => "+R",
        other => other,
    }
}

/// Each chu piece's kanji name (as [`Picture::scene`] writes it) with its Western
/// abbreviation, built once.
fn chu_western_names() -> &'static [(&'static str, &'static str)] {
    static NAMES: std::sync::OnceLock<Vec<(&'static str, &'static str)>> =
        std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        use kifu_chu::{Color, Kind, Piece};
        let mut names = Vec::new();
        for kind in Kind::ALL {
            for promoted in [false, true] {
                let piece = Piece::new(Color::Black, kind, promoted);
                names.push((
                    kifu_chu::notation::kif_name(piece),
                    kifu_chu::notation::western_name(kind),
                ));
            }
        }
        names
    })
}

/// The professions' names, in `Profession::ALL` order.
const PROFESSIONS: [&str; 10] = ["船", "兵", "弓", "車", "虎", "馬", "筆", "巫", "将", "王"];
const SEASONS: [&str; 4] = ["春", "夏", "秋", "冬"];
const SEASONS_EN: [&str; 4] = ["Spring", "Summer", "Autumn", "Winter"];
/// The professions by the letters of cerke_noter's machine-readable notation (V, P, A …), in
/// the order of [`PROFESSIONS`].
const PROFESSIONS_EN: [&str; 10] = ["V", "P", "A", "C", "T", "H", "O", "S", "G", "K"];

impl Picture for kifu_cetkaik::Cetkaik {
    const POSITION_ATTRIBUTE: &'static str = "data-position";

    fn board() -> Board {
        use kifu_cetkaik::Square;
        let mut terrain = Vec::new();
        for sq in Square::all() {
            if sq.is_water() {
                terrain.push((sq.index(), Terrain::Water));
            }
            if sq.is_inherent_tam_hue() {
                terrain.push((sq.index(), Terrain::TamHue));
            }
            if sq.column() == 4 && sq.row() == 4 {
                terrain.push((sq.index(), Terrain::Palace));
            }
        }
        let row = |r: u8| Square::new(0, r).map_or("", |s| s.row_name()).to_string();
        let column = |c: u8| {
            Square::new(c, 0)
                .map_or("", |s| s.column_name())
                .to_string()
        };
        Board {
            files: 9,
            ranks: 9,
            file_labels: (0..9).map(column).collect(),
            rank_labels: (0..9).map(row).collect(),
            terrain,
            hand_columns: 2,
            // Its terrain marks the board; it has no star points.
            hoshi: Vec::new(),
            // The season and scores, and the last move's stick throw.
            note_lines: 2,
        }
    }

    fn scene(state: &kifu_cetkaik::MatchState, last: Option<&kifu_cetkaik::Event>) -> Scene {
        use kifu_cetkaik::{Color, Piece, Profession, Side as CetSide, Square, Throw};
        let board = Self::board();
        let mut scene = Scene::empty(&board);
        let position = state.position();
        let ink = |color: Color| match color {
            Color::Black => Ink::Black,
            Color::Red => Ink::Red,
        };
        let token = |color: Color, prof: Profession, side: CetSide| Token {
            name: PROFESSIONS[prof.index()],
            owner: owner_of(side == CetSide::IASide),
            ink: ink(color),
            shape: Shape::Tile,
        };
        for sq in Square::all() {
            scene.cells[sq.index()] = match position.get(sq) {
                None => None,
                Some(Piece::Tam) => Some(Token {
                    name: "皇",
                    owner: Owner::Neutral,
                    ink: Ink::Gold,
                    shape: Shape::Disc,
                }),
                Some(Piece::Owned { color, prof, side }) => Some(token(color, prof, side)),
            };
        }
        for (slot, side) in [(0, CetSide::IASide), (1, CetSide::ASide)] {
            let held = position.hop1zuo1(side);
            for color in Color::ALL {
                for prof in Profession::ALL {
                    let count = held.count(color, prof);
                    if count > 0 {
                        scene.hands[slot].push((token(color, prof, side), count));
                    }
                }
            }
        }
        if let Some(kifu_cetkaik::Event::Move { mv, throws, .. }) = last {
            use kifu_cetkaik::PureMove::*;
            let (from, via, to) = match *mv {
                Plain { src, dst } => (Some(src), vec![], dst),
                StepFinite { src, step, dst } | StepRanged { src, step, dst } => {
                    (Some(src), vec![step], dst)
                }
                Drop { dst, .. } => (None, vec![], dst),
                TamNoStep { src, first, second } => (Some(src), vec![first], second),
                TamStepFormer {
                    src,
                    step,
                    first,
                    second,
                }
                | TamStepLatter {
                    src,
                    first,
                    step,
                    second,
                } => (Some(src), vec![step, first], second),
            };
            if let Some(from) = from {
                scene.marks.push((from.index(), Mark::From));
            }
            for sq in via {
                scene.marks.push((sq.index(), Mark::Via));
            }
            scene.marks.push((to.index(), Mark::To));
            let throw = |t: Throw| match t {
                Throw::Count(n) => n.to_string(),
                Throw::UnknownSuccess => "?".to_string(),
                Throw::UnknownFailure => "? (failed)".to_string(),
            };
            let mut sticks = Vec::new();
            if let Some(t) = throws.bridge {
                sticks.push(format!(
                    "bridge {}{}",
                    throw(t),
                    if throws.bridge_void { " (void)" } else { "" }
                ));
            }
            if let Some(t) = throws.water {
                sticks.push(format!("water {}", throw(t)));
            }
            if !sticks.is_empty() {
                scene.notes.push(format!("sticks: {}", sticks.join(", ")));
            }
        }
        let season = SEASONS.get(state.season() as usize).copied().unwrap_or("?");
        scene.notes.insert(
            0,
            format!(
                "{season} season {} · IA {} · A {} · rate x{}",
                state.season() + 1,
                state.score(CetSide::IASide),
                state.score(CetSide::ASide),
                state.rate()
            ),
        );
        scene.to_move = owner_of(state.turn() == CetSide::IASide);
        scene
    }

    /// The throw of the sticks (裁) the last move needed, the bridge's and the water's
    /// (入水), and the season with both scores: `裁 4 入水 2 春 IA 20 対 A 20`, or in English
    /// `bridge 4 water 2 Spring IA 20 vs A 20`.
    fn caption_extras(
        state: &kifu_cetkaik::MatchState,
        last: Option<&kifu_cetkaik::Event>,
        lang: crate::Lang,
    ) -> Vec<String> {
        let en = lang == crate::Lang::En;
        use kifu_cetkaik::{Side as CetSide, Throw};
        let mut extras = Vec::new();
        let throw = |t: Throw| match t {
            Throw::Count(n) => n.to_string(),
            Throw::UnknownSuccess | Throw::UnknownFailure => "?".to_string(),
        };
        if let Some(kifu_cetkaik::Event::Move { throws, .. }) = last {
            if let Some(t) = throws.bridge {
                extras.push(format!("{} {}", if en { "bridge" } else { "裁" }, throw(t)));
            }
            if let Some(t) = throws.water {
                extras.push(format!(
                    "{} {}",
                    if en { "water" } else { "入水" },
                    throw(t)
                ));
            }
        }
        let season = state.season() as usize;
        let (season, versus) = if en {
            (SEASONS_EN.get(season).copied().unwrap_or("?"), "vs")
        } else {
            (SEASONS.get(season).copied().unwrap_or("?"), "対")
        };
        extras.push(format!(
            "{season} IA {} {versus} A {}",
            state.score(CetSide::IASide),
            state.score(CetSide::ASide)
        ));
        extras
    }

    fn bottom_player(state: &kifu_cetkaik::MatchState) -> Side {
        kifu_cetkaik::game::record_side(state, kifu_cetkaik::Side::IASide)
    }

    /// A move in Latin letters for an English caption: the profession's letter (`Tam` for
    /// 皇), its square, the squares it passes and where it ends (`V ZAU-ZAI-ZO`); a drop as
    /// `P*KA`; the declarations by their readings (`ty mok1`, `ta xot1`).
    fn move_caption_western(
        before: &kifu_cetkaik::MatchState,
        event: &kifu_cetkaik::Event,
    ) -> String {
        use kifu_cetkaik::{Event, Piece, PureMove::*, Square};
        let name = |sq: Square| format!("{}{}", sq.column_name(), sq.row_name());
        let letter = |sq: Square| match before.position().get(sq) {
            Some(Piece::Tam) => "Tam",
            Some(Piece::Owned { prof, .. }) => PROFESSIONS_EN[prof.index()],
            None => "?",
        };
        match event {
            Event::Declare { declaration, .. } => match declaration {
                kifu_cetkaik::Declaration::TyMok => "ty mok1".to_owned(),
                kifu_cetkaik::Declaration::TaXot => "ta xot1".to_owned(),
            },
            Event::Move { mv, .. } => {
                let (src, squares) = match *mv {
                    Drop { prof, dst, .. } => {
                        return format!("{}*{}", PROFESSIONS_EN[prof.index()], name(dst));
                    }
                    Plain { src, dst } => (src, vec![dst]),
                    StepFinite { src, step, dst } | StepRanged { src, step, dst } => {
                        (src, vec![step, dst])
                    }
                    TamNoStep { src, first, second } => (src, vec![first, second]),
                    TamStepFormer {
                        src,
                        step,
                        first,
                        second,
                    } => (src, vec![step, first, second]),
                    TamStepLatter {
                        src,
                        first,
                        step,
                        second,
                    } => (src, vec![first, step, second]),
                };
                let path: Vec<String> = std::iter::once(src).chain(squares).map(name).collect();
                format!("{} {}", letter(src), path.join("-"))
            }
        }
    }

    /// The professions by their letters (V, P, A …, as cerke_noter's notation writes them),
    /// the tam as `Tam`, and the season in English.
    fn in_english(_board: &mut Board, scene: &mut Scene) {
        let letter = |name: &'static str| {
            if name == "皇" {
                return "Tam";
            }
            PROFESSIONS
                .iter()
                .position(|p| *p == name)
                .map_or(name, |i| PROFESSIONS_EN[i])
        };
        for token in scene.cells.iter_mut().flatten() {
            token.name = letter(token.name);
        }
        for (token, _) in scene.hands.iter_mut().flatten() {
            token.name = letter(token.name);
        }
        for note in &mut scene.notes {
            for (ja, en) in SEASONS.iter().zip(SEASONS_EN) {
                if let Some(rest) = note.strip_prefix(ja) {
                    *note = format!("{en}{rest}");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_name_of_every_game_is_in_the_font() {
        use kifu_chu::{Color, Kind, Piece};
        let mut names: Vec<&str> = PROFESSIONS.to_vec();
        names.extend(SEASONS);
        names.push("皇");
        for kind in Kind::ALL {
            for promoted in [false, true] {
                names.push(kifu_chu::notation::kif_name(Piece::new(
                    Color::Black,
                    kind,
                    promoted,
                )));
            }
        }
        names.push("王");
        for label in kifu_chu::Chu::board().rank_labels {
            assert!(crate::font::covers(&label), "{label}");
        }
        let start = kifu_shogi::Shogi::start_position(&Default::default());
        let scene = kifu_shogi::Shogi::scene(&start, None);
        names.extend(scene.cells.iter().flatten().map(|t| t.name));
        for name in names {
            assert!(
                crate::font::covers(name),
                "{name} is not in the embedded font"
            );
        }
    }

    #[test]
    fn a_lion_double_move_marks_three_squares_and_cetkaik_marks_its_board() {
        use kifu_chu::{Chu, Move, Square};
        let state = Chu::start_position(&kifu_chu::Position::startpos());
        let sq = |f, r| Square::new(f, r).unwrap();
        let mv = Move::double(sq(6, 8), sq(6, 7), sq(6, 6));
        let marks: Vec<Mark> = Chu::scene(&state, Some(&mv))
            .marks
            .iter()
            .map(|m| m.1)
            .collect();
        assert_eq!(marks, [Mark::From, Mark::Via, Mark::To]);

        let board = kifu_cetkaik::Cetkaik::board();
        let count = |t: Terrain| board.terrain.iter().filter(|x| x.1 == t).count();
        assert_eq!(
            (
                count(Terrain::Water),
                count(Terrain::TamHue),
                count(Terrain::Palace)
            ),
            (9, 9, 1)
        );
        let start = kifu_cetkaik::Cetkaik::start_position(&Default::default());
        let scene = kifu_cetkaik::Cetkaik::scene(&start, None);
        assert_eq!(scene.cells.iter().flatten().count(), 49, "48 pieces and 皇");
        assert!(scene.notes[0].starts_with("春"), "{:?}", scene.notes);
    }

    #[test]
    fn a_picture_in_english_has_western_letters_labels_and_caption() {
        use kifu_record::{Record, Span};
        use kifu_shogi::{Move, Shogi, Square};
        let sq = |f, r| Square::new(f, r).unwrap();
        let mut record: Record<Shogi> = Record::new(Default::default());
        let first = record.moves.add_move(
            record.moves.root(),
            Move::normal(sq(7, 7), sq(7, 6), false),
            Span::default(),
        );
        let start = record.position_at(record.moves.root());
        assert_eq!(
            Shogi::move_caption_western(&start, &Move::normal(sq(7, 7), sq(7, 6), false)),
            "☗ P7g-7f"
        );
        assert_eq!(
            crate::caption::caption_in(
                &record,
                first,
                Some((&start, &Move::normal(sq(7, 7), sq(7, 6), false))),
                None,
                crate::Lang::En
            ),
            "Move 1 ☗ P7g-7f"
        );
        let glyph = |c: char| format!("href=\"#g{:x}\"", c as u32);
        let options = |lang| crate::Options {
            caption: true,
            lang,
            ..Default::default()
        };
        let english = crate::svg(&record, first, &options(crate::Lang::En));
        let japanese = crate::svg(&record, first, &options(crate::Lang::Ja));
        for c in ['P', 'a', 'i', 'K', 'M'] {
            assert!(english.contains(&glyph(c)), "{c} in English");
        }
        for c in ['歩', '一', '手', '先', '▲'] {
            assert!(!english.contains(&glyph(c)), "no {c} in English");
            assert!(japanese.contains(&glyph(c)), "{c} in Japanese");
        }
    }

    #[test]
    fn a_chu_picture_in_english_names_its_pieces_in_letters() {
        use kifu_chu::Chu;
        let start = Chu::start_position(&kifu_chu::Position::startpos());
        let (mut board, mut scene) = (Chu::board(), Chu::scene(&start, None));
        Chu::in_english(&mut board, &mut scene);
        let names: Vec<&str> = scene.cells.iter().flatten().map(|t| t.name).collect();
        assert_eq!(names.len(), 92);
        assert!(names.iter().all(|n| n.is_ascii()), "{names:?}");
        assert!(names.contains(&"Ln") && names.contains(&"K") && names.contains(&"GB"));
        assert_eq!(board.rank_labels.first().map(String::as_str), Some("a"));
    }
}
