//! What an export needs to know of a record beyond its moves: players, ratings, date, result
//! and ending of the game, and the evaluation, principal variation and time of each move.

use kifu_record::{
    Comment, CommentKind, EndingKind, Game, GameEnding, Header, HeaderField, Node, NodeId,
    NodeItem, Outcome, Record, Side,
};

/// The evaluation written for a won game when an engine line says "mate" (the CSA standard
/// recommends ±30000 for a won game).
pub const MATE_SCORE: i32 = 30_000;

/// The game-level facts of one record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// A `GAME_ID` header if the record has one, else its event (floodgate writes the game's
    /// id as `$EVENT`).
    pub game_id: Option<String>,
    /// The first player's name.
    pub black: Option<String>,
    /// The second player's name.
    pub white: Option<String>,
    /// The first player's rating, from floodgate's `'black_rate:NAME:RATING` line.
    pub black_rate: Option<f64>,
    /// The second player's rating, from floodgate's `'white_rate:NAME:RATING` line.
    pub white_rate: Option<f64>,
    /// When the game started, as written.
    pub date: Option<String>,
    /// When the game started, read from [`GameInfo::date`]: milliseconds since
    /// 1970-01-01T00:00 of the clock it was written in (no time zone is written, so none is
    /// assumed); midnight when only the day is written.
    pub date_ms: Option<i64>,
    /// The event (`$EVENT`, 棋戦).
    pub event: Option<String>,
    /// The time control as written.
    pub time_control: Option<String>,
    /// The named start (shogi's 平手, 香落ち …; [`Game::start_name`]).
    pub handicap: Option<String>,
    /// The result the record states.
    pub result: Option<Side>,
    /// Whether the record states a draw.
    pub draw: bool,
    /// The ending, as [`EndingClass`].
    pub ending: EndingClass,
    /// The ending in words, if the record has one.
    pub ending_text: Option<String>,
}

impl GameInfo {
    /// Sets [`GameInfo::result`] and [`GameInfo::draw`] from an outcome.
    pub fn set_outcome(&mut self, outcome: Outcome) {
        (self.result, self.draw) = match outcome {
            Outcome::Win(side) => (Some(side), false),
            Outcome::Draw => (None, true),
            Outcome::None => (None, false),
        };
    }
}

/// Endings grouped as training pipelines filter them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EndingClass {
    /// Resignation (`%TORYO`, 投了).
    Resign,
    /// Checkmate (`%TSUMI`, 詰み).
    Checkmate,
    /// Repetition (`%SENNICHITE`, 千日手).
    Repetition,
    /// A declaration, impasse or try (`%KACHI`, `%HIKIWAKE`, `%JISHOGI`).
    Declaration,
    /// The move limit (`%MAX_MOVES`).
    MaxMoves,
    /// A loss on time (`%TIME_UP`).
    TimeUp,
    /// Interrupted (`%CHUDAN`).
    Abort,
    /// An illegal move or action ended the game (`%ILLEGAL_MOVE`, `%±ILLEGAL_ACTION`, 反則).
    Illegal,
    /// Any other ending (a stated result, a default, `%ERROR` …).
    Other,
    /// No ending written.
    #[default]
    None,
}

impl EndingClass {
    /// Every class, by its name.
    pub const ALL: [(&'static str, EndingClass); 10] = [
        ("resign", EndingClass::Resign),
        ("checkmate", EndingClass::Checkmate),
        ("repetition", EndingClass::Repetition),
        ("declaration", EndingClass::Declaration),
        ("max-moves", EndingClass::MaxMoves),
        ("time-up", EndingClass::TimeUp),
        ("abort", EndingClass::Abort),
        ("illegal", EndingClass::Illegal),
        ("other", EndingClass::Other),
        ("none", EndingClass::None),
    ];

    /// The class of an ending.
    pub fn of<E>(kind: &EndingKind<E>) -> EndingClass {
        use EndingKind::*;
        match kind {
            Resign => EndingClass::Resign,
            Checkmate => EndingClass::Checkmate,
            Repetition => EndingClass::Repetition,
            Game(_) => EndingClass::Declaration,
            MaxMoves => EndingClass::MaxMoves,
            TimeLoss => EndingClass::TimeUp,
            Abort => EndingClass::Abort,
            IllegalMoveWin | IllegalMoveLoss | IllegalAction(_) => EndingClass::Illegal,
            _ => EndingClass::Other,
        }
    }

    /// The name users type (`time-up`).
    pub fn name(self) -> &'static str {
        EndingClass::ALL
            .iter()
            .find(|(_, class)| *class == self)
            .map_or("none", |(name, _)| name)
    }
}

impl std::fmt::Display for EndingClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`EndingClass`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is no ending (one of: resign, checkmate, repetition, declaration, max-moves, time-up, abort, illegal, other, none)"
)]
pub struct UnknownEnding(pub String);

impl std::str::FromStr for EndingClass {
    type Err = UnknownEnding;

    fn from_str(s: &str) -> Result<EndingClass, UnknownEnding> {
        EndingClass::ALL
            .iter()
            .find(|(name, _)| *name == s)
            .map(|(_, class)| *class)
            .ok_or_else(|| UnknownEnding(s.to_owned()))
    }
}

