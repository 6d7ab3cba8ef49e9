//! The game information at the top of a record, in the order it was written.
//!
//! Every entry keeps its key as written (`先手`, `下手`, `N+`, `$EVENT` …) so a writer of
//! the same format can put it back unchanged; well-known keys are also recognised as a
//! [`HeaderField`], which is how converters find "the first player's name" whatever the
//! source format called it.

use crate::Span;

/// The meaning of a well-known header key, shared by every game and format. Each format keeps
/// its own key beside it (`先手`, `N+`, `Black`, `[name]` …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeaderField {
    /// The player who moves first (shogi 先手 / 下手 / CSA `N+`, chu `Black`).
    FirstPlayer,
    /// The other player (shogi 後手 / 上手 / CSA `N-`, chu `White`).
    SecondPlayer,
    /// The first player's short name (KIF 先手省略名).
    FirstPlayerShort,
    /// The second player's short name (KIF 後手省略名).
    SecondPlayerShort,
    /// The tournament or event (棋戦, `$EVENT`, `Event`).
    Event,
    /// Where the game was played (場所, `$SITE`, `Site`).
    Site,
    /// When the game started (開始日時, 対局日, `$START_TIME`, `Date`).
    StartTime,
    /// When the game ended (終了日時, `$END_TIME`).
    EndTime,
    /// The time control (持ち時間, `$TIME_LIMIT`, `$TIME`; see [`crate::TimeControl`]).
    TimeControl,
    /// The first player's own time control (CSA V3.0 `$TIME+`).
    FirstTimeControl,
    /// The second player's own time control (CSA V3.0 `$TIME-`).
    SecondTimeControl,
    /// The opening played (戦型, `$OPENING`).
    Opening,
    /// The named start that gives pieces away (手合割).
    Handicap,
    /// A title (表題).
    Title,
    /// A note (備考, `$NOTE`).
    Note,
    /// The move limit (`$MAX_MOVES`).
    MaxMoves,
    /// The rule set or rule options of the game (CSA `$JISHOGI` for shogi's entering-king
    /// rule, a cetkaik record's rule set).
    Rules,
}

impl HeaderField {
    /// Every field, in declaration order.
    pub const ALL: [HeaderField; 17] = [
        HeaderField::FirstPlayer,
        HeaderField::SecondPlayer,
        HeaderField::FirstPlayerShort,
        HeaderField::SecondPlayerShort,
        HeaderField::Event,
        HeaderField::Site,
        HeaderField::StartTime,
        HeaderField::EndTime,
        HeaderField::TimeControl,
        HeaderField::FirstTimeControl,
        HeaderField::SecondTimeControl,
        HeaderField::Opening,
        HeaderField::Handicap,
        HeaderField::Title,
        HeaderField::Note,
        HeaderField::MaxMoves,
        HeaderField::Rules,
    ];

    /// A stable snake-case name for machines (`first_player`), as `--json` and the Python
    /// package use it.
    pub fn name(self) -> &'static str {
        match self {
            HeaderField::FirstPlayer => "first_player",
            HeaderField::SecondPlayer => "second_player",
            HeaderField::FirstPlayerShort => "first_player_short",
            HeaderField::SecondPlayerShort => "second_player_short",
            HeaderField::Event => "event",
            HeaderField::Site => "site",
            HeaderField::StartTime => "start_time",
            HeaderField::EndTime => "end_time",
            HeaderField::TimeControl => "time_control",
            HeaderField::FirstTimeControl => "first_time_control",
            HeaderField::SecondTimeControl => "second_time_control",
            HeaderField::Opening => "opening",
            HeaderField::Handicap => "handicap",
            HeaderField::Title => "title",
            HeaderField::Note => "note",
            HeaderField::MaxMoves => "max_moves",
            HeaderField::Rules => "rules",
        }
    }
}

impl std::fmt::Display for HeaderField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no [`HeaderField`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a header field")]
pub struct UnknownHeaderField(pub String);

impl std::str::FromStr for HeaderField {
    type Err = UnknownHeaderField;

    fn from_str(s: &str) -> Result<HeaderField, UnknownHeaderField> {
        HeaderField::ALL
            .into_iter()
            .find(|field| field.name() == s)
            .ok_or_else(|| UnknownHeaderField(s.to_owned()))
    }
}

/// One `key: value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderEntry {
    /// The key as written, without format punctuation (`先手`, `N+`, `EVENT`).
    pub key: String,
    /// The value, trimmed.
    pub value: String,
    /// The recognised meaning of `key`, if it is well known.
    pub field: Option<HeaderField>,
    /// The whole line.
    pub span: Span,
}

/// All header entries of a record, in source order; duplicates are kept.
///
/// ```
/// use kifu_record::{Header, HeaderField};
///
/// let mut header = Header::new();
/// header.push_field(HeaderField::FirstPlayer, "先手", "羽生善治");
/// header.push_field(HeaderField::Event, "棋戦", "名人戦");
/// assert_eq!(header.get(HeaderField::FirstPlayer), Some("羽生善治"));
/// assert_eq!(header.get_key("棋戦"), Some("名人戦"));
/// assert_eq!("first_player".parse::<HeaderField>().unwrap(), HeaderField::FirstPlayer);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    entries: Vec<HeaderEntry>,
}

