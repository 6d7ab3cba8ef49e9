//! The 12×12 board diagram of lishogi's chu KIF (custom start positions): three characters per
//! square, `v` for White's pieces, `・` for an empty square, one kanji per piece (`成X` for some
//! promoted pieces).

use kifu_chu::notation::kanji_rank;
use kifu_chu::{Color, Kind, Piece, Position, Square};

/// Why a row of a board diagram could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardRowError {
    /// The row is not framed by `|`.
    #[error("a board row must be framed by `|`")]
    NotFramed,
    /// The row has other than 12 squares (its width in characters).
    #[error("a board row has 12 squares of 3 characters, not {0} characters")]
    Width(usize),
    /// The row is outside the board.
    #[error("row outside the board")]
    OffBoard,
    /// A piece name no kind has.
    #[error("unknown piece `{text}` on {square}")]
    UnknownPiece { text: String, square: Square },
}

/// The diagram name of a piece (without the `v` of White).
fn board_name(p: Piece) -> &'static str {
    use Kind::*;
    if p.promoted {
        return match p.kind {
            Gold => "杏",
            Elephant => "成象",
            SideMover => "成横",
            VerticalMover => "成竪",
            Rook => "成飛",
            Bishop => "成角",
            Horse => "成馬",
            Dragon => "成龍",
            FreeKing => "成奔",
            Lion => "成獅",
            FlyingStag => "鹿",
            Prince => "太",
            WhiteHorse => "駒",
            Whale => "鯨",
            FreeBoar => "猪",
            FlyingOx => "牛",
            HornedFalcon => "鷹",
            SoaringEagle => "鷲",
            _ => "?",
        };
    }
    match p.kind {
        Pawn => "歩",
        GoBetween => "仲",
        Copper => "銅",
        Silver => "銀",
        Gold => "金",
        Leopard => "豹",
        Tiger => "虎",
        Elephant => "象",
        King => "玉",
        Lance => "香",
        ReverseChariot => "反",
        SideMover => "横",
        VerticalMover => "竪",
        Bishop => "角",
        Rook => "飛",
        Horse => "馬",
        Dragon => "龍",
        Phoenix => "鳳",
        Kirin => "麒",
        FreeKing => "奔",
        Lion => "獅",
        _ => "?",
    }
}

fn piece_from_name(name: &str, color: Color) -> Option<Piece> {
    let name = match name {
        "王" => "玉",
        "竜" => "龍",
        "と" => "杏",
        "成竜" => "成龍",
        n => n,
    };
    for kind in Kind::ALL {
        for promoted in [false, true] {
            if promoted && kind.unpromoted().is_none() || !promoted && kind.is_promoted_only() {
                continue;
            }
            let p = Piece::new(color, kind, promoted);
            if board_name(p) == name {
                return Some(p);
            }
        }
    }
    None
}

/// Writes the diagram (file numbers, frame, 12 rows, and `後手番` when White is to move).
pub(crate) fn write(pos: &Position) -> String {
    let mut out = String::from(" １２ １１ １０ ９  ８  ７  ６  ５  ４  ３  ２  １\n");
    let frame = format!("+{}+\n", "-".repeat(48));
    out.push_str(&frame);
    for rank in 0..12u8 {
        out.push('|');
        for file in (1..=12u8).rev() {
            let cell = match pos.piece_at(Square::new(file, rank).expect("on the board")) {
                None => "・".to_string(),
                Some(p) if p.color == Color::White => format!("v{}", board_name(p)),
                Some(p) => board_name(p).to_string(),
            };
            out.push_str(&format!("{cell:>3}"));
        }
        out.push('|');
        out.push_str(kanji_rank(rank));
        out.push('\n');
    }
    out.push_str(&frame);
    if pos.turn() == Color::White {
        out.push_str("後手番\n");
    }
    out
}

/// Reads one diagram row (`|  香  豹 …|一`) into `pos` at `rank`.
pub(crate) fn read_row(line: &str, rank: u8, pos: &mut Position) -> Result<(), BoardRowError> {
    let inner = line
        .trim()
        .strip_prefix('|')
        .and_then(|l| l.rfind('|').map(|e| &l[..e]))
        .ok_or(BoardRowError::NotFramed)?;
    let chars: Vec<char> = inner.chars().collect();
    if chars.len() != 36 {
        return Err(BoardRowError::Width(chars.len()));
    }
    for (i, cell) in chars.chunks(3).enumerate() {
        let text: String = cell.iter().collect::<String>().trim().to_string();
        let file = 12 - i as u8;
        let sq = Square::new(file, rank).ok_or(BoardRowError::OffBoard)?;
        if text == "・" || text.is_empty() {
            pos.set_piece(sq, None);
            continue;
        }
        let (color, name) = match text.strip_prefix('v') {
            Some(n) => (Color::White, n),
            None => (Color::Black, text.as_str()),
        };
        let piece = piece_from_name(name, color).ok_or_else(|| BoardRowError::UnknownPiece {
            text: text.clone(),
            square: sq,
        })?;
        pos.set_piece(sq, Some(piece));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_round_trips_every_piece() {
        for kind in Kind::ALL {
            for promoted in [false, true] {
                if promoted && kind.unpromoted().is_none() || !promoted && kind.is_promoted_only() {
                    continue;
                }
                for color in [Color::Black, Color::White] {
                    let p = Piece::new(color, kind, promoted);
                    assert_eq!(piece_from_name(board_name(p), color), Some(p), "{p:?}");
                }
            }
        }
        let start = Position::startpos();
        let text = write(&start);
        let mut back = Position::empty();
        for (rank, row) in text.lines().filter(|l| l.starts_with('|')).enumerate() {
            read_row(row, rank as u8, &mut back).unwrap();
        }
        assert_eq!(back.to_sfen(), start.to_sfen());
    }
}
