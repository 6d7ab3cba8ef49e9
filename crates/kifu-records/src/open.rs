//! The one way a file comes into the records layer, for every command and the Python module:
//! its bytes (with its name if it has one, and whatever the user said: game, format) → one
//! decode → the game and the format judged on the decoded text, the extension a hint and not
//! a verdict → the format's reader.
//!
//! ```
//! use kifu_records::detect::GameKind;
//! use kifu_records::open::{Evidence, Request, open};
//!
//! // A CSA record renamed `.txt`: `.txt` says nothing, the content decides.
//! let csa = b"'a comment\nV2.2\nPI\n+\n+7776FU\n%TORYO\n";
//! let opened = open(csa, &Request::named(std::path::Path::new("game.txt"))).unwrap();
//! assert_eq!((opened.game, opened.format), (GameKind::Shogi, "csa"));
//! assert!(matches!(opened.format_by, Evidence::Content { line: 2, .. }));
//! // Text shaped like no format is one error, not a reading as the most forgiving format.
//! let prose = "これは棋譜ではありません。\n".as_bytes();
//! let error = open(prose, &Request::default()).unwrap_err();
//! assert!(error.to_string().starts_with("cannot tell the format"));
//! ```

use std::path::Path;

use kifu_record::{Decoded, EncodingSource, TextEncoding, decode};

use crate::detect::GameKind;
pub use crate::evidence::{Evidence, Judged};

/// An input and what the user said about it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Request<'a> {
    /// The file's name: its extension is a hint (`None` for standard input and bytes).
    pub path: Option<&'a Path>,
    /// The game the user named (`--game`), if any.
    pub game: Option<GameKind>,
    /// The format the user named (`--format`), if any: it decides the format, and the game
    /// when only one game has it.
    pub format: Option<&'a str>,
}

impl<'a> Request<'a> {
    /// A file with a name and nothing said about it.
    pub fn named(path: &'a Path) -> Request<'a> {
        Request {
            path: Some(path),
            ..Request::default()
        }
    }
}

/// An input decoded, with its game and format decided.
#[derive(Debug)]
pub struct Opened<'b> {
    /// The text and how it was decoded (its diagnostics come first in a file's report).
    pub decoded: Decoded<'b>,
    /// The game of the records.
    pub game: GameKind,
    /// Why that game.
    pub game_by: Evidence,
    /// The name of the format in that game's table (`GameRecords::format_by_name` finds it).
    pub format: &'static str,
    /// Why that format.
    pub format_by: Evidence,
}

/// [`OpenError::CannotTell`]'s reason for an input with nothing but blanks.
pub const EMPTY: &str = "the input is empty";

/// Why an input cannot be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    /// The text is shaped like none of the game's formats and nothing named one.
    #[error(
        "cannot tell the format: {why}; it looks like neither {}; give --format",
        game.format_shapes()
    )]
    CannotTell {
        /// The game the text was judged to be.
        game: GameKind,
        /// What the text is instead (`it is empty`, `no line is shaped like a record's`).
        why: &'static str,
    },
    /// `--format` names no format of the game.
    #[error("unknown {game} format `{name}` (one of: {})", game.format_names().join(", "))]
    UnknownFormat {
        /// The game whose table was searched.
        game: GameKind,
        /// The name given.
        name: String,
    },
}

/// Decodes `bytes` once and decides their game and format, in this order:
///
/// - the game: the one named; else [`crate::detect::game_of_text`] on the decoded text; a
///   format named that only another game has names that game;
/// - the format: the one named; else the game's judgement of the decoded text, where the
///   extension (never `.txt`) breaks ties between formats its content cannot tell apart
///   and stands in for content that decides nothing (an empty `.csa` file is CSA's);
///   [`OpenError::CannotTell`] when neither decides.
///
/// The encoding: a byte-order mark, a declared encoding (CSA V3.0's `'CSA encoding=`, KIF's
/// `#KIF … encoding=`), else detection among UTF-8, Shift_JIS and EUC-JP; no format of
/// any game expects EUC-JP, so the choice does not depend on the format, except for bytes
/// that decode cleanly in nothing, which are decoded again in the chosen format's encoding.
pub fn open<'b>(bytes: &'b [u8], request: &Request<'_>) -> Result<Opened<'b>, OpenError> {
    let expected = hinted_encoding(request);
    let mut decoded = decode(bytes, expected);
    let (mut game, mut game_by) = match request.game {
        Some(game) => (game, Evidence::Named),
        None => crate::detect::game_of_text(request.path, &decoded.text),
    };
    if let (None, Some(name)) = (request.game, request.format)
        && !game.knows_format(name)
        && let Some(other) = GameKind::ALL.into_iter().find(|g| g.knows_format(name))
    {
        (game, game_by) = (other, Evidence::Named);
    }
    let (format, encoding, format_by) = match request.format {
        Some(name) => {
            let (format, encoding) =
                game.named_format(name)
                    .ok_or_else(|| OpenError::UnknownFormat {
                        game,
                        name: name.to_string(),
                    })?;
            (format, encoding, Evidence::Named)
        }
        None => game
            .judge_format(&decoded.text, hint_path(request.path), decoded.encoding)
            .ok_or(OpenError::CannotTell {
                game,
                why: if decoded.text.trim().is_empty() {
                    EMPTY
                } else {
                    "no line is shaped like a record's"
                },
            })?,
    };
    if decoded.source == EncodingSource::Fallback && encoding != expected {
        decoded = decode(bytes, encoding);
    }
    Ok(Opened {
        decoded,
        game,
        game_by,
        format,
        format_by,
    })
}

