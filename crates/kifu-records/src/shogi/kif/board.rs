//! KIF board diagrams (BOD): nine `|…|一` rows, the hands and the side to move, and the
//! `手数＝N  ▲７六歩(77)  まで` title line of a standalone diagram (Kifu for Windows 盤面図).

use std::fmt::Write as _;

use kifu_record::{Diagnostic, DiagnosticKind, Span};

use crate::shogi::StartPosition;
use kifu_shogi::notation::kif::piece_name;
use kifu_shogi::{Color, Hand, Move, Piece, PieceKind, Position, Square};

#[derive(Clone)]
pub(super) struct Diagram {
    board: [Option<Piece>; 81],
    hands: [Hand; 2],
    pub(super) side: Option<Color>,
    rows: u16,
    pub(super) span: Option<Span>,
    /// The ply count of a `手数＝N` title line: the diagram is the position after N moves.
    plies_played: Option<u32>,
}

impl Default for Diagram {
    fn default() -> Self {
        Diagram {
            board: [None; 81],
            hands: [Hand::EMPTY; 2],
            side: None,
            rows: 0,
            span: None,
            plies_played: None,
        }
    }
}

fn extend(span: &mut Option<Span>, with: Span) {
    *span = Some(span.map_or(with, |s| s.join(with)));
}

impl Diagram {
    /// True once a row or a hand was read.
    pub(super) fn started(&self) -> bool {
        self.span.is_some()
    }

    /// `|v香v桂 ・ …|一`.
    pub(super) fn row(&mut self, line: &str, span: Span, diags: &mut Vec<Diagnostic>) {
        extend(&mut self.span, span);
        let inner = &line[line.find('|').map_or(0, |i| i + 1)..];
        let (cells, rank_text) = match inner.rfind('|') {
            Some(i) => (&inner[..i], &inner[i + 1..]),
            None => (inner, ""),
        };
        let rank = match rank_text.trim().chars().next().and_then(rank_kanji) {
            Some(r) => r,
            None => (self.rows.count_ones() as u8 + 1).min(9),
        };
        if self.rows & (1 << rank) != 0 {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                span,
                format!("rank {rank} of the board is given twice"),
            ));
            return;
        }
        self.rows |= 1 << rank;
        let mut chars = cells.chars();
        for file in (1..=9).rev() {
            let (Some(mark), Some(piece)) = (chars.next(), chars.next()) else {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    span,
                    "a board row has nine cells of two characters",
                ));
                return;
            };
            if piece == '・' {
                continue;
            }
            let color = match mark {
                'v' | 'V' => Color::White,
                ' ' | '+' | '^' | '\u{3000}' => Color::Black,
                _ => {
                    diags.push(Diagnostic::error(
                        DiagnosticKind::Syntax,
                        span,
                        format!("`{mark}` is not a side mark (` ` for 先手, `v` for 後手)"),
                    ));
                    continue;
                }
            };
            let mut buf = [0u8; 4];
            match piece_name(piece.encode_utf8(&mut buf)) {
                Some((kind, _)) => {
                    let sq = Square::new(file, rank).expect("in range");
                    self.board[sq.index()] = Some(Piece::new(color, kind));
                }
                None => diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    span,
                    format!("`{piece}` is not a piece"),
                )),
            }
        }
    }

    /// `先手の持駒：飛　金三　歩十三` (value only).
    pub(super) fn hand(
        &mut self,
        color: Color,
        value: &str,
        span: Span,
        diags: &mut Vec<Diagnostic>,
    ) {
        extend(&mut self.span, span);
        let mut hand = Hand::EMPTY;
        let value = value.trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}');
        if value != "なし" && !value.is_empty() {
            let mut rest = value;
            while let Some(c) = rest.chars().next() {
                if c.is_whitespace() || c == '\u{3000}' || c == '、' || c == ',' {
                    rest = &rest[c.len_utf8()..];
                    continue;
                }
                let Some((kind, len)) = piece_name(rest).filter(|(k, _)| k.is_hand_kind()) else {
                    diags.push(Diagnostic::error(
                        DiagnosticKind::Syntax,
                        span,
                        format!("`{c}` is not a piece that can be held in hand"),
                    ));
                    return;
                };
                rest = &rest[len..];
                let count_len = rest
                    .char_indices()
                    .find(|&(_, c)| number_value(c).is_none())
                    .map_or(rest.len(), |(i, _)| i);
                let count = if count_len == 0 {
                    Some(1)
                } else {
                    count_number(&rest[..count_len])
                };
                rest = &rest[count_len..];
                match count {
                    Some(n) if n <= 18 => hand.set(kind, hand.count(kind).saturating_add(n)),
                    _ => {
                        diags.push(Diagnostic::error(
                            DiagnosticKind::Syntax,
                            span,
                            "a piece count in hand is 1 to 18",
                        ));
                        return;
                    }
                }
            }
        }
        self.hands[color.index()] = hand;
    }

    /// The title line of a standalone diagram, after `手数＝`: `40  △３一金(32)  まで`. Only
    /// the ply count is kept (the position's move number becomes N + 1, as in SFEN); the move
    /// is a caption, its effect is already on the board.
    pub(super) fn title(&mut self, rest: &str, span: Span, diags: &mut Vec<Diagnostic>) {
        let digits_end = rest
            .char_indices()
            .find(|&(_, c)| !(c.is_ascii_digit() || ('０'..='９').contains(&c)))
            .map_or(rest.len(), |(i, _)| i);
        let number: Option<u32> = rest[..digits_end].chars().try_fold(0u32, |n, c| {
            let digit = c
                .to_digit(10)
                .or_else(|| ('０'..='９').contains(&c).then(|| c as u32 - '０' as u32))?;
            n.checked_mul(10)?.checked_add(digit)
        });
        match number {
            Some(n) if digits_end > 0 && n < u32::MAX => self.plies_played = Some(n),
            _ => diags.push(Diagnostic::warning(
                DiagnosticKind::Syntax,
                span,
                "a diagram title is `手数＝N` with the number of moves played; ignored",
            )),
        }
    }

    /// The position the diagram shows, or `None` after reporting why it is not playable.
    pub(super) fn position(
        &self,
        side: Color,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<StartPosition> {
        let span = self.span.unwrap_or_default();
        if self.rows != 0 && self.rows != 0b11_1111_1110 {
            diags.push(Diagnostic::error(
                DiagnosticKind::Syntax,
                span,
                "the board diagram does not have all nine ranks",
            ));
        }
        let pieces = Square::all().filter_map(|sq| self.board[sq.index()].map(|p| (sq, p)));
        let move_number = self.plies_played.map_or(1, |n| n + 1);
        match Position::from_parts_lenient(pieces, self.hands, side, move_number) {
            Ok((p, tolerated)) => {
                for e in tolerated {
                    diags.push(Diagnostic::warning(
                        DiagnosticKind::Syntax,
                        span,
                        format!("unusual board diagram: {e}"),
                    ));
                }
                Some(StartPosition::custom(p))
            }
            Err(e) => {
                diags.push(Diagnostic::error(
                    DiagnosticKind::Syntax,
                    span,
                    format!("the board diagram cannot be played: {e}"),
                ));
                None
            }
        }
    }
}

