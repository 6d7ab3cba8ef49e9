//! A recorded game played back for one colour: its moves, then its ending.

use kifu_record::{EndingKind, NodeItem};
use kifu_records::shogi::{Format, read_bytes};
use kifu_shogi::ShogiEnding;
use kifu_shogi::{Move, Position};

use super::{Player, ThinkRequest};
use crate::message::CsaMove;
use crate::session::Decision;

pub struct MoveList {
    name: String,
    start: Position,
    moves: Vec<Move>,
    ending: Option<EndingKind<ShogiEnding>>,
    ending_played: bool,
}

impl MoveList {
    /// Reads a record in any format kifu reads (chosen by extension, else sniffed).
    pub fn read(path: &std::path::Path) -> Result<MoveList, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let format = Format::from_path(path).unwrap_or_else(|| {
            Format::sniff(&String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]))
        });
        let (_, parsed) = read_bytes(&bytes, format);
        if let Some(e) = parsed.diagnostics.iter().find(|d| d.is_error()) {
            return Err(format!("{}: {}", path.display(), e.message));
        }
        let record = parsed
            .records
            .into_iter()
            .next()
            .ok_or_else(|| format!("{}: no game in the file", path.display()))?;
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

    /// The first ply where the game on the line left the record, in words. Only the
    /// opponent's moves can differ (ours come from the record), and once they do the
    /// record's later moves answer a different game, so it must not be followed further.
    fn divergence(&self, request: &ThinkRequest) -> Option<String> {
        if !same_setup(&request.start, &self.start) {
            return Some(
                "the game on the line did not start from the record's position".to_owned(),
            );
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
                return Some(format!(
                    "the opponent left the record at ply {}: the record has {}, the line brought {}",
                    i + 1,
                    said(*expected),
                    said(played)
                ));
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

    fn think(&mut self, request: &ThinkRequest) -> Result<Decision, String> {
        let ply = request.moves.len();
        if let Some(why) = self.divergence(request) {
            return Err(why);
        }
        if let Some(&mv) = self.moves.get(ply) {
            return match request.position.check_move(mv) {
                Ok(()) => Ok(Decision::Move(mv)),
                Err(e) => Err(format!(
                    "the record's move {} at ply {} cannot be played here: {e}",
                    mv,
                    ply + 1
                )),
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
            err,
            "the opponent left the record at ply 3: the record has +2726FU, the line brought +6766FU"
        );
        let err = w.think(&request(&["2g2f"])).unwrap_err();
        assert!(err.contains("ply 1") && err.contains("+7776FU"), "{err}");
        // A different set-up is found before any move.
        let mut r = request(&[]);
        r.start = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap();
        r.position = r.start.clone();
        assert!(w.think(&r).unwrap_err().contains("record's position"));
    }
}
