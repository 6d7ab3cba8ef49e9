//! A recorded game played back for one colour: its moves, then its ending.

use std::path::{Path, PathBuf};

use kifu_record::{EndingKind, NodeItem, SourceText};
use kifu_records::GameRecords;
use kifu_records::detect::GameKind;
use kifu_records::open::{Request, open};
use kifu_shogi::{IllegalMove, Move, Position, Shogi, ShogiEnding};

use super::{Player, PlayerError, ThinkRequest};
use crate::message::CsaMove;
use crate::session::Decision;

/// Why a record cannot be played back.
#[derive(Debug, thiserror::Error)]
pub enum MoveListError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The record's path.
        path: PathBuf,
        /// Why it could not be read.
        source: std::io::Error,
    },
    /// The record has an error; `at` is `file:line:column: error: message`.
    #[error("{at}")]
    Invalid {
        /// The first error, rendered with its place in the file.
        at: String,
    },
    /// The file holds no game.
    #[error("{}: no game in the file", path.display())]
    Empty {
        /// The record's path.
        path: PathBuf,
    },
    /// The game on the line started elsewhere than the record.
    #[error("the game on the line did not start from the record's position")]
    OtherStart,
    /// The opponent played another move than the record's: the record's later moves answer
    /// a different game.
    #[error(
        "the opponent left the record at ply {ply}: the record has {recorded}, the line brought {played}"
    )]
    LeftTheRecord {
        /// The ply (from 1) where the game left the record.
        ply: usize,
        /// The record's move, in CSA form where it is legal, else USI.
        recorded: String,
        /// The move the line brought.
        played: String,
    },
    /// The record's move cannot be played in the game on the line.
    #[error("the record's move {mv} at ply {ply} cannot be played here: {source}")]
    Unplayable {
        /// The record's move.
        mv: Move,
        /// The ply (from 1).
        ply: usize,
        /// Why the rules refuse it.
        source: IllegalMove,
    },
}

/// A record's moves for one side, then its ending, as a [`Player`].
#[derive(Debug)]
pub struct MoveList {
    name: String,
    start: Position,
    moves: Vec<Move>,
    ending: Option<EndingKind<ShogiEnding>>,
    ending_played: bool,
}

impl MoveList {
    /// Reads the first record of a file in any shogi format kifu reads (chosen by
    /// extension, else by content).
    pub fn read(path: &Path) -> Result<MoveList, MoveListError> {
        let bytes = std::fs::read(path).map_err(|source| MoveListError::Read {
            path: path.to_owned(),
            source,
        })?;
        // The records layer's front door: one decode, the format judged on the decoded text
        // (the extension a hint), as every command reads a record.
        let request = Request {
            path: Some(path),
            game: Some(GameKind::Shogi),
            format: None,
        };
        let opened = open(&bytes, &request).map_err(|e| MoveListError::Invalid {
            at: format!("{}: {e}", path.display()),
        })?;
        let format =
            Shogi::format_by_name(opened.format).ok_or_else(|| MoveListError::Invalid {
                at: format!("{}: no shogi format `{}`", path.display(), opened.format),
            })?;
        let decoded = opened.decoded;
        let source = SourceText::new(path.display().to_string(), &decoded.text);
        if let Some(e) = decoded.diagnostics.iter().find(|d| d.is_error()) {
            return Err(MoveListError::Invalid {
                at: source.render(e),
            });
        }
        let read = format
            .records(&decoded.text)
            .next()
            .ok_or_else(|| MoveListError::Empty {
                path: path.to_owned(),
            })?;
        if let Some(e) = read.diagnostics.iter().find(|d| d.is_error()) {
            return Err(MoveListError::Invalid {
                at: source.render(e),
            });
        }
        let record = read.record;
        let mut moves = Vec::new();
        let mut ending = None;
        for id in record.moves.main_line() {
            match &record.moves[id].item {
                NodeItem::Move(mv) => moves.push(*mv),
                NodeItem::End(kind) => ending = Some(kind.clone()),
                NodeItem::Start => {}
            }
        }
        let name = path
            .file_name()
            .map_or("moves".into(), |n| n.to_string_lossy().into_owned());
        Ok(MoveList::new(name, record.start.position, moves, ending))
    }

    /// A player of `moves` from `start`, then of `ending` (named `name` in the header).
    pub fn new(
        name: String,
        start: Position,
        moves: Vec<Move>,
        ending: Option<EndingKind<ShogiEnding>>,
    ) -> MoveList {
        MoveList {
            name,
            start,
            moves,
            ending,
            ending_played: false,
        }
    }

    /// The record's start position (the game must start there).
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The first ply where the game on the line left the record. Only the opponent's moves
    /// can differ (ours come from the record), and once they do the record's later moves
    /// answer a different game, so it must not be followed further.
    fn divergence(&self, request: &ThinkRequest) -> Option<MoveListError> {
        if !same_setup(&request.start, &self.start) {
            return Some(MoveListError::OtherStart);
        }
        let mut pos = self.start.clone();
        for (i, (&played, expected)) in request.moves.iter().zip(&self.moves).enumerate() {
            if played != *expected {
                let said = |mv: Move| {
                    if pos.check_move(mv).is_ok() {
                        CsaMove::from_move(&pos, mv).to_string()
                    } else {
                        mv.usi()
                    }
                };
                return Some(MoveListError::LeftTheRecord {
                    ply: i + 1,
                    recorded: said(*expected),
                    played: said(played),
                });
            }
            pos.play_unchecked(played);
        }
        None
    }
}