/// The hand and the nine rows of a diagram, Kakinoki's layout, ending with the line that
/// says who moves. `handicap_labels` names the sides 下手/上手 as in a handicap game.
pub(crate) fn write_diagram(out: &mut String, pos: &Position, handicap_labels: bool) {
    let (black, white) = if handicap_labels {
        ("下手", "上手")
    } else {
        ("先手", "後手")
    };
    let hand = |out: &mut String, color: Color, label: &str| {
        let _ = write!(out, "{label}の持駒：");
        let h = pos.hand(color);
        if h.is_empty() {
            out.push_str("なし");
        }
        for kind in PieceKind::HAND.into_iter().rev() {
            let n = h.count(kind);
            if n > 0 {
                out.push_str(kind.kanji());
                if n > 1 {
                    out.push_str(&kifu_shogi::kanji_number(n));
                }
                out.push('\u{3000}');
            }
        }
        out.push('\n');
    };
    hand(out, Color::White, white);
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 1..=9 {
        out.push('|');
        for file in (1..=9).rev() {
            match pos.piece_at(Square::new(file, rank).expect("in range")) {
                Some(p) => {
                    out.push(if p.color == Color::White { 'v' } else { ' ' });
                    out.push_str(p.kind.kanji());
                }
                None => out.push_str(" ・"),
            }
        }
        out.push('|');
        out.push_str(RANK_KANJI[rank as usize - 1]);
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    hand(out, Color::Black, black);
    // Always said, never left to the reader's default: after a 手合割 line readers assume
    // the handicap giver (上手) moves first.
    let side = match pos.turn() {
        Color::Black => black,
        Color::White => white,
    };
    let _ = writeln!(out, "{side}番");
}

const RANK_KANJI: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const FILE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// A position as a standalone BOD (Kifu for Windows 盤面図): the diagram, and when
/// `last_move` is given, the title line `手数＝40  △３一金(32)  まで` after it — the ply count
/// and the last move in KIF notation with its origin square. `position` is the position
/// after that move; the ply count is its move number minus one.
///
/// ```
/// use kifu_shogi::Position;
/// use kifu_records::shogi::kif;
///
/// let mut pos = Position::startpos();
/// let mv = pos.parse_usi_move("7g7f").unwrap();
/// pos.play(mv).unwrap();
/// let bod = kif::write_bod(&pos, Some(mv));
/// assert!(bod.ends_with("後手番\n手数＝1  ▲７六歩(77)  まで\n"));
/// ```
pub fn write_bod(position: &Position, last_move: Option<Move>) -> String {
    let mut out = String::with_capacity(512);
    write_diagram(&mut out, position, false);
    if let Some(mv) = last_move {
        let mover = position.turn().flip();
        let mark = if mover == Color::Black { '▲' } else { '△' };
        let to = mv.to();
        let _ = write!(
            out,
            "手数＝{}  {mark}{}{}",
            position.move_number().saturating_sub(1),
            FILE_DIGITS[to.file() as usize - 1],
            RANK_KANJI[to.rank() as usize - 1]
        );
        match mv.from() {
            None => {
                let kind = mv.drop_kind().unwrap_or(PieceKind::Pawn);
                let _ = write!(out, "{}打", kind.kif_name());
            }
            Some(from) => {
                // The piece before the move: what stands on the destination now, unpromoted
                // when the move promoted it.
                let now = position.piece_at(to).map_or(PieceKind::Pawn, |p| p.kind);
                let before = if mv.is_promotion() {
                    now.unpromote()
                } else {
                    now
                };
                let promotes = if mv.is_promotion() { "成" } else { "" };
                let _ = write!(
                    out,
                    "{}{promotes}({}{})",
                    before.kif_name(),
                    from.file(),
                    from.rank()
                );
            }
        }
        out.push_str("  まで\n");
    }
    out
}

fn rank_kanji(c: char) -> Option<u8> {
    "一二三四五六七八九"
        .chars()
        .position(|k| k == c)
        .map(|i| i as u8 + 1)
}

fn number_value(c: char) -> Option<u8> {
    match c {
        '十' => Some(10),
        '0'..='9' => Some(c as u8 - b'0'),
        '０'..='９' => Some((c as u32 - '０' as u32) as u8),
        _ => rank_kanji(c),
    }
}

/// `三`, `十三`, `十`, `13`, `１３`.
fn count_number(s: &str) -> Option<u8> {
    if s.chars()
        .all(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
    {
        let mut n: u32 = 0;
        for c in s.chars() {
            n = n * 10 + u32::from(number_value(c)?);
        }
        return u8::try_from(n).ok();
    }
    let mut n = 0u8;
    let mut tens = false;
    for c in s.chars() {
        match c {
            '十' if !tens && n <= 9 => {
                n = n.max(1) * 10;
                tens = true;
            }
            _ => n = n.checked_add(rank_kanji(c)?)?,
        }
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_shogi::PieceKind;

    #[test]
    fn counts() {
        assert_eq!(count_number("三"), Some(3));
        assert_eq!(count_number("十三"), Some(13));
        assert_eq!(count_number("十"), Some(10));
        assert_eq!(count_number("十八"), Some(18));
        assert_eq!(count_number("13"), Some(13));
        assert_eq!(count_number("１３"), Some(13));
    }

    #[test]
    fn spec_tsume_diagram() {
        let rows = [
            "| ・ ・ ・v桂 ・ ・ ・ ・ ・|一",
            "|v玉 角v歩 馬 ・ ・ ・ ・ ・|二",
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三",
            "| 桂 ・ ・v歩 ・ ・ ・ ・ ・|四",
            "|vとv桂 ・ ・v歩 ・ ・ ・ ・|五",
            "| ・ ・ 飛 ・v全 ・ ・ ・ ・|六",
            "|v歩 桂 ・ ・ ・ ・ ・ ・ ・|七",
            "| ・ 香 ・ ・ ・ ・ ・ ・ ・|八",
            "| ・v銀 ・ ・ 龍 ・ ・ ・ ・|九",
        ];
        let mut d = Diagram::default();
        let mut diags = vec![];
        d.hand(
            Color::White,
            "金四　銀二　香三　歩十三　",
            Span::default(),
            &mut diags,
        );
        for r in rows {
            d.row(r, Span::default(), &mut diags);
        }
        d.hand(Color::Black, "なし", Span::default(), &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        let start = d.position(Color::Black, &mut diags).unwrap();
        assert!(diags.is_empty(), "{diags:?}");
        let p = &start.position;
        assert_eq!(
            p.piece_at(Square::new(9, 2).unwrap()),
            Some(Piece::new(Color::White, PieceKind::King))
        );
        assert_eq!(
            p.piece_at(Square::new(5, 6).unwrap()),
            Some(Piece::new(Color::White, PieceKind::ProSilver))
        );
        assert_eq!(
            p.piece_at(Square::new(5, 9).unwrap()),
            Some(Piece::new(Color::Black, PieceKind::Dragon))
        );
        assert_eq!(p.hand(Color::White).count(PieceKind::Pawn), 13);
        assert_eq!(p.hand(Color::White).count(PieceKind::Gold), 4);
        assert!(p.hand(Color::Black).is_empty());
    }

    #[test]
    fn hands_without_separators_and_errors() {
        let mut d = Diagram::default();
        let mut diags = vec![];
        d.hand(Color::Black, "飛角金二銀歩3", Span::default(), &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(d.hands[0].count(PieceKind::Gold), 2);
        assert_eq!(d.hands[0].count(PieceKind::Pawn), 3);
        d.hand(Color::Black, "玉", Span::default(), &mut diags);
        assert_eq!(diags.len(), 1);
        d.row("| ・ ・", Span::default(), &mut diags);
        assert_eq!(diags.len(), 2);
    }
}
