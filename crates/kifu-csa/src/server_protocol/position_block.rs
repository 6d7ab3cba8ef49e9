//! The `BEGIN Position` … `END Position` part of a `Game_Summary`: a CSA position, the turn
//! line and the moves already played, each with its `,T` time.

use kifu_record::NodeItem;
use kifu_records::shogi::csa;
use kifu_shogi::{Color, Move, PieceKind, Position, Square};

use crate::message::CsaMove;

/// The start position and the moves already played (`,T` in the summary's time unit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionBlock {
    /// The set-up position (`PI`, `P1`…`P9`, `P+`/`P-` lines and the side to move).
    pub start: Position,
    /// The moves played since, each with its `,T` time if given.
    pub moves: Vec<(Move, Option<u64>)>,
}

impl PositionBlock {
    /// A block of `start` with no moves.
    pub fn new(start: Position) -> PositionBlock {
        PositionBlock {
            start,
            moves: Vec::new(),
        }
    }

    /// The position after the listed moves.
    pub fn current(&self) -> Position {
        let mut pos = self.start.clone();
        for (mv, _) in &self.moves {
            pos.play_unchecked(*mv);
        }
        pos
    }

    /// The lines between `BEGIN Position` and `END Position`, in shogi-server's form:
    /// P1–P9, `P+`/`P-` for non-empty hands, the turn line, then the moves (`,T1` when a
    /// move's time is unknown).
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(12 + self.moves.len());
        for rank in 1..=9 {
            let mut line = format!("P{rank}");
            for file in (1..=9).rev() {
                let sq = Square::new(file, rank).expect("a board square");
                match self.start.piece_at(sq) {
                    Some(p) => {
                        line.push(p.color.csa_sign());
                        line.push_str(p.kind.csa());
                    }
                    None => line.push_str(" * "),
                }
            }
            out.push(line);
        }
        for color in Color::ALL {
            let hand = self.start.hand(color);
            if hand.is_empty() {
                continue;
            }
            let mut line = format!("P{}", color.csa_sign());
            for kind in PieceKind::HAND.iter().rev() {
                for _ in 0..hand.count(*kind) {
                    line.push_str("00");
                    line.push_str(kind.csa());
                }
            }
            out.push(line);
        }
        out.push(self.start.turn().csa_sign().to_string());
        let mut pos = self.start.clone();
        for (mv, t) in &self.moves {
            out.push(format!(
                "{},T{}",
                CsaMove::from_move(&pos, *mv),
                t.unwrap_or(1)
            ));
            pos.play_unchecked(*mv);
        }
        out
    }

    /// Reads the lines between `BEGIN Position` and `END Position` with kifu's CSA reader
    /// (so `PI`, P1–P9, `P+`/`P-` with `00AL` all work); the moves are replayed under the rules.
    pub fn parse(lines: &[String]) -> Result<PositionBlock, PositionBlockError> {
        let mut text = lines.join("\n");
        text.push('\n');
        let parsed = csa::read(&text);
        if let Some(e) = parsed.diagnostics.iter().find(|d| d.is_error()) {
            return Err(PositionBlockError::Invalid(e.message.clone()));
        }
        let record = parsed
            .records
            .into_iter()
            .next()
            .ok_or(PositionBlockError::NoPosition)?;
        let mut block = PositionBlock::new(record.start.position.clone());
        // The reader keeps `T` as milliseconds of seconds; the block's numbers are units,
        // so the raw number is recovered from the whole seconds.
        for id in record.moves.main_line() {
            let node = &record.moves[id];
            if let NodeItem::Move(mv) = &node.item {
                block.moves.push((*mv, node.time_ms().map(|ms| ms / 1000)));
            }
        }
        Ok(block)
    }
}

/// Why a summary's `BEGIN Position` … `END Position` block was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionBlockError {
    /// What kifu's CSA reader said of it (a bad line, an illegal move).
    #[error("the position block: {0}")]
    Invalid(String),
    /// The block holds no position.
    #[error("the position block holds no position")]
    NoPosition,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(str::to_owned).collect()
    }

    const EVEN: &str = "\
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+";

    #[test]
    fn shogi_server_form_round_trips() {
        let block = PositionBlock::new(Position::startpos());
        assert_eq!(block.lines().join("\n"), EVEN);
        let parsed = PositionBlock::parse(&lines(EVEN)).unwrap();
        assert_eq!(parsed, block);
    }

    #[test]
    fn moves_with_times_and_pi() {
        let text = "PI\n+\n+2726FU,T12\n-3334FU,T6\n";
        let block = PositionBlock::parse(&lines(text)).unwrap();
        assert_eq!(block.moves.len(), 2);
        assert_eq!(block.moves[0].1, Some(12));
        assert_eq!(block.moves[1].1, Some(6));
        assert_eq!(block.current().turn(), Color::Black);
        let again = PositionBlock::parse(&block.lines()).unwrap();
        assert_eq!(again, block);
    }

    #[test]
    fn hands_and_all_remaining() {
        let text =
            "P1 *  *  *  *  *  *  *  * -OU\nP9+OU *  *  *  *  *  *  *  * \nP+00KA00FU\nP-00AL\n-\n";
        let block = PositionBlock::parse(&lines(text)).unwrap();
        assert_eq!(block.start.hand(Color::Black).count(PieceKind::Bishop), 1);
        assert_eq!(block.start.hand(Color::White).count(PieceKind::Rook), 2);
        assert_eq!(block.start.turn(), Color::White);
        let again = PositionBlock::parse(&block.lines()).unwrap();
        assert_eq!(again.start, block.start);
    }

    #[test]
    fn an_illegal_listed_move_is_an_error() {
        assert!(PositionBlock::parse(&lines("PI\n+\n+2725FU,T1\n")).is_err());
    }
}
