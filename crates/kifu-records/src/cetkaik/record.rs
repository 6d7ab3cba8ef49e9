//! A CKKA file as written: header items, the names line and body elements with spans.
//! Nothing here is resolved against the rules; see [`replay`](fn@crate::cetkaik::replay).

use kifu_cetkaik::match_state::Declaration;
pub use kifu_cetkaik::notation::written::{Abbrev, Count, MoveNote, StickNote, TamNote};
use kifu_cetkaik::profession::{Color, Profession};
use kifu_cetkaik::yaku::Hand;
use kifu_record::Span;

/// The notations of the CKKA draft.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Notation {
    /// ⓪ full kanji form with explicit stick results.
    Full,
    /// ① abbreviated kanji form.
    Abbreviated,
    /// ② pekzep phonetic form.
    Phonetic,
    /// ③ cerke_noter machine-readable strings.
    Mrf,
}

/// `{key:value}` or `{value}` (an empty key counts as no key).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct InfoItem {
    /// The key before `:` (`None` for a bare value).
    pub key: Option<String>,
    /// The value.
    pub value: String,
    /// Where the item is written.
    pub span: Span,
}

/// One `[name]score` entry.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NameEntry {
    /// The player's name.
    pub name: String,
    /// The score written after it.
    pub score: Option<i32>,
}

/// `[name]score [name]score`: the first player, then the second.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NamesLine {
    /// The first player (who moves first in the first season).
    pub first: NameEntry,
    /// The second player.
    pub second: NameEntry,
    /// Where the line is written.
    pub span: Span,
}

impl NamesLine {
    /// Scores with the inference rules: both omitted → 20/20, one omitted → 40 − the other.
    pub fn scores(&self) -> (i32, i32) {
        match (self.first.score, self.second.score) {
            (Some(a), Some(b)) => (a, b),
            (Some(a), None) => (a, 40 - a),
            (None, Some(b)) => (40 - b, b),
            (None, None) => (20, 20),
        }
    }
}

/// Who a hand line names.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Who {
    /// By name (`[name]為…`).
    Named(String),
    /// `或為…`: the previous move tells.
    Unknown,
}

/// A hand line: who made which hands, and the score it says (`[name]為獣加同色馬弓兵 再行`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct HandLine {
    /// Who made the hands.
    pub who: Who,
    /// The hands named.
    pub hands: Vec<Hand>,
    /// The score written (`而手N`).
    pub score: Option<i32>,
    /// `再行`/`終季` written inside the line (2020 syntax).
    pub declaration: Option<Declaration>,
}

/// What one element of a CKKA body is.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ElementKind {
    /// A move, with the comments written after it.
    Move {
        /// The move as written.
        note: MoveNote,
        /// Its comments (`{…}`).
        comments: Vec<String>,
    },
    /// `手馬`, `手黒馬`.
    Capture {
        /// The colour, when written.
        color: Option<Color>,
        /// The profession taken.
        prof: Profession,
    },
    /// A hand line.
    HandLine(HandLine),
    /// `再行` or `終季` on its own.
    Declaration(Declaration),
    /// `手二十` after `終季` (2020 syntax, example 2).
    SeasonScore(i32),
    /// `春終` … `冬終`, `上季終`, `下季終`.
    SeasonEnd(String),
    /// `星一周`.
    GameEnd,
    /// `[name]score [name]score` after the body.
    FinalTally(NamesLine),
}

/// One element of a CKKA body with its place in the text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Element {
    /// What it is.
    pub kind: ElementKind,
    /// Where it is written.
    pub span: Span,
}

/// A parsed CKKA file.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct CkkaRecord {
    /// The header items.
    pub items: Vec<InfoItem>,
    /// The names line.
    pub names: Option<NamesLine>,
    /// The body: moves, captures, hand lines, declarations, season ends.
    pub body: Vec<Element>,
    /// The notation the moves were written in, when any move tells.
    pub notation: Option<Notation>,
    /// The rule set named outside the header items (kifu's JSON `rules` field); a `{律:…}` item
    /// still takes precedence.
    pub rules: Option<kifu_cetkaik::rules::Rules>,
}

impl CkkaRecord {
    /// The value of the first `{key:…}` item.
    pub fn info(&self, key: &str) -> Option<&str> {
        self.items
            .iter()
            .find(|i| i.key.as_deref() == Some(key))
            .map(|i| i.value.as_str())
    }

    /// The notation of the moves (the first move that tells).
    pub fn notation(&self) -> Notation {
        self.notation.unwrap_or(Notation::Full)
    }
}
