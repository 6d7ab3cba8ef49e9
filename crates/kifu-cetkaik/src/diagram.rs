//! Drawing a position for a terminal: plain text or with ANSI colours.

use crate::piece::{Piece, Side};
use crate::position::Position;
use crate::profession::Color;
use crate::square::Square;
use std::fmt::Write;

/// The board as text, rows A (top) to IA, columns K to P, then both sides' hands.
/// A-side pieces are marked `v`, IA-side pieces `^`; with `ansi`, red pieces are red,
/// 皇 yellow and tam2 hue squares dimmed.
pub fn diagram(pos: &Position, ansi: bool) -> String {
    let paint = |text: &str, code: &str| {
        if ansi {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    };
    let mut out = String::from("     K    L    N    T    Z    X    C    M    P\n");
    for row in 0..9u8 {
        let name = Square::new(0, row).map_or("", |s| s.row_name());
        let _ = write!(out, "{name:<3}");
        for col in 0..9u8 {
            let Some(sq) = Square::new(col, row) else {
                continue;
            };
            let cell = match pos.get(sq) {
                None if sq.is_water() => paint("  ~  ", "36"),
                None if sq.is_inherent_tam_hue() => paint("  ×  ", "2"),
                None => "  ・ ".to_string(),
                Some(Piece::Tam) => paint("  皇 ", "1;33"),
                Some(Piece::Owned { color, prof, side }) => {
                    let arrow = if side == Side::ASide { 'v' } else { '^' };
                    let text = format!(" {arrow}{}{}", color.kanji(), prof.kanji());
                    match color {
                        Color::Red => paint(&text, "31"),
                        Color::Black => paint(&text, "1"),
                    }
                }
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    for side in Side::BOTH {
        let held: String = pos
            .hop1zuo1(side)
            .pieces()
            .map(|(c, p)| format!("{}{}", c.kanji(), p.kanji()))
            .collect();
        let _ = writeln!(
            out,
            "{side} holds: {}",
            if held.is_empty() { "-" } else { &held }
        );
    }
    let _ = writeln!(out, "to move: {}", pos.turn());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_initial_diagram_shows_every_piece() {
        let d = diagram(&Position::startpos(Side::IASide), false);
        let board: String = d.lines().take(10).collect();
        assert_eq!(board.matches('v').count(), 24);
        assert_eq!(board.matches('^').count(), 24);
        assert!(d.contains("皇"));
        assert!(d.lines().nth(1).unwrap().starts_with("A   v黒筆 v黒馬"));
        assert!(diagram(&Position::startpos(Side::IASide), true).contains("\x1b[31m"));
    }
}