/// Reads a record's game-level facts.
///
/// ```
/// use kifu_export::meta::{game_info, EndingClass};
/// use kifu_records::GameRecords;
/// use kifu_shogi::Shogi;
///
/// let text = "N+sente\nN-gote\n'black_rate:sente:2500.5\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
/// let read = Shogi::format_by_name("csa").unwrap().records(text).next().unwrap();
/// let info = game_info(&read.record);
/// assert_eq!(info.black.as_deref(), Some("sente"));
/// assert_eq!(info.black_rate, Some(2500.5));
/// assert_eq!(info.white_rate, None);
/// assert_eq!(info.ending, EndingClass::Resign);
/// ```
pub fn game_info<G: Game>(record: &Record<G>) -> GameInfo
where
    G::Ending: GameEnding,
{
    let mut info = game_facts(record);
    info.set_outcome(record.outcome());
    info
}

/// The record's game-level facts but its result ([`GameInfo::result`] `None`, `draw` false):
/// the result may need the position at the end of the game, which [`outcome_after`] takes
/// from a replay the caller makes anyway, rather than replaying the game a second time as
/// [`game_info`] does.
pub fn game_facts<G: Game>(record: &Record<G>) -> GameInfo
where
    G::Ending: GameEnding,
{
    let tree = &record.moves;
    let comments = std::iter::once(tree.root())
        .chain(tree.main_line())
        .flat_map(|id| tree[id].comments());
    let ending = record.ending();
    facts_of_parts(
        &record.header,
        G::start_name(&record.start),
        comments,
        ending.as_ref().map(|e| &e.kind),
    )
}

/// [`game_facts`] from a record's parts, for a caller that read them without building the
/// record (an index reading main lines): the header, the start's name, the comments of the
/// start and of the main line in order, and the main line's ending.
pub fn facts_of_parts<'c, E: GameEnding>(
    header: &Header,
    handicap: Option<String>,
    comments: impl IntoIterator<Item = &'c Comment>,
    ending: Option<&EndingKind<E>>,
) -> GameInfo {
    let text = |field| header.get(field).map(str::to_owned);
    let mut info = GameInfo {
        game_id: header
            .get_key("GAME_ID")
            .map(str::to_owned)
            .or_else(|| text(HeaderField::Event)),
        black: text(HeaderField::FirstPlayer),
        white: text(HeaderField::SecondPlayer),
        date: text(HeaderField::StartTime),
        date_ms: header.start_time().map(|d| {
            let (h, m, s) = d.time.unwrap_or((0, 0, 0));
            let days = days_from_civil(i64::from(d.year), i64::from(d.month), i64::from(d.day));
            ((days * 24 + i64::from(h)) * 60 + i64::from(m)) * 60_000 + i64::from(s) * 1000
        }),
        event: text(HeaderField::Event),
        time_control: text(HeaderField::TimeControl),
        handicap,
        ..GameInfo::default()
    };
    for comment in comments {
        if comment.kind != CommentKind::Hidden {
            continue;
        }
        let rating = |value: &str| value.rsplit_once(':')?.1.trim().parse().ok();
        if let Some(value) = comment.text.strip_prefix("black_rate:") {
            info.black_rate = rating(value);
        } else if let Some(value) = comment.text.strip_prefix("white_rate:") {
            info.white_rate = rating(value);
        }
    }
    if let Some(kind) = ending {
        info.ending = EndingClass::of(kind);
        info.ending_text = Some(kind.to_string());
    }
    info
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// [`Record::outcome`], given what [`Record::walk_main_line`] returned: the last move it
/// played and the position after it. When the walk played the whole main line that is the
/// position `outcome` would replay to; otherwise (a move refused on the way) this asks
/// `outcome` itself.
pub fn outcome_after<G: Game>(record: &Record<G>, last: NodeId, end: &G::Position) -> Outcome
where
    G::Ending: GameEnding,
{
    let tree = &record.moves;
    let line_end = tree.main_line_end();
    let last_move = match &tree[line_end].item {
        NodeItem::End(_) => tree.parent(line_end).unwrap_or(tree.root()),
        _ => line_end,
    };
    if last_move != last {
        return record.outcome();
    }
    match tree[line_end].ending() {
        Some(ending) => ending.kind.outcome(G::turn(end)),
        None => G::outcome(end).unwrap_or(Outcome::None),
    }
}

/// The result as result tags write it: `1-0`, `0-1`, `1/2-1/2` or `*`.
pub fn result_tag(info: &GameInfo) -> &'static str {
    match (info.result, info.draw) {
        (Some(Side::First), _) => "1-0",
        (Some(Side::Second), _) => "0-1",
        (None, true) => "1/2-1/2",
        (None, false) => "*",
    }
}

/// The engine's evaluation of the position after a move, from the first player's point of
/// view (a mate counts ±[`MATE_SCORE`]), and its principal variation as written, in any of the
/// four comment dialects ([`kifu_record::evaluation`]): an analysis's when the move has one,
/// else the last search its comments report — one line in CSA (`'** 30 -3334FU`), several in
/// the lines ShogiHome writes into KIF (`*#評価値=30`, `*#読み筋=△３四歩`).
pub fn engine_line<M, E>(node: &Node<M, E>) -> Option<(Option<i32>, String)> {
    let found = kifu_record::evaluation::evaluation(node.comments())?;
    Some((found.centipawns(MATE_SCORE), found.pv))
}
