//! A finished (or interrupted) game as a CSA record (V3.0 or V2.2), written atomically.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use kifu_csa::server_protocol::MoveComment;
use kifu_record::{Comment, CommentKind, EndingKind, HeaderField, Span};
use kifu_shogi::formats::{ShogiRecord, StartPosition, csa};

use crate::game::Game;

/// Header facts the game itself does not know.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    /// `YYYY/MM/DD HH:MM:SS`.
    pub start_time: Option<String>,
    pub end_time: Option<String>,
}

/// The game as a record: players, event (the game id), start position, the moves listed in
/// the summary and those played, each with its time and `'**` comment, then the ending.
pub fn to_record(game: &Game, meta: &Meta) -> ShogiRecord {
    let s = game.summary();
    let mut record = ShogiRecord::new(StartPosition::custom(s.position.start.clone()));
    let h = &mut record.header;
    h.set(HeaderField::FirstPlayer, "N+", s.black.clone());
    h.set(HeaderField::SecondPlayer, "N-", s.white.clone());
    h.set(HeaderField::Event, "EVENT", s.game_id.clone());
    if let Some(t) = &meta.start_time {
        h.set(HeaderField::StartTime, "START_TIME", t.clone());
    }
    if let Some(t) = &meta.end_time {
        h.set(HeaderField::EndTime, "END_TIME", t.clone());
    }
    if s.max_moves > 0 {
        h.set(HeaderField::MaxMoves, "MAX_MOVES", s.max_moves.to_string());
    }
    let unit_ms = |color| game.clock().rule(color).unit.millis();
    let ms = |t: u64, unit: u64| Some(u32::try_from(t.saturating_mul(unit)).unwrap_or(u32::MAX));
    let tree = &mut record.moves;
    let mut at = tree.root();
    let mut pos = s.position.start.clone();
    for (mv, t) in &s.position.moves {
        at = tree.add_move(at, *mv, Span::default());
        tree[at].time_ms = t.and_then(|t| ms(t, unit_ms(pos.side_to_move())));
        pos.play(*mv);
    }
    for played in game.moves() {
        let unit = unit_ms(pos.side_to_move());
        at = tree.add_move(at, played.mv, Span::default());
        tree[at].time_ms = ms(played.t, unit);
        if let Some(c) = &played.comment {
            // A free `,'text` comment is kept as shogi-server keeps it, after `'*`.
            let kind = match c {
                MoveComment::Engine(_) => CommentKind::Engine,
                MoveComment::Text(_) => CommentKind::Text,
            };
            tree[at]
                .comments
                .push(Comment::new(kind, c.text(), Span::default()));
        }
        pos.play(played.mv);
    }
    let (kind, note) = match game.ending() {
        Some(e) => (e.record.clone(), e.note.clone()),
        None => (EndingKind::Abort, "the server stopped the game".to_owned()),
    };
    at = tree.add_ending(at, kind, Span::default());
    if !note.is_empty() {
        tree[at]
            .comments
            .push(Comment::new(CommentKind::Hidden, note, Span::default()));
    }
    record
}

/// The game as CSA text of the given edition (V3.0 keeps more: comments on time control,
/// `%MAX_MOVES`; V2.2 is for older readers).
pub fn to_csa(game: &Game, meta: &Meta, version: csa::CsaVersion) -> String {
    csa::write(&to_record(game, meta), version).text
}

/// Writes `text` to `dir/name` through a temporary file and a rename, so a reader never
/// sees half a record and a crash leaves either the old file or the new one.
pub fn write_atomically(dir: &Path, name: &str, text: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(name);
    let tmp = dir.join(format!(".{name}.tmp"));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, &path)?;
    Ok(path)
}