impl Header {
    /// A header without entries.
    pub fn new() -> Header {
        Header::default()
    }

    /// Appends an entry as read.
    pub fn push(&mut self, entry: HeaderEntry) {
        self.entries.push(entry);
    }

    /// Adds a well-known field under the key a writer of the target format would use.
    pub fn push_field(&mut self, field: HeaderField, key: &str, value: impl Into<String>) {
        self.entries.push(HeaderEntry {
            key: key.to_owned(),
            value: value.into(),
            field: Some(field),
            span: Span::default(),
        });
    }

    /// The entries in source order.
    pub fn entries(&self) -> &[HeaderEntry] {
        &self.entries
    }

    /// True when some entry is a field kifu knows ([`HeaderEntry::field`]): a header of
    /// unknown keys alone does not make a game.
    pub fn has_known_field(&self) -> bool {
        self.entries.iter().any(|entry| entry.field.is_some())
    }

    /// The entries, to edit or reorder.
    pub fn entries_mut(&mut self) -> &mut Vec<HeaderEntry> {
        &mut self.entries
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The first entry with this meaning.
    pub fn entry(&self, field: HeaderField) -> Option<&HeaderEntry> {
        self.entries.iter().find(|e| e.field == Some(field))
    }

    /// The value of the first entry with this meaning.
    pub fn get(&self, field: HeaderField) -> Option<&str> {
        self.entry(field).map(|e| e.value.as_str())
    }

    /// The value of the first entry whose key is exactly `key`.
    pub fn get_key(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|e| e.key == key)
            .map(|e| e.value.as_str())
    }

    /// Sets the value of the first entry with this meaning, or appends one under `key`.
    pub fn set(&mut self, field: HeaderField, key: &str, value: impl Into<String>) {
        let value = value.into();
        match self.entries.iter_mut().find(|e| e.field == Some(field)) {
            Some(e) => e.value = value,
            None => self.push_field(field, key, value),
        }
    }

    /// Removes every entry with this meaning.
    pub fn remove(&mut self, field: HeaderField) {
        self.entries.retain(|e| e.field != Some(field));
    }

    /// The start date and time, when it parses (see [`crate::DateTime::parse`]).
    pub fn start_time(&self) -> Option<crate::DateTime> {
        self.get(HeaderField::StartTime)
            .and_then(crate::DateTime::parse)
    }

    /// The end date and time, when it parses (see [`crate::DateTime::parse`]).
    pub fn end_time(&self) -> Option<crate::DateTime> {
        self.get(HeaderField::EndTime)
            .and_then(crate::DateTime::parse)
    }

    /// The time control, when it is in a form [`crate::TimeControl::parse`] understands.
    pub fn time_control(&self) -> Option<crate::TimeControl> {
        self.entries
            .iter()
            .filter(|e| e.field == Some(HeaderField::TimeControl))
            .find_map(|e| crate::TimeControl::parse(&e.value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str, value: &str, field: Option<HeaderField>) -> HeaderEntry {
        HeaderEntry {
            key: key.into(),
            value: value.into(),
            field,
            span: Span::new(0, 1),
        }
    }

    #[test]
    fn order_and_unknown_keys_are_kept() {
        let mut h = Header::new();
        h.push(entry("下手", "Alice", Some(HeaderField::FirstPlayer)));
        h.push(entry("記録係", "Bob", None));
        h.push(entry("上手", "Carol", Some(HeaderField::SecondPlayer)));
        let keys: Vec<_> = h.entries().iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["下手", "記録係", "上手"]);
        assert_eq!(h.get(HeaderField::FirstPlayer), Some("Alice"));
        assert_eq!(h.get(HeaderField::SecondPlayer), Some("Carol"));
        assert_eq!(h.get_key("記録係"), Some("Bob"));
        assert_eq!(h.get(HeaderField::Event), None);
    }

    #[test]
    fn set_replaces_or_appends() {
        let mut h = Header::new();
        h.set(HeaderField::Event, "棋戦", "A");
        h.set(HeaderField::Event, "棋戦", "B");
        assert_eq!(h.len(), 1);
        assert_eq!(h.get(HeaderField::Event), Some("B"));
        h.remove(HeaderField::Event);
        assert!(h.is_empty());
    }

    #[test]
    fn typed_values() {
        let mut h = Header::new();
        h.push(entry(
            "開始日時",
            "1999/07/15(木) 19:07:12",
            Some(HeaderField::StartTime),
        ));
        h.push(entry("持ち時間", "相談", Some(HeaderField::TimeControl)));
        h.push(entry("TIME", "900+0+5", Some(HeaderField::TimeControl)));
        let t = h.start_time().unwrap();
        assert_eq!((t.year, t.month, t.day), (1999, 7, 15));
        assert_eq!(t.time, Some((19, 7, 12)));
        assert_eq!(h.time_control().unwrap().increment_ms, 5000);
    }
}
