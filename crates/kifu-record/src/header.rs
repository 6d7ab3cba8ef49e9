//! The game information at the top of a record, in the order it was written.
//!
//! Every entry keeps its key as written (`先手`, `下手`, `N+`, `$EVENT` …) so a writer of
//! the same format can put it back unchanged; well-known keys are also recognised as a
//! [`HeaderField`], which is how converters find "the first player's name" whatever the
//! source format called it.

use crate::Span;

/// The meaning of a well-known header key, shared by all formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeaderField {
    /// 先手 / 下手 / CSA `N+`.
    FirstPlayer,
    /// 後手 / 上手 / CSA `N-`.
    SecondPlayer,
    /// 先手省略名.
    FirstPlayerShort,
    /// 後手省略名.
    SecondPlayerShort,
    /// 棋戦 / `$EVENT`.
    Event,
    /// 場所 / `$SITE`.
    Site,
    /// 開始日時 / 対局日 / `$START_TIME`.
    StartTime,
    /// 終了日時 / `$END_TIME`.
    EndTime,
    /// 持ち時間 / `$TIME_LIMIT` / `$TIME` (see [`crate::TimeControl`]).
    TimeControl,
    /// `$TIME+`: the first player's own time control (CSA V3.0).
    FirstTimeControl,
    /// `$TIME-`: the second player's own time control (CSA V3.0).
    SecondTimeControl,
    /// 戦型 / `$OPENING`.
    Opening,
    /// 手合割: the handicap name.
    Handicap,
    /// 表題.
    Title,
    /// 備考 / `$NOTE`.
    Note,
    /// `$MAX_MOVES`.
    MaxMoves,
    /// `$JISHOGI`: the entering-king declaration rule.
    DeclarationRule,
}

/// One `key: value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderEntry {
    /// The key as written, without format punctuation (`先手`, `N+`, `EVENT`).
    pub key: String,
    pub value: String,
    /// The recognised meaning of `key`, if it is well known.
    pub field: Option<HeaderField>,
    /// The whole line.
    pub span: Span,
}

/// All header entries of a record, in source order; duplicates are kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    entries: Vec<HeaderEntry>,
}

impl Header {
    pub fn new() -> Header {
        Header::default()
    }

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

    pub fn entries(&self) -> &[HeaderEntry] {
        &self.entries
    }

    pub fn entries_mut(&mut self) -> &mut Vec<HeaderEntry> {
        &mut self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

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
