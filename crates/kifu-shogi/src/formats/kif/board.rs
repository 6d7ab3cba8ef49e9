//! KIF board diagrams (BOD): nine `|…|一` rows, the hands and the side to move.

use kifu_record::{Diagnostic, Span};

use super::syntax::piece_name;
use crate::formats::StartPosition;
use crate::{Color, Hand, Piece, Position, Square};

#[derive(Clone)]
pub(super) struct Diagram {
    board: [Option<Piece>; 81],
    hands: [Hand; 2],
    pub(super) side: Option<Color>,
    rows: u16,
    pub(super) span: Option<Span>,
}

impl Default for Diagram {
    fn default() -> Self {
        Diagram {
            board: [None; 81],
            hands: [Hand::EMPTY; 2],
            side: None,
            rows: 0,
            span: None,
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
                None => diags.push(Diagnostic::error(span, format!("`{piece}` is not a piece"))),
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
                        diags.push(Diagnostic::error(span, "a piece count in hand is 1 to 18"));
                        return;
                    }
                }
            }
        }
        self.hands[color.index()] = hand;
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
                span,
                "the board diagram does not have all nine ranks",
            ));
        }
        let pieces = Square::all().filter_map(|sq| self.board[sq.index()].map(|p| (sq, p)));
        match Position::from_parts_lenient(pieces, self.hands, side, 1) {
            Ok((p, tolerated)) => {
                for e in tolerated {
                    diags.push(Diagnostic::warning(
                        span,
                        format!("unusual board diagram: {e}"),
                    ));
                }
                Some(StartPosition::custom(p))
            }
            Err(e) => {
                diags.push(Diagnostic::error(
                    span,
                    format!("the board diagram cannot be played: {e}"),
                ));
                None
            }
        }
    }
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
    use crate::PieceKind;

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
