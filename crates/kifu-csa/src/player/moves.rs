//! A recorded game played back for one colour: its moves, then its ending.

use kifu_record::{EndingKind, NodeItem};
use kifu_shogi::formats::{Format, read_bytes};
use kifu_shogi::{Move, Position};

use super::{Player, ThinkRequest};
use crate::session::Decision;

pub struct MoveList {
    name: String,
    start: Position,
    moves: Vec<Move>,
    ending: Option<EndingKind>,
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
        ending: Option<EndingKind>,
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
}

impl Player for MoveList {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn think(&mut self, request: &ThinkRequest) -> Result<Decision, String> {
        let ply = request.moves.len();
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
            Some(EndingKind::Impasse) => Decision::Impasse,
            Some(EndingKind::DeclareWin) => Decision::DeclareWin,
            Some(EndingKind::DeclareDraw) => Decision::DeclareDraw,
            Some(EndingKind::TakeBack) => Decision::TakeBack,
            // %CHUDAN, no ending, or an ending the protocol cannot say: stop here.
            _ => Decision::Interrupt,
        })
    }
}