impl Player for MoveList {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn think(&mut self, request: &ThinkRequest) -> Result<Decision, PlayerError> {
        let ply = request.moves.len();
        if let Some(why) = self.divergence(request) {
            return Err(why.into());
        }
        if let Some(&mv) = self.moves.get(ply) {
            return match request.position.check_move(mv) {
                Ok(()) => Ok(Decision::Move(mv)),
                Err(source) => Err(MoveListError::Unplayable {
                    mv,
                    ply: ply + 1,
                    source,
                }
                .into()),
            };
        }
        if std::mem::replace(&mut self.ending_played, true) {
            return Ok(Decision::Interrupt);
        }
        Ok(match &self.ending {
            Some(EndingKind::Resign) => Decision::Resign,
            Some(EndingKind::Repetition) => Decision::ClaimRepetition,
            Some(EndingKind::Game(ShogiEnding::Impasse)) => Decision::Impasse,
            Some(EndingKind::Game(ShogiEnding::DeclareWin)) => Decision::DeclareWin,
            Some(EndingKind::Game(ShogiEnding::DeclareDraw)) => Decision::DeclareDraw,
            Some(EndingKind::TakeBack) => Decision::TakeBack,
            // %CHUDAN, no ending, or an ending the protocol cannot say: stop here.
            _ => Decision::Interrupt,
        })
    }
}

/// Same board, hands and side to move; the move number may differ (a game restarted from a
/// repeated position starts where the record's start stands, at a later number).
fn same_setup(a: &Position, b: &Position) -> bool {
    let setup = |p: &Position| {
        let sfen = p.to_sfen();
        sfen.rsplit_once(' ')
            .map_or(sfen.clone(), |(s, _)| s.to_owned())
    };
    setup(a) == setup(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Clocks;

    fn request(moves: &[&str]) -> ThinkRequest {
        let start = Position::startpos();
        let mut position = start.clone();
        let mut played = Vec::new();
        for m in moves {
            let mv = position.parse_usi_move(m).unwrap();
            position.play_unchecked(mv);
            played.push(mv);
        }
        ThinkRequest {
            start,
            moves: played,
            position,
            clocks: Clocks::default(),
            time: None,
            relay: false,
        }
    }

    fn white_list() -> MoveList {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for m in ["7g7f", "3c3d", "2g2f", "8c8d"] {
            let mv = pos.parse_usi_move(m).unwrap();
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        MoveList::new(
            "w".into(),
            Position::startpos(),
            moves,
            Some(EndingKind::Resign),
        )
    }

    #[test]
    fn follows_the_record_while_the_opponent_does() {
        let mut w = white_list();
        let d = w.think(&request(&["7g7f"])).unwrap();
        assert!(matches!(d, Decision::Move(m) if m.usi() == "3c3d"));
        let d = w.think(&request(&["7g7f", "3c3d", "2g2f"])).unwrap();
        assert!(matches!(d, Decision::Move(m) if m.usi() == "8c8d"));
        let d = w
            .think(&request(&["7g7f", "3c3d", "2g2f", "8c8d", "2f2e"]))
            .unwrap();
        assert_eq!(d, Decision::Resign, "past the record's moves: its ending");
    }

    #[test]
    fn stops_where_the_opponent_leaves_the_record() {
        let mut w = white_list();
        let err = w.think(&request(&["7g7f", "3c3d", "6g6f"])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the opponent left the record at ply 3: the record has +2726FU, the line brought +6766FU"
        );
        let err = w.think(&request(&["2g2f"])).unwrap_err().to_string();
        assert!(err.contains("ply 1") && err.contains("+7776FU"), "{err}");
        // A different set-up is found before any move.
        let mut r = request(&[]);
        r.start = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap();
        r.position = r.start.clone();
        assert!(matches!(
            w.think(&r),
            Err(PlayerError::Moves(MoveListError::OtherStart))
        ));
    }

    #[test]
    fn reads_a_record_by_extension_or_by_content_and_reports_where_it_is_wrong() {
        let dir = std::env::temp_dir().join(format!("kifu-csa-moves-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let csa = dir.join("game.csa");
        std::fs::write(&csa, "PI\n+\n+7776FU\n-3334FU\n%TORYO\n").unwrap();
        let list = MoveList::read(&csa).unwrap();
        assert_eq!(list.moves.len(), 2);
        assert_eq!(list.ending, Some(EndingKind::Resign));
        let sniffed = dir.join("game.txt");
        std::fs::write(&sniffed, "7g7f 3c3d 2g2f\n").unwrap();
        assert_eq!(MoveList::read(&sniffed).unwrap().moves.len(), 3);
        let bad = dir.join("bad.csa");
        std::fs::write(&bad, "PI\n+\n+7776FU\n-3335FU\n").unwrap();
        let err = MoveList::read(&bad).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{}:4:", bad.display())), "{err}");
        assert!(matches!(
            MoveList::read(&dir.join("missing.csa")),
            Err(MoveListError::Read { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