/// The path when its extension may hint at a format: `.txt` is any text, not a format.
pub(crate) fn hint_path(path: Option<&Path>) -> Option<&Path> {
    path.filter(|p| !crate::extension::extension_is(p, "txt"))
}

/// The encoding the named format or the extension's format expects (Shift_JIS otherwise,
/// what records without a declaration were written in for decades); it matters only for
/// bytes that are not UTF-8.
fn hinted_encoding(request: &Request<'_>) -> TextEncoding {
    // A slice, not a `Vec`: this runs for every file opened, and the allocation and its
    // free were a tenth of the front door's instructions over a directory of CSA records.
    let games: &[GameKind] = match &request.game {
        Some(game) => std::slice::from_ref(game),
        None => &GameKind::ALL,
    };
    games
        .iter()
        .find_map(|&game| match request.format {
            Some(name) => game.named_format(name).map(|(_, e)| e),
            None => hint_path(request.path).and_then(|p| game.extension_encoding(p)),
        })
        .unwrap_or(TextEncoding::ShiftJis)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opened(bytes: &[u8], name: Option<&str>) -> (GameKind, &'static str) {
        let request = Request {
            path: name.map(Path::new),
            ..Request::default()
        };
        let o = open(bytes, &request).unwrap();
        (o.game, o.format)
    }

    #[test]
    fn shift_jis_kif_and_ki2_are_told_by_their_decoded_text() {
        let kif = "開始日時：2024/01/01\n手合割：平手\n   1 ７六歩(77)\n";
        let (sjis, _) = kifu_record::encode(kif, kifu_record::TextEncoding::ShiftJis);
        assert_eq!(opened(&sjis, None), (GameKind::Shogi, "kif"));
        assert_eq!(opened(kif.as_bytes(), None), (GameKind::Shogi, "kifu"));
        let ki2 = "先手：a\n後手：b\n▲７六歩　△３四歩\n";
        let (sjis, _) = kifu_record::encode(ki2, kifu_record::TextEncoding::ShiftJis);
        assert_eq!(opened(&sjis, None), (GameKind::Shogi, "ki2"));
        assert_eq!(opened(&sjis, Some("x.txt")), (GameKind::Shogi, "ki2"));
        // The extension picks between formats the content cannot tell apart.
        assert_eq!(opened(&sjis, Some("x.ki2u")), (GameKind::Shogi, "ki2u"));
    }

    #[test]
    fn the_first_move_far_into_the_file_still_decides() {
        let mut kif = String::new();
        for _ in 0..300 {
            kif += "*長い解説の行、ここには指し手はない\n";
        }
        kif += "   1 ７六歩(77)\n";
        let (sjis, _) = kifu_record::encode(&kif, kifu_record::TextEncoding::ShiftJis);
        assert_eq!(opened(&sjis, None), (GameKind::Shogi, "kif"));
    }

    #[test]
    fn a_named_format_of_another_game_names_the_game() {
        let request = Request {
            format: Some("csl"),
            ..Request::default()
        };
        let o = open(b"not a shogi record\n", &request).unwrap();
        assert_eq!(
            (o.game, o.format, o.game_by),
            (GameKind::Chu, "csl", Evidence::Named)
        );
        let request = Request {
            game: Some(GameKind::Shogi),
            format: Some("csl"),
            ..Request::default()
        };
        assert!(matches!(
            open(b"", &request),
            Err(OpenError::UnknownFormat { .. })
        ));
    }

    #[test]
    fn text_of_no_format_is_one_error_and_an_empty_named_file_goes_by_its_name() {
        let error = open("ただの文章\n".as_bytes(), &Request::default()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "cannot tell the format: no line is shaped like a record's; it looks like neither \
             CSA, KIF, KI2, JKF nor USI/SFEN; give --format"
        );
        assert!(open(b"", &Request::default()).is_err());
        assert_eq!(opened(b"", Some("empty.csa")), (GameKind::Shogi, "csa"));
    }
}
