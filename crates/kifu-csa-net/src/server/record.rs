//! A finished (or interrupted) game as a CSA record (V3.0 or V2.2), written atomically.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use kifu_csa::record::RecordBuilder;
use kifu_csa::server_protocol::{GameSummary, MoveComment};
use kifu_record::{CommentKind, EndingKind};
use kifu_records::shogi::{ShogiRecord, csa};

use crate::server::game::{Ending, Game, PlayedMove};

/// Header facts the game itself does not know.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    /// `YYYY/MM/DD HH:MM:SS`.
    pub start_time: Option<String>,
    /// `YYYY/MM/DD HH:MM:SS`, once the game has ended.
    pub end_time: Option<String>,
    /// Lines written as `'` comments before the first move played: floodgate's `rating:`,
    /// `black_rate:` and `white_rate:` (see [`crate::server::league::standings::Rated::rate_lines`])
    /// and shogi-server's `buoy game starting with <n> moves`.
    pub notes: Vec<String>,
}

/// The game as a record: players, event (the game id), start and end times, the time
/// control, the start position, the moves listed in the summary and those played, each with
/// its time and `'**` comment, then the ending (`%CHUDAN` while the game has none).
pub fn to_record(game: &Game, meta: &Meta) -> ShogiRecord {
    record_of(game.summary(), game.moves(), game.ending(), meta)
}

/// [`to_record`] from the parts: the record keeper holds these, not a whole [`Game`].
pub(crate) fn record_of(
    summary: &GameSummary,
    moves: &[PlayedMove],
    ending: Option<&Ending>,
    meta: &Meta,
) -> ShogiRecord {
    let mut game = builder_of(summary, moves, meta);
    match ending {
        Some(e) => game.end(e.record.clone(), &e.note),
        None => game.end(EndingKind::Abort, IN_PROGRESS),
    };
    game.finish()
}

/// The record's builder with the moves so far and no ending yet (what the live page shows
/// of a game in progress).
pub(crate) fn builder_of(
    summary: &GameSummary,
    moves: &[PlayedMove],
    meta: &Meta,
) -> RecordBuilder {
    let mut game = RecordBuilder::from_summary(
        summary,
        meta.start_time.as_deref(),
        meta.end_time.as_deref(),
    );
    for line in &meta.notes {
        game.comment(CommentKind::Hidden, line);
    }
    for played in moves {
        game.play_charged(played.mv, Some(played.t));
        if let Some(c) = &played.comment {
            // A free `,'text` comment is kept as shogi-server keeps it, after `'*`.
            let kind = match c {
                MoveComment::Engine(_) => CommentKind::Engine,
                MoveComment::Text(_) => CommentKind::Text,
            };
            game.comment(kind, c.text());
        }
    }
    game
}

/// The note under the `%CHUDAN` of a record written while its game went on: what a crash
/// of the server leaves on disk.
pub const IN_PROGRESS: &str = "the game was in progress when this record was written";

/// The game as CSA text of the given edition (V3.0 keeps more: comments on time control,
/// `%MAX_MOVES`; V2.2 is for older readers).
pub fn to_csa(game: &Game, meta: &Meta, version: csa::CsaVersion) -> String {
    csa_text(&to_record(game, meta), version)
}

/// CSA text of a record. V3.0 declares UTF-8 on its first line; V2.2 has no such line, so a
/// V2.2 record that is not plain ASCII (a comment in Japanese) gets the same declaration —
/// a comment to V2.2 readers, the encoding to readers that know V3.0 — rather than leave
/// its readers to guess between UTF-8 and Shift_JIS.
pub fn csa_text(record: &ShogiRecord, version: csa::CsaVersion) -> String {
    let text = csa::write(record, version).text;
    if text.is_ascii() || text.starts_with(UTF8_DECLARATION) {
        text
    } else {
        format!("{UTF8_DECLARATION}{text}")
    }
}

const UTF8_DECLARATION: &str = "'CSA encoding=UTF-8\n";

/// Writes `text` to `dir/name` through a temporary file and a rename, so a reader never
/// sees half a record and a crash leaves either the old file or the new one.
pub fn write_atomically(dir: &Path, name: &str, text: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(name);
    let tmp = dir.join(format!(".{name}.tmp"));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, &path)
    })();
    if let Err(e) = written {
        // A full disk leaves no half-written temporary file behind for the next try.
        if tmp.is_file() {
            let _ = std::fs::remove_file(&tmp);
        }
        return Err(e);
    }
    Ok(path)
}

/// Writes `text` as a new file `dir/<stem>.csa` — or `<stem>-2.csa`, `<stem>-3.csa` … when
/// that name is taken — atomically (a temporary file hard-linked into place, which fails
/// rather than replace a file). A record already there is never replaced.
pub fn write_new(dir: &Path, stem: &str, text: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".{stem}.csa.tmp"));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    let mut n = 1;
    let linked = loop {
        let name = if n == 1 {
            format!("{stem}.csa")
        } else {
            format!("{stem}-{n}.csa")
        };
        let path = dir.join(name);
        match std::fs::hard_link(&tmp, &path) {
            Ok(()) => break Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 10_000 => n += 1,
            Err(e) => break Err(e),
        }
    };
    let _ = std::fs::remove_file(&tmp);
    linked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_new_never_replaces_a_record() {
        let dir = tempfile::tempdir().unwrap();
        let a = write_new(dir.path(), "g", "first").unwrap();
        let b = write_new(dir.path(), "g", "second").unwrap();
        assert_eq!(a, dir.path().join("g.csa"));
        assert_eq!(b, dir.path().join("g-2.csa"));
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "first");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "second");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 2, "no temporary file stays");
    }
}
